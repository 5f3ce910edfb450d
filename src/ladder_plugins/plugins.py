"""The pluggy host: one plugin manager, built-ins registered as ordinary plugins.

The manager is built lazily, once per process (entry points are scanned once), and
is read-only afterwards, so nothing leaks between runs. Tests that need another set
of plugins build their own with :func:`make_plugin_manager`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Optional, Sequence

import pluggy

from . import hookspecs
from .catalogue import Rule
from .errors import LadderError

__all__ = [
    "BUILTIN_PLUGINS",
    "make_plugin_manager",
    "get_plugin_manager",
    "known_rules",
    "rules_of",
]

#: Modules registered as built-in plugins, in registration order.
BUILTIN_PLUGINS = (
    "ladder_plugins.metrics.builtin_rules",
    "ladder_plugins.metrics.cyclomatic",
    "ladder_plugins.metrics.cognitive",
    "ladder_plugins.metrics.abc",
    "ladder_plugins.metrics.size",
    "ladder_plugins.metrics.assertions",
    "ladder_plugins.metrics.maintainability",
)


def make_plugin_manager(
    extra: Iterable[object] = (), *, entry_points: bool = True
) -> pluggy.PluginManager:
    """A new manager with the built-ins, the ``ladder`` entry points and ``extra`` plugins."""
    import importlib

    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs.LadderSpec)
    for name in BUILTIN_PLUGINS:
        pm.register(importlib.import_module(name), name=name)
    if entry_points:
        pm.load_setuptools_entrypoints(hookspecs.PROJECT_NAME)
    for plugin in extra:
        pm.register(plugin)
    pm.check_pending()
    rules_of(pm)  # validate early: duplicate codes are a plugin author's error
    return pm


@lru_cache(maxsize=1)
def get_plugin_manager() -> pluggy.PluginManager:
    """The process-wide manager (built on first use, then reused)."""
    return make_plugin_manager()


def rules_of(pm: pluggy.PluginManager) -> Sequence[Rule]:
    """All rules known to ``pm``: built-ins first, then plugin rules; codes and keys unique."""
    seen_codes: dict[str, Rule] = {}
    seen_keys: dict[str, Rule] = {}
    ordered: list[Rule] = []
    for batch in reversed(pm.hook.ladder_rules()):
        for rule in batch or ():
            if rule.code in seen_codes or rule.key in seen_keys:
                if seen_codes.get(rule.code) == rule:
                    continue
                raise LadderError(
                    f"plugin rule {rule.code} ({rule.key}) clashes with an existing rule code or key"
                )
            seen_codes[rule.code] = rule
            seen_keys[rule.key] = rule
            ordered.append(rule)
    return tuple(ordered)


def known_rules(pm: Optional[pluggy.PluginManager] = None) -> Sequence[Rule]:
    """The rules of ``pm`` (default: the process-wide manager)."""
    return rules_of(pm or get_plugin_manager())
