"""Recurrence from git on a real repository: the hotspots ``ladder check`` finds, checked against the commits.

usage: python benchmarks/recurrence_sample.py REPO [--sample 15] [--seed 0] [--git-since all]
                                              [--move-commits 500] [--sweep-runs 0,15]

REPO is a clone with its full history; it is never written to. The script clones it
into a temporary directory, appends an empty ``[tool.ladder]`` table to its
``pyproject.toml`` and commits that with a fixed date (one minute after HEAD), so
the adoption point is the last commit, then runs ``ladder check --format json
--no-record --no-cache``: with the defaults (every chronic hotspot predates the
adoption point, so each should be known, ``gate.known``, and none failing), with
``recurrence.git_since`` set in the work tree (``gate.failures``), and with that
and each ``sweep_files`` of ``--sweep-runs`` (0: what sweeps would add; a lower
bound: what it would take away).
``ladder`` is the ``ladder_plugins`` the running Python imports (set ``PYTHONPATH``
to measure a snapshot of the source).

It then samples hotspots failing with ``git_since`` (seeded) and checks each one on
its own, without ladder's history code: the commits that changed the file (``git log
--follow``, the whole history: ladder reads at most ``git_max_commits`` = 200
versions per file, and says when it cut one), the unit found in each version with
``ast`` (its code without its name and docstring: an edit is a change of that), its
value measured by ``ladder metrics`` on the version's text, and every commit
classified: mechanical (listed in the ignore-revs file, more than ``SWEEP_FILES``
Python files, or a bot) or a real edit. A true chronic hotspot has at least 3
occurrences (the first sighting and two edits that left it over the limit, none an
improvement) on at least 2 distinct days (committer time, UTC), mechanical commits
excluded; it fails with ``git_since`` when one of them is at or after that date.
Units moved between files in the last ``--move-commits`` commits (the same code, by
another name or in another file, one commit) are listed with whether ladder kept
their history. Last, the number of Python files each commit changed (the size that
makes a sweep) and the commits of 15 to 40 files with their subjects. Prints tables
and a summary line; not a test, it asserts nothing.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Optional

from ladder_plugins.config import RecurrenceSettings  # noqa: E402  (the defaults the check is held to)

SWEEP_FILES = RecurrenceSettings.sweep_files
MIN_COUNT, MIN_DAYS = RecurrenceSettings.hotspot_min_count, RecurrenceSettings.hotspot_min_days
BOT_NAMES = ("dependabot", "renovate", "pre-commit-ci", "github-actions", "snyk-bot", "pyup-bot",
             "allcontributors", "imgbot", "greenkeeper")  # an author whose name starts so, or any [bot]
# rule key -> the metric ``ladder metrics`` reports for it (maxima only: minima are not unit history)
METRIC_OF = {"cyclomatic_max": "cyclomatic", "exported_cyclomatic_max": "cyclomatic", "cognitive_max": "cognitive",
             "abc_max": "abc", "function_lines_max": "function_lines", "exported_lines_max": "function_lines",
             "params_max": "params", "exported_params_max": "params", "nesting_max": "nesting",
             "file_lines_max": "file_lines"}
# the sizes (Python files per commit) the distribution is counted in: a sweep is over SWEEP_FILES
SIZE_BUCKETS = (("1", 1, 1), ("2-5", 2, 5), ("6-10", 6, 10), ("11-15", 11, 15), ("16-20", 16, 20),
                ("21-40", 21, 40), ("41-100", 41, 100), ("101+", 101, 10**9))
MIN_STATEMENTS = 3  # a moved unit shorter than this is too common a shape to call the same unit
# a unit moved and edited in one commit: at least this alike (difflib's ratio of its ast tokens, name left out)
NEAR = 0.95


class BenchError(Exception):
    """A step of the measurement failed (git, ladder or the repository); the message says which."""


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True)
    if done.returncode != 0:
        raise BenchError(f"git {' '.join(args[:3])} failed in {repo}: {done.stderr.decode(errors='replace')[:300]}")
    return done.stdout.decode("utf-8", "replace")


class Blobs:
    """One ``git cat-file --batch`` stream: a blob's text by id or ``commit:path``."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE)
        self._texts: dict[str, Optional[str]] = {}

    def text(self, spec: str) -> Optional[str]:
        if spec not in self._texts:
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.write(spec.encode() + b"\n")
            self._proc.stdin.flush()
            header = self._proc.stdout.readline().split()
            if len(header) < 3 or header[1] != b"blob":
                self._texts[spec] = None
            else:
                data = self._proc.stdout.read(int(header[2]) + 1)[:-1]
                self._texts[spec] = data.decode("utf-8", "replace")
        return self._texts[spec]

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()


