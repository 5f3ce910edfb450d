"""YAML front matter (``---`` lines around a YAML mapping at the top of a Markdown file), read with PyYAML's
safe loader: Claude Code memory files, ``.claude/rules`` files, Cursor ``.mdc`` rules, knowledge-base notes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Union

__all__ = ["FrontMatter", "split_front_matter"]

_FENCE = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)
#: line breaks PyYAML counts that ``^`` does not: with one of them, PyYAML's line numbers are not the file's
_ODD_BREAK = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


@dataclass(frozen=True)
class FrontMatter:
    """The mapping (empty when there is none), the body after it, its first line number, and a problem."""

    data: Mapping[str, Any] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1
    #: why the front matter could not be read (``None`` when it could, or there was none)
    problem: Optional[str] = None
    #: the file line the problem is at (1 when PyYAML does not know)
    problem_line: int = 1
    #: every top-level key of a block-style mapping, in order, with the file lines its key and value span
    #: (first, last); empty for a flow-style mapping or line breaks PyYAML counts differently
    keys: tuple[tuple[str, int, int], ...] = ()


def _line(exc: Exception) -> Optional[int]:
    """The file line of a PyYAML error (the fence is line 1), when PyYAML knows it."""
    mark = getattr(exc, "problem_mark", None)
    return mark.line + 2 if mark is not None else None


def _where(exc: Exception) -> str:
    """`` at line N`` of the file, when PyYAML knows it."""
    line = _line(exc)
    return f" at line {line}" if line is not None else ""


def split_front_matter(text: str, *, max_chars: Optional[int] = None) -> FrontMatter:
    """The front matter of ``text``; a malformed one gives ``problem`` and the whole text as body.
    ``max_chars``: a longer front matter is a problem, not read (PyYAML reads some 50 KB a second)."""
    match = _FENCE.match(text)
    if match is None:
        return FrontMatter(body=text)
    if max_chars is not None and len(match.group(1)) > max_chars:
        return FrontMatter(body=text, problem=f"front matter is longer than {max_chars} characters")
    return _loaded(match, text)


def _loaded(match: Any, text: str) -> FrontMatter:
    read = _read(match.group(1), text)
    if isinstance(read, FrontMatter):
        return read
    node, data = read
    body, line = text[match.end():], text[: match.end()].count("\n") + 1
    if data is None:
        return FrontMatter(body=body, body_line=line)
    if not isinstance(data, dict):
        return FrontMatter(body=text, problem="front matter is not a mapping of keys to values")
    keys = () if _ODD_BREAK.search(match.group(1)) else _spans(node, match.group(1).split("\n"))
    return FrontMatter(data, body, line, keys=keys)


def _read(source: str, text: str) -> Union[FrontMatter, tuple[Any, Any]]:
    """The node and the data of ``source``, or the :class:`FrontMatter` saying why they cannot be read."""
    import yaml  # PyYAML: only the feedback tracker and the knowledge base read YAML

    try:
        return _node_and_data(yaml, source)
    except yaml.YAMLError as exc:
        return FrontMatter(body=text, problem=f"front matter is not valid YAML{_where(exc)}",
                           problem_line=_line(exc) or 1)
    except RecursionError:
        return FrontMatter(body=text, problem="front matter cannot be read (nested too deeply)")
    except ValueError as exc:  # a value PyYAML cannot build: an impossible date, a bad !!int, a huge int key
        return FrontMatter(body=text, problem=f"front matter cannot be read ({exc})")


def _node_and_data(yaml: Any, source: str) -> tuple[Any, Any]:
    """What ``yaml.safe_load`` does, keeping the node for the keys' lines; keys made strings inside the
    ``try`` of the caller (``str`` of a 5000-digit integer key is a ``ValueError``)."""
    loader = yaml.SafeLoader(source)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, (_keyed(data) if isinstance(data, dict) else data)


def _spans(node: Any, lines: list[str]) -> tuple[tuple[str, int, int], ...]:
    """Each top-level key's first and last file line (yaml line + 2: the fence is line 1); empty unless the
    mapping is block style with every key on a line of its own at column 0."""
    if node.flow_style:
        return ()
    spans = [_span(key, value, lines) for key, value in node.value]
    starts = [span[1] for span in spans if span is not None]
    if len(starts) != len(spans) or len(set(starts)) != len(starts):
        return ()
    return tuple(span for span in spans if span is not None)


def _span(key: Any, value: Any, lines: list[str]) -> Optional[tuple[str, int, int]]:
    if key.start_mark.column != 0 or not isinstance(key.value, str):
        return None
    first, end = key.start_mark.line, value.end_mark
    last = end.line if end.column > 0 else end.line - 1
    while last > first and _between(lines[last]):
        last -= 1
    return key.value, first + 2, last + 2


def _between(line: str) -> bool:
    """A blank line or a comment at column 0: part of no top-level value (their lines are indented, or
    ``- `` items), though PyYAML's end mark of a block value is the next key's line."""
    return not line.strip() or line.startswith("#")


def _keyed(data: dict[str, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in data.items()}
