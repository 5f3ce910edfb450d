"""One iterative walk per unit that counts every built-in per-unit metric at once.

Four separate tree walks (radon's recursive visitor among them) were half of a
run; one walk with one dispatch per node does their work. Each metric keeps its own
reach, carried as bits per *batch* of children (a body, a nested ``def``'s parts, a
``lambda``) rather than per node:

* cyclomatic (radon's rules exactly, see :mod:`.cyclomatic`) skips nested functions
  and classes whole, and the inside of an ``assert``;
* cognitive (:mod:`.cognitive`) skips a nested function's annotations and ``case``
  patterns, and carries the nesting level;
* ABC (:mod:`.abc`), assertions and the calls that find recursion see everything
  below the unit's body.

Leaf nodes (names, constants, ``pass``) are never pushed: no metric counts them,
and they are almost half of the nodes inside units. Iterative, so no recursion
limit, however deep the code.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from ..analysis.astwalk import field_table, fields_of, is_elif
from ..analysis.source import FunctionNode, ParsedSource, Unit
from .constructs import (
    FUNCTIONS, binds, bool_runs, calls_itself, is_assertion, is_decorator_wrapper, is_wildcard_case,
    iterating_blocks, outside_calls, params, targets,
)

__all__ = ["UnitMeasures", "measure_node", "unit_measures"]

_RADON = 1  # cyclomatic counts here
_COG = 2  # cognitive counts here
_CARRY = _RADON | _COG  # what children inherit of their batch's bits
_ELIF = 4  # cognitive: the If of this batch is an elif branch (+1, no nesting bonus)
_INBOOL = 8  # cognitive: a BoolOp of this batch is part of a boolean sequence already counted
_SCALARS = frozenset({"ctx", "op", "ops", "id", "arg", "attr", "name", "names", "module", "level", "is_async",
                      "simple", "kind", "conversion", "tag", "asname", "type_comment", "kwd_attrs", "rest"})


@dataclass(frozen=True)
class UnitMeasures:
    """What one walk over a unit counted."""

    cyclomatic: int  #: radon's number, ``assert`` statements counted
    radon_asserts: int  #: ``assert`` statements radon reaches (subtracted for ``no_assert``)
    cognitive: int  #: without the recursion increment
    recursive: bool  #: the unit calls itself (``name()``, or ``self.name()`` in a method)
    abc: tuple[int, int, int]
    assertions: int  #: 0 unless asked for
    #: ``f`` of every ``f(...)`` in the unit's body, locals of the same name too (:func:`.constructs.outside_calls`
    #: resolves them where it matters: for the units that may be on a cycle)
    called_names: frozenset[str]
    called_methods: frozenset[str]  #: ``m`` of every ``self.m(...)``/``cls.m(...)``


_FIELDS: Mapping[type, tuple[str, ...]] = field_table(_SCALARS)  # the fields that may hold nodes
_LEAVES = frozenset({type(None), ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.Global,
                     ast.Nonlocal, ast.Import, ast.ImportFrom, ast.alias})


def _children(node: ast.AST) -> list[ast.AST]:
    """The child nodes any metric may count, leaves left out."""
    leaves = _LEAVES
    found: list[ast.AST] = []
    fields = _FIELDS.get(type(node))
    for name in fields_of(type(node), _SCALARS) if fields is None else fields:
        value = getattr(node, name, None)
        if type(value) is list:
            found += [item for item in value if type(item) not in leaves]
        elif type(value) not in leaves and isinstance(value, ast.AST):
            found.append(value)
    return found


def _annotations(node: FunctionNode) -> list[ast.AST]:
    """A nested function's annotations and type parameters: ABC sees them, cognitive does not."""
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]
    found: list[ast.AST] = [a.annotation for a in every if a.annotation is not None]
    return found + ([node.returns] if node.returns else []) + list(getattr(node, "type_params", ()))


def _defaults(args: ast.arguments) -> list[ast.AST]:
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None)]


