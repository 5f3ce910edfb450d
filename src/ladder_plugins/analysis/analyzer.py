"""The one analysis: a file's text (or flake8's tree) in, a :class:`FileReport` out.

Every front end calls :func:`analyze_source` (flake8 passes the tree it already
has) or :func:`analyze_paths`; none computes a metric or a severity itself.
Metric values come from the plugin hooks, rules from the catalogue, limits from the
settings, suppressions from comments.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import gc
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Container, Iterable, Iterator, Optional, Sequence, Union

import pluggy

from ..catalogue import SUPPRESSION, Rule
from ..config import Settings
from ..errors import SourceError
from ..plugins import get_plugin_manager, known_rules
from .discovery import SourceFile, discover
from .identity import fingerprint, unit_hash, value_version
from .report import AnalysisResult, FileReport, MetricValues, UnitReport, Violation
from .roles import FileMarks, GitAttributes, resolve_role
from .source import ParsedSource, Unit, decode, find_units, header_lines, parse, read_comments, split_lines
from .suppressions import Suppression, parse_suppressions
from .thresholds import RED, severity

__all__ = ["Analyzer", "HostInput", "analyze_source", "analyze_paths"]


def _merge(results: Iterable[Optional[MetricValues]]) -> dict[str, Optional[float]]:
    merged: dict[str, Optional[float]] = {}
    for result in reversed(list(results)):  # registration order: first plugin wins
        for name, value in (result or {}).items():
            merged.setdefault(name, value)
    return merged


def _suppressions(source: ParsedSource, rules: Sequence[Rule]) -> dict[int, list[Suppression]]:
    if not source.comments:
        return {}
    names: dict[str, str] = {}
    for rule in rules:
        names[rule.code] = rule.code
        names[rule.key] = rule.code
    by_line: dict[int, list[Suppression]] = {}
    for line, comment in source.comments.items():
        found = parse_suppressions(comment, line, names)
        if found:
            by_line[line] = found
    return by_line


def _signature_lines(unit: Unit) -> range:
    """The ``def`` line through the line before the body: where a unit's suppression may sit."""
    first_body = unit.node.body[0].lineno
    return range(unit.line, max(first_body, unit.line + 1))


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection while one file is analysed, then the host's state exactly as it was.

    A file's tree and reports are millions of young objects and no garbage cycles;
    generation-0 passes over them are pure cost. flake8 and pytest are hosts: a
    collector they turned off stays off.
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Judge:
    """Turns metric values into violations for one file."""

    def __init__(self, source: ParsedSource, settings: Settings, rules: Sequence[Rule], hashes: bool = True,
                 versions: Optional[Container[str]] = None) -> None:
        self.source = source
        self.hashes = hashes
        self.versions = versions  # None: every violation gets a version; else red ones of these fingerprints
        self.settings = settings
        self.found: list[Violation] = []
        self.suppressed: list[Violation] = []
        self.by_line = _suppressions(source, rules)
        header = header_lines(source.tree)
        self.file_lines = [1] + [n for n in self.by_line if n <= header]
        self._hashes: dict[int, str] = {}

    def _version(self, unit: Optional[Unit], rule: Rule, value: float, sev: str, fp: str) -> str:
        """The unit's hash (one per unit, shared by its violations), or for a file rule the value's
        version; empty when nothing will read it (no events, or a yellow one nobody stores)."""
        if not self.hashes or not (self.versions is None or sev == RED and fp in self.versions):
            return ""
        if unit is None:
            return value_version(rule.key, value)
        key = id(unit)
        if key not in self._hashes:
            self._hashes[key] = unit_hash(unit.node)
        return self._hashes[key]

    def violation(
        self, rule: Rule, unit: Optional[Unit], value: float, limit: Optional[float], sev: str
    ) -> Violation:
        path, key = self.source.path, unit.key if unit else None
        fp = fingerprint(path, key, rule.key)
        return Violation(
            rule=rule, path=path, line=unit.line if unit else 1, unit=unit.name if unit else None, unit_key=key,
            actual=value, limit=limit, severity=sev, role=self.source.role,
            fingerprint=fp, unit_hash=self._version(unit, rule, value, sev, fp),
        )

    def _is_suppressed(self, violation: Violation, unit: Optional[Unit]) -> bool:
        lines = _signature_lines(unit) if unit is not None else self.file_lines
        return any(s.covers(violation.code) for line in lines for s in self.by_line.get(line, ()))

    def limited(self, rules: Sequence[Rule]) -> list[tuple[Rule, float]]:
        """The threshold rules among ``rules`` that have a limit for this file's role, with it: worked out
        once per file, not once per unit and rule."""
        role, found = self.source.role, []
        for rule in rules:
            limit = self.settings.limit(role, rule.key)
            if rule.metric is not None and rule.has_limit and limit is not None:
                found.append((rule, limit))
        return found

    def judge(self, rule: Rule, limit: float, unit: Optional[Unit], metrics: MetricValues) -> None:
        if rule.scope == "exported-unit" and (unit is None or not unit.is_public):
            return
        value = metrics.get(rule.metric)  # type: ignore[arg-type]
        sev = severity(rule, value, limit, self.settings.yellow_ratio)
        if sev is None or value is None:
            return
        violation = self.violation(rule, unit, value, limit, sev)
        (self.suppressed if self._is_suppressed(violation, unit) else self.found).append(violation)

    def report_bad_suppressions(self, units: Sequence[Unit]) -> None:
        by_def_line = {u.line: u for u in units}
        for line in sorted(self.by_line):
            for sup in self.by_line[line]:
                if sup.problem:
                    meta = self.violation(SUPPRESSION, by_def_line.get(line), 1, None, RED)
                    self.found.append(dataclasses.replace(meta, line=line, detail=sup.problem))


