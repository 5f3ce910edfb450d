# ladder: role=app
"""The cognitive complexity walk as it was before the fused traversal (issue 16), kept as the reference
``tests/test_traversal.py`` holds the new walk to. The rules it counts are stated in
``ladder_plugins/metrics/cognitive.py`` and ``metrics.md``.
"""

from __future__ import annotations

import ast
import symtable
from itertools import repeat
from typing import Mapping, Optional, Sequence

from ladder_plugins.analysis.astwalk import is_elif
from ladder_plugins.analysis.source import FunctionNode, ParsedSource, Unit

from .walk import children

__all__ = ["cognitive", "is_decorator_wrapper", "recursive_units"]

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
_MATCH = getattr(ast, "Match", None)


def _without_docstring(body: Sequence[ast.stmt]) -> Sequence[ast.stmt]:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return body[1:]
    return body


def is_decorator_wrapper(node: FunctionNode) -> bool:
    """sonar-python's wrapper: one nested ``def``, every other statement ``return <name>`` (no docstring)."""
    defs = [stmt for stmt in node.body if isinstance(stmt, _FUNCS)]
    simple = all(isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name)
                 for stmt in node.body if not isinstance(stmt, _FUNCS))
    return len(defs) == 1 and simple


def _bool_sequences(node: ast.BoolOp) -> tuple[int, list[ast.AST]]:
    """Runs of like operators in the flattened expression, and its non-boolean operands."""
    ops: list[type] = []
    leaves: list[ast.AST] = []
    work: list[object] = [node]
    while work:
        item = work.pop()
        if isinstance(item, ast.BoolOp):
            work.extend(_interleave(item))
        elif isinstance(item, type):
            ops.append(item)
        else:
            leaves.append(item)  # type: ignore[arg-type]
    runs = sum(1 for i, op in enumerate(ops) if i == 0 or op is not ops[i - 1])
    return runs, leaves


def _interleave(node: ast.BoolOp) -> list[object]:
    """``a op b op c`` as a work list in reverse (popped left to right)."""
    op = type(node.op)
    items: list[object] = []
    for value in node.values:
        items += [op, value]
    return list(reversed(items[1:]))


def _is_recursive_call(call: ast.Call, name: str, is_method: bool) -> bool:
    func = call.func
    if not is_method:
        return isinstance(func, ast.Name) and func.id == name
    return (
        isinstance(func, ast.Attribute)
        and func.attr == name
        and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls")
    )