class _Walk:
    """The counters of one unit and the stack of batches still to visit: (nodes, nesting, bits)."""

    __slots__ = ("cc", "radon_asserts", "cog", "recursive", "a", "b", "c", "assertions", "helpers", "name",
                 "is_method", "names", "methods_called", "class_methods", "flat", "stack")

    def __init__(self, node: FunctionNode, is_method: bool, helpers: Optional[Sequence[str]]) -> None:
        self.cc, self.radon_asserts, self.cog, self.recursive = 1, 0, 0, False
        self.a = self.b = self.c = self.assertions = 0
        self.helpers = helpers  # None: assertions are not counted (not a test)
        self.name, self.is_method = node.name, is_method
        self.names: set[str] = set()
        self.methods_called: set[str] = set()
        self.class_methods: set[int] = set()  # ABC: methods of a class defined in the unit (self/cls free)
        self.flat: set[int] = set()  # cognitive: defs in a decorator-style wrapper, no nesting increment
        self.flatten(node)
        self.stack: list[tuple[Sequence[ast.AST], int, int]] = [(node.body, 0, _CARRY)]

    def flatten(self, node: FunctionNode) -> None:
        """A decorator-style wrapper does not raise the nesting of the function it defines."""
        if is_decorator_wrapper(node):
            self.flat.update(id(s) for s in node.body if isinstance(s, FUNCTIONS))

    def run(self) -> None:
        stack, kinds, handlers, children = self.stack, _KINDS, _HANDLERS, _children
        while stack:
            nodes, nesting, bits = stack.pop()
            for node in nodes:
                kind = kinds.get(type(node))
                if kind is None:
                    found = children(node)
                    if found:
                        stack.append((found, nesting, bits & _CARRY))
                elif kind:
                    handlers[kind](self, node, nesting, bits)

    def push(self, nodes: Sequence[ast.AST], nesting: int, bits: int) -> None:
        if nodes:
            self.stack.append((nodes, nesting, bits))

    def visit_if(self, node: ast.If, nesting: int, bits: int) -> None:
        elif_ = is_elif(node)
        self.cc += bits & _RADON
        self.c += 1 + (bool(node.orelse) and not elif_)
        carry = bits & _CARRY
        self.push([node.test], nesting, carry)
        if not bits & _COG:
            self.push(node.body + node.orelse, nesting, carry)
            return
        self.cog += 1 if bits & _ELIF else 1 + nesting
        self.push(node.body, nesting + 1, carry)
        if elif_:
            self.push(node.orelse, nesting, carry | _ELIF)
        elif node.orelse:
            self.cog += 1
            self.push(node.orelse, nesting + 1, carry)

    def visit_loop(self, node: Any, nesting: int, bits: int) -> None:
        orelse = bool(node.orelse)
        self.cc += (bits & _RADON) and 1 + orelse
        self.c += 1 + orelse
        if bits & _COG:
            self.cog += 1 + nesting + orelse
        if type(node) is ast.While:
            header = [node.test]
        else:
            self.a += 1 + targets(node.target)  # RuboCop: a `for` is an assignment itself
            header = [node.target, node.iter]
        carry = bits & _CARRY
        self.push(header, nesting, carry)
        self.push(node.body + node.orelse, nesting + 1, carry)

    def visit_try(self, node: Any, nesting: int, bits: int) -> None:
        handlers = node.handlers
        if bits & _RADON and type(node) is ast.Try:  # radon 6 counts no `except*` (TryStar)
            self.cc += len(handlers) + bool(node.orelse)
        self.c += bool(handlers)
        carry = bits & _CARRY
        self.push(node.body + node.finalbody, nesting, carry)
        if node.orelse:
            self.cog += (bits & _COG) and 1
            self.push(node.orelse, nesting + 1, carry)
        self.push(handlers, nesting, carry)

    def visit_handler(self, node: ast.ExceptHandler, nesting: int, bits: int) -> None:
        if node.name:
            self.a += binds(node.name)
        if bits & _COG:
            self.cog += 1 + nesting
        if node.type is not None:
            self.push([node.type], nesting, bits)
        self.push(node.body, nesting + 1, bits)

    def visit_match(self, node: Any, nesting: int, bits: int) -> None:
        cases = node.cases
        if bits & _RADON:  # radon: each case, but one `case _`/`case name` (guard or not) is the else
            self.cc += max(0, len(cases) - any(getattr(c.pattern, "pattern", False) is None for c in cases))
        if bits & _COG:
            self.cog += 1 + nesting
        self.push([node.subject], nesting, bits & _CARRY)
        self.push(cases, nesting + 1, bits & _CARRY)

    def visit_case(self, node: Any, nesting: int, bits: int) -> None:
        """A ``case`` (nesting already one deeper); its pattern holds nothing any metric counts."""
        self.c += not is_wildcard_case(node)
        self.push(node.body + ([node.guard] if node.guard is not None else []), nesting, bits)

    def visit_ifexp(self, node: ast.IfExp, nesting: int, bits: int) -> None:
        self.cc += bits & _RADON
        self.c += 1
        if bits & _COG:
            self.cog += 1 + nesting
        carry = bits & _CARRY
        self.push([node.test], nesting, carry)
        self.push([node.body, node.orelse], nesting + 1, carry)

    def visit_def(self, node: FunctionNode, nesting: int, bits: int) -> None:
        """A nested function: radon leaves it to itself; cognitive nests its body (unless the
        enclosing function is a decorator-style wrapper) and counts a self-call."""
        self.a += params(node.args, skip_first=id(node) in self.class_methods)
        outer = _defaults(node.args) + node.decorator_list
        if bits & _COG:
            self.cog += calls_itself(node, in_class=id(node) in self.class_methods)
            depth = nesting if id(node) in self.flat else nesting + 1
            self.flatten(node)
            self.push(outer, nesting, _COG)
            self.push(node.body, depth, _COG)
        else:
            self.push([*outer, *node.body], nesting, 0)
        self.push(_annotations(node), nesting, 0)

    def visit_class(self, node: ast.ClassDef, nesting: int, bits: int) -> None:
        """A class inside the unit: radon leaves it to itself; its methods' ``self``/``cls`` is no
        ABC assignment."""
        self.class_methods.update(id(s) for s in node.body if isinstance(s, FUNCTIONS))
        self.push(_children(node), nesting, bits & _COG)

    def visit_lambda(self, node: ast.Lambda, nesting: int, bits: int) -> None:
        self.a += params(node.args, skip_first=False)
        carry = bits & _CARRY
        self.push([node.body], nesting + 1, carry)
        self.push(_defaults(node.args), nesting, carry)  # evaluated where the lambda is written, as a def's

    def visit_boolop(self, node: ast.BoolOp, nesting: int, bits: int) -> None:
        operators = len(node.values) - 1
        self.cc += (bits & _RADON) and operators
        self.c += operators
        if bits & _COG and not bits & _INBOOL:
            self.cog += bool_runs(node)
        self.push(node.values, nesting, (bits & _CARRY) | _INBOOL)

    def visit_call(self, node: ast.Call, nesting: int, bits: int) -> None:
        self.b += 1
        self.c += iterating_blocks(node)
        name, is_method = _called(node)
        if name:
            (self.methods_called if is_method else self.names).add(name)
            itself = name == self.name and is_method == self.is_method
            self.recursive = self.recursive or bool(itself and bits & _COG)
        if self.helpers is not None:
            self.assertions += is_assertion(node, self.helpers)
        self.push(_children(node), nesting, bits & _CARRY)

    def visit_assert(self, node: ast.Assert, nesting: int, bits: int) -> None:
        """radon counts an ``assert`` and does not look inside it."""
        self.cc += bits & _RADON
        self.radon_asserts += bits & _RADON
        self.assertions += self.helpers is not None
        self.push(_children(node), nesting, bits & _COG)

    def visit_assign(self, node: ast.Assign, nesting: int, bits: int) -> None:
        for target in node.targets:
            self.a += targets(target)
        self.push(_children(node), nesting, bits & _CARRY)

    def visit_target(self, node: Any, nesting: int, bits: int) -> None:
        """``+=`` and friends, ``:=``, an annotated assignment with a value, ``with ... as``."""
        target = node.optional_vars if type(node) is ast.withitem else node.target
        if target is not None and not (type(node) is ast.AnnAssign and node.value is None):
            self.a += targets(target)
        self.push(_children(node), nesting, bits & _CARRY)

    def visit_comprehension(self, node: ast.comprehension, nesting: int, bits: int) -> None:
        decisions = 1 + len(node.ifs)
        self.cc += (bits & _RADON) and decisions
        self.a += targets(node.target)
        self.c += decisions
        self.push(_children(node), nesting, bits & _CARRY)

    def visit_yield(self, node: Any, nesting: int, bits: int) -> None:
        self.b += 1
        self.push(_children(node), nesting, bits & _CARRY)

    def visit_attribute(self, node: ast.Attribute, nesting: int, bits: int) -> None:
        """``a.b.c``, a quarter of the nodes walked: only its innermost value may hold anything counted."""
        value = node.value
        while type(value) is ast.Attribute:
            value = value.value
        if type(value) not in _LEAVES:
            self.stack.append(([value], nesting, bits & _CARRY))

    def visit_compare(self, node: ast.Compare, nesting: int, bits: int) -> None:
        self.c += len(node.ops)
        self.push(_children(node), nesting, bits & _CARRY)

    def result(self, node: FunctionNode) -> UnitMeasures:
        if self.recursive and not self.is_method:  # the name may be a local of the unit's, not the unit
            self.recursive = self.name in outside_calls(node)
        return UnitMeasures(self.cc, self.radon_asserts, self.cog, self.recursive, (self.a, self.b, self.c),
                            self.assertions, frozenset(self.names), frozenset(self.methods_called))


