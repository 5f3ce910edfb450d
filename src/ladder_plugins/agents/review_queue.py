"""The prompt hook's side of the review: a job for the reviewer written, a detached review started, never waited on.

After a capture the prompt hook writes one *job* (``<history_dir>/feedback/reviews/<when>-<id>.json``:
the capture's id, time, hash, reason codes and keywords, the complaint itself cut to
:data:`COMPLAINT_CAP` characters, the transcript's path and the session) and starts
``python -m ladder_plugins.agents.review --root <root>`` in a session of its own, its standard
input, output and error ``/dev/null``. The hook never waits for it, never reads its exit status,
and the process outlives the hook: a review takes seconds to minutes, a prompt must not.

The job is the only place the hook keeps the complaint's words (and its keywords) when ``store_prompts``
is off: the reviewer needs them, and it deletes the job once the review has an outcome. The folder is in the
``.ladder`` directory, which nobody commits. A lesson made from the user's own words (no reviewer answered)
quotes the complaint's first sentence whatever ``store_prompts`` says (``review.words_draft``).

The standard library only, imported when a capture is written (the hook's other prompts never load it).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from ..ladderdir.paths import JOURNAL_DIR, first_outside, make_dirs

__all__ = ["REVIEWS_DIR", "COMPLAINT_CAP", "reviews_dir", "job_entry", "write_job", "review_command", "lease_held",
           "start_review"]

#: the jobs' folder under ``<history_dir>/feedback``
REVIEWS_DIR = "reviews"
#: characters of the complaint a job keeps, at most
COMPLAINT_CAP = 4000
_MAX_PATH = 4096


def reviews_dir(root: Path, history_dir: str) -> Path:
    return root / history_dir / JOURNAL_DIR / REVIEWS_DIR


def job_entry(capture: Mapping[str, Any], prompt: str, transcript: Optional[str],
              keywords: Sequence[str] = ()) -> dict[str, Any]:
    """A job: the capture's fields the review needs (``ask``: the classifier was not sure, the reviewer's
    verdict decides whether it counts), the complaint, its keywords, and where the transcript is."""
    return {
        "id": capture["id"], "when": capture["when"], "hash": capture["hash"],
        "reasons": list(capture.get("reasons") or ()), "keywords": list(keywords or capture.get("keywords") or ()),
        "ask": bool(capture.get("ask")), "session_id": capture.get("session_id"), "complaint": prompt[:COMPLAINT_CAP],
        "transcript": transcript if transcript and len(transcript) <= _MAX_PATH else None,
    }


def write_job(root: Path, history_dir: str, job: Mapping[str, Any]) -> Optional[Path]:
    """Write ``job`` whole (a temporary file renamed) into the reviews folder of ``root``; the file, or
    ``None`` when it could not be written (a folder leading out of the root, the file system refusing)."""
    from ..ladderdir.atomic import write_atomic

    real = Path(os.path.realpath(root))
    folder = reviews_dir(real, history_dir)
    stamp = "".join(c for c in str(job["when"]) if c.isdigit())
    path = folder / f"{stamp}-{job['id']}.json"
    try:
        if first_outside([folder.parent, folder], real):
            return None
        make_dirs(real / history_dir, folder)
        if first_outside([folder.parent, folder], real):
            return None
        write_atomic(path, json.dumps(job, ensure_ascii=False).encode("utf-8", "surrogatepass"), sync=False)
    except (OSError, UnicodeEncodeError):
        return None
    return path


def review_command(root: Path, history_dir: str = ".ladder") -> list[str]:
    """The detached review's command: this interpreter, the review module, the project root, its history
    directory (so a review that finds the lease held leaves before reading any configuration)."""
    return [sys.executable, "-m", "ladder_plugins.agents.review", "--root", str(root), "--history-dir", history_dir]


def lease_held(root: Path, history_dir: str) -> bool:
    """Whether a live review holds the lease (its expiry not passed): read without the lock, so a review may
    leave early; the holder looks at the queue again after releasing it, so no job is left behind."""
    import time

    try:
        with open(reviews_dir(root, history_dir) / "lease.json", "rb") as handle:
            expires = json.loads(handle.read(4096)).get("expires")
    except (OSError, ValueError, AttributeError):
        return False
    return isinstance(expires, (int, float)) and expires > time.time()


def start_review(root: Path, environ: Optional[Mapping[str, str]] = None, history_dir: str = ".ladder"
                 ) -> Optional[int]:
    """Start the review of ``root``'s pending jobs, detached: a new session, stdio ``/dev/null``, never waited
    on. Its process id, or ``None`` when it could not be started (the next capture starts one again)."""
    env = {**os.environ, **(environ or {})}
    command = review_command(Path(os.path.realpath(root)), history_dir)
    try:
        if hasattr(os, "posix_spawn"):
            # posix_spawn, not subprocess: no Popen object left to warn that it was never waited for, and
            # subprocess is not imported on the prompt's path
            nothing = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
            return os.posix_spawn(sys.executable, command, env, file_actions=nothing, setsid=True)
        return _start_windows(command, env)
    except OSError:
        return None


def _start_windows(command: list[str], env: Mapping[str, str]) -> int:
    """Where there is no ``posix_spawn``: a detached process in a group of its own."""
    import subprocess

    flags = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    process = subprocess.Popen(command, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, creationflags=flags, close_fds=True)
    process.returncode = 0  # never waited for, on purpose: say so, or Popen warns when it is collected
    return process.pid
