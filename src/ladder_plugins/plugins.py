"""The pluggy host: one plugin manager, built-ins registered as ordinary plugins.

The manager is built lazily, once per process (entry points are scanned once), and
is read-only afterwards, so nothing leaks between runs. Tests that need another set
of plugins build their own with :func:`make_plugin_manager`.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Iterable, Mapping, Optional, Sequence

import pluggy

from . import hookspecs
from .catalogue import UNKNOWN_RULE, Rule, RuleIndex, lookup
from .errors import LadderError

__all__ = [
    "BUILTIN_PLUGINS",
    "make_plugin_manager",
    "get_plugin_manager",
    "known_rules",
    "rules_by_key",
    "rule_of",
    "is_minimum",
    "shown_rule_key",
    "rules_of",
    "declared_anywhere",
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
    if entry_points and declared_anywhere(hookspecs.PROJECT_NAME):
        pm.load_setuptools_entrypoints(hookspecs.PROJECT_NAME)
    for plugin in extra:
        pm.register(plugin)
    pm.check_pending()
    rules_of(pm)  # validate early: duplicate codes are a plugin author's error
    return pm


def declared_anywhere(group: str) -> bool:
    """Whether an installed distribution may declare entry points of ``group``.

    pluggy's loader parses every distribution's metadata through ``importlib.metadata``,
    a third of a one-file run's start-up. Where the layout is the standard one (the
    path finder alone finds distributions, ``sys.path`` holds directories) each
    distribution's ``entry_points.txt`` is searched for the section header instead; any
    other layout (a zip, an egg, another finder) answers yes, so pluggy decides.
    """
    import sys
    from importlib.machinery import PathFinder

    if any(getattr(finder, "find_distributions", None) is not None and finder is not PathFinder
           for finder in sys.meta_path):
        return True
    return any(_directory_declares(entry or ".", group.encode()) for entry in sys.path)


def _directory_declares(directory: str, group: bytes) -> bool:
    try:
        names = os.listdir(directory)
    except NotADirectoryError:  # a zip on sys.path
        return True
    except OSError:  # absent or unreadable: importlib.metadata finds nothing there either
        return False
    # a site-packages holds hundreds of names: only a distribution's metadata is looked at
    return any(_declares(os.path.join(directory, name), group) for name in names
               if name.lower().endswith((".dist-info", ".egg-info", ".egg")))


def _declares(path: str, group: bytes) -> bool:
    if path.lower().endswith(".egg"):
        return True
    try:
        with open(os.path.join(path, "entry_points.txt"), "rb") as handle:
            text = handle.read()
    except OSError:  # no entry points (or an egg-info file): nothing declared
        return False
    # the section header's pattern is compiled only for a file that names the group at all
    header = rb"^[ \t]*\[[ \t]*" + re.escape(group) + rb"[ \t]*\][ \t]*\r?$"
    return group in text and re.search(header, text, re.M) is not None


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


@lru_cache(maxsize=8)
def _index_of(pm: pluggy.PluginManager) -> RuleIndex:
    return RuleIndex.of(rules_of(pm))


def rules_by_key(pm: Optional[pluggy.PluginManager] = None) -> Mapping[str, Rule]:
    """The rules of ``pm`` (default: the process-wide manager) by key, as the settings are read with them."""
    return _index_of(pm or get_plugin_manager()).by_key


def rule_of(name: str, pm: Optional[pluggy.PluginManager] = None) -> Optional[Rule]:
    """The installed rule whose code (``LAD102``, any case) or key (``cognitive_max``) is ``name``, built-in or a
    plugin's; ``None`` for a name no rule of ``pm`` (default: the process-wide manager) has. A built-in rule is
    found without building the manager, which scans the entry points."""
    if pm is None:
        rule = lookup(name)
        if rule is not None:
            return rule
        pm = get_plugin_manager()
    return _index_of(pm).find(name)


def is_minimum(key: str) -> bool:
    """Whether the rule of ``key`` is violated below its limit; a key no installed rule has is read as a maximum,
    as every rule but a ``min`` one is."""
    rule = rule_of(key)
    return rule is not None and rule.is_minimum


def shown_rule_key(key: str, pm: Optional[pluggy.PluginManager] = None) -> str:
    """``key`` if a rule of ``pm`` (default: the process-wide manager) has it, else ``UNKNOWN_RULE``: a key
    read from the history is printed only when this installation vouches for it."""
    rule = rule_of(key, pm)
    return key if rule is not None and rule.key == key else UNKNOWN_RULE
