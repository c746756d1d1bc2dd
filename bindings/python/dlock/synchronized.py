"""A decorator that runs a function, or a coroutine function, while holding a lock."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, TypeVar, cast

from dlock.lock import Lock

F = TypeVar("F", bound=Callable[..., Any])


def synchronized(lock: Lock) -> Callable[[F], F]:
    def decorate(function: F) -> F:
        if inspect.iscoroutinefunction(function):

            @functools.wraps(function)
            async def locked_coroutine(*args: Any, **kwargs: Any) -> Any:
                async with lock:
                    return await function(*args, **kwargs)

            return cast(F, locked_coroutine)

        @functools.wraps(function)
        def locked_call(*args: Any, **kwargs: Any) -> Any:
            with lock:
                return function(*args, **kwargs)

        return cast(F, locked_call)

    return decorate
