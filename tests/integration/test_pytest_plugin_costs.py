"""What ``pytest --ladder`` costs a session, told by the work it does rather than by a clock: ladder's code
runs per analysed file and once per session, never once per test item."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import ladder_plugins

_PACKAGE = str(Path(ladder_plugins.__file__).parent)


def _ladder_calls(pytester: pytest.Pytester, *args: str) -> int:
    """How many of ladder's Python functions (generators resumed included) an in-process session calls."""
    calls = 0

    def count(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call" and frame.f_code.co_filename.startswith(_PACKAGE):
            calls += 1

    sys.setprofile(count)
    try:
        result = pytester.runpytest("-p", "no:cacheprovider", "--ladder", "--ladder-no-record",
                                    "--ladder-no-cache", *args)
    finally:
        sys.setprofile(None)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    return calls


def _suite(pytester: pytest.Pytester, tests: int) -> None:
    """Two test files (one a class) of ``tests`` parametrized tests each: the analysed source does not change."""
    pytester.makepyfile(**{
        "tests/test_flat.py": f"import pytest\n\n@pytest.mark.parametrize('n', range({tests}))\n"
                              "def test_flat(n):\n    assert n >= 0\n",
        "tests/test_cls.py": f"import pytest\n\nclass TestCls:\n    @pytest.mark.parametrize('n', range({tests}))\n"
                             "    def test_in_class(self, n):\n        assert n >= 0\n",
    })


def test_ladder_code_runs_per_file_not_per_test_item(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml('[tool.ladder]\npaths = ["src", "tests"]\n')
    pytester.makepyfile(**{"src/shop/__init__.py": "def price(a):\n    return a\n"})
    _suite(pytester, 2)
    _ladder_calls(pytester)  # what a session caches once per process (settings, plugins) is not counted below
    few = _ladder_calls(pytester)
    _suite(pytester, 40)
    many = _ladder_calls(pytester)
    assert many - few < 2 * (40 - 2), f"{many - few} more calls of ladder's code for {2 * 38} more test items"
    # -k deselects after the files are known: the work stays per file there too
    assert _ladder_calls(pytester, "-k", "flat or ladder") - few < 40 - 2


def test_a_session_without_ladder_loads_nothing_of_it_but_the_plugin(pytester: pytest.Pytester) -> None:
    """Every pytest run where ladder-plugins is installed pays what its options import (a process of its own:
    what this one has imported already would hide it)."""
    pytester.makepyprojecttoml('[tool.ladder]\nmode = "strict"\n')
    pytester.makeconftest("import sys\n\ndef pytest_sessionfinish(session):\n"
                          "    print('LOADED', sorted(m for m in sys.modules if m.startswith('ladder_plugins.')))\n")
    pytester.makepyfile(test_one="def test_one():\n    assert 1\n")
    result = pytester.runpytest_subprocess("-q", "-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "LOADED ['ladder_plugins.pytest_plugin']\n" in result.stdout.str()


def test_the_mode_choices_are_the_gates_modes() -> None:
    from ladder_plugins import pytest_plugin
    from ladder_plugins.config import MODES

    assert pytest_plugin._MODES == MODES
