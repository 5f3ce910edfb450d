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


_TOKENS = {"**/": "(?:[^/]+/)*", "**": ".*", "*": "[^/]*", "?": "[^/]"}
_SPLIT = re.compile(r"(\*\*/|\*\*|\*|\?)")


@lru_cache(maxsize=512)
def _compile(pattern: str) -> Pattern[str]:
    pattern = pattern.strip().rstrip("/")
    prefix = "" if "/" in pattern else "(?:.*/)?"
    body = "".join(_TOKENS.get(part, re.escape(part)) for part in _SPLIT.split(pattern.lstrip("/")))
    return re.compile(f"^{prefix}{body}(?:/.*)?$")


def compile_globs(patterns: Iterable[str]) -> tuple[Pattern[str], ...]:
    """Compile patterns once, for matching many paths."""
    return tuple(_compile(p) for p in patterns)


def matches_any(path: str, patterns: Iterable[Pattern[str]]) -> bool:
    """Whether the relative POSIX ``path`` matches one of the compiled patterns."""
    return any(p.match(path) for p in patterns)
