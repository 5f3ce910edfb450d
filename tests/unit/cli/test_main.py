"""Start-up is paid on every ``ladder`` run: a command loads its own module and the writer of its format, no other.

The allow-list below is the package's modules one ``ladder check --no-record m.py`` (text) may load in a
one-file project outside git: a new import on that path fails here with the module's name. Add it only when the
command needs it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module

import pytest

from ladder_plugins.cli.common import SUBCOMMANDS
from ladder_plugins.cli.main import main

#: runs the command as the console script does, then prints the modules it left loaded
RUNNER = (
    "import json, sys\n"
    "from ladder_plugins.cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "print(json.dumps(sorted(sys.modules)))\n"
)

CHECK_LOADS = {
    "ladder_plugins",
    "ladder_plugins.analysis", "ladder_plugins.analysis.analyzer", "ladder_plugins.analysis.astwalk",
    "ladder_plugins.analysis.cache", "ladder_plugins.analysis.discovery", "ladder_plugins.analysis.globs",
    "ladder_plugins.analysis.identity", "ladder_plugins.analysis.parallel", "ladder_plugins.analysis.report",
    "ladder_plugins.analysis.roles", "ladder_plugins.analysis.serialize", "ladder_plugins.analysis.source",
    "ladder_plugins.analysis.suppressions", "ladder_plugins.analysis.thresholds",
    "ladder_plugins.catalogue",
    "ladder_plugins.cli", "ladder_plugins.cli.check", "ladder_plugins.cli.common", "ladder_plugins.cli.main",
    "ladder_plugins.config",
    # the key table and what it needs; the reference and the starter (settings.reference) are not loaded
    "ladder_plugins.settings", "ladder_plugins.settings.keys", "ladder_plugins.settings.limits",
    "ladder_plugins.settings.model", "ladder_plugins.settings.values",
    "ladder_plugins.errors",
    "ladder_plugins.history", "ladder_plugins.history.aggregate", "ladder_plugins.history.events",
    "ladder_plugins.history.gate", "ladder_plugins.history.log", "ladder_plugins.history.pipeline",
    "ladder_plugins.history.preflight", "ladder_plugins.history.recorder",
    "ladder_plugins.history.recurrence", "ladder_plugins.history.run", "ladder_plugins.history.store",
    "ladder_plugins.history.workspace",
    "ladder_plugins.hookspecs",
    "ladder_plugins.ladderdir", "ladder_plugins.ladderdir.aside", "ladder_plugins.ladderdir.paths",
    # the built-in rules are plugins: the manager registers each of them
    "ladder_plugins.metrics", "ladder_plugins.metrics.abc", "ladder_plugins.metrics.assertions",
    "ladder_plugins.metrics.builtin_rules", "ladder_plugins.metrics.cognitive", "ladder_plugins.metrics.constructs",
    "ladder_plugins.metrics.cyclomatic", "ladder_plugins.metrics.maintainability", "ladder_plugins.metrics.size",
    "ladder_plugins.metrics.traversal",
    "ladder_plugins.plugins",
    "ladder_plugins.reports", "ladder_plugins.reports.findings", "ladder_plugins.reports.metrics",
    "ladder_plugins.reports.sanitize", "ladder_plugins.reports.terminal",
}


def loaded_by(args: list[str], cwd) -> set[str]:
    """The modules a fresh interpreter has loaded once ``ladder ARGS`` has run in ``cwd``."""
    done = subprocess.run([sys.executable, "-c", RUNNER, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.fixture
def one_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "m.py").write_text("def f(a):\n    if a:\n        return 1\n    return 0\n")
    return tmp_path


def test_a_one_file_check_loads_exactly_the_allowed_modules_of_the_package(one_file):
    loaded = loaded_by(["check", "--no-record", "m.py"], one_file)
    ours = {name for name in loaded if name.split(".")[0] == "ladder_plugins"}
    assert sorted(ours - CHECK_LOADS) == [], "loaded, not on the allow-list"
    assert sorted(CHECK_LOADS - ours) == [], "on the allow-list, no longer loaded: take it off"
    other_commands = {f"ladder_plugins.cli.{each.module}" for each in SUBCOMMANDS} - {"ladder_plugins.cli.check"}
    writers = {f"ladder_plugins.reports.{name}" for name in ("sarif", "html", "github", "gitlab", "check")}
    assert loaded & (other_commands | writers) == set()
    assert {"radon", "libcst", "yaml", "filelock", "importlib.metadata", "difflib"} & loaded == set()


def test_check_loads_the_writer_of_the_format_asked_for_and_not_the_text_one(one_file):
    loaded = loaded_by(["check", "--no-record", "--format", "sarif", "m.py"], one_file)
    assert "ladder_plugins.reports.sarif" in loaded
    assert {"ladder_plugins.reports.findings", "ladder_plugins.reports.html"} & loaded == set()


def test_ladder_help_lists_every_command_with_its_help_line(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    listing = " ".join(capsys.readouterr().out.split())  # argparse wraps long help lines
    assert exited.value.code == 0
    assert [each.name for each in SUBCOMMANDS if f" {each.name} {each.help} " not in listing] == []


@pytest.mark.parametrize("name", [each.name for each in SUBCOMMANDS])
def test_every_command_has_its_own_help_and_a_module_that_runs_it(name, capsys):
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: ladder {name} ")
    module = next(each.module for each in SUBCOMMANDS if each.name == name)
    assert name in import_module(f"ladder_plugins.cli.{module}").COMMANDS


def test_an_unknown_command_is_refused_naming_every_command(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["chek"])
    said = capsys.readouterr().err
    assert exited.value.code == 2
    assert "invalid choice: 'chek'" in said and all(repr(each.name) in said for each in SUBCOMMANDS)
