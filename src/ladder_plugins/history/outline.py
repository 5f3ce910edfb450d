"""Which past versions of a file need parsing at all (the cold git walk's cost is parsing).

Two versions of a file differ in one region of lines: what is left when their common
first and last lines are set aside. If that region meets none of the units asked
about, those units are in the other version as they are in this one: the same text,
the same qualified name, the same role, only their lines moved by what the region
grew or shrank. Such a version is not parsed whole; only the statements the region
touches are, alone, to know that the version parses and which units they define.

An :class:`Outline` is what that takes of a version: its lines, its statements (with,
for a class, the statements of its body) and the qualified names of the units each
one defines, and where the units asked about are. :func:`derive` makes the next
version's outline from the last one, or says ``None`` where the version must be
parsed whole:

- the region reaches the file's first lines (its encoding declaration, the header a
  generated file is known by) or holds a ``ladder:`` comment (a role pragma);
- a statement the region touches, or one it holds now, defines a unit of a name asked
  about (so the unit changed, appeared, went, or its ``#n`` may have);
- the region's statements do not parse alone, in their class as the file nests them
  (a version that does not parse is parsed whole, and fails there);
- the region leaves a class without a statement.

The region is taken at the innermost class whose body holds all of it, so an edit of
one method parses that method, not its class. Statements are independent in Python's
grammar once each parses in its place, so a version whose region parses in place
parses whole; a region that would change how the lines after it nest (a dedent, an
open bracket) does not parse in place.

May import: ``analysis.source``. Must not import the rest of ``history``.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from ..analysis.source import ParsedSource, find_units, parse
from ..errors import SourceError

__all__ = ["Outline", "Spot", "derive", "outline_of"]

#: lines at the top of a file that decide its decoding and its role (roles reads 5; the encoding is in 2)
_HEAD_LINES = 5


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


@dataclass(frozen=True)
class Statement:
    """One statement of a module or class body: its lines (decorators included) and the units it defines."""

    start: int
    end: int
    names: frozenset[str]  # qualified names of the units defined in it, at any depth of classes
    body: Optional["Block"] = None  # a class's body, when it starts on a line of its own

    def moved(self, by: int) -> "Statement":
        body = None if self.body is None else self.body.moved(by)
        return Statement(self.start + by, self.end + by, self.names, body)


@dataclass(frozen=True)
class Block:
    """The statements of the module, or of one class's body (``name``), indented by ``indent``."""

    statements: tuple[Statement, ...]
    indent: str
    name: str = ""

    def moved(self, by: int) -> "Block":
        return Block(tuple(s.moved(by) for s in self.statements), self.indent, self.name)

    def names(self) -> frozenset[str]:
        return frozenset().union(*(s.names for s in self.statements))


@dataclass(frozen=True)
class Outline:
    """One version of a file as :func:`derive` needs it."""

    lines: Sequence[str]
    module: Block
    spots: tuple[Spot, ...]  # the units asked about that this version holds, in source order
    role: str


def outline_of(parsed: ParsedSource, wanted: frozenset[str]) -> Outline:
    """The outline of a parsed version, for the units ``wanted`` (keys)."""
    spots = tuple(Spot(u.key, u.line, min([u.line] + [d.lineno for d in getattr(u.node, "decorator_list", [])]),
                       u.end_line, u.is_public, u.is_test) for u in parsed.units if u.key in wanted)
    defined = [(u.line, u.name) for u in parsed.units]
    return Outline(parsed.lines, _block(parsed.tree.body, parsed.lines, defined, "", ""), spots, parsed.role)


def _block(body: Sequence[ast.stmt], lines: Sequence[str], defined: Sequence[tuple[int, str]], indent: str,
           name: str) -> Block:
    """The outline of one body; ``defined``: (def line, qualified name) of every unit, in line order."""
    statements = []
    at = [line for line, _ in defined]
    for node in body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        end = node.end_lineno or node.lineno
        names = frozenset(name for _, name in defined[bisect_left(at, start):bisect_right(at, end)])
        inner = _body(node, lines, defined) if isinstance(node, ast.ClassDef) else None
        statements.append(Statement(start, end, names, inner))
    return Block(tuple(statements), indent, name)