@dataclasses.dataclass(frozen=True)
class HostInput:
    """What a host hands over with a file: the tree and tokens it already has (flake8), what its test
    runner collected (pytest: the qualified names of the tests, and whether it found any)."""

    tree: Optional[ast.Module] = None
    tokens: Optional[Sequence[Any]] = None
    test_names: Optional[frozenset[str]] = None
    collected: bool = False


class Analyzer:
    """Analyses files for one run: settings, plugins and the rule list are resolved once."""

    def __init__(self, settings: Settings, pm: Optional[pluggy.PluginManager] = None, *,
                 hashes: bool = True, cache: Any = None, versions: Optional[Container[str]] = None) -> None:
        self.settings = settings
        self.attributes = GitAttributes(settings.root)  # linguist-generated, asked of git once, if ever
        self.hashes = hashes  # unit hashes identify versions in events; `ladder metrics` needs none
        # A run that stores nothing (no cache, no record) gives a version only to the red violations
        # the gate compares with the history (``versions``: the history's fingerprints); hashing was a
        # tenth of such a run. A cache entry is for every later run, so it has every version.
        self.versions = None if cache is not None else versions
        self.cache = cache  # an AnalysisCache, or None
        self.pm = pm or get_plugin_manager()
        self._index_rules(known_rules(self.pm))

    def _index_rules(self, rules: Sequence[Rule]) -> None:
        self.rules = rules
        self.unit_rules = [r for r in rules if r.scope != "file"]
        self.file_rules = [r for r in rules if r.scope == "file"]
        self.order = {rule.code: i for i, rule in enumerate(rules)}
        self.by_code = {rule.code: rule for rule in rules}

    @classmethod
    def for_run(cls, settings: Settings, *, hashes: bool = True, use_cache: bool = True,
                warn: Optional[Callable[[str], None]] = None,
                versions: Optional[Container[str]] = None) -> "Analyzer":
        """An analyzer with the shared analysis cache (unless turned off or ``LADDER_NO_CACHE`` is set);
        ``versions``: for a run that records nothing, the fingerprints whose red violations need one."""
        from .cache import AnalysisCache, cache_disabled_by_env

        pm = get_plugin_manager()
        cache = None
        if use_cache and not cache_disabled_by_env():
            cache = AnalysisCache(settings, _plugin_signature(pm), warn=warn)
        analyzer = cls(settings, pm, hashes=hashes, cache=cache, versions=versions)
        analyzer.attributes.warn_to(warn)  # a run says why git could not answer
        return analyzer

    def source(self, source: Union[str, bytes], path: str, host: Optional[HostInput] = None) -> FileReport:
        """Analyse one file (see :func:`analyze_source`); ``host``: what the front end already has of it."""
        given = host or HostInput()
        if self.cache is None:
            return self._fresh(source, path, given)
        data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
        mark = self.attributes.mark(path)  # outside the file's bytes, so part of the key
        key, report = self._lookup(data, path if mark is None else f"{path}\x1flinguist-generated={mark}", given)
        if report is None:
            report = self._fresh(source, path, given)
            if self.hashes:  # entries carry unit hashes, so every front end can reuse them
                from .serialize import report_to_json

                self.cache.put(key, report_to_json(report))
        return report

    def _lookup(self, data: bytes, path: str, given: HostInput) -> tuple[str, Optional[FileReport]]:
        """The cache key for this host, and the report cached under it (or under the plain key, which every
        front end shares, when what the host adds cannot change this file's report)."""
        assert self.cache is not None
        test_names, collected = given.test_names, given.collected
        plain = self.cache.key(data, path, "None|False")
        if test_names is None and not collected:
            return plain, self._cached(plain)
        if not collected:  # a runner's file with no tests collected from it: which tests it collected
            report = self._cached(plain)  # changes nothing but for a test file
            if report is not None and report.role != "test":
                return plain, report
        key = self.cache.key(data, path, f"{sorted(test_names) if test_names is not None else None}|{collected}")
        return key, self._cached(key)

    def _cached(self, key: str) -> Optional[FileReport]:
        from .serialize import report_from_json

        entry = self.cache.get(key)
        if entry is None:
            return None
        try:
            return report_from_json(entry, self.by_code)
        except (KeyError, TypeError, ValueError) as exc:  # the key covers the rules: this is damage
            self.cache.discard(key, f"unexpected content: {type(exc).__name__}")
            return None

    def _fresh(self, source: Union[str, bytes], path: str, given: HostInput) -> FileReport:
        with paused_gc():
            return self._analysed(source, path, given)

    def _analysed(self, source: Union[str, bytes], path: str, given: HostInput) -> FileReport:
        try:
            parsed = self._parse(source, path, given)
        except SourceError as exc:
            return FileReport(path, exc.role, skipped=str(exc))
        except (RecursionError, MemoryError) as exc:
            reason = f"{path}: too large or deeply nested to analyse ({type(exc).__name__})"
            return FileReport(path, "app", skipped=reason)
        return self._measure(parsed)

    def _parse(self, source: Union[str, bytes], path: str, given: HostInput) -> ParsedSource:
        text = decode(source, path) if isinstance(source, bytes) else source
        comments = read_comments(text, given.tokens)
        marks = FileMarks(given.collected, self.attributes.mark(path))
        role = resolve_role(path, text, comments, self.settings, marks)
        if role in self.settings.skip_roles:
            raise SourceError(f"role {role!r} is skipped (skip_roles)", role=role)
        tree = given.tree if given.tree is not None else parse(text, path)
        units = find_units(tree, path, role, given.test_names)
        return ParsedSource(path, text, split_lines(text), tree, role, comments, units, settings=self.settings)

    def _unit(self, judge: _Judge, rules: Sequence[tuple[Rule, float]], unit: Unit,
              source: ParsedSource) -> UnitReport:
        metrics = _merge(self.pm.hook.ladder_unit_metrics(unit=unit, source=source))
        for rule, limit in rules:
            judge.judge(rule, limit, unit, metrics)
        return UnitReport(unit.name, unit.key, unit.line, unit.end_line, MappingProxyType(metrics),
                          unit.is_test, unit.is_public)

    def parse(self, source: Union[str, bytes], path: str) -> ParsedSource:
        """One file parsed, its role resolved and its units found, for :meth:`measure`; raises
        :class:`SourceError` (or ``RecursionError``) when it cannot be analysed."""
        return self._parse(source, path, HostInput())

    def measure(self, source: ParsedSource, units: Optional[Sequence[Unit]] = None, *,
                file_rules: bool = True) -> FileReport:
        """The report of ``units`` of a parsed file (all by default) and, with ``file_rules``, of the file;
        bad suppressions are reported only when every unit is measured."""
        return self._measure(source, units, file_rules)

    def _measure(self, source: ParsedSource, units: Optional[Sequence[Unit]] = None,
                 file_rules: bool = True) -> FileReport:
        judge = _Judge(source, self.settings, self.rules, self.hashes, self.versions)
        rules = judge.limited(self.unit_rules)
        reports = tuple(self._unit(judge, rules, unit, source) for unit in (source.units if units is None else units))
        file_metrics = self._file_metrics(judge, source) if file_rules else {}
        if units is None:
            judge.report_bad_suppressions(source.units)
        found = tuple(sorted(judge.found, key=lambda v: (v.line, self.order.get(v.code, 0))))
        return FileReport(source.path, source.role, MappingProxyType(file_metrics), reports, found,
                          tuple(judge.suppressed))

    def _file_metrics(self, judge: _Judge, source: ParsedSource) -> dict[str, Optional[float]]:
        file_metrics = _merge(self.pm.hook.ladder_file_metrics(source=source))
        for rule, limit in judge.limited(self.file_rules):
            judge.judge(rule, limit, None, file_metrics)
        return file_metrics

    def file(self, file: SourceFile) -> FileReport:
        """Read and analyse one discovered file; unreadable and excluded ones come back skipped."""
        if file.excluded:
            return FileReport(file.rel, "app", skipped=f"{file.rel}: {file.excluded}")
        try:
            data = file.path.read_bytes()
        except OSError as exc:
            return FileReport(file.rel, "app", skipped=f"{file.rel}: cannot be read: {exc.strerror or exc}")
        return self.source(data, file.rel)

    def paths(self, paths: Sequence[Union[str, Path]], *, cwd: Optional[Path] = None,
              progress: Optional[Callable[[int, int], None]] = None, jobs: int = 1) -> AnalysisResult:
        """Discover and analyse the Python files under ``paths`` (relative to ``cwd``).

        ``jobs`` > 1 analyses in that many processes (same results, in path order);
        ``progress(done, total)`` is called after each file, for long runs in a terminal.
        """
        files = discover([str(p) for p in paths], self.settings, cwd=cwd)
        if jobs > 1 and len(files) >= 4 * jobs:
            from .parallel import analyze_in_processes

            return AnalysisResult(analyze_in_processes(self, files, jobs, progress))
        reports = []
        for done, file in enumerate(files, 1):
            reports.append(self.file(file))
            if progress is not None:
                progress(done, len(files))
        return AnalysisResult(tuple(reports))