# -- units found with ast, independently of ladder's analysis ----------------------------------------------------


@dataclass(frozen=True)
class Unit:
    name: str  # qualified as ladder names it: Class.method, A.f#2 for the second; nested functions belong to theirs
    key: str  # ast of the def without its name and docstring: equal keys, same code
    statements: int


def _walk_units(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.AST]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
        elif isinstance(node, ast.ClassDef):
            yield from _walk_units(node.body, f"{prefix}{node.name}.")


def _key(node: ast.AST) -> str:
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    copy = type(node)(**{**{f: getattr(node, f) for f in node._fields}, "name": "", "body": body})
    return ast.dump(copy, include_attributes=False)


def units_of(text: Optional[str]) -> Optional[dict[str, list[Unit]]]:
    """Name -> units of that name in line order (``#2`` is the second); ``None`` when the text does not parse."""
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    found: dict[str, list[Unit]] = {}
    for name, node in _walk_units(tree.body, ""):
        statements = sum(isinstance(n, ast.stmt) for n in ast.walk(node)) - 1
        same = found.setdefault(name, [])
        same.append(Unit(f"{name}#{len(same) + 1}" if same else name, _key(node), statements))
    return found


def split_name(unit: str) -> tuple[str, int]:
    """``A.f#2`` -> (``A.f``, 1)."""
    name, _, nth = unit.partition("#")
    return name, int(nth) - 1 if nth.isdigit() else 0


# -- the repository's commits ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Commit:
    sha: str
    time: int  # committer time
    author: str
    python_files: int  # renames paired (-M), as ladder counts a sweep
    subject: str

    @property
    def day(self) -> str:
        return datetime.fromtimestamp(self.time, timezone.utc).date().isoformat()


@dataclass
class History:
    repo: Path
    commits: dict[str, Commit]
    ignored: frozenset[str]
    blobs: Blobs
    _parsed: dict[str, Optional[dict[str, list[Unit]]]] = field(default_factory=dict)

    @classmethod
    def read(cls, repo: Path) -> "History":
        commits: dict[str, Commit] = {}
        out = git(repo, "log", "--no-merges", "-M", "--name-only", "--format=%x01%H%x00%ct%x00%an <%ae>%x00%s")
        for chunk in out.split("\x01")[1:]:
            head, _, names = chunk.partition("\n")
            sha, stamp, author, subject = head.split("\x00")
            count = sum(1 for n in names.splitlines() if n.endswith(".py"))
            commits[sha] = Commit(sha, int(stamp), author, count, subject)
        return cls(repo, commits, _ignore_revs(repo), Blobs(repo))

    def mechanical(self, sha: str) -> Optional[str]:
        """Why the commit is not an edit by a person (``ignore-revs``, ``sweep (N .py files)``, ``bot``), or
        ``None``."""
        commit = self.commits[sha]
        if any(sha.startswith(rev) for rev in self.ignored):
            return "ignore-revs"
        if commit.python_files > SWEEP_FILES:
            return f"sweep ({commit.python_files} .py files)"
        author = commit.author.lower()
        if "[bot]" in author or author.startswith(BOT_NAMES):
            return "bot"
        return None

    def units(self, spec: str) -> Optional[dict[str, list[Unit]]]:
        if spec not in self._parsed:
            self._parsed[spec] = units_of(self.blobs.text(spec))
        return self._parsed[spec]

    def file_log(self, path: str) -> list[tuple[str, str]]:
        """(commit, the file's path in it), oldest first, renames followed, merges left out."""
        out = git(self.repo, "log", "--follow", "-M", "--no-merges", "--name-status", "--format=%x01%H", "--",
                  path)
        found: list[tuple[str, str]] = []
        for chunk in out.split("\x01")[1:]:
            lines = [line for line in chunk.splitlines() if line.strip()]
            fields = lines[-1].split("\t") if len(lines) > 1 else []
            if fields and fields[0][:1] != "D":
                found.append((lines[0].strip(), fields[-1]))
        return found[::-1]


