"""What the review does with what it cannot use: a job file that is not one is logged as ``damaged_job`` and
removed, a lease file that is not one is taken over, and a job whose review fails (a lesson that cannot be
written) is logged as ``review.failed`` and left for the next review, without holding up the jobs after it."""

from __future__ import annotations

import json

from ladder_plugins.agents.review import pending_jobs, review_pending
from ladder_plugins.agents.review_queue import job_entry, reviews_dir, write_job
from ladder_plugins.errors import LadderError
from ladder_plugins.lessons import store

NO_REVIEWER = {"PATH": ""}  # no host CLI found: the lesson is made from the user's words


def _project(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.ladder]\n")
    return root


def _job(root, n: int, text: str = "You broke the parser again.") -> None:
    capture = {"id": f"{n:032x}", "when": f"2026-11-01T00:00:0{n}Z", "hash": f"{n:064x}"}
    assert write_job(root, ".ladder", job_entry(capture, text, None, ("parser",)))


def _log(root):
    path = root / ".ladder" / "feedback" / "reviews.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_damaged_job_is_logged_and_removed_and_the_next_job_is_reviewed(tmp_path):
    root = _project(tmp_path)
    _job(root, 2)
    (reviews_dir(root, ".ladder") / "20261101000001-x.json").write_text("{not json")
    outcomes = review_pending(root, environ=NO_REVIEWER)
    assert [(o.event, o.reason) for o in outcomes] == [("skipped", "damaged_job"), ("published", "no_reviewer")]
    assert [e["reason"] for e in _log(root)] == ["damaged_job", "no_reviewer"]
    assert pending_jobs(reviews_dir(root, ".ladder")) == []


def test_a_damaged_lease_file_is_taken_over(tmp_path):
    root = _project(tmp_path)
    _job(root, 1)
    (reviews_dir(root, ".ladder") / "lease.json").write_text("\x00garbage")
    assert [o.event for o in review_pending(root, environ=NO_REVIEWER)] == ["published"]
    assert not (reviews_dir(root, ".ladder") / "lease.json").exists()


def test_a_lease_that_expires_past_any_review_s_length_is_taken_over(tmp_path):
    """No live review writes an expiry further ahead than its own length: one years ahead is damage or a clock
    that jumped back, and must not hold every review off until then."""
    import time

    root = _project(tmp_path)
    _job(root, 1)
    lease = {"pid": 1, "token": "someone-else", "expires": time.time() + 10 ** 8}
    (reviews_dir(root, ".ladder") / "lease.json").write_text(json.dumps(lease))
    assert [o.event for o in review_pending(root, environ=NO_REVIEWER)] == ["published"]


def test_a_job_whose_review_fails_is_logged_kept_and_holds_up_no_other(tmp_path, monkeypatch):
    root = _project(tmp_path)
    _job(root, 1, "You broke the parser again.")
    _job(root, 2, "You broke the parser once more.")
    real = store.publish

    def publish(root_, history_dir, draft, now, existing=None):
        if draft.source == f"{1:064x}":
            raise LadderError("the lessons are locked by another process")
        return real(root_, history_dir, draft, now, existing)

    monkeypatch.setattr(store, "publish", publish)
    outcomes = review_pending(root, environ=NO_REVIEWER)
    assert [(o.event, o.reason) for o in outcomes] == [("failed", "LadderError"), ("published", "no_reviewer")]
    assert [(e["event"], e["capture"]) for e in _log(root)] == [("review.failed", f"{1:064x}"),
                                                                ("review.published", f"{2:064x}")]
    assert [p.name for p in pending_jobs(reviews_dir(root, ".ladder"))] == [f"20261101000001-{1:032x}.json"]
    monkeypatch.setattr(store, "publish", real)  # the next review retries it
    assert [o.event for o in review_pending(root, environ=NO_REVIEWER)] == ["recurred"]
    assert pending_jobs(reviews_dir(root, ".ladder")) == []
