"""``with`` and ``async with`` for objects that take something on entry and give it back on
exit (a semaphore's permit), written once: each class says how it takes and gives back."""

from __future__ import annotations

from types import TracebackType
from typing import Generic, Optional, Type, TypeVar

T = TypeVar("T")


class Holding(Generic[T]):
    """Subclasses define ``_take``, ``_give_back`` and their ``*_async`` forms; the value
    ``_take`` returns is what ``as`` binds."""

    __slots__ = ()

    def _take(self) -> T:
        raise NotImplementedError

    def _give_back(self) -> None:
        raise NotImplementedError

    async def _take_async(self) -> T:
        raise NotImplementedError

    async def _give_back_async(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> T:
        return self._take()

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self._give_back()

    async def __aenter__(self) -> T:
        return await self._take_async()

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        await self._give_back_async()
