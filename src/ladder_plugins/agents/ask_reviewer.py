"""The built-in ``ladder_classify_feedback``: a prompt the patterns miss but that may be dissatisfaction is
captured marked for the reviewer, which decides later, detached; nothing here waits, reads or runs anything.

The prompt hook asks classifier plugins only where the patterns found nothing and the transcript
does not show a first request (``prompt_hook._classified``). This plugin answers
:data:`~.captures.ASK_REVIEWER` for a prompt :func:`.classify.may_be_feedback` finds worth the
question (it speaks of the agent or of what the user asked, and holds a negation, a contrast
or a failure), and has no opinion otherwise. The capture it causes carries ``"ask": "classify"``
and counts nowhere until the reviewer's verdict line (:func:`.captures.verdict_entry`) says it is
dissatisfaction; a verdict saying it is not leaves it uncounted for good.

May import: ``classify``, ``captures`` (its constant only) and ``hookspecs``. Must not import
anything that reads files or starts processes: it runs on the prompt path.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..hookspecs import hookimpl
from .captures import ASK_REVIEWER
from .classify import may_be_feedback

__all__ = ["ladder_classify_feedback", "ask"]


def ask(prompt: str) -> Optional[tuple[str, ...]]:
    """``(ASK_REVIEWER,)`` for a prompt worth the reviewer's question, ``None`` (no opinion) otherwise."""
    return (ASK_REVIEWER,) if may_be_feedback(prompt) else None


@hookimpl(trylast=True)
def ladder_classify_feedback(prompt: str, deadline: float) -> Optional[Sequence[str]]:
    """The hook: :func:`ask`; ``deadline`` is not needed, the answer costs microseconds."""
    return ask(prompt)
