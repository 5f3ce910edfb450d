"""One review per project at a time: the lease is taken once, renewed only by its holder, taken over once it
expired, and a review that finds it held leaves at once, the job left for the holder."""

from __future__ import annotations

import json
import time

from ladder_plugins.agents.review import Lease, main, pending_jobs
from ladder_plugins.agents.review_queue import job_entry, lease_held, reviews_dir, write_job


def test_the_lease_is_one_holders_until_it_expires(tmp_path):
    folder = tmp_path / "reviews"
    folder.mkdir()
    first, second = Lease(folder, 60), Lease(folder, 60)
    assert first.take() and not second.take() and not second.renew() and first.renew()
    first.release()
    assert second.take() and not first.renew()
    data = json.loads((folder / "lease.json").read_text())
    (folder / "lease.json").write_text(json.dumps({**data, "expires": time.time() - 1}))  # its holder died
    assert first.take() and not second.renew()


def test_a_review_that_finds_the_lease_held_leaves_the_job_for_its_holder(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.ladder]\n")
    capture = {"id": "a" * 32, "when": "2026-11-01T00:00:00Z", "hash": "b" * 64}
    write_job(root, ".ladder", job_entry(capture, "You broke it again.", None))
    holder = Lease(reviews_dir(root, ".ladder"), 60)
    assert holder.take() and lease_held(root, ".ladder")
    assert main(["--root", str(root)]) == 0
    assert len(pending_jobs(reviews_dir(root, ".ladder"))) == 1 and not (root / ".agent").exists()
    holder.release()
    assert not lease_held(root, ".ladder")