def _ignore_revs(repo: Path) -> frozenset[str]:
    try:
        name = git(repo, "config", "blame.ignoreRevsFile").strip()
    except BenchError:
        name = ".git-blame-ignore-revs"
    path = repo / name
    if not path.is_file():
        return frozenset()
    lines = (line.split("#")[0].strip().lower() for line in path.read_text("utf-8", "replace").splitlines())
    return frozenset(line for line in lines if 7 <= len(line) <= 64 and set(line) <= set("0123456789abcdef"))


# -- moves: a unit gone from one place and the same code come in another, in one commit -----------------------------


@dataclass(frozen=True)
class Move:
    sha: str
    time: int
    old_path: str
    old_name: str
    new_path: str
    new_name: str
    alike: float = 1.0  # 1.0: the same code


def _changes(history: History, sha: str) -> list[tuple[str, str, str]]:
    """(old blob spec or "", new blob spec or "", path now) per Python file the commit changed."""
    out = git(history.repo, "show", "-M", "--raw", "--no-abbrev", "--format=", sha, "--", "*.py")
    found = []
    for line in out.splitlines():
        meta, _, names = line.partition("\t")
        parts, paths = meta.split(), names.split("\t")
        if len(parts) < 5 or not paths[-1].endswith(".py"):
            continue
        old = "" if set(parts[2]) == {"0"} else parts[2]
        new = "" if set(parts[3]) == {"0"} else parts[3]
        found.append((old, new, paths[-1]))
    return found


def _sized(units: dict[str, list[Unit]]) -> dict[str, Unit]:
    """The units long enough to be told apart by their code, by code."""
    return {u.key: u for same in units.values() for u in same if u.statements >= MIN_STATEMENTS}


@dataclass
class Changed:
    """What the files of one commit lost and gained: by code, and by name (for a move edited on the way)."""

    gone: dict[str, tuple[str, str]] = field(default_factory=dict)
    came: dict[str, tuple[str, str]] = field(default_factory=dict)
    left: list[tuple[str, Unit]] = field(default_factory=list)  # units whose name is no longer in their file
    arrived: list[tuple[str, Unit]] = field(default_factory=list)  # units whose name was not in their file

    def near_moves(self, sha: str, when: int, taken: set[tuple[str, str]]) -> list[Move]:
        """Each arrived unit paired with the most alike unit that left, when at least ``NEAR`` alike."""
        found = []
        for path, unit in self.arrived:
            if (path, unit.name) in taken:
                continue
            tokens = re.findall(r"\w+|[^\w\s]", unit.key)
            scored = [(_alike(tokens, old), old_path, old.name) for old_path, old in self.left
                      if (old_path, old.name) not in taken]
            best = max(scored, default=None)
            if best is not None and best[0] >= NEAR:
                taken.add(best[1:])
                found.append(Move(sha, when, best[1], best[2], path, unit.name, best[0]))
        return found


def _alike(tokens: list[str], old: Unit) -> float:
    matcher = difflib.SequenceMatcher(None, re.findall(r"\w+|[^\w\s]", old.key), tokens, autojunk=False)
    return matcher.ratio() if matcher.quick_ratio() >= NEAR else 0.0


def _named_only(here: dict[str, list[Unit]], there: dict[str, list[Unit]], path: str) -> list[tuple[str, Unit]]:
    """The units of ``here`` whose name ``there`` does not hold, long enough to be told apart."""
    return [(path, u) for name, same in here.items() if name not in there for u in same
            if u.statements >= MIN_STATEMENTS]


def _file_moves(before: dict[str, list[Unit]], after: dict[str, list[Unit]], path: str, changed: Changed) -> None:
    """Record in ``changed`` the units one file lost and gained, and those renamed in it."""
    gone, came = changed.gone, changed.came
    changed.left += _named_only(before, after, path)
    changed.arrived += _named_only(after, before, path)
    old_units, new_units = _sized(before), _sized(after)
    for key, unit in old_units.items():
        now = new_units.get(key)
        if now is None:
            gone[key] = (path, unit.name)
        elif now.name != unit.name and unit.name.partition("#")[0] not in after:
            gone[key], came[key] = (path, unit.name), (path, now.name)
    came.update((key, (path, unit.name)) for key, unit in new_units.items() if key not in old_units)


