"""The settings of ``[tool.ladder]``: every key written once, and the frozen settings it fills.

The key table (``keys``) holds each key's name, the kind of value it takes (``values``; the two tables whose
keys the user names, limits and role globs, in ``limits``) and what it does; a field of a settings class
(``model``) holds its default. The parser, its errors, ``ladder init``'s starter and the configuration
reference (``reference``) are made from the table. ``config`` finds the project, reads its pyproject.toml
and is the front every other part imports settings from.

May import: ``catalogue`` and ``errors``. Must not import: ``config`` (it imports this), ``plugins`` or any
part above the spine: settings are what every part reads.
"""
