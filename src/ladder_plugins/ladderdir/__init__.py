"""The ``.ladder`` directory: the few rules that the history and the cache share.

Which paths lie inside the project root and how directories under ``history_dir``
are made (``paths``), how a damaged file is kept aside instead of deleted
(``aside``), how a file is replaced whole (``atomic``), how writers take turns
(``lock``) and how a JSON line is appended under that lock (``append``).

May import: the standard library only (and ``errors``; ``filelock`` inside ``lock``). Must not import any other
part: it sits under both ``analysis`` (the cache) and ``history`` (the store).
"""