def _body(node: ast.ClassDef, lines: Sequence[str], defined: Sequence[tuple[int, str]]) -> Optional[Block]:
    """A class's body, where its first statement starts a line of its own (not ``class C: x = 1``)."""
    first = node.body[0]
    if first.lineno <= node.lineno or first.lineno > len(lines):
        return None
    lead = lines[first.lineno - 1][:first.col_offset]
    return _block(node.body, lines, defined, lead, node.name) if lead and not lead.strip() else None


def derive(last: Outline, lines: Sequence[str], path: str, wanted: frozenset[str]) -> Optional[Outline]:
    """The outline of the version of ``lines`` (the file at ``path``), made from ``last``'s, when the region
    the two differ in touches no unit of a name in ``wanted``; ``None`` when the version must be parsed."""
    region = _region(last.lines, lines)
    if region is None:
        return None
    site = _descend(last.module, *region[:2])
    asked = {key.split("#", 1)[0] for key in wanted}
    if site.met.names() & asked:
        return None
    grown = region[2]
    fresh = _parse_in_place(site, lines[site.start - 1:site.end + grown], path)
    if fresh is None or Block(fresh, "").names() & asked:
        return None
    module = _spliced(site, fresh, grown)
    if module is None:
        return None
    return Outline(lines, module, tuple(s.moved(grown if s.line > site.end else 0) for s in last.spots), last.role)


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
        rebuilt = Block((*outer.statements[:at], Statement(holder.start, holder.end + grown, rebuilt.names(), rebuilt),
                         *rest.statements), outer.indent, outer.name)
    return rebuilt


def _region(old: Sequence[str], new: Sequence[str]) -> Optional[tuple[int, int, int]]:
    """Where ``new`` differs from ``old``: (lo, hi, grown), the lines ``lo``..``hi`` of ``old`` (1-based;
    ``hi = lo - 1`` where lines were only added) became ``hi - lo + 1 + grown`` lines; ``None`` where the
    difference reaches the file's first lines or a ``ladder:`` comment, which decide the file's role."""
    same = min(len(old), len(new))
    head = 0
    while head < same and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < same - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    if head < _HEAD_LINES and not head == len(old) == len(new):
        return None
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


def _parse_in_place(site: _Site, region: Sequence[str], path: str) -> Optional[tuple[Statement, ...]]:
    """The statements of ``region`` (the new version's lines from line ``site.start``) parsed where they
    stand: inside the classes the site's chain leads to, each header at its own indentation, after a
    statement at the body's indentation; ``None`` when they do not parse there alone."""
    if not region:
        return ()
    prelude = _prelude(site)
    try:
        tree = parse("\n".join([*prelude, *region]) + "\n", path)
    except (SourceError, RecursionError, MemoryError):
        return None
    body: list[ast.stmt] = tree.body
    for _ in site.chain:  # each wrapper holds just the next one, and the innermost the region after its "pass"
        if len(body) != 1 or not isinstance(body[0], ast.ClassDef):
            return None
        body = body[0].body
    defined = [(u.line, u.name) for u in find_units(tree, path, "app")]
    lines = [""] * len(prelude) + list(region)
    found = _block(body[1:] if site.chain else body, lines, defined, site.block.indent, site.block.name)
    return found.moved(site.start - 1 - len(prelude)).statements


def _prelude(site: _Site) -> list[str]:
    """The lines that put a region where it stands: its classes' headers, then a statement of the body."""
    if not site.chain:
        return []
    chain = [outer for outer, _ in site.chain]
    headers = [f"{outer.indent}class {inner.name}:" for outer, inner in zip(chain, [*chain[1:], site.block])]
    return [*headers, f"{site.block.indent}pass"]
