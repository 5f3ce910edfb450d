"""Our entries merged into the text of a host's settings file, or taken out of it, everything else kept.

JSON is parsed with its order and written back in the file's style (indentation, or one compact line;
separators, escapes, line endings); our two groups go where ours were, else at the end of their events.
Codex's ``config.toml`` cannot be rewritten by a TOML library without losing its comments: there our tables
live between :data:`BEGIN_MARKER` and :data:`END_MARKER` and nothing outside the markers is touched. A file
that is not JSON (or TOML), or holds ``hooks`` of another shape, is refused with a
:class:`~ladder_plugins.errors.LadderError` naming it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import LadderError
from ..hosts import Host
from .commands import is_our_hook, our_groups

__all__ = ["BEGIN_MARKER", "END_MARKER", "toml_block", "new_text", "is_empty"]

BEGIN_MARKER = "# ladder:hooks:begin"


END_MARKER = "# ladder:hooks:end"


def _form(host: Host, path: Path) -> str:
    """How ``host`` writes its settings file ``path`` (by its name): ``json``, ``jsonc`` or ``toml``."""
    return next((f.form for f in host.files if f.name == path.name), "toml" if path.suffix == ".toml" else "json")


def _load_json(path: Path, text: Optional[str], host: Host) -> dict[str, Any]:
    """The settings object (``{}`` for a missing or blank file); anything that is not a JSON object is refused."""
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = f" ({host.title} allows comments there, which a rewrite would lose: add the entries by hand)" \
            if _form(host, path) == "jsonc" else ""
        raise LadderError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}){hint}; "
                          "nothing changed") from None
    except (ValueError, RecursionError):
        raise LadderError(f"{path}: not valid JSON (nested too deeply); nothing changed") from None
    if not isinstance(data, dict):
        raise LadderError(f"{path}: the top level is not a JSON object; nothing changed")
    return data


def _hooks_of(path: Path, data: dict[str, Any], host: Host) -> dict[str, Any]:
    """The ``hooks`` mapping, our two events in it lists of matcher groups; another shape is refused, not
    guessed. Other keys there (Gemini CLI has had ``enabled`` and ``disabled``) are not ours to judge."""
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise LadderError(f"{path}: `hooks` is not a mapping of events to matcher groups; nothing changed")
    for event in (host.prompt_event, host.edit_event):
        if not isinstance(hooks.get(event, []), list):
            raise LadderError(f"{path}: hooks.{event} is not a list of matcher groups; nothing changed")
    return hooks


# ---------------------------------------------------------------------------
# JSON


def _without_ours(group: Any) -> tuple[Any, bool]:
    """``(group without our hooks, or None when nothing is left; whether it held any of ours)``. A group of
    another shape is not ours to judge: kept as it is."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return group, False
    hooks = [hook for hook in group["hooks"] if not is_our_hook(hook)]
    if len(hooks) == len(group["hooks"]):
        return group, False
    return ({**group, "hooks": hooks} if hooks else None), True


def _strip_event(groups: Sequence[Any]) -> tuple[list[Any], Optional[int]]:
    """The groups without our hooks, and where the first of ours was among those kept (``None``: nowhere)."""
    kept: list[Any] = []
    first: Optional[int] = None
    for group in groups:
        rest, ours = _without_ours(group)
        if ours and first is None:
            first = len(kept)
        if rest is not None:
            kept.append(rest)
    return kept, first


def _stripped(hooks: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """``hooks`` without any of our entries (an event left empty by that goes), and where ours were."""
    result: dict[str, Any] = {}
    places: dict[str, int] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):  # not an event's groups: kept as it is
            result[event] = groups
            continue
        kept, first = _strip_event(groups)
        if first is not None:
            places[event] = first
        if kept or first is None:
            result[event] = kept
    return result, places


def _with_ours(hooks: dict[str, Any], host: Host, interpreter: Optional[str]) -> dict[str, Any]:
    """``hooks`` with exactly our two groups: where ours were already, else at the end of their events."""
    stripped, places = _stripped(hooks)
    ours = our_groups(host, interpreter)
    # every event where it was (an event that held only ours was dropped by the strip), new ones at the end
    result = {event: stripped.get(event, []) for event in [*hooks, *ours] if event in stripped or event in ours}
    for event, group in ours.items():
        result[event].insert(places.get(event, len(result[event])), group)
    return result


def _merged(data: dict[str, Any], hooks: dict[str, Any]) -> dict[str, Any]:
    """``data`` with ``hooks`` in its place (added at the end when new); without the key when ``hooks`` is
    empty and the file had none, or had only ours."""
    merged = dict(data)
    if hooks:
        merged["hooks"] = hooks
    else:
        merged.pop("hooks", None)
    return merged


