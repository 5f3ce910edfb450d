"""The ``ladder`` command, a thin front end: one module per group of subcommands.

``main`` builds the parser a run needs and dispatches; ``common`` holds what they
share (the table of commands, exit statuses, parser pieces, settings, output). A
run imports its own command's module only. The groups: ``check``
(``metrics``, ``check``), ``reports`` (``summary``, ``brief``, ``recommend``,
``report``, ``explain``), ``history``, ``doctor``, ``demo`` and ``suppress`` (with
its libcst rewrite in ``rewrite``).

May import: every part. Must not: compute a metric, decide the gate, or use another
part's private names; a subcommand turns arguments into calls and results into text.
"""
