"""The tracker's plugin manager: the built-in sources and the installed plugins.

Apart from the scan so that what only reads the state and needs the plugins' topic rows (``ladder feedback
list``, ``report --no-scan``) loads neither the scan nor its matcher. May import: ``plugins`` and the built-in
sources (by name, when a manager is made).
"""

from __future__ import annotations

from typing import Any

__all__ = ["BUILTIN_SOURCES", "tracker_manager"]

#: the built-in sources, registered only when the tracker runs
BUILTIN_SOURCES = (
    "ladder_plugins.tracker.sources.memory",
    "ladder_plugins.tracker.sources.journal",
    "ladder_plugins.tracker.sources.docs",
    "ladder_plugins.tracker.sources.hooks",
    "ladder_plugins.tracker.sources.enforced.sightings",
    "ladder_plugins.tracker.sources.hotspots",
)


def tracker_manager() -> Any:
    """A plugin manager with the built-in sources and the installed plugins (a new one: the process-wide
    manager of lint runs never carries the tracker's sources)."""
    import importlib

    from ..plugins import make_plugin_manager

    return make_plugin_manager(extra=[importlib.import_module(name) for name in BUILTIN_SOURCES])
