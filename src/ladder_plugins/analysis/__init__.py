"""The analysis: a file in, a report out.

Finding the files (``discovery``, ``globs``), reading and parsing them once
(``source``), their units and roles (``roles``), the comments that suppress
(``suppressions``), what makes a violation the same across runs (``identity``),
severity bands (``thresholds``), the analyser that asks the metric plugins and
judges their values (``analyzer``), its results (``report``), and what makes it
fast: the content-addressed cache (``cache``, ``serialize``) and worker processes
(``parallel``).

May import: the spine (``catalogue``, ``config``, ``errors``, ``hookspecs``,
``plugins``) and ``ladderdir``. Must not import: ``metrics`` (the analyser reaches
the metrics only through the plugin hooks), ``history``, ``reports`` or a front end.
"""
