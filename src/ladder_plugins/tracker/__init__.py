"""The feedback-ladder tracker: any recurring piece of feedback, where it is encoded, when it should climb.

Sources (each a plugin of the ``ladder_feedback_sources`` hook: ``memory``, ``journal``,
``docs``, ``hooks``, ``enforced``, ``hotspots``) find feedback at the four levels of the
ladder; the tracker (``tracker``, with ``keywords``) matches it into the items of the
state file (``state``), counts each source's identity once and recommends a level by
the seed's rules, with a check from the topic table (``topics``); ``render`` makes the
reports and ``service`` is what the front ends call. The tracker recommends; it never
edits a project's configuration or documents.

May import: the spine, ``ladderdir``, ``analysis``, ``history`` and ``reports``.
Must not import: a front end (``cli``, ``flake8_plugin``, ``pytest_plugin``), or be
imported by a lint or test run unless the tracker is asked for.
"""
