"""Run a recursive third-party visitor on a deep tree without RecursionError.

Our own traversals are iterative. radon's visitor is recursive (two frames per tree
level), so a 2,000-term expression that ``ast.parse`` accepts exceeds the default
recursion limit. On RecursionError we retry once in a helper thread with a large
stack and a raised limit, which is the standard way to give deep recursion room
without risking a C stack overflow in the main thread.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, TypeVar

__all__ = ["call_deep"]

T = TypeVar("T")

_STACK_BYTES = 512 * 1024 * 1024
_DEEP_LIMIT = 200_000
_lock = threading.Lock()  # serialises changes of the process-wide recursion limit


def call_deep(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)``, retried with a big stack if it runs out of recursion depth."""
    try:
        return func(*args)
    except RecursionError:
        pass
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = func(*args)
        except BaseException as exc:  # handed back to the caller's thread
            outcome["error"] = exc

    with _lock:
        old_limit = sys.getrecursionlimit()
        old_size = threading.stack_size()
        try:
            threading.stack_size(_STACK_BYTES)
            sys.setrecursionlimit(max(old_limit, _DEEP_LIMIT))
            worker = threading.Thread(target=target, name="ladder-deep-call")
            worker.start()
            worker.join()
        finally:
            threading.stack_size(old_size)
            sys.setrecursionlimit(old_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
