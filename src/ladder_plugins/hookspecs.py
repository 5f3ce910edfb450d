"""Hook specifications of the ``ladder`` plugin host (pluggy).

Built-in metrics are ordinary plugins implementing these hooks; third-party plugins
are found through the ``ladder`` entry-point group. Every hook name starts with
``ladder_``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping, Optional, Sequence

import pluggy

if TYPE_CHECKING:
    from .analysis.source import ParsedSource, Unit
    from .catalogue import Rule
    from .tracker.model import Sighting, SourceContext
    from .tracker.topics import Topic

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
        raise NotImplementedError  # a specification: pluggy calls the implementations, never this

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

    @hookspec
    def ladder_feedback_sources(self, context: "SourceContext") -> Optional[Iterable["Sighting"]]:
        """Find feedback for the tracker (``ladder feedback scan``): one source's sightings.

        Called once per scan, for every source plugin. Everything a source reads is untrusted
        input: read files through :func:`ladder_plugins.tracker.files.read_source` (inside the
        root, a size cap, one warning for what is skipped) and never raise for a bad file.

        :param context: the project root, the Claude Code memory directory (or ``None``), the
            warning sink (say a skipped file once, naming it) and the size cap.
        :return: the :class:`~ladder_plugins.tracker.model.Sighting` objects found, each with the
            identity of what it was read from (``path#hash`` or a capture id), so that scanning
            again counts nothing twice; ``None`` or nothing when the source found nothing.
        """

    @hookspec(firstresult=True)
    def ladder_feedback_match(self, sighting: "Sighting", keywords: Sequence[str],
                              items: Sequence[Mapping[str, object]]) -> Optional[str]:
        """Say which tracked item a piece of feedback belongs to (replaces the built-in matcher).

        Plugins are asked before the built-in keyword matcher; the first answer that is not
        ``None`` wins.

        :param sighting: the feedback found.
        :param keywords: its keywords as the built-in matcher derives them.
        :param items: the tracked items, as the state file holds them (``id``, ``topic``,
            ``keywords``, ...); read them, never change them.
        :return: the ``id`` of the item it joins, ``""`` to start a new item, or ``None`` to
            leave the decision to the next matcher.
        """

    @hookspec
    def ladder_feedback_topics(self) -> Optional[Sequence["Topic"]]:
        """Add rows to the tracker's topic table: review topics and the checks that encode them.

        :return: :class:`~ladder_plugins.tracker.topics.Topic` objects (an id not in the shipped
            table adds a topic; the same id replaces the shipped row), or ``None``.
        """

    @hookspec
    def ladder_classify_feedback(self, prompt: str, deadline: float) -> Optional[Sequence[str]]:
        """Say whether a user's prompt is corrective feedback (the prompt hook's classifier, added to the
        built-in patterns).

        Called from the prompt hook, which must never make the agent wait: the call runs where a late
        answer is ignored, and an exception is ignored.

        :param prompt: the prompt's text, as the user typed it (untrusted).
        :param deadline: a :func:`time.monotonic` value; an answer after it is discarded.
        :return: reason codes (words such as ``"negative_evaluation"``) when it is feedback, an empty
            sequence when it is not, ``None`` for no opinion. The code ``"ask_reviewer"``
            (``agents.captures.ASK_REVIEWER``) says "maybe": the capture is written marked ``ask`` and
            counts only once the detached reviewer's verdict says it is dissatisfaction; the built-in
            ``agents/ask_reviewer.py`` answers it for prompts the patterns miss that may be complaints.
        """
