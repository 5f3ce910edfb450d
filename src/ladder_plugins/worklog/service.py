"""What the front ends ask of the work-log and knowledge-base lint: which files, checked, written, read.

``ladder worklog`` and ``ladder kb``, and the pytest items, call these and only turn
the result into their own form: which files a command means (given on the command
line, relative to where it runs; else ``[tool.ladder.worklog]``, relative to the
project root), how a path is shown, where the writers' lock is.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from .model import Problem, ordered
from .parse import WorkLog, read_log

__all__ = ["Checked", "Target", "log_targets", "kb_target", "check_logs", "check_knowledge_base", "open_log",
           "lock_for", "stdin_text", "kb_split"]


@dataclass(frozen=True)
class Checked:
    """A check's problems (errors: exit 1), its notes (said, not failing) and the names of what it read."""

    problems: tuple[Problem, ...]
    notes: tuple[Problem, ...]
    checked: tuple[str, ...]

    @property
    def failed(self) -> bool:
        return bool(self.problems)


@dataclass(frozen=True)
class Target:
    """A file or directory a command means: where it is, and how messages name it."""

    path: Path
    shown: str


def _shown(path: Path, root: Path) -> str:
    """Relative to the project root where it lies inside it (POSIX), else as an absolute path."""
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return Path(os.path.abspath(path)).as_posix()


def _target(given: str, root: Path, base: Path) -> Target:
    path = Path(given) if os.path.isabs(given) else base / given
    return Target(path, _shown(path, root))


def log_targets(settings: Any, given: Sequence[str] = ()) -> list[Target]:
    """The work logs a command means: those given (relative to the working directory), else the configured
    ones (relative to the root), else ``work-log.md`` at the root."""
    found = ([_target(g, settings.root, Path.cwd()) for g in given] if given else
             [_target(f, settings.root, settings.root) for f in settings.worklog.logs])
    return list({t.shown: t for t in found}.values())  # one file named twice is checked once


def kb_target(settings: Any, given: Optional[str] = None) -> Target:
    if given:
        return _target(given, settings.root, Path.cwd())
    return _target(settings.worklog.kb_dir, settings.root, settings.root)


def open_log(target: Target) -> WorkLog:
    """The work log at ``target``; one that cannot be read raises :class:`~.parse.WorkLogError`."""
    return read_log(target.path, target.shown)


def check_logs(settings: Any, targets: Sequence[Target], *, final: bool = False, allow_gaps: Optional[bool] = None,
               kb: Optional[Target] = None) -> Checked:
    """Every problem of the work logs: one that cannot be read is one ``worklog_unreadable`` problem; ``kb``
    is the knowledge base ``final`` reads (default: the configured one): its registers, its D#-E# mapping and
    its own check, whose problems are listed too (under their files, as ``ladder kb check`` lists them)."""
    gaps = settings.worklog.allow_gaps if allow_gaps is None else allow_gaps
    kb = kb or kb_target(settings)
    state = _gate_kb(settings, kb) if final else None
    results = [_checked(t, gaps, final, kb, state) for t in targets]
    own, read = _own(state, kb)
    return Checked(tuple(ordered([*(p for found, _ in results for p in found), *own])),
                   tuple(ordered(n for _, notes in results for n in notes)), (*(t.shown for t in targets), *read))


def _own(state: Any, kb: Target) -> tuple[tuple[Problem, ...], tuple[str, ...]]:
    """The knowledge base's own problems and its name, when the gate read it (listed under its own files)."""
    return (tuple(state.problems), (kb.shown,)) if state is not None else ((), ())


def _gate_kb(settings: Any, target: Target) -> Any:
    """The knowledge base at ``target`` read once for the FAIL gate, its paths as ``ladder kb check`` shows them."""
    from .decisions import gate_kb

    root, directory = kb_split(settings, target)
    return gate_kb(root, directory, target.shown, None if _inside(target.path, settings.root) else target.shown)


def _checked(target: Target, gaps: bool, final: bool, kb: Target,
             state: Any) -> tuple[tuple[Problem, ...], tuple[Problem, ...]]:
    from .lint import check_file

    result = check_file(target.path, target.shown, allow_gaps=gaps, final=final, kb_dir=kb.path, kb_shown=kb.shown,
                        kb=state)
    return result.problems, result.notes


def check_knowledge_base(settings: Any, target: Target) -> Checked:
    """Every problem of the knowledge base at ``target``, its paths shown as ``target.shown`` begins them."""
    return Checked(tuple(_gate_kb(settings, target).problems), (), (target.shown,))


def _inside(path: Path, root: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
        return True
    except ValueError:
        return False


def kb_split(settings: Any, target: Target) -> tuple[Path, str]:
    """The base and the directory below it the knowledge base code is given: the project root and the path
    from it (``.`` for the root itself); for a knowledge base outside the project, the knowledge base itself
    and ``.``, so a symlink out of it is out of bounds and paths are relative to it."""
    path = Path(os.path.abspath(target.path))
    if _inside(path, settings.root):
        root = Path(os.path.abspath(settings.root))
        return root, path.relative_to(root).as_posix()
    return path, "."


def lock_for(settings: Any, target: Target) -> Path:
    """The writers' lock of a work log: in the history directory in a project, else a hidden file beside it."""
    if settings.in_project:
        from ..ladderdir.lock import project_lock

        return project_lock(settings.root, settings.history_dir, "worklog.lock")
    return target.path.parent / f".{target.path.name}.lock"


def stdin_text() -> str:
    """The report body given on stdin, decoded as UTF-8 whatever the locale (a body in Korean stays one)."""
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    from .parse import decode

    return decode(data, "the report body on stdin")
