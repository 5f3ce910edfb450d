"""Maintainability index: radon's MI of a file, an optional file rule (off by default).

The number is exactly ``radon mi``'s (``mi_visit(text, multi=True)``): radon's
``mi_compute`` of the file's Halstead volume, its total cyclomatic complexity, its
logical lines and the percentage of comment lines (multi-line strings counted as
comments). It is worked out from the tree the analysis (or flake8) already parsed,
never a second parse, and only for a file whose role has a ``maintainability_min``
limit: radon is imported then and not otherwise. radon ranks A above 19, B from 10 to
19, C at 9 and below; ``maintainability_min = 20`` asks for rank A.
"""

from __future__ import annotations

from typing import Mapping, Optional

from ..analysis.source import ParsedSource
from ..hookspecs import hookimpl

__all__ = ["maintainability_index", "mi_rank"]

_KEY = "maintainability_min"


def maintainability_index(source: ParsedSource) -> Optional[float]:
    """radon's MI of the parsed file, rounded to 2 decimals; ``None`` for a tree too deep for radon's
    recursive visitors."""
    from radon.metrics import h_visit_ast, mi_compute
    from radon.raw import analyze
    from radon.visitors import ComplexityVisitor

    try:
        volume = h_visit_ast(source.tree).total.volume
        complexity = ComplexityVisitor.from_ast(source.tree).total_complexity
        raw = analyze(source.text)
    except (RecursionError, SyntaxError):  # radon's tokenizer pass is stricter than the parser on rare input
        return None
    comments = (raw.comments + raw.multi) / raw.sloc * 100 if raw.sloc else 0
    index: float = mi_compute(volume, complexity, raw.lloc, comments)
    return round(index, 2)


def mi_rank(score: float) -> str:
    """radon's rank of an MI score: A above 19, B above 9, C otherwise."""
    return "A" if score > 19 else "B" if score > 9 else "C"


@hookimpl
def ladder_file_metrics(source: ParsedSource) -> Mapping[str, Optional[float]]:
    settings = source.settings
    if settings is None or settings.limit(source.role, _KEY) is None:
        return {}
    return {"maintainability": maintainability_index(source)}