class _Counter:
    """One unit's count: a work stack of (node, nesting) and a handler per construct."""

    def __init__(self, node: FunctionNode, is_method: bool) -> None:
        self.total = 0
        self.recursive = False
        self.node = node
        self.name = node.name
        self.is_method = is_method
        self.stack: list[tuple[ast.AST, int]] = []
        self.def_names: set[str] = set()  # nested functions, and the names called: what may recurse
        self.called: set[str] = set()
        self.flat_defs: set[int] = set()  # defs inside a decorator-style wrapper
        if is_decorator_wrapper(node):
            self.flat_defs.update(id(s) for s in node.body if isinstance(s, _FUNCS))
        self.push(node.body, 0)  # the unit's decorators and defaults are not its body

    def push(self, nodes: Sequence[ast.AST], nesting: int) -> None:
        self.stack.extend((child, nesting) for child in reversed(nodes))

    def run(self) -> int:
        handlers = _HANDLERS
        while self.stack:
            current, nesting = self.stack.pop()
            handler = handlers.get(type(current), _Counter.visit_other)
            handler(self, current, nesting)
        if not self.called & (self.def_names | {self.name}):
            return self.total + self.recursive
        module_calls, itself = _scoped_calls(self.node)
        self.recursive = self.recursive and (self.is_method or self.name in module_calls)
        return self.total + itself + self.recursive

    def visit_if(self, node: ast.If, nesting: int) -> None:
        self.total += 1 + nesting
        self.push([node.test], nesting)
        self.push(node.body, nesting + 1)
        while is_elif(node):
            node = node.orelse[0]  # type: ignore[assignment]
            self.total += 1
            self.push([node.test], nesting)
            self.push(node.body, nesting + 1)
        if node.orelse:
            self.total += 1
            self.push(node.orelse, nesting + 1)

    def visit_loop(self, node: ast.AST, nesting: int) -> None:
        self.total += 1 + nesting + bool(node.orelse)  # type: ignore[attr-defined]
        header = [node.test] if isinstance(node, ast.While) else [node.target, node.iter]  # type: ignore[attr-defined]
        self.push(header, nesting)
        self.push(node.body + node.orelse, nesting + 1)  # type: ignore[attr-defined]

    def visit_try(self, node: ast.AST, nesting: int) -> None:
        self.push(node.body + node.finalbody, nesting)  # type: ignore[attr-defined]
        if node.orelse:  # type: ignore[attr-defined]
            self.total += 1  # the white paper's "else" hybrid increment; its body nests
            self.push(node.orelse, nesting + 1)  # type: ignore[attr-defined]
        for handler in node.handlers:  # type: ignore[attr-defined]
            self.total += 1 + nesting
            self.push([handler.type] if handler.type is not None else [], nesting)
            self.push(handler.body, nesting + 1)

    def visit_match(self, node: ast.AST, nesting: int) -> None:
        self.total += 1 + nesting
        self.push([node.subject], nesting)  # type: ignore[attr-defined]
        for case in node.cases:  # type: ignore[attr-defined]
            self.push([case.guard] if case.guard is not None else [], nesting + 1)
            self.push(case.body, nesting + 1)

    def visit_ifexp(self, node: ast.IfExp, nesting: int) -> None:
        self.total += 1 + nesting
        self.push([node.test], nesting)
        self.push([node.body, node.orelse], nesting + 1)

    def visit_def(self, node: FunctionNode, nesting: int) -> None:
        depth = nesting if id(node) in self.flat_defs else nesting + 1
        self.def_names.add(node.name)
        if is_decorator_wrapper(node):
            self.flat_defs.update(id(s) for s in node.body if isinstance(s, _FUNCS))
        args = node.args
        defaults = args.defaults + [d for d in args.kw_defaults if d is not None]
        self.push(node.decorator_list + defaults, nesting)
        self.push(node.body, depth)

    def visit_lambda(self, node: ast.Lambda, nesting: int) -> None:
        args = node.args  # issue 29: its defaults count where the lambda is written
        self.push(args.defaults + [d for d in args.kw_defaults if d is not None], nesting)
        self.push([node.body], nesting + 1)

    def visit_boolop(self, node: ast.BoolOp, nesting: int) -> None:
        runs, leaves = _bool_sequences(node)
        self.total += runs
        self.push(leaves, nesting)

    def visit_call(self, node: ast.Call, nesting: int) -> None:
        self.recursive = self.recursive or _is_recursive_call(node, self.name, self.is_method)
        if isinstance(node.func, ast.Name):
            self.called.add(node.func.id)
        self.push(children(node), nesting)

    def visit_other(self, node: ast.AST, nesting: int) -> None:
        self.push(children(node), nesting)


_HANDLERS = {
    ast.If: _Counter.visit_if,
    ast.For: _Counter.visit_loop,
    ast.AsyncFor: _Counter.visit_loop,
    ast.While: _Counter.visit_loop,
    ast.IfExp: _Counter.visit_ifexp,
    ast.FunctionDef: _Counter.visit_def,
    ast.AsyncFunctionDef: _Counter.visit_def,
    ast.Lambda: _Counter.visit_lambda,
    ast.BoolOp: _Counter.visit_boolop,
    ast.Call: _Counter.visit_call,
    **{kind: _Counter.visit_try for kind in _TRIES},
    **({_MATCH: _Counter.visit_match} if _MATCH is not None else {}),
}


_SCOPES = {ast.Lambda: "lambda", ast.ListComp: "listcomp", ast.SetComp: "setcomp", ast.DictComp: "dictcomp",
           ast.GeneratorExp: "genexpr"}