def _plugin_signature(pm: pluggy.PluginManager) -> list[str]:
    """Names and versions of the loaded plugins: a plugin change invalidates cached results."""
    names = [str(pm.get_name(plugin)) for plugin in pm.get_plugins()]
    return names + [f"{dist.project_name}=={dist.version}" for _, dist in pm.list_plugin_distinfo()]


def analyze_source(
    source: Union[str, bytes],
    path: str,
    settings: Settings,
    *,
    tree: Optional[ast.Module] = None,
    test_names: Optional[frozenset[str]] = None,
) -> FileReport:
    """Analyse one file. ``path`` is its POSIX path relative to the project root.

    ``tree`` is an already parsed module of exactly this text (flake8 hands us one),
    so it is not parsed again. Problems with the file itself come back as a report
    with ``skipped`` set, never as an exception. To analyse many files, or with
    another plugin manager, use :class:`Analyzer`.
    """
    return Analyzer(settings).source(source, path, HostInput(tree=tree, test_names=test_names))


def analyze_paths(
    paths: Sequence[Union[str, Path]], settings: Settings, *, cwd: Optional[Path] = None
) -> AnalysisResult:
    """Discover and analyse the Python files under ``paths`` (relative to ``cwd``)."""
    return Analyzer(settings).paths(paths, cwd=cwd)
