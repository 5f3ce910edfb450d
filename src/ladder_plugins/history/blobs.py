"""The red violations of a file as one git blob holds it, found once per blob.

Only what the gate asks about is measured: the units (and, if asked, the file rules)
whose fingerprints the run violates now, not every unit of every past version. A
unit whose text (with its decorators) is the same as in a version already measured
in this process, in a file of the same role, has the same findings, so it is
measured once however many commits kept it unchanged.

A blob never changes, so what was found in it, for the path the file has now and
under the current settings, is kept in the analysis cache by blob id, together with
which units were measured and the name-less body hash of each one present (how a
unit moved to another file or name is followed): one entry per file (its key covers the path, the
settings, the plugins and the package version), so a warm run reads one entry per
file and asks git for no blob at all. Entries are validated when read; one of the
wrong shape is set aside like any damaged cache entry.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Optional

from ..analysis.identity import body_text, unit_hashes, value_version
from ..analysis.source import FunctionNode, ParsedSource, decode, find_units, parse, split_lines
from ..config import Settings
from ..errors import SourceError
from ..plugins import BUILTIN_PLUGINS
from .git import Repository
from .outline import Outline, Spot, derive, first_line, outline_of

if TYPE_CHECKING:
    import pluggy

    from ..analysis.analyzer import Analyzer
    from ..analysis.cache import AnalysisCache
    from ..analysis.source import Unit

__all__ = ["BlobFindings", "Bodies", "Row", "Wanted", "likeness", "unit_nodes"]

_MAX_BLOB = 1 << 20  # past versions larger than this are not read: generated code, not a history anyone wrote
# 2: entries hold the body hash and unit hash of each measured unit present
_ENTRY = "git-findings-2"
_MAX_PER_FILE = 2000  # blobs kept per file: well over git_max_commits
_MAX_NODES = 256  # blobs whose units' texts are kept for following moves: a move's commit reads a few

#: One red violation of a blob: code, unit, line, role, actual, limit, fingerprint, unit hash.
Row = list[Any]
#: Unit key -> [name-less body hash, unit hash], for the measured units a blob holds.
Bodies = Mapping[str, list[str]]


@dataclass(frozen=True)
class Wanted:
    """What to measure in a file's past versions: these unit keys, and the file rules or not."""

    units: frozenset[str]
    file: bool = False

    def covered_by(self, entry: Mapping[str, Any]) -> bool:
        return self.units <= set(entry["units"]) and (entry["file"] or not self.file)

    def union(self, entry: Optional[Mapping[str, Any]]) -> "Wanted":
        if entry is None:
            return self
        return Wanted(self.units | set(entry["units"]), self.file or entry["file"])


#: What one blob holds: its rows, and the body and unit hash of each measured unit present.
_Measured = tuple[list[Row], dict[str, list[str]]]
#: One file's path, what to measure in its blobs, and the blobs (id, bytes).
Task = tuple[str, Wanted, list[tuple[str, bytes]]]


def _valid(entry: Any) -> bool:
    """The shape of an entry; its rows are ours (the cache checks each entry's digest), so not re-checked."""
    return (isinstance(entry, dict) and isinstance(entry.get("red"), list) and isinstance(entry.get("file"), bool)
            and isinstance(entry.get("units"), list) and _valid_bodies(entry.get("bodies")))


def _valid_bodies(bodies: Any) -> bool:
    return isinstance(bodies, dict) and all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(h, str) for h in pair) for pair in bodies.values())


def _row(v: Any, version: str) -> Row:
    return [v.code, v.unit, v.line, v.role, v.actual, v.limit, v.fingerprint, version]


