"""The built-in ``ladder_classify_feedback``: a prompt the patterns miss but that may be dissatisfaction is
captured marked for the reviewer, which decides later, detached; nothing here waits, reads or runs anything.

The prompt hook asks classifier plugins only where the patterns found nothing and the transcript
does not show a first request (``prompt_hook._classified``). This plugin answers
:data:`~.captures.ASK_REVIEWER` for a prompt worth the question, and has no opinion otherwise. A
prompt is worth it when :func:`.classify.may_be_feedback` finds it so (it speaks of the agent or of
what the user asked, and holds a negation, a contrast or a failure) or the model of
:mod:`.complaint_model` finds it at least :data:`~.complaint_model.ASK_AT` likely a complaint: the
model reads wording no pattern names, and a wrong guess costs one review, not a capture. The capture
it causes carries ``"ask": "classify"`` and counts nowhere until the reviewer's verdict line
(:func:`.captures.verdict_entry`) says it is dissatisfaction; a verdict saying it is not leaves it
uncounted for good.

May import: ``classify``, ``complaint_model``, ``captures`` (its constant only) and ``hookspecs``. Must not
read anything but the model's package file nor start processes: it runs on the prompt path.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..hookspecs import hookimpl
from .captures import ASK_REVIEWER
from .classify import may_be_feedback, skipped

__all__ = ["ladder_classify_feedback", "ask"]


def ask(prompt: str) -> Optional[tuple[str, ...]]:
    """``(ASK_REVIEWER,)`` for a prompt worth the reviewer's question, ``None`` (no opinion) otherwise."""
    if skipped(prompt):
        return None
    if may_be_feedback(prompt):
        return (ASK_REVIEWER,)
    from .complaint_model import ASK_AT, load

    model = load()
    return (ASK_REVIEWER,) if model is not None and model.probability(prompt) >= ASK_AT else None


@hookimpl(trylast=True)
def ladder_classify_feedback(prompt: str, deadline: float) -> Optional[Sequence[str]]:
    """The hook: :func:`ask`; ``deadline`` is not needed, the answer costs a few milliseconds (the model's first
    reading included)."""
    return ask(prompt)