def _called(call: ast.Call) -> tuple[str, bool]:
    """What a call may reach among the file's functions: ``(name, False)`` for ``name(...)``,
    ``(name, True)`` for ``self.name(...)``/``cls.name(...)``, ``("", False)`` otherwise."""
    func = call.func
    if type(func) is ast.Name:
        return func.id, False
    if type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id in ("self", "cls"):
        return func.attr, True
    return "", False


_TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
_BY_TYPE: dict[type, Callable[..., None]] = {
    ast.If: _Walk.visit_if, ast.For: _Walk.visit_loop, ast.AsyncFor: _Walk.visit_loop, ast.While: _Walk.visit_loop,
    **{kind: _Walk.visit_try for kind in _TRIES}, ast.ExceptHandler: _Walk.visit_handler,
    ast.IfExp: _Walk.visit_ifexp, ast.FunctionDef: _Walk.visit_def, ast.AsyncFunctionDef: _Walk.visit_def,
    ast.ClassDef: _Walk.visit_class, ast.Lambda: _Walk.visit_lambda, ast.BoolOp: _Walk.visit_boolop,
    ast.Call: _Walk.visit_call, ast.Assert: _Walk.visit_assert, ast.Assign: _Walk.visit_assign,
    ast.AugAssign: _Walk.visit_target, ast.AnnAssign: _Walk.visit_target, ast.NamedExpr: _Walk.visit_target,
    ast.withitem: _Walk.visit_target, ast.comprehension: _Walk.visit_comprehension,
    ast.Yield: _Walk.visit_yield, ast.YieldFrom: _Walk.visit_yield, ast.Compare: _Walk.visit_compare,
    ast.Attribute: _Walk.visit_attribute,
}
if hasattr(ast, "Match"):
    _BY_TYPE.update({ast.Match: _Walk.visit_match, ast.match_case: _Walk.visit_case})