@dataclass(frozen=True)
class _Style:
    """How a JSON file is written, so that a rewrite looks like the original."""

    #: spaces or a tab per level; ``None``: the whole object on one line
    indent: Optional[int | str] = 2
    #: ``(item, key)`` separators: ``(",", ": ")`` indented, ``(", ", ": ")`` or ``(",", ":")`` on one line
    separators: tuple[str, str] = (",", ": ")
    ascii_only: bool = False
    newline: str = "\n"
    final_newline: bool = True

    @classmethod
    def of(cls, text: Optional[str]) -> "_Style":
        """The style of ``text``: the indentation of its first indented line, or one compact line and its
        separators; ``\\u`` escapes, CRLF, a final newline; the defaults (2 spaces) for a new or blank file."""
        if not text or not text.strip():
            return cls()
        indent, separators = cls._layout(text)
        return cls(indent, separators, text.isascii() and "\\u" in text, "\r\n" if "\r\n" in text else "\n",
                   text.endswith("\n"))

    @staticmethod
    def _layout(text: str) -> tuple[Optional[int | str], tuple[str, str]]:
        if "\n" not in text.strip():  # one line: ``{"a": 1, "b": 2}`` or ``{"a":1,"b":2}``
            return None, ((",", ":") if re.search(r'"[ \t]*:[ \t]', text) is None else (", ", ": "))
        match = re.search(r"[\[{][ \t]*\r?\n([ \t]*)\S", text)
        space = match.group(1) if match else "  "
        return ("\t" if "\t" in space else len(space)), (",", ": ")

    def dumps(self, data: Any) -> str:
        text = json.dumps(data, indent=self.indent, separators=self.separators, ensure_ascii=self.ascii_only)
        text += "\n" if self.final_newline else ""
        return text.replace("\n", self.newline) if self.newline != "\n" else text


def _json_text(path: Path, text: Optional[str], host: Host, adding: bool,
               interpreter: Optional[str]) -> Optional[str]:
    """The file's new text with our entries added (``adding``) or removed; ``None`` when nothing changes."""
    data = _load_json(path, text, host)
    hooks = _hooks_of(path, data, host)
    new_hooks = _with_ours(hooks, host, interpreter) if adding else _stripped(hooks)[0]
    if new_hooks == hooks:
        return None
    return _Style.of(text).dumps(_merged(data, new_hooks))


# ---------------------------------------------------------------------------
# Codex's config.toml, between markers


def toml_block(host: Host, interpreter: Optional[str] = None) -> str:
    """Our tables for Codex's ``config.toml``, between the markers."""
    from ..reports.sanitize import toml_string

    lines = [BEGIN_MARKER, "# written by `ladder hook install`, removed by `ladder hook uninstall`; "
             "edits between the markers are replaced"]
    for event, group in our_groups(host, interpreter).items():
        lines.append(f"[[hooks.{event}]]")
        if "matcher" in group:
            lines.append(f"matcher = {toml_string(group['matcher'])}")
        for hook in group["hooks"]:
            lines += [f"[[hooks.{event}.hooks]]", f"type = {toml_string(hook['type'])}",
                      f"command = {toml_string(hook['command'])}", f"timeout = {hook['timeout']}", ""]
    return "\n".join(lines[:-1] + [END_MARKER]) + "\n"


def _marked(lines: Sequence[str], marker: str) -> list[int]:
    return [number for number, line in enumerate(lines) if line.strip() == marker]


def _split_block(path: Path, text: str) -> tuple[str, Optional[str], str]:
    """``(before, our block or None, after)``; markers out of order or repeated are refused."""
    lines = text.splitlines(keepends=True)
    begins, ends = _marked(lines, BEGIN_MARKER), _marked(lines, END_MARKER)
    if not begins and not ends:
        return text, None, ""
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise LadderError(f"{path}: the markers {BEGIN_MARKER!r} and {END_MARKER!r} are not one pair in order; "
                          "fix them by hand; nothing changed")
    start, end = begins[0], ends[0] + 1
    return "".join(lines[:start]), "".join(lines[start:end]), "".join(lines[end:])


def _checked_toml(path: Path, text: str, what: str) -> None:
    from ..config import toml_loads

    try:
        toml_loads(text)
    except ValueError as exc:
        raise LadderError(f"{path}: {what} ({exc}); nothing changed") from None
    except RecursionError:
        raise LadderError(f"{path}: {what} (nested too deeply); nothing changed") from None


def _appended(text: str, block: str) -> str:
    """``block`` at the end of ``text``, after one blank line (none in an empty file)."""
    if not text.strip():
        return block
    return text + ("" if text.endswith("\n") else "\n") + "\n" + block


def _toml_text(path: Path, text: Optional[str], host: Host, adding: bool, interpreter: Optional[str]) -> Optional[str]:
    """``config.toml`` with our block written (``adding``) or removed; ``None`` when nothing changes."""
    current = text or ""
    _checked_toml(path, current, "not valid TOML")
    before, block, after = _split_block(path, current)
    if not adding:
        if block is None:
            return None
        head = before[:-1] if before.endswith("\n\n") and not after.strip() else before
        return head + after
    wanted = toml_block(host, interpreter)
    if block == wanted:
        return None
    new = before + wanted + after if block is not None else _appended(current, wanted)
    _checked_toml(path, new, "our [[hooks.*]] tables would not fit into it: it already defines those keys "
                             f"another way; install into {host.directory}/{host.files[0].name} instead")
    return new


# ---------------------------------------------------------------------------
# either


def new_text(path: Path, old: Optional[str], host: Host, adding: bool, interpreter: Optional[str]) -> Optional[str]:
    """The file's text with our entries added or removed, or ``old`` when that changes nothing."""
    new = (_toml_text if path.suffix == ".toml" else _json_text)(path, old, host, adding, interpreter)
    return old if new is None else new


def is_empty(path: Path, text: str) -> bool:
    return not text.strip() if path.suffix == ".toml" else json.loads(text) == {}
