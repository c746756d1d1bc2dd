"""``with`` and ``async with`` over acquire and release: the one implementation behind Lock,
MultiLock and RedLock."""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING, Optional, Type, TypeVar

from dlock import _dlock
from dlock.errors import DlockError, error_for_status

_Self = TypeVar("_Self", bound="HeldInBlocks")


class HeldInBlocks:
    """A block waits ``_blocking_timeout`` seconds (-1: forever) for the lock, and raises
    LockTimeoutError when the wait runs out: ``with`` has no False to return. A release that
    fails on leaving the block (the lock was lost) is raised, unless the block raised already:
    then it is noted on that error, not put in its place."""

    __slots__ = ()

    if TYPE_CHECKING:
        _blocking_timeout: float

        def acquire(self, blocking: bool = True, timeout: float = -1) -> bool: ...
        async def acquire_async(self, blocking: bool = True, timeout: float = -1) -> bool: ...
        def release(self) -> None: ...
        async def release_async(self) -> None: ...
        def _describe(self) -> str: ...

    def _require_acquired(self, acquired: bool) -> None:
        if not acquired:
            raise error_for_status(
                _dlock.NOT_ACQUIRED,
                f"{self._describe()} not acquired within {self._blocking_timeout} s",
            )

    def __enter__(self: _Self) -> _Self:
        self._require_acquired(self.acquire(timeout=self._blocking_timeout))
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        try:
            self.release()
        except DlockError as error:
            self._release_failed_leaving_block(error, exc)

    async def __aenter__(self: _Self) -> _Self:
        self._require_acquired(await self.acquire_async(timeout=self._blocking_timeout))
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        try:
            await self.release_async()
        except DlockError as error:
            self._release_failed_leaving_block(error, exc)

    def _release_failed_leaving_block(
        self, error: DlockError, block_error: Optional[BaseException]
    ) -> None:
        if block_error is None or not hasattr(block_error, "add_note"):
            raise error
        block_error.add_note(f"while leaving the block, releasing {self._describe()} failed: {error}")
