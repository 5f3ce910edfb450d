"""Cyclomatic complexity: radon's number, from the tree we already parsed.

``cc_visit_ast`` on the unit's ``FunctionDef`` node gives exactly the value ``radon
cc`` reports for that function (1 + decision points of its body; radon does not add
the decisions of nested functions, see radon issue #68). In files of the ``test``
role, ``assert`` statements are not decision points (radon's ``no_assert``, the
``radon cc --no-assert`` of the command line): asserting is what a test is for, and
counting it would make the stricter test limit punish the assertions LAD108 asks for.
radon is imported on first use so that importing the plugins stays cheap.
"""

from __future__ import annotations

from typing import Mapping

from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..analysis.stackguard import call_deep
from ..hookspecs import hookimpl

__all__ = ["cyclomatic"]


def _radon(node: FunctionNode, no_assert: bool) -> int:
    from radon.complexity import cc_visit_ast

    blocks = cc_visit_ast(node, no_assert=no_assert)
    return int(blocks[0].complexity)


def cyclomatic(node: FunctionNode, *, no_assert: bool = False) -> int:
    """radon's cyclomatic complexity of one function node (deep trees included)."""
    return call_deep(_radon, node, no_assert)


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, int]:
    return {"cyclomatic": cyclomatic(unit.node, no_assert=source.role == "test")}