def moves_in(history: History, sha: str) -> list[Move]:
    """Units whose code left one file (or name) and came into another in this commit, the same or nearly."""
    changed = Changed()
    for old, new, path in _changes(history, sha):
        before = history.units(old) if old else {}
        after = history.units(new) if new else {}
        if before is not None and after is not None:
            _file_moves(before, after, path, changed)
    when, gone, came = history.commits[sha].time, changed.gone, changed.came
    exact = [Move(sha, when, *gone[key], *came[key]) for key in sorted(gone.keys() & came.keys())]
    taken = {(m.old_path, m.old_name) for m in exact} | {(m.new_path, m.new_name) for m in exact}
    return exact + changed.near_moves(sha, when, taken)


def scan_moves(history: History, last: int) -> list[Move]:
    shas = git(history.repo, "log", "--no-merges", f"-n{last}", "--format=%H", "--", "*.py").split()
    return [move for sha in shas for move in moves_in(history, sha)]


# -- one unit's versions, through renames and moves ---------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    sha: str
    path: str
    name: str
    nth: int  # which unit of that name (0 for the first)
    unit: Unit
    spec: str  # commit:path, the text ladder metrics measures


def lineage(history: History, path: str, unit: str, hops: int = 3) -> list[Version]:
    """The versions of ``unit`` oldest first: every commit that changed its file and left the unit there, then,
    where it first appears, the place it was moved from in that commit (the same code), followed back."""
    name, nth = split_name(unit)
    found: list[Version] = []
    for sha, at in history.file_log(path):
        # a file rule's version is the file's: its identity is the value measured, not its code
        units = [Unit("", f"{sha}:{at}", 0)] if not name else (history.units(f"{sha}:{at}") or {}).get(name, [])
        if len(units) > nth:
            found.append(Version(sha, at, name, nth, units[nth], f"{sha}:{at}"))
    return _moved_from(history, found[0], hops) + found if found and hops and name else found


def _moved_from(history: History, first: Version, hops: int) -> list[Version]:
    """The versions before ``first`` when its commit moved the unit there from another file or name."""
    here = (first.path, first.unit.name)
    source = next((m for m in moves_in(history, first.sha) if (m.new_path, m.new_name) == here), None)
    if source is None:
        return []
    moved_at = history.commits[first.sha].time
    before = lineage(history, source.old_path, source.old_name, hops - 1)
    return [v for v in before if history.commits[v.sha].time < moved_at]


# -- measuring versions with ladder metrics, and the verdict --------------------------------------------------------


Values = dict[str, dict[str, list[dict[str, float]]]]


def measure(history: History, specs: set[str], work: Path) -> Values:
    """spec -> unit name -> metrics of each unit of that name, in line order (``ladder metrics`` on the texts)."""
    folder = work / "versions"
    folder.mkdir()
    names: dict[str, str] = {}
    for i, spec in enumerate(sorted(specs)):
        text = history.blobs.text(spec)
        if text is not None:
            (folder / f"v{i:05d}.py").write_text(text, "utf-8")
            names[f"versions/v{i:05d}.py"] = spec
    out = _ladder(work, "metrics", "--format", "json", "--no-cache", "versions")
    found: Values = {}
    for entry in json.loads(out)["files"]:
        per = found.setdefault(names[entry["path"]], {"": [entry["metrics"]]})
        for unit in sorted(entry["units"], key=lambda u: u["line"]):
            per.setdefault(unit["name"], []).append(unit["metrics"])
    return found


@dataclass(frozen=True)
class Verdict:
    true: bool
    reason: str
    occurrences: tuple[str, ...]  # short shas
    days: int
    with_mechanical: int  # occurrences when mechanical commits count too, as the code measured counts them
    seen: str  # first..last occurrence day
    fails: bool  # a true hotspot with an occurrence at or after git_since


@dataclass
class Walk:
    """What the versions of one unit's window gave for one rule."""

    occurrences: list[Commit] = field(default_factory=list)
    mechanical: list[str] = field(default_factory=list)
    with_mechanical: int = 0


