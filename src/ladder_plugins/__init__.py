"""ladder-plugins: structural code-quality rules for flake8 and pytest that remember.

The public API is what ``__all__`` lists. Names are imported on first use (PEP 562),
so that loading the pytest and flake8 entry points, which import this package, costs
nothing for runs that never use the analysis.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# The public API: each name and the module that defines it. ``__getattr__`` imports from here at first use.
_EXPORTS = {
    "AnalysisResult": "analysis.report",
    "Analyzer": "analysis.analyzer",
    "FileReport": "analysis.report",
    "UnitReport": "analysis.report",
    "Violation": "analysis.report",
    "analyze_paths": "analysis.analyzer",
    "analyze_source": "analysis.analyzer",
    "RULES": "catalogue",
    "Rule": "catalogue",
    "lookup": "catalogue",
    "Settings": "settings.model",
    "find_root": "config",
    "load_settings": "config",
    "ConfigError": "errors",
    "LadderError": "errors",
    "SourceError": "errors",
    "hookimpl": "hookspecs",
    "hookspec": "hookspecs",
}

__all__ = ["__version__", *sorted(_EXPORTS)]

if TYPE_CHECKING:  # pragma: no cover
    # Type checkers cannot follow the lazy import above, so they read the same table spelled as imports; the
    # ``X as X`` form re-exports each name under --strict. tests/test_types.py holds the two to the same pairs.
    from .analysis.analyzer import (  # noqa: F401
        Analyzer as Analyzer, analyze_paths as analyze_paths, analyze_source as analyze_source,
    )
    from .analysis.report import (  # noqa: F401
        AnalysisResult as AnalysisResult, FileReport as FileReport, UnitReport as UnitReport, Violation as Violation,
    )
    from .catalogue import RULES as RULES, Rule as Rule, lookup as lookup  # noqa: F401
    from .config import find_root as find_root, load_settings as load_settings  # noqa: F401
    from .settings.model import Settings as Settings  # noqa: F401
    from .errors import ConfigError as ConfigError, LadderError as LadderError, SourceError as SourceError  # noqa: F401
    from .hookspecs import hookimpl as hookimpl, hookspec as hookspec  # noqa: F401
else:
    # hidden from type checkers, which would otherwise take any misspelt name of this package for a valid one
    def __getattr__(name: str) -> object:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'ladder_plugins' has no attribute {name!r}")
        value = getattr(import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
