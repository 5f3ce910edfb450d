"""YAML front matter (``---`` lines around a YAML mapping at the top of a Markdown file), read with PyYAML's
safe loader: Claude Code memory files, ``.claude/rules`` files, Cursor ``.mdc`` rules."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

__all__ = ["FrontMatter", "split_front_matter"]

_FENCE = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)


@dataclass(frozen=True)
class FrontMatter:
    """The mapping (empty when there is none), the body after it, its first line number, and a problem."""

    data: Mapping[str, Any] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1
    #: why the front matter could not be read (``None`` when it could, or there was none)
    problem: Optional[str] = None


def _where(exc: Exception) -> str:
    """`` at line N`` of the file (the fence is line 1), when PyYAML knows it."""
    mark = getattr(exc, "problem_mark", None)
    return f" at line {mark.line + 2}" if mark is not None else ""


def split_front_matter(text: str) -> FrontMatter:
    """The front matter of ``text``; a malformed one gives ``problem`` and the whole text as body."""
    match = _FENCE.match(text)
    if match is None:
        return FrontMatter(body=text)
    return _loaded(match, text)


def _loaded(match: Any, text: str) -> FrontMatter:
    import yaml  # PyYAML: only the feedback tracker reads YAML

    body, line = text[match.end():], text[: match.end()].count("\n") + 1
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        return FrontMatter(body=text, problem=f"front matter is not valid YAML{_where(exc)}")
    except RecursionError:
        return FrontMatter(body=text, problem="front matter cannot be read (nested too deeply)")
    except ValueError as exc:  # a value PyYAML cannot build: an impossible date, a bad !!int
        return FrontMatter(body=text, problem=f"front matter cannot be read ({exc})")
    if data is None:
        return FrontMatter(body=body, body_line=line)
    if not isinstance(data, dict):
        return FrontMatter(body=text, problem="front matter is not a mapping of keys to values")
    return FrontMatter(_keyed(data), body, line)


def _keyed(data: dict) -> dict[str, Any]:
    return {str(k): v for k, v in data.items()}