def _why_not(walk: Walk, days: int, found: bool) -> str:
    count = len(walk.occurrences)
    if not found:
        return "unit not found in the file's history"
    if walk.mechanical and walk.with_mechanical >= MIN_COUNT:
        return "only with mechanical commits: " + ", ".join(walk.mechanical[:3])
    if count >= MIN_COUNT:
        return f"{count} edits on {days} day"
    if count <= 1:
        return "first sighting only" if count else "never over the limit in an edit"
    return f"only {count} occurrences"


@dataclass(frozen=True)
class Evidence:
    """Everything a verdict reads: the commits, each unit's versions, their measured values, the adoption point."""

    history: History
    lines: dict[tuple[str, str], list[Version]]
    values: Values
    since: int  # git_since as a time (0 for "all"): the evidence is the whole history, the trigger from here

    def value(self, version: Version, metric: str) -> Optional[float]:
        measured = self.values.get(version.spec, {}).get(version.name, [])
        return measured[version.nth].get(metric) if len(measured) > version.nth else None

    def walk(self, versions: list[Version], metric: str, limit: float) -> Walk:
        """Each new code of the unit over the limit: an occurrence unless it is an improvement, a code seen
        before, or a mechanical commit (whose version is still the baseline of the next edit)."""
        walk, seen, previous, last_key = Walk(), set(), None, None
        for version in versions:
            if version.unit.key == last_key:
                continue
            last_key = version.unit.key
            value = self.value(version, metric)
            identity = version.unit.key if version.name else str(value)
            if value is None or value <= limit or identity in seen:
                continue
            seen.add(identity)
            not_better, previous = previous is None or value >= previous, value
            why = self.history.mechanical(version.sha)
            walk.with_mechanical += not_better
            if why:
                walk.mechanical.append(f"{version.sha[:8]} {why}")
            elif not_better:
                walk.occurrences.append(self.history.commits[version.sha])
        return walk

    def verdict(self, key: tuple[str, str], metric: str, limit: float) -> Verdict:
        versions = self.lines.get(key, [])
        walk = self.walk(versions, metric, limit)
        found = walk.occurrences
        days = len({c.day for c in found})
        seen = f"{found[0].day}..{found[-1].day}" if found else "-"
        true = len(found) >= MIN_COUNT and days >= MIN_DAYS
        reason = f"{len(found)} edits over {days} days" if true else _why_not(walk, days, bool(versions))
        fails = true and any(c.time >= self.since for c in found)
        # each occurrence with the number of Python files its commit changed: a small sweep shows as one
        shas = tuple(f"{c.sha[:8]}/{c.python_files}" for c in found)
        return Verdict(true, reason, shas, days, walk.with_mechanical, seen, fails)

    def best(self, key: tuple[str, str], violations: list[dict[str, object]]
             ) -> Optional[tuple[Verdict, dict[str, object]]]:
        """The verdict of the unit's rule that comes closest to a true hotspot, with that rule's violation."""
        best: Optional[tuple[Verdict, dict[str, object]]] = None
        for violation in violations:
            metric = METRIC_OF.get(str(violation["rule"]))
            if metric is not None:
                found = self.verdict(key, metric, float(str(violation["limit"])))
                if best is None or (found.true, len(found.occurrences)) > (best[0].true, len(best[0].occurrences)):
                    best = (found, violation)
        return best


# -- running ladder -----------------------------------------------------------------------------------------------


def _ladder(cwd: Path, *args: str) -> str:
    command = [sys.executable, "-m", "ladder_plugins", *args]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=600)
    except subprocess.TimeoutExpired as exc:
        raise BenchError(f"ladder {args[0]} took longer than 600 s in {cwd}") from exc
    if done.returncode not in (0, 1):
        raise BenchError(f"ladder {args[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-600:]}")
    return done.stdout.decode("utf-8", "replace")


