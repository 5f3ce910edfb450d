"""``tracker.sources.enforced.testing``: tox's commands, each line a command, and the fixtures of
``conftest.py`` found with ``ast`` (never imported); a file that is not Python said with its line."""

from __future__ import annotations

from ladder_plugins.tracker.sources.enforced.testing import conftest_evidence, tox_evidence

from tests.unit.tracker.sources.project_files import project

TOX = """\
[tox]
envlist = py
[testenv]
commands =
    pytest -W error \\
        tests
    # a comment
[testenv:lint]
commands = flake8 src
[other]
commands = mypy src
"""


def test_each_tox_command_line_is_a_command_continuations_joined(tmp_path):
    files, warnings = project(tmp_path, {"tox.ini": TOX})
    found = tox_evidence(files)
    assert [(ev.location, ev.signals, ev.text) for ev in found] == [
        ("tox.ini [testenv] commands: pytest -W error tests", ("tox:pytest", "pytest:warnings-error"),
         "tox env (all): pytest -W error tests"),
        ("tox.ini [testenv:lint] commands: flake8 src", ("tox:flake8",), "tox env lint: flake8 src")]
    assert warnings == []


def test_no_tox_ini_is_nothing(tmp_path):
    assert tox_evidence(project(tmp_path, {})[0]) == []


CONFTEST = '''\
import pytest
from pytest import fixture


@pytest.fixture
def db():
    """A fresh database.

    More words."""


@pytest.fixture(name="client", scope="session")
def _client():
    pass


@fixture
async def bare():
    pass


@pytest.fixture(name="not safe")
def odd():
    pass


def plain():
    pass
'''


def test_fixtures_are_found_by_their_requested_names_with_their_first_doc_line(tmp_path):
    files, _ = project(tmp_path, {"conftest.py": CONFTEST, "tests/conftest.py": "x = 1\n"})
    (found,) = conftest_evidence(files)
    assert found.signals == ("pytest:fixtures", "pytest:fixture:db", "pytest:fixture:client",
                             "pytest:fixture:bare")
    assert found.location == "conftest.py: pytest fixtures db, client, bare"
    assert found.text == "pytest fixtures in conftest.py: db (A fresh database.); client; bare"
    assert found.freeform


def test_the_conftest_is_parsed_never_imported(tmp_path):
    marker = tmp_path / "imported"
    files, _ = project(tmp_path, {"tests/conftest.py": f"open({str(marker)!r}, 'w')\nimport pytest\n\n\n"
                                                       "@pytest.fixture\ndef f():\n    pass\n"})
    assert [ev.file for ev in conftest_evidence(files)] == ["tests/conftest.py"]
    assert not marker.exists()


def test_a_conftest_that_is_not_python_is_said_with_its_line(tmp_path):
    files, warnings = project(tmp_path, {"conftest.py": "import pytest\n\ndef f(:\n"})
    assert conftest_evidence(files) == []
    assert warnings == ["conftest.py: not valid Python (line 3); skipped"]
