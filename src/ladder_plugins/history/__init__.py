"""The history: what every run found, kept, and what it means when it comes back.

Events and their schema (``events``), one run's identity and clock (``run``), the
append-only log (``log``) and the locked store around it (``store``), pruning and
the folded aggregate (``pruning``, ``aggregate``), recurrence (``recurrence``), the
gate (``gate``), recording a run (``recorder``), the read side that summaries and
briefs show (``view``), and the check before a run that it can write its history
and cache at all (``preflight``). Occurrences from git and the base of ``mode =
"new"`` come from the git plumbing (``git``) through ``evidence``.

May import: the spine, ``ladderdir`` and ``analysis`` (reports, the cache's
location). Must not import: ``reports``, ``feedback``, ``worklog`` or a front end.
"""