#: node type -> index into _HANDLERS; 0 for a leaf (nothing to count, nothing below); absent: only children
_KINDS: dict[type, int] = {kind: 0 for kind in _LEAVES}
_HANDLERS: list[Callable[..., None]] = [lambda *args: None]
for _kind, _handler in _BY_TYPE.items():
    _KINDS[_kind] = len(_HANDLERS)
    _HANDLERS.append(_handler)


def measure_node(node: FunctionNode, *, is_method: bool = False,
                 helpers: Optional[Sequence[str]] = None) -> UnitMeasures:
    """Every per-unit count of one function node; ``helpers`` (the project's assertion helpers)
    turns on the assertion count."""
    walk = _Walk(node, is_method, helpers)
    walk.run()
    return walk.result(node)


def unit_measures(unit: Unit, source: ParsedSource) -> UnitMeasures:
    """The unit's measures, walked once per unit and shared by the metric plugins through the file's memo."""
    memo = source.memo.setdefault("traversal", {})
    found: Optional[UnitMeasures] = memo.get(id(unit.node))
    if found is None:
        helpers = tuple(getattr(source.settings, "assertion_helpers", ())) if unit.is_test else None
        found = memo[id(unit.node)] = measure_node(unit.node, is_method=unit.is_method, helpers=helpers)
    return found
