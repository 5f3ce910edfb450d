"""``ladder suppress``: write ``# ladder: ignore[rule] reason`` where violations are.

What teams do with ``ruff --add-noqa`` when adopting a linter on legacy code. The
comment goes on the unit's signature (the line with its colon: for a one-line
signature, the ``def`` line) or, for file rules, into the module header. libcst
rewrites the source losslessly, so formatting and existing comments are kept
exactly; an existing comment is extended, never replaced. A recurring hotspot is not
suppressed without ``--force``: that is the feedback that keeps coming back.
libcst is imported here only, never on a lint or test run.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from ..catalogue import plural
from ..errors import LadderError
from ..ladderdir.paths import inside
from .common import EXIT_FAILED, EXIT_OK, add_paths, analyse, command, settings_of

__all__ = ["SuppressPlan", "plan_suppressions", "apply_suppressions", "check_reason", "add_parsers", "COMMANDS"]

_IGNORE = re.compile(r"ladder:\s*ignore\[([^\]]*)\]", re.IGNORECASE)  # as the analysis reads it


@dataclass
class SuppressPlan:
    """Per file: def line (0 for the file) -> rule keys to ignore; and what was refused."""

    targets: dict[str, dict[int, list[str]]]
    refused: list[str]


def check_reason(reason: str) -> str:
    """The reason as written into each comment; an ignore without one would suppress nothing (LAD001)."""
    reason = reason.strip()
    if not reason:
        raise LadderError("--reason: a reason is required: say why these violations stay, in one line "
                          "(--reason 'legacy, tracked in #123')")
    if "\n" in reason or "\r" in reason or re.search(r"\s#\s", reason):
        raise LadderError("--reason must be one line of text without ' # ' (that would start another comment)")
    return reason


def _wanted(v: Any, rule: Optional[Any]) -> bool:
    return v.severity == "red" and v.rule.has_limit and (rule is None or v.rule.key == rule.key)


def plan_suppressions(result: Any, hotspot_prints: set[str], rule: Optional[Any], force: bool) -> SuppressPlan:
    plan = SuppressPlan({}, [])
    for v in (v for v in result.violations if _wanted(v, rule)):
        if v.fingerprint in hotspot_prints and not force:
            plan.refused.append(f"{v.path}:{v.line}: {v.rule.key} of '{v.unit}' is a recurring hotspot; "
                                "refactor it, or pass --force to suppress it anyway")
            continue
        keys = plan.targets.setdefault(v.path, {}).setdefault(v.line if v.unit else 0, [])
        if v.rule.key not in keys:
            keys.append(v.rule.key)
    return plan


def _merged(existing: str, keys: Sequence[str], reason: str) -> str:
    """An existing ``ladder: ignore[...]`` with ``keys`` added to its brackets, and ``reason`` after them
    when it had none (a reason-less ignore suppresses nothing)."""
    match = _IGNORE.search(existing)
    assert match is not None
    names = [n.strip() for n in match.group(1).split(",") if n.strip()]
    merged = f"ladder: ignore[{', '.join(names + [k for k in keys if k not in names])}]"
    rest = existing[match.end():]
    return existing[:match.start()] + merged + (rest if rest.strip() else f" {reason}{rest}")


def _comment_text(existing: Optional[str], keys: Sequence[str], reason: str) -> str:
    if existing and _IGNORE.search(existing):
        return _merged(existing, keys, reason)
    new = f"# ladder: ignore[{', '.join(keys)}] {reason}"
    return f"{existing}  {new}" if existing else new


def rewrite(source: bytes, targets: dict[int, list[str]], reason: str,
            limit: Optional[int] = None) -> tuple[bytes, list[int]]:
    """The file with its comments, and the lines left longer than ``limit`` (see :mod:`.rewrite`)."""
    from .rewrite import rewrite as cst_rewrite  # libcst, for this command only

    return cst_rewrite(source, targets, lambda existing, keys: _comment_text(existing, keys, reason), limit)


def project_line_length(root: Path) -> Optional[int]:
    """The project's line-length limit: flake8's ``max-line-length`` (``.flake8``, ``setup.cfg``,
    ``tox.ini``) or ruff's ``line-length`` (``ruff.toml``, ``.ruff.toml``, ``pyproject.toml``); the
    smallest where several are set, ``None`` where none is."""
    found = _flake8_lengths(root) + _ruff_lengths(root)
    return min(found) if found else None


def _flake8_lengths(root: Path) -> list[int]:
    import configparser

    found: list[int] = []
    for name in (".flake8", "setup.cfg", "tox.ini"):
        parser = configparser.RawConfigParser()
        try:
            parser.read(root / name, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError, OSError):
            continue  # flake8 says what is wrong with its own configuration
        found += [n for key in ("max-line-length", "max_line_length") if parser.has_option("flake8", key)
                  for n in _length(parser.get("flake8", key))]
    return found


def _ruff_lengths(root: Path) -> list[int]:
    found: list[int] = []
    for name, table in (("ruff.toml", ()), (".ruff.toml", ()), ("pyproject.toml", ("tool", "ruff"))):
        data: Any = _toml(root / name)
        for part in table:
            data = data.get(part, {}) if isinstance(data, dict) else {}
        if isinstance(data, dict) and "line-length" in data:
            found += _length(data["line-length"])
    return found


def _toml(path: Path) -> Any:
    """A TOML file's data; nothing for one that is absent or not valid (its own tool says what is wrong)."""
    from ..config import read_pyproject

    try:
        return read_pyproject(path) if path.is_file() else {}
    except LadderError:
        return {}


