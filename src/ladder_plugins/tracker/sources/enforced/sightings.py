"""A scan of the project's configuration, and what it gives: the signals (:func:`detected_signals`) and
the level-4 sightings (:func:`enforced_sightings`).

Every reader's evidence is gathered, then the linters' selections, then ladder's own limits;
a signal's evidence is the first found. A topic whose ``enforced_by`` names a signal the
project gives is a sighting with the topic's words; a hook, CI step, tox command or set of
fixtures that no enforced topic covers is a sighting of its own, its text the command. The
tracker registers this module: :func:`ladder_feedback_sources` is the source's hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

from ....hookspecs import hookimpl
from ...model import Sighting, SourceContext
from ...topics import Topic, load_topics
from .ci import gitlab_evidence, workflow_evidence
from .limits import ladder_limits
from .linters import Linter, flake8_linter, ruff_linter
from .precommit import precommit_evidence
from .reading import Evidence, ProjectFiles
from .tables import config_evidence
from .testing import conftest_evidence, tox_evidence

__all__ = ["ladder_feedback_sources", "detected_signals", "enforced_sightings"]

#: the readers of evidence found as it is, in the order a signal's location is taken from
_READERS = (config_evidence, tox_evidence, precommit_evidence, workflow_evidence, gitlab_evidence, conftest_evidence)


@dataclass(frozen=True)
class _Scan:
    evidence: tuple[Evidence, ...]
    linters: tuple[Linter, ...]
    #: each signal found as it is, with its first evidence
    index: Mapping[str, Evidence]

    def find(self, signal: str) -> Optional[Evidence]:
        """The evidence of a signal: found as it is, or a rule code a linter's selection reports."""
        direct = self.index.get(signal)
        namespace, _, code = signal.partition(":")
        linter = next((lin for lin in self.linters if lin.name == namespace), None)
        return direct or (linter.reports(code) if linter is not None else None)


def _scan(context: SourceContext) -> _Scan:
    files = ProjectFiles(context)
    found = [ev for reader in _READERS for ev in reader(files)]
    flake8, ruff = flake8_linter(files, found), ruff_linter(files, found)
    linters = tuple(linter for linter in (flake8, ruff) if linter is not None)
    # the selectors (``ruff:I``, ``flake8:B``) a linter's selection leaves on
    found += [ev for linter in linters for name, ev in linter.selected if linter.reports(name) is not None]
    found += ladder_limits(files, found, flake8)
    return _Scan(tuple(found), linters, _first_evidence(found))


def _first_evidence(evidence: Sequence[Evidence]) -> dict[str, Evidence]:
    """Each signal, with the first evidence that gives it."""
    index: dict[str, Evidence] = {}
    for found in evidence:
        index.update((signal, found) for signal in found.signals if signal not in index)
    return index


def detected_signals(context: SourceContext, topics: Optional[Sequence[Topic]] = None) -> dict[str, str]:
    """Every signal the project gives, with where: those found as they are (``ruff:I``, ``precommit:black``),
    and each rule code that a topic (of ``topics``, default the whole table) names and a linter reports."""
    scan = _scan(context)
    found = {signal: evidence.location for signal, evidence in scan.index.items()}
    named = load_topics() if topics is None else topics
    for signal in (s for topic in named for s in topic.enforced_by if s not in found):
        evidence = scan.find(signal)
        if evidence is not None:
            found[signal] = evidence.location
    return found


def enforced_sightings(context: SourceContext, topics: Optional[Sequence[Topic]] = None) -> tuple[Sighting, ...]:
    """One level-4 sighting per topic the project enforces (the evidence of the first of its signals the
    project gives), then one per hook, CI step, tox command and set of conftest fixtures that no enforced
    topic covers (its text the command)."""
    scan = _scan(context)
    found: dict[str, Sighting] = {}  # by topic id, then by the evidence's identity
    covered: set[str] = set()  # the signals the enforced topics name
    for topic in load_topics() if topics is None else topics:
        evidence = next((ev for ev in map(scan.find, topic.enforced_by) if ev is not None), None)
        if evidence is not None:
            found[topic.id] = Sighting(
                level=4, text=f"{topic.title} ({', '.join(topic.keywords)})", location=evidence.location,
                source="enforced", identity=f"{evidence.identity}:{topic.id}", keywords=topic.keywords,
                topic=topic.id)
            covered.update(topic.enforced_by)
    for evidence in scan.evidence:
        if evidence.freeform and covered.isdisjoint(evidence.signals):
            found.setdefault(evidence.identity, Sighting(level=4, text=evidence.text, location=evidence.location,
                                                         source="enforced", identity=evidence.identity))
    return tuple(found.values())


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> list[Sighting]:
    """Level 4: the checks the project enforces, read from its configuration (see the package docstring)."""
    return list(enforced_sightings(context))
