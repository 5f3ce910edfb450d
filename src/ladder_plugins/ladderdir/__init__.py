"""The ``.ladder`` directory: the few rules that the history and the cache share.

Which paths lie inside the project root and how directories under ``history_dir``
are made (``paths``), and how a damaged file is kept aside instead of deleted
(``aside``).

May import: the standard library only (and ``errors``). Must not import any other
part: it sits under both ``analysis`` (the cache) and ``history`` (the store).
"""
