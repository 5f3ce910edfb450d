"""The tracker's state file, ``.claude/feedback-ladder-state.json``: its schema, version 1, kept.

The schema is ``docs/reference/schemas.md``'s ("The feedback tracker's state file"). A file
another tool wrote in it is read and extended; one written here is valid for that tool.
Unknown keys (of the file and of each item) are kept as they are, in their order;
what the tracker adds to an item lives under its one extra key, ``ladder``. Writes are
atomic (a synced temporary file renamed over the old one) and made under a lock, so
two scans never interleave. A file that is not JSON, or not the schema's shape, is kept
aside and a new one started; a newer version is left alone (read-only), with one
warning either way; an item whose own fields are malformed (:mod:`.item` says which) is
kept as it is and not updated.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from ..errors import LadderError
from ..ladderdir.aside import damaged_suffix, keep_aside
from ..ladderdir.atomic import write_atomic
from ..ladderdir.lock import held
from ..ladderdir.paths import inside
from .item import Tracked, read_items

__all__ = ["State", "StateFile", "STATE_VERSION"]

STATE_VERSION = 1
_MAX_BYTES = 16 << 20


@dataclass
class State:
    """The file's data (the whole object, unknown keys included) and whether it may be written."""

    data: dict[str, Any] = field(default_factory=lambda: {"version": STATE_VERSION, "feedbacks": []})
    read_only: bool = False
    existed: bool = False

    @property
    def items(self) -> list[Any]:
        items: list[Any] = self.data["feedbacks"]
        return items

    def tracked(self) -> Tracked:
        """The items as the read side sees them (:mod:`.item`): read, checked, typed; the malformed named."""
        return read_items(self.items)