class BlobFindings:
    """(blob id, path as named now) -> its red violations, from memory, the cache, or the analysis."""

    derive = True  # False: every version parsed whole (what the tests hold the outlines against)

    def __init__(self, settings: Settings, cache: Optional[AnalysisCache] = None,
                 pm: Optional[pluggy.PluginManager] = None,
                 warn: Optional[Callable[[str], None]] = None) -> None:
        self.settings = settings
        self.warn = warn or (lambda message: None)  # the run's sink: a file whose versions are not read
        self.jobs = 1  # processes for a cold walk; front ends that analyse in parallel raise it
        self.cache = cache  # an AnalysisCache, or None
        self._pm = pm
        self._analyzer: Optional[Analyzer] = None
        self._files: dict[str, dict[str, dict[str, Any]]] = {}  # path -> blob id -> entry
        self._units: dict[tuple[Any, ...], tuple[list[Row], list[str]]] = {}  # unit text, context -> rows, hashes
        self._nodes: dict[str, dict[str, str]] = {}  # blob id -> its units' body texts, for following moves

    def analyzer(self) -> Analyzer:
        """The analyzer for blobs, also the run's rules by code."""
        if self._analyzer is None:
            from ..analysis.analyzer import Analyzer

            # no content cache: entries are kept per blob; no hashes: a unit's are worked out once with its body's
            self._analyzer = Analyzer(self.settings, self._pm, hashes=False)
        return self._analyzer

    def rows(self, repo: Repository, pairs: Iterable[tuple[str, str]],
             wanted: Mapping[str, Wanted]) -> dict[tuple[str, str], list[Row]]:
        """The red violations of each (blob, path) among what ``wanted`` asks of the path; blobs neither
        remembered nor cached with all of it are read in one stream."""
        pairs = list(dict.fromkeys(pairs))
        todo = [pair for pair in pairs if not self._known(pair, wanted[pair[1]])]
        if todo:
            self._fill(repo, todo, wanted)
            self._save_all(pairs, {rel for _, rel in todo})
        return {(blob, rel): self._file(rel)[blob]["red"] for blob, rel in pairs if blob in self._file(rel)}

    def nodes(self, repo: Repository, blobs: Iterable[tuple[str, str]]) -> dict[str, dict[str, str]]:
        """Blob id -> its units' canonical name-less body texts by key, of each (blob, repository path), read
        once per process: where a move of a unit is looked for (any file the commit changed, measured or
        not). Texts, not trees: a cold walk may look into hundreds of blobs."""
        pairs = list(dict.fromkeys(blobs))
        todo = [(blob, path) for blob, path in pairs if blob not in self._nodes]
        contents = repo.blobs([blob for blob, _ in todo], _MAX_BLOB) if todo else {}
        for blob, path in todo:
            self._nodes[blob] = _body_texts(contents.get(blob), path)
        found = {blob: self._nodes.pop(blob) for blob in dict.fromkeys(blob for blob, _ in pairs)}
        self._nodes.update(found)  # the latest last: the longest unused go first when there are too many
        while len(self._nodes) > _MAX_NODES:
            del self._nodes[next(iter(self._nodes))]
        return found

    def bodies(self, blob: str, rel: str) -> Bodies:
        """The measured units blob ``blob`` holds (after :meth:`rows` asked for them), with their hashes."""
        entry = self._file(rel).get(blob)
        return entry["bodies"] if entry is not None else {}

    def _fill(self, repo: Repository, todo: list[tuple[str, str]], wanted: Mapping[str, Wanted]) -> None:
        """Analyse the blobs of ``todo``, grouped by file (so a unit kept unchanged is measured once), in
        ``jobs`` processes when there are enough of them. A file's versions are read from git when its turn
        comes and dropped once measured: a few files' at a time, never the whole history's."""
        groups: dict[str, list[str]] = {}
        for blob, rel in todo:
            groups.setdefault(rel, []).append(blob)
        large: dict[str, int] = {}
        for rel, want, found in _measure_all(self, self._read(repo, groups, wanted, large), len(todo)):
            for blob, (rows, bodies) in found.items():
                self._file(rel)[blob] = {"units": sorted(want.units), "file": want.file, "red": rows,
                                         "bodies": bodies}
        for rel in sorted({rel for blob, rel in todo if blob in large}):
            self.warn(f"git: past versions of {rel} larger than {_MAX_BLOB >> 20} MiB are not read (generated "
                      "code, not a history anyone wrote); it recurs by the stored history alone")

    def _read(self, repo: Repository, groups: Mapping[str, list[str]], wanted: Mapping[str, Wanted],
              large: dict[str, int]) -> Iterator[Task]:
        """Each file's task, its blobs read from git as it is asked for; the longest histories first, so that
        the workers end together (``large``: the blobs too large to read)."""
        for rel in sorted(groups, key=lambda rel: -len(groups[rel])):
            contents = repo.blobs(groups[rel], _MAX_BLOB, large.__setitem__)
            blobs = [(blob, data) for blob in groups[rel] if (data := contents.get(blob)) is not None]
            if blobs:  # missing or too large: nothing known, nothing cached
                yield rel, wanted[rel].union(self._file(rel).get(blobs[0][0])), blobs

    def _known(self, pair: tuple[str, str], want: Wanted) -> bool:
        entry = self._file(pair[1]).get(pair[0])
        return entry is not None and want.covered_by(entry)

    def _key(self, rel: str) -> str:
        assert self.cache is not None  # asked only where entries are kept
        return self.cache.key(_ENTRY.encode("ascii"), rel, _ENTRY)

    def _file(self, rel: str) -> dict[str, dict[str, Any]]:
        """Blob id -> entry, for the versions of ``rel`` seen so far (read from the cache once)."""
        found = self._files.get(rel)
        if found is None:
            found = self._files[rel] = self._cached(rel)
        return found

    def _cached(self, rel: str) -> dict[str, dict[str, Any]]:
        if self.cache is None:
            return {}
        key = self._key(rel)
        data = self.cache.get(key)
        if data is None:
            return {}
        blobs = data.get("blobs")
        if not isinstance(blobs, dict) or not all(isinstance(b, str) and _valid(e) for b, e in blobs.items()):
            self.cache.discard(key, "unexpected content")
            return {}
        return blobs

    def _save_all(self, pairs: list[tuple[str, str]], files: set[str]) -> None:
        for rel in sorted(files):
            self._save(rel, {blob for blob, path in pairs if path == rel})

    def _save(self, rel: str, asked: set[str]) -> None:
        """One cache entry per file; the blobs just asked for are kept first when it is full."""
        if self.cache is None:
            return
        blobs = self._file(rel)
        keep = sorted(blobs, key=lambda blob: blob not in asked)[:_MAX_PER_FILE]
        self.cache.put(self._key(rel), {"blobs": {blob: blobs[blob] for blob in keep}})

    def measure_file(self, rel: str, want: Wanted, blobs: list[tuple[str, bytes]]) -> dict[str, "_Measured"]:
        """Blob id -> the rows and the bodies of each version of one file; a version whose change touched none
        of the units asked about is not parsed whole (:mod:`.outline`), so the versions come best in order."""
        found: dict[str, _Measured] = {}
        last: Optional[Outline] = None
        for blob, data in blobs:
            found[blob], last = self._measure(data, rel, want, last)
        return found

    def _measure(self, data: bytes, rel: str, want: Wanted,
                 last: Optional[Outline]) -> tuple["_Measured", Optional[Outline]]:
        """One version's rows and bodies, and its outline for the next version."""
        try:
            text = decode(data, rel)
        except SourceError:
            return ([], {}), None
        derived = self._derived(text, split_lines(text), rel, want, last)
        if derived is not None:
            return derived
        analyzer = self.analyzer()
        try:
            parsed = analyzer.parse(text, rel)
        except (SourceError, RecursionError, MemoryError):
            return ([], {}), None  # a version that does not parse (or a skipped role) has no violations to count
        rows: list[Row] = []
        bodies: dict[str, list[str]] = {}
        for unit in (u for u in parsed.units if u.key in want.units):
            found, bodies[unit.key] = self._unit_rows(analyzer, parsed, unit)
            rows += found
        if want.file:
            rows += [_row(v, value_version(v.rule.key, v.actual)) for v in
                     analyzer.measure(parsed, [], file_rules=True).red]
        return (rows, bodies), outline_of(parsed, want.units)

    def _derived(self, text: str, lines: list[str], rel: str, want: Wanted,
                 last: Optional[Outline]) -> Optional[tuple["_Measured", Optional[Outline]]]:
        """A version's rows and bodies from the last one's, where its change met statements that parse in
        place: a unit asked about that the change did not meet has the same text, so it is what the memo of
        texts holds for it; one it met is measured where it stands (:mod:`.outline` says when that is
        exact). File rules are measured from the version's lines where all of the role's are worked out
        from lines alone and the module's header is as it was."""
        derived = derive(last, text, lines, rel, want.units) if last is not None and self.derive else None
        if derived is None or (derived.changed and not self._built_in("ladder_unit_metrics")):
            return None  # a plugin's unit metric may read more of the file than the units measured in place
        file_rows = self._file_rows(derived.outline, rel, text) if want.file else []
        if file_rows is None:
            return None
        outline, tree = derived.outline, derived.tree
        source = None if tree is None else ParsedSource(rel, text, lines, tree, outline.role, derived.comments,
                                                        derived.changed, settings=self.settings)
        measured = self._all_spot_rows(outline, source, rel)
        return None if measured is None else ((measured[0] + file_rows, measured[1]), outline)

    def _all_spot_rows(self, outline: Outline, source: Optional[ParsedSource],
                       rel: str) -> Optional[tuple[list[Row], dict[str, list[str]]]]:
        """The rows and bodies of every unit asked about that ``outline``'s version holds, in source order."""
        rows: list[Row] = []
        bodies: dict[str, list[str]] = {}
        for spot in outline.spots:
            found = self._spot_rows(spot, source, rel, outline)
            if found is None:
                return None
            rows += found[0]
            bodies[spot.key] = found[1]
        return rows, bodies

    def _file_rows(self, outline: Outline, rel: str, text: str) -> Optional[list[Row]]:
        """The red file-rule violations of a version not parsed whole, or ``None`` where that needs its syntax
        tree: a file rule with a limit for its role that reads more than lines, a file metric of a plugin
        not built in, or a header that may have changed (its suppressions)."""
        analyzer, header = self.analyzer(), outline.header
        tree_rules = [rule for rule in analyzer.file_rules if not rule.from_lines
                      and self.settings.limit(outline.role, rule.key) is not None]
        if header is None or tree_rules or not self._built_in("ladder_file_metrics"):
            return None
        # the module's first statement after its docstring, where the header ends, is all the tree says
        first: list[ast.stmt] = [] if header >= 10**9 else [ast.Pass(lineno=header + 1, col_offset=0)]
        source = ParsedSource(rel, text, outline.lines, ast.Module(body=first, type_ignores=[]), outline.role,
                              outline.header_comments, settings=self.settings)
        return [_row(v, value_version(v.rule.key, v.actual)) for v in analyzer.measure(source, [], file_rules=True).red]

    def _built_in(self, hook: str) -> bool:
        """Whether only the built-in plugins implement the metric hook ``hook``."""
        implementations = getattr(self.analyzer().pm.hook, hook).get_hookimpls()
        return all(implementation.plugin_name in BUILTIN_PLUGINS for implementation in implementations)

    def _spot_rows(self, spot: Spot, source: Optional[ParsedSource], rel: str,
                   outline: Outline) -> Optional[tuple[list[Row], list[str]]]:
        """The rows and hashes of a unit asked about, at its line in this version: measured where it stands
        (``source``: the units the change met), else as the memo of texts has them (``None``: it has not)."""
        unit = next((u for u in source.units if u.key == spot.key), None) if source is not None else None
        if source is not None and unit is not None:
            return self._unit_rows(self.analyzer(), source, unit)
        memo = (rel, outline.role, spot.key, spot.is_public, spot.is_test,
                "\n".join(outline.lines[spot.first - 1:spot.end]))
        known = self._units.get(memo)
        return None if known is None else ([[*row[:2], spot.line, *row[3:]] for row in known[0]], known[1])

    def _unit_rows(self, analyzer: Analyzer, parsed: ParsedSource, unit: Unit) -> tuple[list[Row], list[str]]:
        """A unit's rows and hashes, measured once per distinct text (its line is this version's)."""
        text = "\n".join(parsed.lines[first_line(unit) - 1:unit.end_line])
        memo = (parsed.path, parsed.role, unit.key, unit.is_public, unit.is_test, text)
        found = self._units.get(memo)
        if found is None:
            own, body = unit_hashes(unit.node)
            rows = [_row(v, own) for v in analyzer.measure(parsed, [unit], file_rules=False).red]
            found = self._units[memo] = (rows, [body, own])
        return [[*row[:2], unit.line, *row[3:]] for row in found[0]], found[1]


