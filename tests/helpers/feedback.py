"""What the tests of the tracker's sources share: writing a host's file, and asking one source as the tracker
does (through its hook), with the warnings it gave."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType

from ladder_plugins.tracker.model import SourceContext


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def scan_with(source: ModuleType, root: Path, max_bytes: int = 1 << 20) -> tuple[list, list]:
    warnings: list = []
    context = SourceContext(root=root, warn=warnings.append, max_bytes=max_bytes)
    return list(source.ladder_feedback_sources(context=context)), warnings


def texts(found: list) -> list:
    return [sighting.text for sighting in found]


def locations(found: list) -> list:
    return [sighting.location for sighting in found]
