"""Which past versions of a file need parsing at all (the cold git walk's cost is parsing).

Two versions of a file differ in one region of lines: what is left when their common
first and last lines are set aside. A unit asked about outside that region is in the
other version as it is in this one: the same text, the same qualified name, the same
role, only its lines moved by what the region grew or shrank. Such a version is not
parsed whole; only the statements the region touches are, alone, to know that the
version parses and which units they define, and a unit asked about among them is
measured there.

An :class:`Outline` is what that takes of a version: its lines, its statements (with,
for a class, the statements of its body) and the units each one defines, and where
the units asked about are. :func:`derive` makes the next version from the last one,
or says ``None`` where the version must be parsed whole:

- the change makes the file's header say "generated" where it did not, or the reverse,
  or holds a ``ladder:`` comment (a role pragma): the role may differ;
- a backslash ends a line the change made or removed, or the line before it: lines the
  region does not hold may be joined anew;
- the region's statements do not parse alone, in their class as the file nests them
  (a version that does not parse is parsed whole, and fails there), or it leaves a
  class without a statement;
- the region defines more or fewer units of a name asked about than it did (one came
  or went, or the ``#n`` of those after it may have changed);
- a changed unit asked about may call another unit of the file that may call it back
  (whether it recurses is then a fact of the whole file, :func:`_alone`).

The region is taken at the innermost class whose body holds all of it, so an edit of
one method parses that method, not its class. Statements are independent in Python's
grammar once each parses in its place, so a version whose region parses in place
parses whole; a region that would change how the lines after it nest (a dedent, an
open bracket) does not parse in place.

Where the change leaves the module's header (its first lines, down to its first statement
after the docstring) as it was, the version's file-level suppressions are the last one's
too: the outline keeps the header's end and its comments, for file rules measured from
the version's lines alone.

May import: ``analysis``. Must not import the rest of ``history``.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping, NamedTuple, Optional, Sequence

from ..analysis.roles import generated_header
from ..analysis.source import ParsedSource, Unit, find_units, header_lines, parse, read_comments
from ..errors import SourceError

__all__ = ["Derived", "Outline", "Spot", "derive", "first_line", "outline_of"]

#: a run of characters that holds no ASCII punctuation or white space: in code that parses, each name is one
#: (an identifier may hold characters ``\w`` does not, such as a middle dot)
_NAMEISH = re.compile(r"[^\s!-/:-@\[-^`{-~]+")


@dataclass(frozen=True)
class Spot:
    """Where a unit asked about is in one version: what its measurement depends on besides its text."""

    key: str
    line: int  # the ``def`` line
    first: int  # its first decorator's line, or ``line``
    end: int
    is_public: bool
    is_test: bool

    def moved(self, by: int) -> "Spot":
        return replace(self, line=self.line + by, first=self.first + by, end=self.end + by)


class Span(NamedTuple):
    """A unit of a version: its qualified name and lines, its first decorator's to its last."""

    name: str
    first: int
    end: int


@dataclass(frozen=True)
class Statement:
    """One statement of a module or class body: its lines (decorators included) and the units it defines."""

    start: int
    end: int
    units: tuple["Span", ...]  # the units defined in it, at any depth of classes, in order
    body: Optional["Block"] = None  # a class's body, when it starts on a line of its own

    def moved(self, by: int) -> "Statement":
        body = None if self.body is None else self.body.moved(by)
        units = tuple(Span(name, first + by, end + by) for name, first, end in self.units)
        return Statement(self.start + by, self.end + by, units, body)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(span.name for span in self.units)


@dataclass(frozen=True)
class Block:
    """The statements of the module, or of one class's body (``name``), indented by ``indent``."""

    statements: tuple[Statement, ...]
    indent: str
    name: str = ""

    def moved(self, by: int) -> "Block":
        return Block(tuple(s.moved(by) for s in self.statements), self.indent, self.name)

    def names(self) -> tuple[str, ...]:
        return tuple(name for s in self.statements for name in s.names)

    def units(self) -> tuple["Span", ...]:
        return tuple(span for s in self.statements for span in s.units)