def _defaults(args: ast.arguments) -> list[ast.AST]:
    return args.defaults + [d for d in args.kw_defaults if d is not None]


def _def_parts(node: FunctionNode) -> tuple[list[ast.AST], list[ast.AST]]:
    args = node.args
    every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
    annotations = [a.annotation for a in every if a.annotation] + ([node.returns] if node.returns else [])
    return node.decorator_list + _defaults(args) + annotations, node.body


def _comprehension_parts(node: ast.AST) -> tuple[list[ast.AST], list[ast.AST]]:
    first = node.generators[0]  # type: ignore[attr-defined]
    inner = [n for n in children(node) if n is not first] + [n for n in children(first) if n is not first.iter]
    return [first.iter], inner


def _scope_parts(node: ast.AST) -> tuple[list[ast.AST], list[ast.AST]]:
    """A scope's parts evaluated where it is written, and its parts inside it."""
    if isinstance(node, _FUNCS):
        return _def_parts(node)
    if isinstance(node, ast.Lambda):
        return _defaults(node.args), [node.body]
    if isinstance(node, ast.ClassDef):
        return node.decorator_list + node.bases + list(node.keywords), node.body
    return _comprehension_parts(node)


def _binding(name: str, chain: Sequence[symtable.SymbolTable]) -> Optional[symtable.SymbolTable]:
    """The table whose binding a use of ``name`` in the innermost table reaches; None: the module's."""
    for depth, table in enumerate(reversed(chain)):
        if depth and table.get_type() == "class":
            continue  # a class's names are not seen from inside its methods
        try:
            symbol = table.lookup(name)
        except KeyError:
            continue
        if symbol.is_global():
            return None
        if symbol.is_local():
            return table
    return None


class _Calls:
    """What :func:`_scoped_calls` finds: calls reaching the module, nested functions calling themselves."""

    def __init__(self) -> None:
        self.module: set[str] = set()
        self.defs: dict[tuple[int, str], int] = {}  # (table of the def statement, name) -> the def's own table
        self.itself: set[int] = set()
        self.used: set[int] = set()  # tables already matched to a scope node

    def call(self, name: str, chain: Sequence[symtable.SymbolTable]) -> None:
        bound = _binding(name, chain)
        if bound is None:
            self.module.add(name)
            return
        own = self.defs.get((bound.get_id(), name))
        if own in {t.get_id() for t in chain}:
            self.itself.add(own)  # type: ignore[arg-type]

    def open(self, node: ast.AST, name: str, chain: tuple[symtable.SymbolTable, ...]) -> list[tuple[ast.AST, tuple]]:
        """A scope node's parts, each with the tables it is read in."""
        outer, inner = _scope_parts(node)
        return [*zip(outer, repeat(chain)), *zip(inner, repeat((*chain, self.table(node, name, chain))))]

    def table(self, node: ast.AST, name: str, chain: Sequence[symtable.SymbolTable]) -> symtable.SymbolTable:
        """The symbol table of a scope node: same name, same line, first not yet taken."""
        table = next(t for t in chain[-1].get_children()
                     if t.get_name() == name and t.get_lineno() == node.lineno and t.get_id() not in self.used)
        self.used.add(table.get_id())
        if isinstance(node, _FUNCS):
            self.defs[(chain[-1].get_id(), name)] = table.get_id()
        return table


def _unit_table(node: FunctionNode) -> tuple[FunctionNode, symtable.SymbolTable]:
    """The unit written out alone, and its symbol table."""
    text = ast.unparse(node)
    unit = ast.parse(text).body[0]
    return unit, [t for t in symtable.symtable(text, "unit", "exec").get_children() if t.get_name() == unit.name][-1]


