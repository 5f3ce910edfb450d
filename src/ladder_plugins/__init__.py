"""ladder-plugins: structural code-quality rules for flake8 and pytest that remember.

The public API is what ``__all__`` lists; front ends and plugins build on it.
"""

from __future__ import annotations

from .analysis import AnalysisResult, FileReport, UnitReport, Violation, analyze_paths, analyze_source
from .catalogue import RULES, Rule, lookup
from .config import Settings, find_root, load_settings
from .errors import ConfigError, LadderError, SourceError
from .hookspecs import hookimpl, hookspec

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "AnalysisResult",
    "ConfigError",
    "FileReport",
    "LadderError",
    "RULES",
    "Rule",
    "Settings",
    "SourceError",
    "UnitReport",
    "Violation",
    "analyze_paths",
    "analyze_source",
    "find_root",
    "hookimpl",
    "hookspec",
    "load_settings",
    "lookup",
]
