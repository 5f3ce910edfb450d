"""The shared analysis cache and parallel analysis: results are results, whatever path they took."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from ladder_plugins.analysis.cache import AnalysisCache
from ladder_plugins.config import load_settings

from tests.helpers.reports import demo_copy, ladder


def entries(project):
    return sorted((project / ".ladder" / "cache").glob("*/*.json"))


@pytest.fixture
def shop(tmp_path):
    return demo_copy(tmp_path / "shop")


def metrics(project, *args, **env):
    done = ladder(["metrics", "--format", "json", *args], project, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_second_run_hits_and_gives_the_same_results(shop):
    first = ladder(["check", "--no-record", "--format", "json", "--jobs", "1"], shop)
    written = entries(shop)
    assert len(written) == 4  # one per analysed file
    second = ladder(["check", "--no-record", "--format", "json", "--jobs", "1"], shop)
    assert entries(shop) == written
    strip = lambda out: {k: v for k, v in json.loads(out).items() if k != "run_id"}  # noqa: E731
    assert strip(first.stdout) == strip(second.stdout)


def test_touching_is_a_hit_editing_is_a_miss(shop):
    ladder(["check", "--no-record"], shop)
    before = len(entries(shop))
    pricing = shop / "src" / "shop" / "pricing.py"
    os.utime(pricing, (time.time() + 60, time.time() + 60))
    ladder(["check", "--no-record"], shop)
    assert len(entries(shop)) == before
    pricing.write_text(pricing.read_text() + "\n\ndef extra():\n    return 1\n")
    ladder(["check", "--no-record"], shop)
    assert len(entries(shop)) == before + 1


def test_settings_change_is_a_miss(shop):
    ladder(["check", "--no-record"], shop)
    before = len(entries(shop))
    with (shop / "pyproject.toml").open("a") as handle:
        handle.write("\n[tool.ladder.thresholds]\ncognitive_max = 30\n")
    done = ladder(["check", "--no-record", "--mode", "strict", "--show-yellow"], shop)
    assert len(entries(shop)) == 2 * before
    assert "cognitive complexity of 'price' is 25 (limit 30)" in done.stdout  # the new limit, not a stale result


def test_a_damaged_entry_is_kept_aside_and_rebuilt(shop):
    clean = metrics(shop, "--no-cache")
    ladder(["check", "--no-record"], shop)
    victim = entries(shop)[0]
    victim.write_text("{ not json")
    done = ladder(["check", "--no-record", "--format", "json"], shop)
    assert done.returncode == 0
    assert done.stderr.count("ladder: warning:") == 1 and "damaged" in done.stderr
    assert (victim.parent / (victim.name + ".damaged")).read_text() == "{ not json"
    assert metrics(shop) == clean


def test_no_cache_option_and_environment(shop):
    ladder(["check", "--no-record", "--no-cache"], shop)
    ladder(["check", "--no-record"], shop, LADDER_NO_CACHE="1")
    assert not (shop / ".ladder").exists()


def test_cached_items_pass_and_fail_like_fresh_ones(shop):
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "pytest", "--ladder", "--ladder-mode", "strict",
                               "--ladder-no-record", "-p", "no:cacheprovider", "-q"],
                              cwd=shop, capture_output=True, text=True, timeout=300)
        assert done.returncode == 1 and "2 failed, 3 passed" in done.stdout, done.stdout
    assert len(entries(shop)) == 4


def test_concurrent_processes_share_the_cache_safely(shop):
    procs = [subprocess.Popen([sys.executable, "-m", "ladder_plugins", "metrics", "--format", "json", "--jobs", "1"],
                              cwd=shop, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    ladder(["check", "--no-record", "--jobs", "1"], shop)  # writes entries while the readers run
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs) and not any(err for _, err in outputs)
    assert len({out for out, _ in outputs}) == 1
    assert not list((shop / ".ladder" / "cache").glob("*/.*.tmp"))


def test_the_cache_is_bounded(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    cache = AnalysisCache(load_settings(tmp_path), [], max_mb=0.01)
    for n in range(40):
        cache.put(cache.key(str(n).encode(), "m.py"), {"filler": "x" * 1000})
    removed = cache.evict()
    assert removed > 0
    assert sum(p.stat().st_size for p in entries(tmp_path)) <= 0.01 * 1024 * 1024


def test_parallel_jobs_give_the_same_results(tmp_path):
    project = tmp_path / "many"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.ladder]\n")
    for n in range(30):
        body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(n % 14))
        (project / "src" / f"m{n:02}.py").write_text(f"def f{n}(x, a, b, c, d, e):\n{body}    return -1\n")
    one = metrics(project, "--jobs", "1", "--no-cache")
    two = metrics(project, "--jobs", "2", "--no-cache")
    assert one == two and len(one["files"]) == 30
    checked = [ladder(["check", "--no-record", "--format", "json", "--jobs", j, "--no-cache"], project) for j in "12"]
    assert [json.loads(c.stdout)["files"] for c in checked][0] == json.loads(checked[1].stdout)["files"]
