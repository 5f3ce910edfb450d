"""A project's files for the enforced source's readers: written under ``root``, read through one
:class:`ProjectFiles` whose warnings the test sees."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ladder_plugins.tracker.model import SourceContext
from ladder_plugins.tracker.sources.enforced.reading import ProjectFiles


def project(root: Path, files: dict, max_bytes: int = 1 << 20) -> tuple[ProjectFiles, list]:
    """``files`` (relative path: text, dedented) written under ``root``; the reader and its warnings."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    warnings: list = []
    return ProjectFiles(SourceContext(root=root, warn=warnings.append, max_bytes=max_bytes)), warnings


def signals(evidence) -> list:
    """Every signal of a list of evidence, in order."""
    return [signal for ev in evidence for signal in ev.signals]
