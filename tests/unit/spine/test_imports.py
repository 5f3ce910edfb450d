"""Loading the plugins costs nothing: no analysis, radon or libcst until a run needs them."""

from __future__ import annotations

import json
import subprocess
import sys


def test_plugin_entry_points_import_nothing_heavy():
    probe = (
        "import sys, json, pytest\n"
        "import ladder_plugins.pytest_plugin, ladder_plugins.flake8_plugin\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('radon', 'libcst', 'filelock', 'ladder_plugins'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    assert loaded == ["ladder_plugins", "ladder_plugins.flake8_plugin", "ladder_plugins.pytest_plugin"]


def test_public_api_is_importable_lazily():
    import ladder_plugins

    assert set(ladder_plugins.__all__) >= {"analyze_source", "load_settings", "hookimpl", "Rule", "Analyzer"}
    assert ladder_plugins.analyze_source.__module__ == "ladder_plugins.analysis.analyzer"


def test_a_one_file_check_outside_git_imports_no_process_pool_git_metadata_or_uuid(tmp_path):
    """Start-up is paid on every run: what a one-file check outside a repository does not use is not loaded."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "one.py").write_text("def f(a):\n    return a\n")
    probe = (
        "import sys, json\n"
        "from ladder_plugins.cli.main import main\n"
        "code = main(['check', '--no-record', 'one.py'])\n"
        "print(json.dumps(sorted(m for m in ('uuid', 'subprocess', 'concurrent.futures.process', 'multiprocessing',"
        " 'ladder_plugins.history.evidence', 'ladder_plugins.history.git', 'ladder_plugins.history.gitprocess',"
        " 'ladder_plugins.history.commits', 'ladder_plugins.history.occurrences', 'ladder_plugins.history.lineage',"
        " 'ladder_plugins.history.adoption', 'ladder_plugins.history.newcode', 'importlib.metadata', 'radon')"
        " if m in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_pytest_ladder_outside_git_loads_neither_git_nor_radon(tmp_path):
    """The set-up of ``pytest --ladder`` is paid by every session: outside a repository it reads no git."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert 1\n")
    (tmp_path / "conftest.py").write_text(
        "import sys\n"
        "def pytest_sessionfinish(session):\n"
        "    loaded = [m for m in ('ladder_plugins.history.evidence', 'ladder_plugins.history.git',"
        " 'ladder_plugins.history.gitprocess', 'ladder_plugins.history.commits', 'ladder_plugins.history.occurrences',"
        " 'ladder_plugins.history.lineage', 'ladder_plugins.history.adoption', 'ladder_plugins.history.newcode', 'radon',"
        " 'concurrent.futures.process', 'ladder_plugins.worklog', 'yaml') if m in sys.modules]\n"
        "    print('LOADED', loaded)\n"
    )
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--ladder",
                           "--ladder-no-record"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LOADED []" in done.stdout