@dataclass(frozen=True)
class CheckRun:
    label: str
    seconds: float
    report: dict[str, object]

    @property
    def hotspots(self) -> dict[tuple[str, str], list[dict[str, object]]]:
        """(path, unit) -> its LAD900 failures (``gate.failures``), one per rule."""
        return self._listed("failures")

    @property
    def known(self) -> dict[tuple[str, str], list[dict[str, object]]]:
        """(path, unit) -> its hotspots known from history (``gate.known``), one per rule."""
        return self._listed("known")

    @property
    def warnings(self) -> list[str]:
        said = self.report.get("warnings", [])
        return [str(w) for w in said] if isinstance(said, list) else []

    def said(self) -> str:
        """The run's figures, its verdict's history note and its warnings."""
        summary, gate = self.report.get("summary"), self.report.get("gate")
        assert isinstance(summary, dict) and isinstance(gate, dict)
        return (f"  {self.label:<34} failing {len(self.hotspots):>4} units ({summary.get('gate_failures')} LAD900), "
                f"known {len(self.known):>4} units, red {summary.get('red')}, passed {self.report.get('passed')}, "
                f"{self.seconds:.0f} s\n    history: {gate.get('history')}\n    warnings: {self.warnings}")

    def _listed(self, part: str) -> dict[tuple[str, str], list[dict[str, object]]]:
        gate = self.report.get("gate")
        failures = gate.get(part, []) if isinstance(gate, dict) else []
        found: dict[tuple[str, str], list[dict[str, object]]] = {}
        for failure in failures:
            if failure.get("code") == "LAD900":
                # the fingerprint names the unit as it is counted: a second def of one name is ``f#2``
                unit = _unit_of(str(failure["fingerprint"]))
                found.setdefault((str(failure["path"]), unit), []).append(failure)
        return found

    def red_units(self) -> dict[tuple[str, str], list[dict[str, object]]]:
        """(path, unit) -> its red violations of this run."""
        files = self.report.get("files", [])
        assert isinstance(files, list)
        found: dict[tuple[str, str], list[dict[str, object]]] = {}
        for entry in files:
            for violation in entry["violations"]:
                if violation.get("unit") and violation["severity"] == "red":
                    unit = _unit_of(str(violation["fingerprint"]))
                    found.setdefault((entry["path"], unit), []).append(violation)
        return found


def _unit_of(fingerprint: str) -> str:
    """The unit a fingerprint names (``path::unit::rule``); ``""`` for a file rule (``path::rule``)."""
    parts = fingerprint.split("::")
    return parts[1] if len(parts) == 3 else ""


def adopt(repo: Path, work: Path) -> tuple[Path, str]:
    """A clone with ``[tool.ladder]`` committed one minute after HEAD; the pyproject text it committed."""
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", str(repo), str(clone)], check=True)
    pyproject = clone / "pyproject.toml"
    text = pyproject.read_text("utf-8") if pyproject.is_file() else ""
    if "[tool.ladder]" not in text:
        text += "\n[tool.ladder]\n"
        pyproject.write_text(text, "utf-8")
        when = int(git(clone, "log", "-1", "--format=%ct").strip()) + 60
        stamp = f"@{when} +0000"
        env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
               "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
               "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp, "GIT_CONFIG_GLOBAL": os.devnull}
        subprocess.run(["git", "-C", str(clone), "commit", "--quiet", "-m", "adopt ladder", "--", "pyproject.toml"],
                       check=True, env=env)
    return clone, text


def check(clone: Path, base: str, label: str, extra: str) -> CheckRun:
    (clone / "pyproject.toml").write_text(base + extra, "utf-8")
    began = time.perf_counter()
    out = _ladder(clone, "check", "--format", "json", "--no-record", "--no-cache")
    return CheckRun(label, time.perf_counter() - began, json.loads(out))


def since_time(since: str) -> int:
    """git_since as the script checks it: "all" or an ISO date (a commit is not resolved here)."""
    if since == "all":
        return 0
    return int(datetime.fromisoformat(since).replace(tzinfo=timezone.utc).timestamp())


# -- the report ---------------------------------------------------------------------------------------------------


