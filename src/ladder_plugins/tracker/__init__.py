"""The feedback-ladder tracker: any recurring piece of feedback, where it is encoded, when it should climb.

Sources (``sources/``, each a plugin of the ``ladder_feedback_sources`` hook: ``memory``,
``journal``, ``docs``, ``hooks``, ``enforced``, ``hotspots``) find feedback at the four
levels of the ladder, dated from their source (``dating``: git blame, else the file's time); a
scan (``scan``, with ``similarity``: weighted words and the topic table as anchors) matches it
into the items of the state file (``state``), counts each source's identity once and recommends a level by
the rules of ``docs/explanation/ladder.md`` ("Levels and promotion"), with a check from the
topic table (``topics``). The read side reads each item once, typed (``item``); when an
item should climb, what to do about it and what is overdue is decided in one place
(``promotion``); ``render`` makes the reports from those and ``service`` is what the front
ends call. The tracker recommends; it never edits a project's configuration or documents.

May import: the spine, ``ladderdir``, ``readers``, ``analysis``, ``history`` and ``reports``.
Must not import: ``rules_block``, the agent hooks (``agents``) or a front end (``cli``,
``flake8_plugin``, ``pytest_plugin``), or be imported by a lint or test run unless the
tracker is asked for.
"""