@dataclass(frozen=True)
class Outline:
    """One version of a file as :func:`derive` needs it."""

    lines: Sequence[str]
    module: Block
    spots: tuple[Spot, ...]  # the units asked about that this version holds, in source order
    role: str
    generated: bool  # whether its header marks it generated (its role may come from that)
    #: the last line of the module's header (``None``: not known) and the comments up to it (line 1's too),
    #: which file-level suppressions are read from
    header: Optional[int] = None
    header_comments: Mapping[int, str] = field(default_factory=dict)

    def header_kept(self, changed: int, then: "Outline") -> "Outline":
        """``then`` (the next version, changed from line ``changed`` on) with this one's header, where the
        change left it as it was."""
        kept = self.header is not None and changed > self.header + 1
        return replace(then, header=self.header, header_comments=self.header_comments) if kept else then

    def before(self, line: int) -> list[Spot]:
        return [spot for spot in self.spots if spot.end < line]

    def after(self, line: int, by: int) -> list[Spot]:
        """The spots after ``line``, moved by ``by`` lines."""
        return [spot.moved(by) for spot in self.spots if spot.first > line]


def outline_of(parsed: ParsedSource, wanted: frozenset[str]) -> Outline:
    """The outline of a parsed version, for the units ``wanted`` (keys)."""
    spots = tuple(_spot(u) for u in parsed.units if u.key in wanted)
    header = header_lines(parsed.tree)
    comments = {line: text for line, text in parsed.comments.items() if line <= max(header, 1)}
    return Outline(parsed.lines, _block(parsed.tree.body, parsed.lines, _defined(parsed.units), "", ""), spots,
                   parsed.role, generated_header(parsed.text[:2000]), header, comments)


def _defined(units: Sequence[Unit]) -> list[tuple[int, Span]]:
    """(def line, span) of every unit, in line order."""
    return [(u.line, Span(u.name, first_line(u), u.end_line)) for u in units]


def first_line(unit: Unit) -> int:
    """A unit's first line: its first decorator's, or its ``def``'s."""
    return min([unit.line] + [d.lineno for d in unit.node.decorator_list])


def _block(body: Sequence[ast.stmt], lines: Sequence[str], defined: Sequence[tuple[int, Span]], indent: str,
           name: str) -> Block:
    """The outline of one body; ``defined``: (def line, span) of every unit, in line order."""
    statements = []
    at = [line for line, _ in defined]
    for node in body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        end = node.end_lineno or node.lineno
        units = tuple(span for _, span in defined[bisect_left(at, start):bisect_right(at, end)])
        inner = _body(node, lines, defined) if isinstance(node, ast.ClassDef) else None
        statements.append(Statement(start, end, units, inner))
    return Block(tuple(statements), indent, name)


def _body(node: ast.ClassDef, lines: Sequence[str], defined: Sequence[tuple[int, Span]]) -> Optional[Block]:
    """A class's body, where its first statement starts a line of its own (not ``class C: x = 1``)."""
    first = node.body[0]
    if first.lineno <= node.lineno or first.lineno > len(lines):
        return None
    lead = lines[first.lineno - 1][:first.col_offset]
    return _block(node.body, lines, defined, lead, node.name) if lead and not lead.strip() else None


@dataclass(frozen=True)
class Derived:
    """A version made from the last one: its outline and, parsed where they stand, the units asked about
    that the statements its change met define (keys and lines as the version has them), with the tree
    and comments measuring them takes."""

    outline: Outline
    changed: tuple[Unit, ...] = ()
    tree: Optional[ast.Module] = None
    comments: Mapping[int, str] = field(default_factory=dict)


def derive(last: Outline, text: str, lines: Sequence[str], path: str, wanted: frozenset[str]) -> Optional[Derived]:
    """The version of ``text`` (``lines``, the file at ``path``) made from ``last``; ``None`` when it must be
    parsed whole: its change reaches its role, its region does not parse in place, a unit asked about comes,
    goes or is numbered anew, or one the change met may call another unit (whether it recurses is then a
    fact of the whole file)."""
    found = _where(last, text, lines)
    if found is None:
        return None
    site, changed_from, grown = found
    fragment = _parse_in_place(site, lines, grown, (path, last.role))
    if fragment is None or not _same_asked(site.met.names(), fragment.units, wanted):
        return None
    module = _spliced(site, fragment.statements, grown)
    changed = _keyed(site, fragment.units, wanted)
    if module is None or not all(_alone(unit, lines, module.units()) for unit in changed):
        return None
    spots = (*last.before(site.start), *map(_spot, changed), *last.after(site.end, grown))
    outline = last.header_kept(changed_from, Outline(lines, module, spots, last.role, last.generated))
    return Derived(outline, tuple(changed), fragment.tree, read_comments(fragment.text) if changed else {})


