"""Glob patterns over POSIX paths relative to the project root.

``*`` and ``?`` stay inside one path component, ``**`` spans any number of them. A
pattern without a ``/`` matches a component at any depth (``build`` excludes every
``build`` directory, ``*_pb2.py`` every such file), as in ``.gitignore``. A pattern
that names a directory also matches everything below it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Pattern

__all__ = ["compile_globs", "matches_any"]


@lru_cache(maxsize=512)
def _compile(pattern: str) -> Pattern[str]:
    pattern = pattern.strip().rstrip("/")
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    body = "".join(out)
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{body}(?:/.*)?$")


def compile_globs(patterns: Iterable[str]) -> tuple[Pattern[str], ...]:
    """Compile patterns once, for matching many paths."""
    return tuple(_compile(p) for p in patterns)


def matches_any(path: str, patterns: Iterable[Pattern[str]]) -> bool:
    """Whether the relative POSIX ``path`` matches one of the compiled patterns."""
    return any(p.match(path) for p in patterns)
