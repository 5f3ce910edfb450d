"""What people read of the key table: the configuration reference in Markdown, and ``ladder init``'s starter.

Both are made from :data:`.keys.KEYS`, so neither can name a key the parser does not know or miss one it
does; the documentation site's configuration page is :func:`reference_markdown` (``docs/_hooks/ladder_docs``).
Nothing here runs when settings are loaded.
"""

from __future__ import annotations

from typing import Any, Mapping

from .keys import KEYS, Key
from .values import Choice

__all__ = ["reference_markdown", "reference_row", "starter_table", "toml_value"]

_HEADER = "| key | type | default | meaning |\n|---|---|---|---|\n"
_ESCAPED = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _character(c: str) -> str:
    """A character of a TOML string: a control character (DEL included) is not allowed raw."""
    return f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c


def toml_value(value: Any) -> str:
    """A value as TOML writes it: a string, a number, a boolean or an array of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_ESCAPED.get(c) or _character(c) for c in str.__str__(value)) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def reference_row(key: Key) -> str:
    """One key as a row of the reference: its names, its type, its default, what it does."""
    names = ", ".join(f"`{name}`" for name in key.names or (key.name,))
    default = key.default_doc or f"`{toml_value(key.default)}`"
    meaning = key.doc
    if isinstance(key.value, Choice) and key.value.docs:
        meaning += ": " + "; ".join(f"`{choice}` {doc}" for choice, doc in key.value.docs)
    return f"| {names} | {key.value.kind()} | {default} | {meaning} |"


def reference_markdown() -> str:
    """The configuration reference: a Markdown table of every key, in the key table's order."""
    return _HEADER + "".join(reference_row(key) + "\n" for key in KEYS)


def _commented(key: Key, value: Any) -> list[str]:
    """A starter key's lines with what they do, aligned: every choice where the choices say what they do (the
    value active, the others commented out), else the key with its value."""
    if isinstance(key.value, Choice) and key.value.docs:
        docs = dict(key.value.docs)
        order = [value, *(choice for choice in key.value.choices if choice != value)]
        group = [(f'{"" if choice == value else "# "}{key.last} = {toml_value(choice)}', docs[choice])
                 for choice in order]
    else:
        group = [(f"{key.last} = {toml_value(value)}", key.doc)]
    width = max(len(setting) for setting, _ in group)
    return [f"{setting.ljust(width)}  # {doc}" for setting, doc in group]


def starter_table(values: Mapping[str, Any]) -> str:
    """The ``[tool.ladder]`` table ``ladder init`` writes (``\\n`` line endings): every key the key table marks as a
    starter, with the value in ``values`` (else its default), and the tables ``values`` gives below it
    (``{"roles": {"script": ["scripts/**"]}}``)."""
    known = {key.name for key in KEYS}
    unknown = sorted(set(values) - known)
    if unknown:
        raise KeyError(f"not keys of [tool.ladder]: {', '.join(unknown)}")
    lines = ["[tool.ladder]", "# written by `ladder init`: every key is explained in ladder-plugins' docs/reference/configuration.md"]
    for key in KEYS:
        if key.starter:
            lines += _commented(key, values.get(key.name, key.default))
    for key in KEYS:
        table = values.get(key.name)
        if not key.starter and isinstance(table, Mapping):
            lines += ["", f"[tool.ladder.{key.name}]", *(f"{name} = {toml_value(v)}" for name, v in table.items())]
    return "\n".join(lines) + "\n"
