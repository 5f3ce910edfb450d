"""A note's frontmatter edited in place: keys set by replacing or adding their lines, every other byte kept;
the ``updated`` an edit stamps.

Its own module: writing a note is not reading one (:mod:`.notes`); only ``ladder kb move``
(:mod:`.kbmove`) edits notes. It works on text, never on a file, and checks each edit by
reading the result back.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime
from typing import Any, Mapping, Optional

from ..errors import LadderError
from ..readers.frontmatter import FrontMatter, split_front_matter
from .notes import MAX_FRONT_MATTER, TIMES, Note, front_problem, moment, parsed_time, written

__all__ = ["stamp", "yaml_text", "edit_front_matter"]


def _zoned(value: Any) -> Optional[bool]:
    """Whether a ``created``/``updated`` value names a zone (a date names none); ``None`` when it is no time."""
    if isinstance(value, str):
        value = parsed_time(value)
    if isinstance(value, datetime):
        return value.tzinfo is not None
    return False if isinstance(value, date) else None


def stamp(note: Note, now: datetime) -> str:
    """The ``updated`` an edit at ``now`` writes, to the second, in the note's own style: the local wall-clock
    time without a zone when its ``updated`` (else ``created``) has none, as agents write them, else ``now``
    with its offset. One the lint would find before the note's ``created`` or old ``updated`` raises
    :class:`LadderError` (a clock behind, or a time in the future)."""
    zoned = _zoned(note.data.get("updated"))
    zoned = _zoned(note.data.get("created")) if zoned is None else zoned
    when = now.replace(microsecond=0)
    text = (when.astimezone().replace(tzinfo=None) if zoned is False else when).isoformat()
    key = next((k for k in TIMES if _before(text, note.data.get(k))), None)
    if key is not None:
        raise LadderError(f"{note.shown}: the new updated {text} would be before {key} {written(note, key)} as "
                          "'ladder kb check' compares them (is the clock behind?); nothing was changed")
    return text


def _before(text: str, value: Any) -> bool:
    new, old = moment(text), moment(value)
    return new is not None and old is not None and new < old


def yaml_text(value: str) -> str:
    """``value`` as one double-quoted YAML scalar on one line (line breaks and quotes escaped)."""
    import yaml

    return yaml.safe_dump(value, default_style='"', allow_unicode=True, width=1 << 30).rstrip("\n")


def edit_front_matter(text: str, changes: Mapping[str, str], shown: str) -> str:
    """``text`` with each key of ``changes`` set to its YAML scalar text: the key's lines replaced by one
    ``key: value`` line, or the line added after the last key; every other byte kept. Checked by reading the
    result back; what cannot be edited this way raises :class:`LadderError` and nothing is written."""
    front = split_front_matter(text, max_chars=MAX_FRONT_MATTER)
    _editable(front, text, changes, shown)
    edited = "\n".join(_edited_lines(text.split("\n"), front, changes))
    _check_edit(front, text, edited, changes, shown)
    return edited


def _edited_lines(lines: list[str], front: FrontMatter, changes: Mapping[str, str]) -> list[str]:
    """New keys after the last key (so no line number of an old one moves), then old keys replaced from the
    bottom up; a CRLF file gets CRLF lines."""
    end = "\r" if lines[0].endswith("\r") else ""
    spans = {name: (first, last) for name, first, last in front.keys}
    _insert(lines, spans, [f"{k}: {v}{end}" for k, v in changes.items() if k not in spans])
    for name in sorted((k for k in changes if k in spans), key=lambda k: spans[k], reverse=True):
        _replace(lines, spans[name], f"{name}: {changes[name]}", end)
    return lines


def _replace(lines: list[str], span: tuple[int, int], new: str, end: str) -> None:
    """The lines ``span`` replaced by the line ``new``; a comment after a one-line value kept."""
    first, last = span
    comment = _comment(lines[first - 1].rstrip("\r")) if first == last else ""
    lines[first - 1:last] = [f"{new}{comment}{end}"]


def _comment(line: str) -> str:
    """The trailing comment of a one-line ``key: value`` (the space before it kept), ``""`` when none."""
    import yaml

    try:
        tokens = list(yaml.scan(line))
    except yaml.YAMLError:
        return ""
    ends = [t.end_mark.index for t in tokens if not isinstance(t, (yaml.BlockEndToken, yaml.StreamEndToken))]
    rest = line[max(ends, default=len(line)):]
    return rest if rest.lstrip().startswith("#") else ""


def _insert(lines: list[str], spans: Mapping[str, tuple[int, int]], new: list[str]) -> None:
    """``new`` after the last key's last line (after the opening ``---`` when there is no key)."""
    after = max((last for _, last in spans.values()), default=1)
    lines[after:after] = new


def _editable(front: FrontMatter, text: str, changes: Mapping[str, str], shown: str) -> None:
    why = front_problem(front, text)
    if why is not None:
        raise LadderError(f"{shown}:{front.problem_line}: {why}; fix the frontmatter first")
    if front.data and not front.keys:
        raise LadderError(f"{shown}: the frontmatter is not one key per line (block style); expected 'key: value' "
                          "lines to edit in place")
    counts = Counter(name for name, _, _ in front.keys)
    for name in changes:
        if counts[name] > 1:
            raise LadderError(f"{shown}: key '{name}' appears {counts[name]} times in the frontmatter; expected once")


def _span_texts(text: str, front: FrontMatter) -> dict[str, str]:
    lines = text.split("\n")
    return {name: "\n".join(lines[first - 1:last]) for name, first, last in front.keys}


def _check_edit(old: FrontMatter, text: str, edited: str, changes: Mapping[str, str], shown: str) -> None:
    """The edit read back: the changed keys as meant, every other key's lines and the body unchanged."""
    new = split_front_matter(edited, max_chars=MAX_FRONT_MATTER)
    if new.problem is not None or new.body != old.body or not _kept((text, old), (edited, new), changes) \
            or not _as_meant(new, changes):
        raise LadderError(f"{shown}: the frontmatter cannot be edited in place safely; set "
                          f"{', '.join(changes)} by hand")


def _kept(old: tuple[str, FrontMatter], new: tuple[str, FrontMatter], changes: Mapping[str, str]) -> bool:
    """Same keys in the same order (new ones last), each unchanged one on the same text."""
    before, after = _span_texts(*old), _span_texts(*new)
    names = [n for n, _, _ in old[1].keys] + [k for k in changes if k not in before]
    if [n for n, _, _ in new[1].keys] != names:
        return False
    return all(before[n] == after.get(n) for n in names if n not in changes)


def _as_meant(new: FrontMatter, changes: Mapping[str, str]) -> bool:
    import yaml

    return all(new.data.get(k) == yaml.safe_load(v) for k, v in changes.items())
