"""What the analysis found: violations, unit and file reports, the result of a run.

Plain frozen dataclasses in a module of their own, so that the analyser, the cache's
serialisation, the process pool and every report depend on them and not on each
other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, Optional

from ..catalogue import Rule
from .thresholds import RED

__all__ = ["MetricValues", "Violation", "UnitReport", "FileReport", "AnalysisResult"]

MetricValues = Mapping[str, Optional[float]]


@dataclass(frozen=True)
class Violation:
    """One rule broken by one unit (or file) in one run."""

    rule: Rule
    path: str
    line: int
    unit: Optional[str]
    unit_key: Optional[str]
    actual: float
    limit: Optional[float]
    severity: str
    role: str
    fingerprint: str
    unit_hash: str
    detail: Optional[str] = None

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def message(self) -> str:
        return self.rule.message(self.unit, self.actual, self.limit, self.detail, path=self.path)

    @property
    def text(self) -> str:
        """``LAD102 cognitive complexity of 'f' is 22 (> 15)``: flake8's message form."""
        return f"{self.rule.code} {self.message}"

    @property
    def delta(self) -> Optional[float]:
        return None if self.limit is None else round(self.actual - self.limit, 2)


@dataclass(frozen=True)
class UnitReport:
    """Metrics of one unit."""

    name: str
    key: str
    line: int
    end_line: int
    metrics: MetricValues
    is_test: bool = False
    is_public: bool = True


@dataclass(frozen=True)
class FileReport:
    """Everything the analysis found in one file; ``skipped`` holds the reason it was not analysed."""

    path: str
    role: str
    metrics: MetricValues = field(default_factory=lambda: MappingProxyType({}))
    units: tuple[UnitReport, ...] = ()
    violations: tuple[Violation, ...] = ()
    suppressed: tuple[Violation, ...] = ()
    skipped: Optional[str] = None

    @property
    def red(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == RED)


@dataclass(frozen=True)
class AnalysisResult:
    """The reports of a set of files, in path order."""

    files: tuple[FileReport, ...]

    @property
    def analysed(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.skipped is None)

    @property
    def skipped(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.skipped is not None)

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(v for f in self.files for v in f.violations)
