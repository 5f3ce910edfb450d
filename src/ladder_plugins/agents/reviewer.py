"""The reviewer: which command runs, in what environment, for how long, and what its answer must be.

*Which*: ``[tool.ladder.feedback] reviewer`` when it is set, else the first host of the hosts table
whose CLI is on PATH (Claude Code ``claude -p --output-format json``, Codex ``codex exec``, Gemini
CLI ``gemini -p --output-format json``; each row's ``review_command``). None: the review makes the
lesson from the user's own words.

*Environment*: scrubbed. Only ``PATH``, ``HOME``, ``TMPDIR``, ``LANG``, ``LC_ALL``, ``LC_CTYPE``,
``TZ``, any ``LADDER_REVIEW_*`` variable and the names of ``reviewer_env`` reach it. A CLI that
signs in from its own stored credentials (under ``HOME``) works as it is; a provider configured
only through shell variables needs their names in ``reviewer_env``. It runs in a temporary
directory, not in the project: the evidence it needs is in its request.

*Time*: ``reviewer_timeout`` seconds; past them its whole process group is killed.

*Answer*: one JSON object (the host's envelope unwrapped first: Claude Code's ``result``, Gemini
CLI's ``response``), checked strictly (:func:`parse_verdict`): no key it does not know, every key
it needs, each of its type and within its length. Anything else is an invalid answer.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from ..errors import LadderError

__all__ = [
    "BASE_ENV", "ENV_PREFIX", "OUTPUT_CAP", "Reviewer", "Ran", "Verdict", "VerdictError", "choose", "scrubbed",
    "run_reviewer", "answer_text", "parse_verdict", "status_path",
]

#: the variables every reviewer gets (when set)
BASE_ENV = ("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
#: variables with this prefix pass too
ENV_PREFIX = "LADDER_REVIEW_"
#: bytes of a reviewer's stdout read at most
OUTPUT_CAP = 1 << 20
_SEVERITIES = ("Blocker", "Critical", "Major", "Minor")
_FENCE = re.compile(r"\A```(?:json)?\s*\n(.*)\n```\s*\Z", re.S)


@dataclass(frozen=True)
class Reviewer:
    """A reviewer command: its name (a host's, or ``configured``), its words, where its answer is."""

    name: str
    command: tuple[str, ...]
    #: the field of the JSON object on stdout that holds the answer; ``""``: stdout is the answer
    answer: str = ""


def choose(configured: Sequence[str], environ: Mapping[str, str]) -> Optional[Reviewer]:
    """The configured command, else the first host CLI found on ``environ``'s PATH, else ``None``."""
    import shutil

    from ..hosts import HOSTS

    if configured:
        return Reviewer("configured", tuple(configured))
    path = environ.get("PATH", os.defpath)
    for host in HOSTS:
        found = shutil.which(host.review_command[0], path=path) if host.review_command else None
        if found:
            return Reviewer(host.name, (found, *host.review_command[1:]), host.review_answer)
    return None


def scrubbed(environ: Mapping[str, str], allowed: Sequence[str] = ()) -> dict[str, str]:
    """The reviewer's environment: :data:`BASE_ENV`, ``LADDER_REVIEW_*`` and ``allowed``, nothing else."""
    names = set(BASE_ENV) | set(allowed)
    return {k: v for k, v in environ.items() if k in names or k.startswith(ENV_PREFIX)}


@dataclass(frozen=True)
class Ran:
    """How a reviewer run ended: ``ok``, ``timeout``, ``exit_status`` or ``not_started``."""

    status: str
    stdout: str = ""
    seconds: float = 0.0


def _kill_group(pid: int) -> None:
    import signal

    try:
        if hasattr(os, "killpg"):
            os.killpg(pid, signal.SIGKILL)
        else:  # Windows: the process alone
            os.kill(pid, signal.SIGTERM)
    except OSError:
        pass


def run_reviewer(reviewer: Reviewer, request: str, env: Mapping[str, str], timeout: float) -> Ran:
    """Run ``reviewer`` with ``request`` on stdin, in a temporary directory and a session of its own; its
    process group killed after ``timeout`` seconds."""
    import subprocess
    import tempfile

    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ladder-review-") as place:
        try:
            process = subprocess.Popen(list(reviewer.command), cwd=place, env=dict(env), stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                       start_new_session=True)
        except (OSError, ValueError):
            return Ran("not_started")
        try:
            out, _ = process.communicate(request.encode("utf-8", "replace"), timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process.pid)
            # wait for the reviewer, not for its output: a process it started in a session of its own is out of
            # the group's reach and may hold the pipe open long after (communicate() would wait for it)
            process.wait()
            if process.stdout is not None:
                process.stdout.close()
            return Ran("timeout", seconds=time.monotonic() - began)
        _kill_group(process.pid)  # what it left running in its group goes with it
    text = out[:OUTPUT_CAP].decode("utf-8", "replace")
    return Ran("ok" if process.returncode == 0 else "exit_status", text, time.monotonic() - began)


class VerdictError(LadderError):
    """A reviewer's answer that is not a valid verdict; the message says what is wrong."""


@dataclass(frozen=True)
class Verdict:
    """A valid verdict: publish (with the lesson) or decline (with the reason)."""

    publish: bool
    reason: str
    family_key: str
    severity: str = ""
    title: str = ""
    do: str = ""
    apply: str = ""
    keywords: tuple[str, ...] = ()


def answer_text(stdout: str, field: str) -> str:
    """The reviewer's answer in its stdout: the host's envelope field, or stdout itself."""
    if not field:
        return stdout
    try:
        envelope = json.loads(stdout)
    except ValueError:
        raise VerdictError("the reviewer's output is not the JSON object its host prints") from None
    if not isinstance(envelope, dict) or not isinstance(envelope.get(field), str) or envelope.get("is_error"):
        raise VerdictError(f"the reviewer's output holds no answer in {field!r}")
    return str(envelope[field])


def _text(data: Mapping[str, Any], key: str, cap: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise VerdictError(f"{key!r} must be a non-empty string")
    if len(value) > cap:
        raise VerdictError(f"{key!r} is longer than {cap} characters")
    return value.strip()


_PUBLISH = {"verdict", "reason", "family_key", "severity", "title", "lesson", "keywords"}
_DECLINE = {"verdict", "reason", "family_key"}


def _keywords(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > 8 or not all(
            isinstance(v, str) and v.strip() and len(v) <= 40 for v in value):
        raise VerdictError("'keywords' must be a list of at most 8 words of at most 40 characters")
    return tuple(v.strip() for v in value)


def _lesson(value: Any) -> tuple[str, str]:
    if not isinstance(value, dict) or set(value) != {"do", "apply"}:
        raise VerdictError("'lesson' must be an object with exactly 'do' and 'apply'")
    return _text(value, "do", 600), _text(value, "apply", 600)


def _object(answer: str) -> dict[str, Any]:
    """The one JSON object ``answer`` is (a code fence around it forgiven)."""
    text = answer.strip()
    fenced = _FENCE.match(text)
    try:
        data = json.loads(fenced.group(1) if fenced else text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise VerdictError("the answer is not one JSON object")
    return data


def parse_verdict(answer: str) -> Verdict:
    """The verdict in ``answer``: exactly one JSON object (a code fence around it is forgiven), with exactly
    the keys of a publication or of a decline; a :class:`VerdictError` saying what is wrong otherwise."""
    data = _object(answer)
    verdict = data.get("verdict")
    if verdict not in ("publish", "decline"):
        raise VerdictError("'verdict' must be \"publish\" or \"decline\"")
    allowed, required = (_PUBLISH, _PUBLISH - {"keywords"}) if verdict == "publish" else (_DECLINE, _DECLINE)
    if set(data) - allowed or required - set(data):
        raise VerdictError(f"a {verdict} takes the keys {', '.join(sorted(allowed))}; got {', '.join(sorted(data))}")
    reason, key = _text(data, "reason", 500), _text(data, "family_key", 80)
    if not any(c.isalnum() for c in key):
        raise VerdictError("'family_key' needs a letter or a digit")
    return Verdict(False, reason, key) if verdict == "decline" else _published(data, reason, key)


def _published(data: Mapping[str, Any], reason: str, key: str) -> Verdict:
    if data["severity"] not in _SEVERITIES:
        raise VerdictError(f"'severity' must be one of {', '.join(_SEVERITIES)}")
    do, apply = _lesson(data["lesson"])
    return Verdict(True, reason, key, data["severity"], _text(data, "title", 120), do, apply,
                   _keywords(data.get("keywords")))


def status_path(root: Path, history_dir: str) -> Path:
    """``<history_dir>/feedback/reviewer.json``: which reviewer ran last, when, how it ended, its last success."""
    from ..ladderdir.paths import JOURNAL_DIR

    return root / history_dir / JOURNAL_DIR / "reviewer.json"
