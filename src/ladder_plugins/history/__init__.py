"""The history: what every run found, kept, and what it means when it comes back.

Events and their schema (``events``), one run's identity and clock (``run``), the
append-only log (``log``) and the locked store around it (``store``), pruning and
the folded aggregate (``pruning``, ``aggregate``), recurrence (``recurrence``), the
gate (``gate``), recording a run (``recorder``), the read side that summaries and
briefs show (``view``), and the check before a run that it can write its history
and cache at all (``preflight``). Git is read by one bounded process at a time
(``gitprocess``) into commits (``commits``) and blobs (``git``); past versions are
parsed only where their change met a unit asked about (``outline``, ``blobs``), walked
for occurrences (``occurrences``) with units followed through moves (``lineage``), from
the adoption point (``adoption``); the base of ``mode = "new"`` is ``newcode``, and
``evidence`` asks git each question once for the gate. ``combine`` merges stores.

May import: the spine, ``ladderdir`` and ``analysis`` (reports, the cache's
location). Must not import: ``reports``, ``tracker``, ``rules_block``, ``worklog`` or a front end.
"""
