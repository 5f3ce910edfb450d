"""The topic table: review topics a Python reviewer repeats, the check that encodes each, a snippet to paste.

The table is data (``topics.toml`` beside this module, shipped as package data) so that
it can grow without code; plugins add rows or replace shipped ones through the
``ladder_feedback_topics`` hook. At run time rows get only a cheap shape check (types,
id and keyword spelling); ``tests/unit/tracker/test_topics.py`` checks the shipped table in
depth (every snippet parses, holds its tool's table and is detected as enforcing it).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Optional

from ..config import toml_loads
from ..errors import LadderError

__all__ = ["Topic", "FORMATS", "load_topics", "shipped_topics", "topic_from_row"]

#: the formats a snippet may be in
FORMATS = ("toml", "yaml", "ini")

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: a keyword as the tracker's matcher reads words (``feedback.keywords``): lower case, starting with a letter
_KEYWORD = re.compile(r"[a-z][a-z0-9]*(?:[-_'][a-z0-9]+)*")
#: ``namespace:name``: ``ladder:cyclomatic_max``, ``ruff:E722``, ``precommit:detect-secrets``, ``mypy:strict``
_SIGNAL = re.compile(r"[a-z0-9][a-z0-9-]*:[A-Za-z0-9_.+-]+(?::[A-Za-z0-9_.+-]+)*")
#: a paraphrase: one line of text
_PHRASE = re.compile(r"[^\n]*\S[^\n]*")
_SHIPPED = "ladder_plugins/tracker/topics.toml"


@dataclass(frozen=True)
class Topic:
    """One review topic and the check that encodes it (level 4 of the ladder)."""

    #: kebab-case, unique in the table
    id: str
    #: what the feedback is about: ``Functions that are too complex``
    title: str
    #: words feedback about it uses (``complex``, ``cyclomatic``, ``branches``): how an item finds its topic
    keywords: tuple[str, ...]
    #: what encodes it: ``LAD101/LAD102 thresholds``, ``ruff rule E722 (flake8 E722, bugbear B001)``
    check: str
    #: the tool that runs the check: ``ladder``, ``ruff``, ``mypy``, ``pre-commit``, ``github-actions`` ...
    tool: str
    #: where the snippet goes: ``pyproject.toml``, ``.pre-commit-config.yaml``, ``tox.ini`` ...
    file: str
    #: ``toml``, ``yaml`` or ``ini``: the snippet is valid in that file
    format: str
    #: paste-ready text
    snippet: str
    #: the suggested action in one line
    action: str
    #: signals that say a project already enforces it (``ladder:cyclomatic_max``, ``ruff:C901``); see sources/enforced/
    enforced_by: tuple[str, ...] = ()
    #: the feedback about it as reviewers word it (``Don't use a list as a default value``): what the matcher
    #: (``similarity``) reads as the topic's meaning, besides the title
    paraphrases: tuple[str, ...] = ()


FIELDS = tuple(f.name for f in dataclasses.fields(Topic))


def _text(value: Any) -> Optional[tuple[str, ...]]:
    return (value,) if isinstance(value, str) and value.strip() else None


def _words(pattern: "re.Pattern[str]", value: Any, allow_empty: bool) -> Optional[tuple[str, ...]]:
    """A list (or tuple) of strings each matching ``pattern``, as a tuple; ``None`` when it is not one."""
    if not isinstance(value, (list, tuple)) or not (value or allow_empty):
        return None
    good = all(isinstance(v, str) and pattern.fullmatch(v) for v in value)
    return tuple(value) if good else None


#: field → (how it is checked: the value, or None when it is wrong; what is expected)
_CHECKS: Mapping[str, tuple[Callable[[Any], Optional[tuple[str, ...]]], str]] = {
    "id": (lambda v: (v,) if isinstance(v, str) and _ID.fullmatch(v) else None, "a kebab-case id"),
    "format": (lambda v: (v,) if v in FORMATS else None, f"one of {', '.join(FORMATS)}"),
    "keywords": (lambda v: _words(_KEYWORD, v, False), "a non-empty list of lower-case words"),
    "enforced_by": (lambda v: _words(_SIGNAL, v, True), "a list of signals such as \"ruff:E722\""),
    "paraphrases": (lambda v: _words(_PHRASE, v, True), "a list of sentences"),
}
_OPTIONAL = ("enforced_by", "paraphrases")


def _field(values: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in values:
        if name in _OPTIONAL:
            return ()
        raise LadderError(f"{where}: field {name!r} is missing")
    check, expected = _CHECKS.get(name, (_text, "a non-empty string"))
    checked = check(values[name])
    if checked is None:
        shown = repr(values[name])
        raise LadderError(f"{where}: field {name!r} = {shown[:80]}: expected {expected}")
    return checked if name in ("keywords", *_OPTIONAL) else checked[0]


def topic_from_row(row: Any, where: str) -> Topic:
    """A :class:`Topic` from a table row (a mapping of its fields) or a plugin's ``Topic``, its shape checked:
    a :class:`LadderError` names ``where`` and the field that is wrong."""
    values = dataclasses.asdict(row) if isinstance(row, Topic) else row
    if not isinstance(values, Mapping):
        raise LadderError(f"{where}: expected a Topic (or a table of its fields), not {type(row).__name__}")
    unknown = sorted(str(key) for key in values if key not in FIELDS)
    if unknown:
        raise LadderError(f"{where}: unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}")
    label = f"{where} (id {values['id']!r})" if isinstance(values.get("id"), str) else where
    return Topic(**{name: _field(values, name, label) for name in FIELDS})


def shipped_topics() -> tuple[Topic, ...]:
    """The table shipped with the package (``topics.toml``), in its order."""
    from importlib.resources import files

    text = files("ladder_plugins.tracker").joinpath("topics.toml").read_text(encoding="utf-8")
    rows = toml_loads(text).get("topic")
    if not isinstance(rows, list):
        raise LadderError(f"{_SHIPPED}: expected [[topic]] tables")
    return tuple(topic_from_row(row, f"{_SHIPPED} [[topic]] {n}") for n, row in enumerate(rows, 1))


def _plugin_rows(pm: Any) -> Iterator[tuple[str, Any]]:
    """(where, row) of every plugin's ``ladder_feedback_topics`` answer, plugins in registration order;
    each plugin is asked on its own, so that an error can name it."""
    caller = getattr(pm.hook, "ladder_feedback_topics", None)
    for impl in caller.get_hookimpls() if caller is not None else ():
        if getattr(impl, "hookwrapper", False) or getattr(impl, "wrapper", False):
            continue
        rows = impl.function()
        where = f"plugin {impl.plugin_name!r}: ladder_feedback_topics"
        if rows is None:
            continue
        if isinstance(rows, (str, bytes, Mapping)) or not hasattr(rows, "__iter__"):
            raise LadderError(f"{where} returned {type(rows).__name__}; expected a sequence of Topic")
        yield from ((f"{where} row {index}", row) for index, row in enumerate(rows))


def load_topics(pm: Any = None) -> tuple[Topic, ...]:
    """The shipped table plus the rows of plugins (``pm``, default the process-wide plugin manager): a row
    with a shipped id replaces that row where it stands, a new id is added at the end; when two plugins give
    the same id, the one registered later wins. A malformed plugin row is a :class:`LadderError`."""
    if pm is None:
        from ..plugins import get_plugin_manager

        pm = get_plugin_manager()
    table = {topic.id: topic for topic in shipped_topics()}
    for where, row in _plugin_rows(pm):
        topic = topic_from_row(row, where)
        table[topic.id] = topic
    return tuple(table.values())