def _scoped_calls(node: FunctionNode) -> tuple[frozenset[str], int]:
    """issue 29, resolved by CPython's own symbol tables: the names the body calls where they are the
    module's, and how many nested functions call themselves (a call reaching the binding their def made)."""
    unit, top = _unit_table(node)
    found = _Calls()
    stack: list[tuple[ast.AST, tuple[symtable.SymbolTable, ...]]] = list(zip(unit.body, repeat((top,))))
    while stack:
        current, chain = stack.pop()
        if isinstance(current, ast.Call) and isinstance(current.func, ast.Name):
            found.call(current.func.id, chain)
        name = current.name if isinstance(current, (*_FUNCS, ast.ClassDef)) else _SCOPES.get(type(current))
        if name is None:
            stack.extend(zip(children(current), repeat(chain)))
        else:
            stack.extend(found.open(current, name, chain))
    return frozenset(found.module), len(found.itself)


def cognitive(node: FunctionNode, *, is_method: bool = False, in_cycle: bool = False) -> int:
    """Cognitive complexity of a function node, nested functions and lambdas included; ``in_cycle``:
    the unit is on a cycle of calls through other functions (see :func:`recursive_units`)."""
    counter = _Counter(node, is_method)
    total = counter.run()
    return total + (in_cycle and not counter.recursive)


def _callee(call: ast.Call, cls: str, by_name: Mapping[str, list[Unit]],
            methods: Mapping[tuple[str, str], list[Unit]]) -> Sequence[Unit]:
    """The file's units a call names: a function by name, or ``self.x``/``cls.x`` in class ``cls``."""
    func = call.func
    if isinstance(func, ast.Name):
        return by_name.get(func.id, ())
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
        return methods.get((cls, func.attr), ())
    return ()


def _callees(unit: Unit, by_name: Mapping[str, list[Unit]], methods: Mapping[tuple[str, str], list[Unit]],
             resolve: bool = False) -> set[str]:
    """Keys of the file's units that ``unit``'s body calls (issue 29: not its decorators and defaults);
    ``resolve``: only names that are the module's there."""
    cls = unit.key.rsplit(".", 1)[0] if unit.is_method else ""
    calls = [n for n in ast.walk(ast.Module(body=list(unit.node.body), type_ignores=[])) if isinstance(n, ast.Call)]
    if resolve:
        module = _scoped_calls(unit.node)[0]
        calls = [c for c in calls if not isinstance(c.func, ast.Name) or c.func.id in module]
    return {callee.key for call in calls for callee in _callee(call, cls, by_name, methods)}


def recursive_units(source: ParsedSource) -> frozenset[str]:
    """Keys of the units on a cycle of calls between the file's functions (worked out once per file)."""
    memo = source.memo.get("cognitive.recursive")
    if memo is None:
        memo = source.memo["cognitive.recursive"] = _cycles(source.units)
    return memo


def _cycles(units: Sequence[Unit]) -> frozenset[str]:
    by_name: dict[str, list[Unit]] = {}
    methods: dict[tuple[str, str], list[Unit]] = {}
    for unit in units:
        if unit.is_method:
            methods.setdefault((unit.key.rsplit(".", 1)[0], unit.short_name), []).append(unit)
        elif "." not in unit.key:
            by_name.setdefault(unit.short_name, []).append(unit)
    return _resolved_cycles(units, by_name, methods) if by_name or methods else frozenset()


def _resolved_cycles(units: Sequence[Unit], by_name: Mapping[str, list[Unit]],
                     methods: Mapping[tuple[str, str], list[Unit]]) -> frozenset[str]:
    """Cycles of the body's calls, names resolved for the units on a cycle of the unresolved calls."""
    edges = {unit.key: _callees(unit, by_name, methods) for unit in units}
    candidates = [unit for unit in units if _reaches(edges, unit.key)]
    edges.update({unit.key: _callees(unit, by_name, methods, resolve=True) for unit in candidates})
    return frozenset(unit.key for unit in candidates if _reaches(edges, unit.key))


def _reaches(edges: Mapping[str, set[str]], start: str) -> bool:
    """Whether a path of calls leads from ``start`` back to it."""
    seen: set[str] = set()
    stack = list(edges.get(start, ()))
    while stack:
        key = stack.pop()
        if key == start:
            return True
        if key not in seen:
            seen.add(key)
            stack.extend(edges.get(key, ()))
    return False