_MIN_PARALLEL = 64  # blobs below which starting worker processes costs more than it saves
_WORKER: dict[str, BlobFindings] = {}  # a worker process's BlobFindings; the parent never touches it


def _measure_all(findings: BlobFindings, tasks: Iterator[Task],
                 count: int) -> Iterator[tuple[str, Wanted, dict[str, _Measured]]]:
    """(path, what was measured, blob id -> rows) for every file of ``tasks`` (``count`` blobs in all), in
    worker processes when it pays, with at most two files a worker in flight (their bytes held at once)."""
    jobs = findings.jobs if findings.jobs > 1 and count >= _MIN_PARALLEL else 1
    if jobs == 1:
        yield from ((rel, want, findings.measure_file(rel, want, blobs)) for rel, want, blobs in tasks)
        return
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    # Settings hold mapping proxies, which do not pickle: each worker reads them from the root, as --jobs does.
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start, initargs=(str(findings.settings.root),)) as pool:
        flight: deque[tuple[str, Wanted, Future[dict[str, _Measured]]]] = deque()
        for rel, want, blobs in tasks:
            flight.append((rel, want, pool.submit(_measure_task, (rel, want, blobs))))
            while len(flight) >= 2 * jobs:
                done = flight.popleft()
                yield done[0], done[1], done[2].result()
        while flight:
            done = flight.popleft()
            yield done[0], done[1], done[2].result()


