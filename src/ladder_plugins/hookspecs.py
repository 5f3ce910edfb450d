"""Hook specifications of the ``ladder`` plugin host (pluggy).

Built-in metrics are ordinary plugins implementing these hooks; third-party plugins
are found through the ``ladder`` entry-point group. Every hook name starts with
``ladder_``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Optional, Sequence

import pluggy

if TYPE_CHECKING:
    from .analysis.source import ParsedSource, Unit
    from .catalogue import Rule

__all__ = ["hookspec", "hookimpl", "PROJECT_NAME", "LadderSpec"]

PROJECT_NAME = "ladder"
hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

MetricValues = Mapping[str, Optional[float]]


class LadderSpec:
    """The hooks. Implement any of them as plain functions decorated with ``hookimpl``."""

    @hookspec
    def ladder_rules(self) -> Sequence["Rule"]:
        """Contribute rules to the catalogue.

        Called once per plugin manager. Each returned :class:`~ladder_plugins.catalogue.Rule`
        needs a code unique across all plugins, a ``key`` usable in ``[tool.ladder.thresholds]``,
        the ``metric`` it reads (a name this or another plugin produces from
        ``ladder_unit_metrics`` or ``ladder_file_metrics``) and per-role ``defaults``.
        Rules contributed by plugins other than the built-ins should set
        ``source="external-plugin"`` so their events say so.

        :return: a sequence of rules (may be empty). All results are collected.
        """

    @hookspec
    def ladder_unit_metrics(self, unit: "Unit", source: "ParsedSource") -> Optional[MetricValues]:
        """Measure one unit (a function or method, nested functions included).

        :param unit: the unit: qualified name, ``ast`` node, lines, whether it is a
            method, a test or public.
        :param source: the parsed file the unit belongs to (tree, text lines, path,
            role). Do not mutate the tree.
        :return: a mapping of metric name to value, or ``None`` when the plugin has
            nothing to say about this unit. ``None`` as a value means "does not apply"
            (the unit is then not subject to rules reading that metric). All results
            are merged; a later plugin does not overwrite an earlier plugin's metric.
        """

    @hookspec
    def ladder_file_metrics(self, source: "ParsedSource") -> Optional[MetricValues]:
        """Measure a whole file.

        :param source: the parsed file (tree, text lines, path, role).
        :return: a mapping of metric name to value, or ``None``. All results are merged.
        """