def _length(value: Any) -> list[int]:
    """A configured line length, or nothing for one that is not a number of at least 20."""
    try:
        number = int(str(value).strip())
    except ValueError:
        return []
    return [number] if number >= 20 else []


def _diff(rel: str, before: bytes, after: bytes) -> list[str]:
    old = before.decode("utf-8", "replace").splitlines(True)
    new = after.decode("utf-8", "replace").splitlines(True)
    return list(difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}"))


def _written(rel: str, targets: dict[int, list[str]]) -> str:
    return f"suppressed {plural(sum(len(keys) for keys in targets.values()), 'violation')} in {rel}\n"


Recheck = Callable[[str, bytes], Any]  # (path, new text) -> the FileReport of the analysis


def apply_suppressions(plan: SuppressPlan, root: Path, reason: str, *, dry_run: bool,
                       recheck: Optional[Recheck] = None) -> tuple[list[str], list[str]]:
    """Rewrite (or, with ``dry_run``, diff) each file: (the diff lines or the files written, the problems).

    A file that resolves outside the project (a symlink leading out) is never written, as the store
    never writes there; a file that cannot be written is said, and the other files are still done.
    With ``recheck``, each written file is analysed again and only what is really suppressed is said
    to be; a comment that suppresses nothing is taken out again.
    """
    out: list[str] = []
    problems: list[str] = []
    real_root = Path(os.path.realpath(root))
    limit = project_line_length(root)
    for rel, targets in sorted(plan.targets.items()):
        path = root / rel
        if not inside(path, real_root):
            problems.append(f"{rel}: resolves outside the project root {real_root}; not written")
            continue
        try:
            written, failed = _apply_one(path, rel, targets, _Write(reason, dry_run, recheck, limit))
        except OSError as exc:
            problems.append(f"{rel}: cannot be written: {exc.strerror or exc}; not suppressed")
            continue
        out += written
        problems += failed
    return out, problems


def _still_reported(report: Any, targets: dict[int, list[str]]) -> dict[int, list[str]]:
    """The targets whose violation the analysis of the written file still reports."""
    live = {(v.line if v.unit else 0, v.rule.key) for v in report.violations}
    found = {line: [key for key in keys if (line, key) in live] for line, keys in targets.items()}
    return {line: keys for line, keys in found.items() if keys}


def _without(targets: dict[int, list[str]], still: dict[int, list[str]]) -> dict[int, list[str]]:
    kept = {line: [k for k in keys if k not in still.get(line, ())] for line, keys in targets.items()}
    return {line: keys for line, keys in kept.items() if keys}


@dataclass(frozen=True)
class _Write:
    reason: str
    dry_run: bool
    recheck: Optional[Recheck]
    limit: Optional[int] = None  # the project's line length


