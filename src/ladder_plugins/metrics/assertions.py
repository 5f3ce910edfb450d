"""Assertions in a test: what makes a test able to fail.

Counted in test units only (other units get ``None``, so ``min_assertions`` does not
apply to them): ``assert`` statements; calls whose function name starts with
``assert`` (unittest's ``assertEqual``, mock's ``assert_called_once_with``,
``numpy.testing.assert_allclose``, your own ``assert_valid`` helpers); calls that fail
the test themselves (``pytest.fail`` or ``fail`` imported by name, ``self.fail``,
unittest's ``failUnless*`` and ``failIf*``); the context managers or calls ``raises``,
``warns``, ``deprecated_call`` (``pytest.`` or imported by name: ``other.raises(...)``
is no assertion); and calls of the project's own
helpers named in ``[tool.ladder] assertion_helpers`` (names or globs: ``check_*``,
``verify``). Nested functions count, as for every metric. Counted by the fused
traversal (:mod:`.traversal`), the names in :func:`.constructs.is_assertion`.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from ..analysis.source import FunctionNode, ParsedSource, Unit
from ..hookspecs import hookimpl
from .traversal import measure_node, unit_measures

__all__ = ["assertion_count"]


def assertion_count(node: FunctionNode, helpers: Sequence[str] = ()) -> int:
    """Assertions in a function node; ``helpers``: names or globs of the project's assertion helpers."""
    return measure_node(node, helpers=tuple(helpers)).assertions


@hookimpl
def ladder_unit_metrics(unit: Unit, source: ParsedSource) -> Mapping[str, Optional[int]]:
    return {"assertions": unit_measures(unit, source).assertions if unit.is_test else None}