def _where(last: Outline, text: str, lines: Sequence[str]) -> Optional[tuple["_Site", int, int]]:
    """Where the version of ``text`` (``lines``) differs from ``last``: the site, the first line changed and
    how many lines it grew by; ``None`` where its role may differ or the change may join lines the region
    does not hold."""
    region = _region(last.lines, lines)
    if region is None or generated_header(text[:2000]) != last.generated:
        return None
    site = _descend(last.module, *region[:2])
    return None if _continued(last.lines, lines, region, site.start) else (site, min(site.start, region[0]),
                                                                           region[2])


def _continued(old: Sequence[str], new: Sequence[str], region: tuple[int, int, int], start: int) -> bool:
    """Whether a backslash continues a line the change made or removed, or the line before the region: such
    a line outside a statement joins the next one to it, so the statements after it may nest anew."""
    lo, hi, grown = region
    before = new[start - 2:start - 1] if start >= 2 else []
    return any(line.endswith("\\") for line in (*before, *old[lo - 1:hi], *new[lo - 1:hi + grown]))


def _same_asked(before: Sequence[str], after: Sequence[Unit], wanted: frozenset[str]) -> bool:
    """Whether the region defines as many units of each name asked about as it did: else one came or went,
    and the units of its name after the region may be numbered anew."""
    asked = {key.split("#", 1)[0] for key in wanted}
    return Counter(n for n in before if n in asked) == Counter(u.name for u in after if u.name in asked)


def _spot(unit: Unit) -> Spot:
    return Spot(unit.key, unit.line, first_line(unit), unit.end_line, unit.is_public, unit.is_test)


def _keyed(site: "_Site", units: Sequence[Unit], wanted: frozenset[str]) -> list[Unit]:
    """The units asked about among ``units`` (the region's), keyed as the whole file numbers them: after
    the units of the same name before the region."""
    seen = Counter(name for outer, at in site.chain for s in outer.statements[:at] for name in s.names)
    seen.update(name for s in site.block.statements if s.end < site.start for name in s.names)
    found = []
    for unit in units:
        seen[unit.name] += 1
        key = unit.name if seen[unit.name] == 1 else f"{unit.name}#{seen[unit.name]}"
        if key in wanted:
            found.append(replace(unit, key=key))
    return found


def _alone(unit: Unit, lines: Sequence[str], units: Sequence[Span]) -> bool:
    """Whether no path of calls can lead from ``unit`` back to it through another unit of the file (``units``:
    all of them): then whether it recurses is its own text's business. A call of a unit names it, so a path
    of calls is a path of words: from a unit to each function of the module, and (from a method) each method
    of its class, that a word of its text names."""
    named: dict[tuple[str, str], list[Span]] = {}
    for span in units:
        scope, _, short = span.name.rpartition(".")
        named.setdefault((scope, short), []).append(span)
    me = Span(unit.name, first_line(unit), unit.end_line)
    todo, seen = [me], {me}
    while todo:
        caller = todo.pop()
        callees = _callees(caller, "\n".join(lines[caller.first - 1:caller.end]), named)
        if caller != me and me in callees:
            return False
        todo += [callee for callee in callees if callee not in seen]
        seen.update(callees)
    return True


def _callees(caller: Span, text: str, named: Mapping[tuple[str, str], list[Span]]) -> set[Span]:
    """The units a word of ``text`` (``caller``'s) names: functions of the module, methods of its class. Python
    reads names NFKC-normalised (a fullwidth letter is the plain one), and so are the words here."""
    scope = caller.name.rpartition(".")[0]
    found: set[Span] = set()
    for word in {w if w.isascii() else unicodedata.normalize("NFKC", w) for w in _NAMEISH.findall(text)}:
        found.update(named.get(("", word), ()))
        found.update(named.get((scope, word), ()) if scope else ())
    return found


def _spliced(site: "_Site", fresh: tuple[Statement, ...], grown: int) -> Optional[Block]:
    """The module with the statements ``site`` met replaced by ``fresh`` and every line after them moved by
    ``grown``; ``None`` where that leaves a class without a statement."""
    before: list[Statement] = []
    after: list[Statement] = []
    for s in site.block.statements:  # the statements met are neither
        if s.end < site.start:
            before.append(s)
        elif s.start > site.end:
            after.append(s.moved(grown))
    if site.chain and not (before or fresh or after):
        return None
    rebuilt = Block((*before, *fresh, *after), site.block.indent, site.block.name)
    for outer, at in reversed(site.chain):
        holder = outer.statements[at]
        rest = Block(outer.statements[at + 1:], outer.indent).moved(grown)
        rebuilt = Block((*outer.statements[:at], Statement(holder.start, holder.end + grown, rebuilt.units(), rebuilt),
                         *rest.statements), outer.indent, outer.name)
    return rebuilt