def _start(root: str) -> None:
    from pathlib import Path

    from ..config import load_settings

    _WORKER["findings"] = BlobFindings(load_settings(Path(root)))


def _measure_task(task: tuple[str, Wanted, list[tuple[str, bytes]]]) -> dict[str, _Measured]:
    return _WORKER["findings"].measure_file(*task)


def _body_texts(data: Optional[bytes], path: str) -> dict[str, str]:
    """Unit key -> canonical name-less body text, of one blob (none when it is missing or does not parse)."""
    return {} if data is None else {key: body_text(node) for key, node in unit_nodes(data, path).items()}


def unit_nodes(data: bytes, path: str) -> dict[str, FunctionNode]:
    """Unit key -> its node, of one blob of any Python file (none when it does not parse): what a move of a
    unit is looked for in."""
    try:
        return {unit.key: unit.node for unit in find_units(parse(decode(data, path), path), path, "source")}
    except (SourceError, RecursionError, MemoryError):
        return {}


def likeness(a: list[str], b: list[str]) -> float:
    """How alike two units' canonical tokens are, 0 to 1: the Dice coefficient of their runs of three tokens
    (linear in their length and deterministic; one changed token changes at most three runs)."""
    runs_a = Counter(zip(a, a[1:], a[2:]))
    runs_b = Counter(zip(b, b[1:], b[2:]))
    total = sum(runs_a.values()) + sum(runs_b.values())
    return 2 * sum((runs_a & runs_b).values()) / total if total else float(a == b)
