"""Lessons: what a reviewed complaint taught, as immutable Markdown under ``.agent/reflections/``.

``store`` writes a lesson once (one file per family, never rewritten), adds a recurrence
as a line of the family's occurrences file, and reads the lessons back with their counts;
``declines`` keeps the reviewer's declines and decides when a family declined again and
again gets a synthesised lesson; ``select`` picks the few lessons that apply to a prompt.
The detached reviewer (``agents.review``) is the writer; the rules block (``rules_block``)
and the prompt hook are readers.

May import: the spine, ``ladderdir``, ``readers``, ``reports`` (``sanitize``) and the
tracker's ``keywords``.
Must not import: ``rules_block``, the agent hooks (``agents``) or a front end (``cli``,
``flake8_plugin``, ``pytest_plugin``). The readers run on the prompt's path: their
module-level imports are the standard library only.
"""

__all__ = ["REFLECTIONS_DIR"]

#: where the lessons live, relative to the project root (committed: people read them too); here, not in
#: ``store``, so the prompt hook can look for the folder without importing the store
REFLECTIONS_DIR = ".agent/reflections"