def _region(old: Sequence[str], new: Sequence[str]) -> Optional[tuple[int, int, int]]:
    """Where ``new`` differs from ``old``: (lo, hi, grown), the lines ``lo``..``hi`` of ``old`` (1-based;
    ``hi = lo - 1`` where lines were only added) became ``hi - lo + 1 + grown`` lines; ``None`` where the
    difference holds a ``ladder:`` comment (a role pragma, and suppressions the region's units do not hold)."""
    same = min(len(old), len(new))
    head = 0
    while head < same and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < same - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    if any("ladder:" in line.lower() for line in (*old[head:len(old) - tail], *new[head:len(new) - tail])):
        return None
    return head + 1, len(old) - tail, len(new) - len(old)


@dataclass(frozen=True)
class _Site:
    """Where a change falls: the blocks and classes leading to the innermost block that holds it, that
    block, the statements of it the change meets, and the lines ``start``..``end`` they and it cover."""

    chain: tuple[tuple[Block, int], ...]
    block: Block
    met: Block
    start: int
    end: int


def _descend(module: Block, lo: int, hi: int) -> _Site:
    """Where lines ``lo``..``hi`` of the old version fall: a class's body holds them when they are inside it,
    past its header."""
    chain: list[tuple[Block, int]] = []
    block = module
    touched = _touched(block, lo, hi)
    while len(touched) == 1:
        holder = block.statements[touched[0]]
        if holder.body is None or lo < holder.body.statements[0].start or hi > holder.end:
            break
        chain.append((block, touched[0]))
        block = holder.body
        touched = _touched(block, lo, hi)
    met = [block.statements[at] for at in touched]
    return _Site(tuple(chain), block, Block(tuple(met), block.indent), min([s.start for s in met] + [lo]),
                 max([s.end for s in met] + [hi]))


def _touched(block: Block, lo: int, hi: int) -> list[int]:
    """The positions of the statements of ``block`` that lines ``lo``..``hi`` meet (where ``hi < lo``, lines
    added before ``lo``: the statement they fall inside)."""
    if hi < lo:
        return [at for at, s in enumerate(block.statements) if s.start < lo <= s.end]
    return [at for at, s in enumerate(block.statements) if s.start <= hi and s.end >= lo]


@dataclass(frozen=True)
class _Fragment:
    """A region of a version parsed where it stands: its statements and units (lines as the version has
    them, keys as the region alone numbers them), the tree, and the text parsed (its lines the version's)."""

    statements: tuple[Statement, ...]
    units: tuple[Unit, ...] = ()
    tree: Optional[ast.Module] = None
    text: str = ""


def _parse_in_place(site: _Site, lines: Sequence[str], grown: int, file: tuple[str, str]) -> Optional[_Fragment]:
    """The new version's statements where the old one's ``site`` was, parsed where they stand: after the
    headers of the classes the site's chain leads to and a statement at the body's indentation; ``None``
    when they do not parse there alone. ``file``: the file's path and role."""
    region = lines[site.start - 1:site.end + grown]
    if not region:
        return _Fragment(())
    prelude = _prelude(site, lines)
    pad = site.start - 1 - len(prelude)  # blank lines, so that the region's lines are the version's
    if pad < 0:
        return None
    text = "\n" * pad + "\n".join([*prelude, *region]) + "\n"
    try:
        tree = parse(text, file[0])
    except (SourceError, RecursionError, MemoryError):
        return None
    body: list[ast.stmt] = tree.body
    for _ in site.chain:  # each header holds just the next one, and the innermost the region after its "pass"
        if len(body) != 1 or not isinstance(body[0], ast.ClassDef):
            return None
        body = body[0].body
    units = find_units(tree, *file)  # the file's role: which units are tests
    found = _block(body[1:] if site.chain else body, lines, _defined(units), site.block.indent, site.block.name)
    return _Fragment(found.statements, units, tree, text)


def _prelude(site: _Site, lines: Sequence[str]) -> list[str]:
    """The lines that put a region where it stands: its classes' own headers (decorators, bases and all),
    then a statement at the body's indentation."""
    if not site.chain:
        return []
    headers = [line for outer, at in site.chain for line in _header(outer.statements[at], lines)]
    return [*headers, f"{site.block.indent}pass"]


def _header(holder: Statement, lines: Sequence[str]) -> Sequence[str]:
    assert holder.body is not None  # a statement of the chain is a class with a body
    return lines[holder.start - 1:holder.body.statements[0].start - 1]
