"""The work-log and knowledge-base lint: the forced-feedback-loop format made level 4 (``docs/how-to/worklog.md``).

A work log (``work-log.md``: reports newest on top, each under a line-count header) is
read by ``parse`` and judged by ``lint`` (with ``contract``, ``references`` and
``final``); ``writer`` writes reports so their headers are right by construction,
``reader`` reads the newest ones by their headers. A knowledge base (``kb/``) is walked
by ``kbscan``, its notes read by ``notes``, judged by ``noteschema`` and ``kb``, indexed
by ``kbindex``, and moved by ``kbmove`` (through ``noteedit``). ``output`` turns problems
into text, JSON, SARIF and GitHub commands; ``service`` is what the front ends call.

May import: the spine, ``ladderdir``, ``history.run`` (the clock), ``reports`` (the
sanitiser and the CI formats' escaping) and ``feedback.frontmatter`` (the one YAML
front-matter reader).
Must not import: ``analysis``, ``metrics``, the rest of ``feedback`` or a front end, or be
imported by a lint or test run unless a work log or knowledge base is asked for.
"""
