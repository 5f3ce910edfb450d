"""The detached review: pending complaints claimed under a lease, judged, and turned into lessons.

The prompt hook starts ``python -m ladder_plugins.agents.review --root <root>`` after each capture
(:mod:`.review_queue`), detached; ``ladder hook review`` runs the same by hand. One review runs per
project at a time: it holds a *lease* (``<history_dir>/feedback/reviews/lease.json``: its process,
a token, an expiry of ``reviewer_timeout`` plus a minute, renewed before each job and checked again
before anything is published), taken and changed under ``lease.lock``. A review that finds the
lease held by a live one leaves: that one takes every pending job, including those written after it
started, because after releasing the lease it looks at the queue again. An expired lease (a review
killed mid-way) is taken over.

For each job, oldest first: the evidence (:mod:`.review_evidence`), the reviewer
(:mod:`.reviewer`), and one outcome:

* **publish**: a lesson (``lessons.store``): a new file, or a recurrence of the family's lesson or of
  the lesson with the same body;
* **decline**: the decline is recorded; a family declined three times within 14 days gets a
  synthesised Major lesson (``lessons.declines``), unless it has one;
* **no reviewer** (none configured or found), **timeout**, **exit status** other than 0, **invalid
  answer**: a lesson made from the user's own words (the complaint's first sentence, as agent data),
  marked as such, so what reaches the agent is never only bookkeeping.

A capture the classifier was not sure of (``"ask"``, see ``captures``) gets a verdict line in the
captures file once a reviewer has answered (published: it counts; declined: it does not), and no
lesson in the user's words when none answered.

Each outcome is one line of ``<history_dir>/feedback/reviews.jsonl`` (an event name, a reason code,
the reviewer's name, the capture's hash, the family id, the milliseconds: no words), and
``reviewer.json`` says which reviewer ran last and when one last succeeded (``ladder doctor`` reads
it). The job is then deleted; a job file that is not one is logged as ``damaged_job`` and deleted too.
A job whose review raised (a lesson that cannot be written: the lessons lock held past its timeout, a
folder leading out of the project) is logged as ``review.failed`` and kept for the next review, and
this review goes on with the jobs after it. After a round that changed a lesson, the rules block is
synced.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from ..lessons.store import Draft, Published
from .review_queue import reviews_dir
from .reviewer import Reviewer

__all__ = ["LEASE_FILE", "LOG_FILE", "Outcome", "Lease", "ReviewConfig", "review_config", "pending_jobs",
           "read_job", "words_draft", "review_job", "review_pending", "main"]

LEASE_FILE = "lease.json"
LOG_FILE = "reviews.jsonl"
_LEASE_MARGIN = 60.0
_MAX_ROUNDS = 50
_MAX_JOB = 64 << 10
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])\s*")
_FENCE = re.compile(r"(?sm)^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)")


@dataclass(frozen=True)
class Outcome:
    """One job's outcome: ``published``, ``recurred``, ``known``, ``declined``, ``escalated`` (a decline that
    made the synthesised lesson), ``skipped`` (a job with nothing to judge, or ``damaged_job``), or ``failed``
    (the review raised; the reason is the exception's class, and the job is kept for the next review); why, as
    a code (``verdict``: the reviewer answered; else ``no_reviewer``, ``timeout``, ``exit_status``,
    ``not_started``, ``invalid_answer``); which reviewer; the capture's hash and the family."""

    event: str
    reason: str
    reviewer: str
    capture: str
    family: str = ""
    ms: int = 0

    @property
    def changed(self) -> bool:
        return self.event in ("published", "recurred", "escalated")


@dataclass(frozen=True)
class ReviewConfig:
    """What the review reads of ``[tool.ladder]``: where its files are, the reviewer's keys, the settings."""

    root: Path
    history_dir: str = ".ladder"
    reviewer: tuple[str, ...] = ()
    timeout: float = 300.0
    env: tuple[str, ...] = ()
    settings: Any = field(default=None, compare=False)
    #: the environment the reviewer is looked for in (its PATH) and given, scrubbed, to run in
    environ: Mapping[str, str] = field(default_factory=dict, compare=False)


def review_config(root: Path) -> ReviewConfig:
    """The project's settings; the defaults where its configuration is invalid (the review must still run:
    ``ladder doctor`` says what is wrong with the configuration)."""
    from ..config import load_settings
    from ..errors import LadderError

    try:
        settings = load_settings(root)
    except LadderError:
        return ReviewConfig(root)
    feedback = settings.feedback
    return ReviewConfig(settings.root, settings.history_dir, feedback.reviewer, float(feedback.reviewer_timeout),
                        feedback.reviewer_env, settings)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


class Lease:
    """The claim on a project's pending jobs: one review at a time, taken over once it expires."""

    def __init__(self, folder: Path, seconds: float) -> None:
        self.file = folder / LEASE_FILE
        self.lock = folder / "lease.lock"
        self.seconds = seconds
        self.token = secrets.token_hex(8)

    def _current(self) -> Optional[dict[str, Any]]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and isinstance(data.get("expires"), (int, float)) else None

    def _write(self) -> None:
        from ..ladderdir.atomic import write_atomic

        entry = {"pid": os.getpid(), "token": self.token, "expires": time.time() + self.seconds}
        write_atomic(self.file, json.dumps(entry).encode("utf-8"), sync=False)

    def _locked(self, change: Any) -> bool:
        from ..ladderdir.lock import taken

        with taken(self.lock, 5.0) as got:
            return bool(got and change())

    def take(self) -> bool:
        """Hold the lease if nobody else holds it (or theirs expired); whether it is ours now."""
        def change() -> bool:
            current, now = self._current(), time.time()
            # a review renews to now + its length: an expiry beyond twice that is damage or a clock gone back
            live = current is not None and now < current["expires"] <= now + 2 * self.seconds
            if live and current is not None and current.get("token") != self.token:
                return False
            self._write()
            return True

        return self._locked(change)

    def renew(self) -> bool:
        """Push the expiry on, if the lease is still ours; whether it is."""
        def change() -> bool:
            current = self._current()
            if current is None or current.get("token") != self.token:
                return False
            self._write()
            return True

        return self._locked(change)

    def release(self) -> None:
        def change() -> bool:
            current = self._current()
            if current is not None and current.get("token") == self.token:
                self.file.unlink()
            return True

        self._locked(change)


def pending_jobs(folder: Path) -> list[Path]:
    """The jobs waiting, oldest first (their names start with the capture's time)."""
    try:
        return sorted(folder / n for n in os.listdir(folder) if n.endswith(".json") and n != LEASE_FILE)
    except OSError:
        return []


def read_job(path: Path) -> Optional[dict[str, Any]]:
    """A job as the prompt hook wrote it, or ``None`` when it is not one."""
    try:
        with open(path, "rb") as handle:
            job = json.loads(handle.read(_MAX_JOB).decode("utf-8", "replace"))
        when = datetime.fromisoformat(str(job["when"]).replace("Z", "+00:00"))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if when.tzinfo is None or not all(isinstance(job.get(k), str) for k in ("id", "hash")):
        return None
    job["when"] = when.astimezone(timezone.utc)
    return dict(job)


def _first_sentence(text: str) -> str:
    plain = " ".join(_FENCE.sub(" ", text).split())
    return next((s for s in _SENTENCE.split(plain) if s.strip()), "")[:200]


def words_draft(job: Mapping[str, Any]) -> Optional[Draft]:
    """The lesson made from the user's own words when no reviewer answered; ``None`` without words."""
    sentence = _first_sentence(str(job.get("complaint") or ""))
    if not any(c.isalnum() for c in sentence):
        return None
    keywords = tuple(k for k in job.get("keywords") or () if isinstance(k, str))
    about = f"When a prompt is about {', '.join(keywords)}, check" if keywords else "Check"
    return Draft("-".join(sorted(keywords)[:4]) if keywords else sentence, "user-words", "Major",
                 f"The user objected: {sentence}", f"Heed what the user said: \u201c{sentence}\u201d",
                 f"{about} the work against these words before saying it is done; no reviewer has judged them.",
                 keywords, (str(job["hash"]),), _iso(job["when"]))


def _publish(config: ReviewConfig, draft: Draft, now: datetime) -> Published:
    from ..lessons.store import publish

    return publish(config.root, config.history_dir, draft, _iso(now))


def _fallback(config: ReviewConfig, job: Mapping[str, Any], reason: str, name: str, now: datetime) -> Outcome:
    """The lesson in the user's own words; none for a capture the classifier was not sure of (``ask``): with no
    reviewer to judge it, it may not be a complaint at all."""
    draft = None if job.get("ask") else words_draft(job)
    if draft is None:
        return Outcome("skipped", reason, name, str(job["hash"]))
    done = _publish(config, draft, now)
    return Outcome(done.action, reason, name, str(job["hash"]), done.family)


def _declined(config: ReviewConfig, job: Mapping[str, Any], verdict: Any, name: str, now: datetime) -> Outcome:
    from ..lessons.declines import Decline, escalation, record_decline
    from ..lessons.store import Occurrence, family_id, read_lessons, recur

    record_decline(config.root, config.history_dir, Decline(verdict.family_key, verdict.reason, job["when"],
                                                            str(job["hash"])))
    family = family_id(verdict.family_key, "reviewer")
    lessons = read_lessons(config.root)
    if family in {lesson.family for lesson in lessons}:  # a family with a lesson: the decline is a recurrence
        done = recur(config.root, config.history_dir, family,
                     Occurrence(_iso(job["when"]), _iso(now), str(job["hash"]), "decline"))
        return Outcome(done.action, "verdict", name, str(job["hash"]), family)
    draft = escalation(config.root, config.history_dir, verdict.family_key, job["when"], lessons)
    if draft is None:
        return Outcome("declined", "verdict", name, str(job["hash"]), family)
    done = _publish(config, draft, now)
    return Outcome("escalated", "verdict", name, str(job["hash"]), done.family)


def _verdict_line(config: ReviewConfig, job: Mapping[str, Any], outcome: Optional[Outcome]) -> None:
    """For a capture the classifier was not sure of (``ask``): the verdict line that says whether the tracker
    counts it (a lesson published or recurred: yes; a decline: no; no reviewer's answer: no line)."""
    if outcome is None or not job.get("ask") or outcome.reason != "verdict":
        return
    from .captures import append_capture, verdict_entry

    dissatisfied = outcome.event in ("published", "recurred", "known", "escalated")
    reasons = [r for r in job.get("reasons") or () if isinstance(r, str)]
    append_capture(config.root, verdict_entry(str(job["id"]), dissatisfied, reasons=reasons), config.history_dir,
                   timeout=5.0)


def review_job(config: ReviewConfig, job: Mapping[str, Any], reviewer: Optional[Reviewer], now: datetime,
               still_ours: Any = lambda: True) -> Optional[Outcome]:
    """Judge one job and publish what it teaches (and, for a capture marked ``ask``, say whether it counts);
    ``None`` when the lease was lost meanwhile (nothing is published: the review holding it now does the job)."""
    outcome = _judged(config, job, reviewer, now, still_ours)
    _verdict_line(config, job, outcome)
    return outcome


def _judged(config: ReviewConfig, job: Mapping[str, Any], reviewer: Optional[Reviewer], now: datetime,
            still_ours: Any) -> Optional[Outcome]:
    from .review_evidence import build_evidence, request_text
    from .reviewer import VerdictError, answer_text, parse_verdict, run_reviewer, scrubbed

    if reviewer is None:
        return _fallback(config, job, "no_reviewer", "", now)
    request = request_text(build_evidence(config.root, job))
    ran = run_reviewer(reviewer, request, scrubbed(config.environ, config.env), config.timeout)
    if not still_ours():
        return None
    if ran.status != "ok":
        return _fallback(config, job, ran.status, reviewer.name, now)
    try:
        verdict = parse_verdict(answer_text(ran.stdout, reviewer.answer))
    except VerdictError:
        return _fallback(config, job, "invalid_answer", reviewer.name, now)
    if not verdict.publish:
        return _declined(config, job, verdict, reviewer.name, now)
    keywords = verdict.keywords or tuple(job.get("keywords") or ()) or tuple(verdict.family_key.split("-"))
    draft = Draft(verdict.family_key, "reviewer", verdict.severity, verdict.title, verdict.do, verdict.apply,
                  keywords, (str(job["hash"]),), _iso(job["when"]))
    done = _publish(config, draft, now)
    return Outcome(done.action, "verdict", reviewer.name, str(job["hash"]), done.family)


def _record(config: ReviewConfig, outcome: Outcome, now: datetime) -> None:
    """The outcome's line in the review log, and the reviewer's status for ``ladder doctor``."""
    from ..ladderdir.append import append_line
    from ..ladderdir.atomic import write_atomic
    from .reviewer import status_path

    entry = {"when": _iso(now), "event": f"review.{outcome.event}", "reason": outcome.reason,
             "reviewer": outcome.reviewer, "capture": outcome.capture, "family": outcome.family, "ms": outcome.ms}
    folder = config.root / config.history_dir / "feedback"
    append_line(folder / LOG_FILE, entry, timeout=5.0, sync=False)
    path = status_path(config.root, config.history_dir)
    try:
        status = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        status = {}
    status = status if isinstance(status, dict) else {}
    status.update({"reviewer": outcome.reviewer or None, "last_run": _iso(now), "last_event": outcome.event,
                   "last_reason": outcome.reason})
    if outcome.reason == "verdict":
        status["last_success"] = _iso(now)
    write_atomic(path, json.dumps(status, indent=1).encode("utf-8"), sync=False)


def _reviewed(config: ReviewConfig, job: Optional[Mapping[str, Any]], reviewer: Optional[Reviewer],
              moment: datetime, lease: Lease) -> Optional[Outcome]:
    """:func:`review_job`, a damaged job ``skipped``, and a review that raised ``failed`` (the exception's class
    as the reason: no words), so that one job cannot hold up the queue behind it."""
    if job is None:
        return Outcome("skipped", "damaged_job", "", "")
    try:
        return review_job(config, job, reviewer, moment, lease.renew)
    except Exception as error:  # a lesson that cannot be written, a job with fields of the wrong type
        return Outcome("failed", type(error).__name__, reviewer.name if reviewer else "", str(job["hash"]))


def _round(config: ReviewConfig, lease: Lease, now: Optional[datetime], failed: set[Path]) -> list[Outcome]:
    """The pending jobs, oldest first, while the lease is ours; a job that ``failed`` is kept for the next
    review and added to ``failed``, which this one skips from then on."""
    from .reviewer import choose

    reviewer = choose(config.reviewer, config.environ)
    outcomes = []
    for path in pending_jobs(reviews_dir(config.root, config.history_dir)):
        if path in failed:
            continue
        if not lease.renew():
            break
        began = time.monotonic()
        moment = now or datetime.now(timezone.utc)
        outcome = _reviewed(config, read_job(path), reviewer, moment, lease)
        if outcome is None:
            break
        outcome = Outcome(**{**outcome.__dict__, "ms": int((time.monotonic() - began) * 1000)})
        _record(config, outcome, moment)
        if outcome.event == "failed":
            failed.add(path)
        else:
            path.unlink(missing_ok=True)
        outcomes.append(outcome)
    return outcomes


def _sync_block(config: ReviewConfig) -> None:
    """The rules block rebuilt from the lessons as they are now (a failure leaves the block as it was)."""
    if config.settings is None:
        return
    from ..rules_block.files import sync

    try:
        sync(config.settings)
    except Exception:  # a block that cannot be written is `ladder doctor`'s to report, not the review's
        pass


def review_pending(root: Path, *, now: Optional[datetime] = None,
                   environ: Optional[Mapping[str, str]] = None) -> list[Outcome]:
    """Review every pending job of the project at ``root`` under the lease; nothing when another review holds
    it. ``now`` fixes the clock (tests); ``environ`` is where the reviewer is found and what it may get."""
    import dataclasses

    config = dataclasses.replace(review_config(Path(root)), environ=os.environ if environ is None else environ)
    folder = reviews_dir(config.root, config.history_dir)
    outcomes: list[Outcome] = []
    failed: set[Path] = set()
    for _ in range(_MAX_ROUNDS):
        if not pending_jobs(folder):
            break
        lease = Lease(folder, config.timeout + _LEASE_MARGIN)
        if not lease.take():
            break
        try:
            done = _round(config, lease, now, failed)
        finally:
            lease.release()
        outcomes += done
        if any(o.changed for o in done):
            _sync_block(config)
        if not done:
            break
    return outcomes


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m ladder_plugins.agents.review --root DIR``: exit status 0 whatever happened (it is detached:
    nobody reads it; the review log and ``ladder doctor`` say what it did)."""
    import argparse

    parser = argparse.ArgumentParser(prog="ladder-review", description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--history-dir", default=".ladder")
    args = parser.parse_args(argv)
    from .review_queue import lease_held

    if lease_held(Path(args.root), args.history_dir):
        return 0  # the review holding it takes this job too: leave before reading the configuration
    try:
        review_pending(Path(args.root))
    except Exception:  # detached: there is no one to tell; the jobs stay for the next review
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
