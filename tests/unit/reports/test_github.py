"""``ladder check --format github``: what fails the run is an ``::error``, other red findings ``::warning``."""

from __future__ import annotations

import re

from tests.helpers.reports import FINAL, STEPS

_COMMAND = re.compile(r"^::(error|warning) file=([^,]+),line=(\d+),col=1,title=([^:]+)::(.+)$")


def _branches(count: int, offset: int) -> str:
    return "".join(f"    if a{i}:\n        return {i + offset}\n" for i in range(count))


def _hot_and_cold(root, monkeypatch, ladder) -> None:
    """hot.py's f (two rules over their limits) is edited on every check and becomes a recurring hotspot;
    cold.py's g is as red but never edited, so it does not recur."""
    (root / "src").mkdir()
    (root / "pyproject.toml").write_text("[tool.ladder]\n")
    (root / "src" / "cold.py").write_text(f"def g(a, b):\n{_branches(12, 0)}    return 0\n")
    for n, (now, _) in enumerate(STEPS):
        body = _branches(12, n) + "".join(f"    x{i} = a{i} + b\n" for i in range(20))
        (root / "src" / "hot.py").write_text(f"def f(a, b):\n{body}    return 0\n")
        ladder(["check"], root, LADDER_NOW=now)
    monkeypatch.setenv("LADDER_NOW", FINAL)


def test_only_what_fails_the_run_is_an_error_and_other_red_a_warning(tmp_path, monkeypatch, ladder_in_process):
    """One error for the hotspot f, one warning for g, red but not recurring."""
    _hot_and_cold(tmp_path, monkeypatch, ladder_in_process)

    done = ladder_in_process(["check", "--no-record", "--format", "github"])
    assert done.returncode == 1
    found = [_COMMAND.match(line) for line in done.stdout.splitlines()]
    assert all(found)
    commands = [(m.group(1), m.group(2), m.group(4)) for m in found]
    assert commands == [("error", "src/hot.py", "LAD900 recurring_hotspot"),
                        ("warning", "src/cold.py", "LAD101 cyclomatic_max")]
    assert "cyclomatic 13 > 10, ABC" in found[0].group(5)  # the unit once, every rule it breaks in its message