class StateFile:
    """The state file of one project: read, and written back under its lock."""

    def __init__(self, path: Path, root: Path, warn: Callable[[str], None]) -> None:
        self.path, self.root, self.warn = path, root.resolve(), warn

    @property
    def shown(self) -> str:
        try:
            return self.path.relative_to(self.root).as_posix()
        except ValueError:
            return str(self.path)

    def check_place(self) -> None:
        """A state path leading out of the project (a symlink, ``..``) is refused: nothing is read or written
        there."""
        probe = self.path if self.path.exists() or self.path.is_symlink() else self.path.parent
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if not inside(probe, self.root):
            raise LadderError(f"{self.shown}: the feedback state file lies outside the project root {self.root}; "
                              "set [tool.ladder.feedback] state to a path inside it")

    def read(self, *, repair: bool = True) -> State:
        """The state as it is on disk (damage kept aside and said, or with ``repair`` false only said; a
        newer version read-only)."""
        self.check_place()
        try:
            with open(self.path, "rb") as handle:
                raw = handle.read(_MAX_BYTES + 1)
        except FileNotFoundError:
            return State()
        except OSError as exc:
            raise LadderError(f"{self.shown}: cannot be read ({exc.strerror or exc})") from None
        return self._decoded(raw, repair)

    def health(self) -> dict[str, Any]:
        """What ``ladder doctor`` says of the file, reading only (nothing is kept aside or written)."""
        found: dict[str, Any] = {
            "path": self.shown, "exists": self.path.exists(), "items": 0, "malformed_items": 0, "problem": None,
            "kept_aside": sorted(p.name for p in self.path.parent.glob(self.path.name + ".damaged-*"))}
        if found["exists"]:
            found.update(self._health_of_content())
        return found

    def _health_of_content(self) -> dict[str, Any]:
        try:
            self.check_place()
            size = os.stat(self.path).st_size
            if size > _MAX_BYTES:
                return {"problem": self._too_large(size)}
            data = json.loads(self.path.read_bytes()[: _MAX_BYTES + 1].decode("utf-8"))
        except (OSError, LadderError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            return {"problem": str(exc) if isinstance(exc, LadderError) else f"not readable JSON ({exc})"}
        problem = _shape_problem(data)
        if problem is not None:
            return {"problem": problem}
        newer = f"version {data['version']} is newer than this ladder-plugins writes" \
            if data["version"] > STATE_VERSION else None
        return {"problem": newer, "items": len(data["feedbacks"]),
                "malformed_items": len(read_items(data["feedbacks"]).malformed)}

    def _decoded(self, raw: bytes, repair: bool = True) -> State:
        if len(raw) > _MAX_BYTES:
            self.warn(self._too_large(os.stat(self.path).st_size))
            return State(read_only=True, existed=True)
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # nesting too deep is damage too
            return self._damaged(f"not JSON ({exc.__class__.__name__})", repair)
        problem = _shape_problem(data)
        if problem:
            return self._damaged(problem, repair)
        if data["version"] > STATE_VERSION:
            self.warn(f"{self.shown}: version {data['version']} is newer than this ladder-plugins writes "
                      f"({STATE_VERSION}); read, never overwritten")
            return State(data, read_only=True, existed=True)
        return State(data, existed=True)

    def _damaged(self, why: str, repair: bool = True) -> State:
        if not repair:
            self.warn(f"{self.shown} is damaged ({why}); left as it is")
            return State(read_only=True, existed=True)
        keep_aside(self.path, damaged_suffix(), self.warn, f"{self.shown} ({why})", "a new state file is started")
        return State()

    @contextmanager
    def updating(self, *, repair: bool = True) -> Iterator[State]:
        """The state read under the lock; written back (atomically) when the block ends without error. With
        ``repair`` false a damaged file is left where it is and read as read-only (see :meth:`read`)."""
        self.check_place()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LadderError(f"{self.shown}: cannot be written ({exc.strerror or exc}); nothing was changed") \
                from None
        with held(Path(str(self.path) + ".lock"), self.shown):
            state = self.read(repair=repair)
            yield state
            if not state.read_only:
                self.write(state)

    def _too_large(self, size: int, would: str = "is") -> str:
        """What a state over :data:`_MAX_BYTES` means, and how to bring it under."""
        return (f"{self.shown}: {would} {size / (1 << 20):.1f} MB, over the {_MAX_BYTES >> 20} MB limit; "
                + ("the old file is kept" if would != "is" else "read-only, its items not read")
                + f"; to fix, write it compactly (python -m json.tool --compact --no-ensure-ascii {self.shown} "
                  "NEW, then move NEW over it), or remove the items no longer tracked, or rename it to start anew")

    def write(self, state: State) -> None:
        data = _layout(state.data).encode("utf-8")
        if len(data) > _MAX_BYTES:  # written, it would be read-only from then on
            raise LadderError(self._too_large(len(data), "would be"))
        try:
            write_atomic(self.path, data)
        except OSError as exc:
            raise LadderError(f"{self.shown}: cannot be written ({exc.strerror or exc}); the old file is kept") \
                from None


def _layout(data: dict[str, Any]) -> str:
    """Compact JSON, each item of ``feedbacks`` on a line of its own: never larger than the same data written
    compactly by another tool (indented, a 15.5 MB state became 26 MB, past the limit), and a diff still shows
    which items a scan changed. Unknown keys keep their order."""
    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    parts = [f"{dump(key)}:[\n" + ",\n".join(map(dump, value)) + "\n]" if key == "feedbacks" and value
             else f"{dump(key)}:{dump(value)}" for key, value in data.items()]
    # a lone surrogate (read from a "\\ud800" escape another tool wrote) has no UTF-8 form: written back as the
    # escape it came from, so the file stays UTF-8 and reads back the same
    from ..reports.sanitize import SURROGATE

    return SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", "{" + ",\n".join(parts) + "}\n")


def _shape_problem(data: Any) -> Optional[str]:
    """Why ``data`` is not a state object of the schema, or ``None``."""
    if not isinstance(data, dict):
        return "not a JSON object"
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        return "no whole-number version"
    if not isinstance(data.get("feedbacks", []), list):
        return "feedbacks is not a list"
    data.setdefault("feedbacks", [])
    return None