def _apply_one(path: Path, rel: str, targets: dict[int, list[str]], how: _Write) -> tuple[list[str], list[str]]:
    before = path.read_bytes()
    after, long = rewrite(before, targets, how.reason, how.limit)
    if how.dry_run or after == before:
        return (_diff(rel, before, after) if how.dry_run else []), []
    still = _still(how, rel, after, targets)
    kept = _without(targets, still)
    if still:  # write only the comments that work
        after, long = rewrite(before, kept, how.reason, how.limit) if kept else (before, [])
    if after != before:
        path.write_bytes(after)
    return ([_written(rel, kept)] + _long(rel, long, how.limit) if kept else []), _not_suppressed(rel, still)


def _still(how: _Write, rel: str, after: bytes, targets: dict[int, list[str]]) -> dict[int, list[str]]:
    return _still_reported(how.recheck(rel, after), targets) if how.recheck is not None else {}


def _long(rel: str, lines: Sequence[int], limit: Optional[int]) -> list[str]:
    return [f"{rel}:{line}: this line is now over the project's line length of {limit} (no line of the "
            "signature had room for the comment)\n" for line in lines]


def _not_suppressed(rel: str, still: dict[int, list[str]]) -> list[str]:
    return [f"{rel}:{line or 1}: {key}: a comment there does not suppress it (a body on the signature's line, "
            "say); add one by hand where it works" for line, keys in sorted(still.items()) for key in keys]


_EXAMPLES = (
    "  ladder suppress src --reason 'legacy, tracked in #123'          every current red violation\n"
    "  ladder suppress src/x.py --rule cognitive_max --reason why --dry-run   show the diff only\n"
    "exit status: 0 done, 1 a recurring hotspot was refused (use --force), 2 usage error"
)


def add_parsers(sub: Any) -> None:
    suppress = command(sub, "suppress", _EXAMPLES)
    add_paths(suppress)
    suppress.add_argument("--reason", required=True, metavar="TEXT", help="why: written into each comment")
    suppress.add_argument("--rule", help="only this rule (key or code)")
    suppress.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
    suppress.add_argument("--force", action="store_true", help="suppress recurring hotspots too")


def _rule(name: Optional[str]) -> Any:
    """The rule ``--rule`` names; ``None`` when it is not given. Given empty, it names no rule: an error, never
    "every rule"."""
    from ..plugins import known_rules
    from ..reports.explain import find_rule

    if name is not None and not name.strip():
        raise LadderError("--rule: no rule named; give a rule key or code (ladder explain --list), or leave "
                          "--rule out for every rule")
    return find_rule(name.strip(), known_rules()) if name is not None else None


def _hotspots(result: Any, pipeline: Any) -> set[str]:
    """What the gate fails on as a recurring hotspot right now, this run's code counted: the same
    computation as ``ladder check`` (with git where it applies), never the history alone."""
    outcome = pipeline.finish_violations(result.violations, record=False)
    return {f.event.fingerprint for f in outcome.gate.failures if f.reason == "hotspot"}


def _suppress(args: argparse.Namespace) -> int:
    reason, rule = check_reason(args.reason), _rule(args.rule)  # usage errors before any analysis
    # the gate's question in mode recurrence, whatever mode the project runs in
    settings = settings_of(args).replace(mode="recurrence")
    result, pipeline = analyse(args, settings, git=True)
    hot = _hotspots(result, pipeline)
    plan = plan_suppressions(result, hot, rule, args.force)
    done, problems = apply_suppressions(plan, settings.root, reason, dry_run=args.dry_run,
                                        recheck=_recheck(settings))
    sys.stdout.write("".join(done))
    return _said_refused(list(plan.refused) + problems)


def _said_refused(refused: Sequence[str]) -> int:
    for refusal in refused:
        print(f"ladder: refused: {refusal}", file=sys.stderr)
    return EXIT_FAILED if refused else EXIT_OK


def _recheck(settings: Any) -> Recheck:
    """The analysis of a file as written, with the run's settings (no cache: it is about to change)."""
    from ..analysis.analyzer import Analyzer

    analyzer = Analyzer(settings, hashes=False)
    return lambda rel, data: analyzer.source(data, rel)


COMMANDS = {"suppress": _suppress}
