"""Level 4 that ladder itself is: every recurring hotspot and pattern in the history is feedback already
encoded as a linter rule. One sighting per hotspot fingerprint and per pattern, worded by its rule, so
that the hotspots of one rule make one item, already at level 4."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ...hookspecs import hookimpl
from ..keywords import topic_of
from ..model import Sighting, SourceContext

__all__ = ["ladder_feedback_sources", "ladder_feedback_match"]


def _words(rule_key: str) -> tuple[str, str]:
    """(what the rule measures, ``LAD102 cognitive_max``) for a known rule; the key alone otherwise."""
    from ...plugins import rule_of

    rule = rule_of(rule_key)
    return (rule.what, f"{rule.code} {rule.key}") if rule else (rule_key.replace("_", " "), rule_key)


def _sighting(rule_key: str, identity: str, where: str, when: Any, source: str = "history") -> Sighting:
    what, named = _words(rule_key)
    return Sighting(4, f"{what} over the limit ({named})", f"ladder {named} ({where})", source, identity,
                    (when or "")[:10] or None)


@hookimpl
def ladder_feedback_match(sighting: Sighting, keywords: Sequence[str],
                          items: Sequence[Mapping[str, object]]) -> Optional[str]:
    """A hotspot joins the item of its rule (the topic it started), never another rule's: the rules share words
    (``complexity``, ``max``) that the keyword rule would take for the same feedback."""
    if sighting.source not in ("history", "history-pattern"):
        return None
    topic = topic_of(sighting.text)
    found = next((str(item["id"]) for item in items if item.get("topic") == topic), None)
    if found is not None:
        return found
    return "" if sighting.source == "history" else None  # a hotspot starts its rule's item; a pattern starts none


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> list[Sighting]:
    settings = context.settings
    if settings is None or not settings.in_project or not settings.history_path.exists():
        return []
    from ...history.recurrence import patterns_of, recurrences
    from ...history.run import now_utc
    from ...history.store import HistoryStore

    recs = recurrences(HistoryStore(settings, warn=context.warn).peek(), settings, now_utc())
    found = [_sighting(r.rule_key, f"history:{r.fingerprint}", f"recurring hotspot {r.path}"
                       + (f"::{r.unit}" if r.unit else ""), r.last_seen) for r in recs if r.is_hotspot(settings)]
    found += [_sighting(p.rule_key, f"history-pattern:{p.rule_key}:{p.kind}:{p.group}",
                        f"pattern in {p.kind} {p.group}", None, "history-pattern") for p in patterns_of(recs, settings)]
    return found
