"""Level 4 of the ladder: what a project already enforces (linters, type checks, coverage gates, hooks, CI).

A built-in feedback source. It reads the project's tool configuration (never running or
importing anything: TOML, YAML, INI and conftest.py are parsed) into *signals*
(``ruff:E722``, ``ladder:cyclomatic_max``, ``precommit:detect-secrets``, ``ci:pytest``,
``mypy:strict``, ...), each with where it was found. A topic of the topic table whose
``enforced_by`` names a present signal is a level-4 sighting, with the topic's words so
that feedback about it matches; a pre-commit hook, CI step, tox command or set of
conftest fixtures that no topic covers is a sighting of its own, its text the command.

A module per concern: ``reading`` (evidence, and the project's files each read once),
``commands`` (the tools a shell line runs), ``tables`` (coverage, mypy, pytest, black, isort
tables), ``precommit``, ``ci`` (GitHub Actions, GitLab CI), ``testing`` (tox commands,
conftest fixtures), ``linters`` (which codes ruff and flake8 report, decided as each decides),
``limits`` (ladder's own) and ``sightings`` (the scan, its signals and sightings, and the
``ladder_feedback_sources`` hook: the module the tracker registers). This file imports none
of them (``tests/test_layout.py`` counts a package whose modules import each other and which
imports them as an import circle). Every file
goes through :func:`~ladder_plugins.tracker.files.read_source`; a file that cannot be read or
parsed, or has the wrong shape, is one warning naming it, never an exception.

May import: what the tracker's sources may (the spine, ``ladderdir``, ``readers``, ``history``,
the tracker's ``model``, ``files`` and ``topics``).
Must not import: the tracker's ``scan``, ``state`` or ``service``, ``rules_block``, ``agents`` or a
front end.
"""