def sampled_rows(evidence: Evidence, run: CheckRun, sample: list[tuple[str, str]]) -> Counter[str]:
    """One line per sampled hotspot: ladder's figures beside the ones the commits give, and the verdict."""
    tally: Counter[str] = Counter()
    print(f"\n{'verdict':<7} {'unit':<50} {'rule':<15} {'ladder':>7} {'checked':>7} {'ladder seen':<22} "
          f"{'checked seen':<22} why (commits)")
    for key in sample:
        unit, failures = f"{key[0]}::{key[1]}"[-50:], run.hotspots[key]
        best = evidence.best(key, failures)
        if best is None:
            tally["rule not checked"] += 1
            print(f"{'-':<7} {unit:<50} {', '.join(str(f['rule']) for f in failures)}: no unit metric to check")
            continue
        found, failure = best
        tally["true" if found.true else found.reason.split(":")[0]] += 1
        claimed = f"{failure['occurrences']}/{failure['distinct_days']}d"
        checked = f"{len(found.occurrences)}/{found.days}d"
        seen = f"{str(failure['first_seen'])[:10]}..{str(failure['last_seen'])[:10]}"
        print(f"{'TRUE' if found.true else 'no':<7} {unit:<50} {str(failure['rule']):<15} {claimed:>7} {checked:>7} "
              f"{seen:<22} {found.seen:<22} {found.reason} ({' '.join(found.occurrences[:8])}"
              f"{' ...' if len(found.occurrences) > 8 else ''}); {found.with_mechanical} with mechanical commits; "
              f"{len(evidence.lines.get(key, []))} versions; file: {len(evidence.history.file_log(key[0]))} commits")
    return tally


def moves_rows(evidence: Evidence, run: CheckRun, moves: list[Move]) -> Counter[str]:
    """Each move whose unit is red now: did ladder keep the history from before the move?"""
    tally: Counter[str] = Counter(found=len(moves))
    red, hotspots = run.red_units(), run.hotspots
    for move in (m for m in moves if (m.new_path, m.new_name) in red):
        key = (move.new_path, move.new_name)
        listed, best = hotspots.get(key, []), evidence.best(key, red[key])
        state = _move_state(listed, best is not None and best[0].true, move.time)
        tally.update(("red now", state))
        before = sum(evidence.history.commits[v.sha].time < move.time for v in evidence.lines.get(key, []))
        checked = f"; checked: {best[0].reason} ({best[1]['rule']})" if best else ""
        print(f"  move {move.sha[:8]} {datetime.fromtimestamp(move.time, timezone.utc).date()}: {move.old_path}::"
              f"{move.old_name} -> {move.new_path}::{move.new_name} ({move.alike:.2f} alike): {state}; {before} "
              f"versions before it{checked}")
    return tally


def _move_state(listed: list[dict[str, object]], true: bool, moved_at: int) -> str:
    """Whether ladder kept a moved unit's past: its hotspot's first occurrence before the move."""
    if any(str(f["first_seen"]) < _iso(moved_at) for f in listed):
        return "followed"
    if listed:
        return "listed, its history before the move lost"
    return "missed: a true hotspot through the move" if true else "not a hotspot"


