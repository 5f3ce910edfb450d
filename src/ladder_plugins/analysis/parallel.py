"""``--jobs``: analysing files in worker processes, with the same results as one process.

Each worker builds its own analyzer (settings, plugins, cache) once, analyses chunks
of files, and hands reports back as plain JSON data (see :mod:`.serialize`); the
parent restores them in path order. Workers share the analysis cache, whose writes
are atomic. The parent passes its analyzer's class to the workers, so this module
depends on the reports only, not on the analyser that calls it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

__all__ = ["analyze_in_processes", "default_jobs"]

_WORKER: dict[str, Any] = {}  # this worker process's analyzer; the parent never touches it


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _start(analyzer_class: Any, root: str, options: dict[str, Any], marks: Any) -> None:
    from ..config import load_settings
    from .roles import GitAttributes

    settings = load_settings(Path(root))
    analyzer = analyzer_class.for_run(settings, **options)
    analyzer.attributes = GitAttributes(settings.root, marks=marks)  # the parent asked git (and said why not)
    _WORKER["analyzer"] = analyzer


def _analyse(file: Any) -> dict[str, Any]:
    from .serialize import report_to_json

    return report_to_json(_WORKER["analyzer"].file(file))


def analyze_in_processes(analyzer: Any, files: Sequence[Any], jobs: int,
                         progress: Optional[Callable[[int, int], None]] = None) -> tuple[Any, ...]:
    from concurrent.futures import ProcessPoolExecutor  # 40 ms of imports a one-file run does not need

    from .serialize import report_from_json

    marks = analyzer.attributes.marks_for(f.rel for f in files)
    options = {"hashes": analyzer.hashes, "versions": analyzer.versions, "use_cache": analyzer.cache is not None}
    args = (type(analyzer), str(analyzer.settings.root), options, marks)
    chunk = max(1, min(16, len(files) // (jobs * 4)))
    reports = []
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start, initargs=args) as pool:
        for done, data in enumerate(pool.map(_analyse, files, chunksize=chunk), 1):
            reports.append(report_from_json(data, analyzer.by_code))
            if progress is not None:
                progress(done, len(files))
    return tuple(reports)
