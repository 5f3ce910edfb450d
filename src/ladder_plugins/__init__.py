"""ladder-plugins: structural code-quality rules for flake8 and pytest that remember.

The public API is what ``__all__`` lists. Names are imported on first use (PEP 562),
so that loading the pytest and flake8 entry points, which import this package, costs
nothing for runs that never use the analysis.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

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
    "Settings": "config",
    "find_root": "config",
    "load_settings": "config",
    "ConfigError": "errors",
    "LadderError": "errors",
    "SourceError": "errors",
    "hookimpl": "hookspecs",
    "hookspec": "hookspecs",
}

__all__ = ["__version__", *sorted(_EXPORTS)]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .analysis.analyzer import (  # noqa: F401
        AnalysisResult, Analyzer, FileReport, UnitReport, Violation, analyze_paths, analyze_source,
    )
    from .catalogue import RULES, Rule, lookup  # noqa: F401
    from .config import Settings, find_root, load_settings  # noqa: F401
    from .errors import ConfigError, LadderError, SourceError  # noqa: F401
    from .hookspecs import hookimpl, hookspec  # noqa: F401


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ladder_plugins' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