def _iso(stamp: int) -> str:
    return datetime.fromtimestamp(stamp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


def sizes_rows(history: History) -> None:
    """How many Python files each commit changed (the size that makes a sweep), and the commits of 15 to 40."""
    sizes = [c.python_files for c in history.commits.values() if c.python_files]
    counts = ", ".join(f"{label}: {sum(lo <= n <= hi for n in sizes)}" for label, lo, hi in SIZE_BUCKETS)
    print(f"\nPython files per commit ({len(sizes)} non-merge commits with a .py file): {counts}; "
          f"over {SWEEP_FILES}: {sum(n > SWEEP_FILES for n in sizes)}")
    near = sorted((c for c in history.commits.values() if 15 <= c.python_files <= 40),
                  key=lambda c: (c.python_files, c.time))
    for commit in near:
        print(f"  {commit.python_files:>3} {commit.sha[:8]} {commit.day} {commit.author.split(' <')[0][:20]:<20} "
              f"{commit.subject[:90]}")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--sample", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--git-since", default="all", help='"all" or an ISO date (default: all)')
    parser.add_argument("--move-commits", type=int, default=500)
    parser.add_argument("--sweep-runs", default="0,15",
                        help="sweep_files of the extra runs with git_since, comma-separated ('' for none)")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    work = Path(tempfile.mkdtemp(prefix="ladder-recurrence-"))
    try:
        return _measure(repo, work, args)
    except BenchError as exc:
        print(f"recurrence_sample: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_checks(repo: Path, work: Path, args: argparse.Namespace) -> tuple[Path, list[CheckRun]]:
    """The adopted clone, and ``ladder check`` on it with the defaults, with git_since, and without sweeps."""
    clone, base = adopt(repo, work)
    since = f'\n[tool.ladder.recurrence]\ngit_since = "{args.git_since}"\n'
    runs = [check(clone, base, "defaults", ""), check(clone, base, f"git_since={args.git_since}", since)]
    for size in (int(word) for word in args.sweep_runs.split(",") if word.strip()):
        runs.append(check(clone, base, f"{runs[1].label}, sweep_files={size}", f"{since}sweep_files = {size}\n"))
    print_runs(repo, runs)
    return clone, runs


def print_runs(repo: Path, runs: list[CheckRun]) -> None:
    """Each run's failing and known hotspots, its verdict's history note and warnings, and how the runs differ."""
    head = git(repo, "rev-parse", "--short", "HEAD").strip()
    print(f"{repo.name}: {git(repo, 'rev-list', '--count', 'HEAD').strip()} commits, HEAD {head}")
    for run in runs:
        print(run.said())
    defaults, chosen = runs[0], runs[1]
    # every chronic hotspot predates the adoption commit: known with the defaults is failing with git_since=all
    print(f"  known (defaults) but not failing ({chosen.label}): {sorted(defaults.known.keys() - chosen.hotspots)}")
    print(f"  failing ({chosen.label}) but not known (defaults): {sorted(chosen.hotspots.keys() - defaults.known)}")
    for run in runs[2:]:
        print(f"  failing with {run.label} and not with the default sweep_files: "
              f"{sorted(run.hotspots.keys() - chosen.hotspots)}")
        print(f"  failing with the default sweep_files and not with {run.label}: "
              f"{sorted(chosen.hotspots.keys() - run.hotspots)}")


def gather(clone: Path, work: Path, run: CheckRun, args: argparse.Namespace
           ) -> tuple[Evidence, list[tuple[str, str]], list[Move]]:
    """The seeded sample of the run's hotspots, the moves of the last commits, and the evidence of both."""
    history = History.read(clone)
    chosen = sorted(run.hotspots)
    sample = random.Random(args.seed).sample(chosen, min(args.sample, len(chosen)))
    moves = scan_moves(history, args.move_commits)
    red = run.red_units()
    wanted = set(sample) | {(m.new_path, m.new_name) for m in moves if (m.new_path, m.new_name) in red}
    lines = {key: lineage(history, *key) for key in wanted if (clone / key[0]).is_file()}
    values = measure(history, {v.spec for versions in lines.values() for v in versions}, work)
    return Evidence(history, lines, values, since_time(args.git_since)), sample, moves


def mechanical_rows(history: History) -> Counter[str]:
    """The commits that changed a Python file and are mechanical, by kind."""
    kinds: Counter[str] = Counter()
    for sha, commit in history.commits.items():
        why = history.mechanical(sha) if commit.python_files else None
        if why:
            kinds[why.split(" (")[0]] += 1
    print(f"\nmechanical commits (of {sum(c.python_files > 0 for c in history.commits.values())} with a .py file): "
          + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"))
    return kinds


def _measure(repo: Path, work: Path, args: argparse.Namespace) -> int:
    clone, runs = run_checks(repo, work, args)
    evidence, sample, moves = gather(clone, work, runs[1], args)
    tally = sampled_rows(evidence, runs[1], sample)
    kinds = mechanical_rows(evidence.history)
    print(f"\nunits moved between files or names in the last {args.move_commits} commits: {len(moves)}")
    moved = moves_rows(evidence, runs[1], moves)
    sizes_rows(evidence.history)
    evidence.history.blobs.close()
    print(f"\nsummary {repo.name}: " + summary_line(runs, len(sample), tally, kinds, moved))
    return 0


def summary_line(runs: list[CheckRun], sampled: int, tally: Counter[str], kinds: Counter[str],
                 moved: Counter[str]) -> str:
    return ("failing " + ", ".join(f"{len(r.hotspots)} ({r.label})" for r in runs)
            + f"; known {len(runs[0].known)} (defaults); sampled {sampled} failing with {runs[1].label}: "
            + ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))
            + "; mechanical " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none")
            + "; moves " + ", ".join(f"{k} {v}" for k, v in moved.items())
            + "; ladder s " + ", ".join(f"{r.seconds:.0f}" for r in runs))


if __name__ == "__main__":
    sys.exit(main())
