"""``ladder init``: a starter table from what the project holds, the file's bytes kept."""

from __future__ import annotations

import pytest

from ladder_plugins.cli.init import starter_table
from ladder_plugins.config import MODES, load_settings, toml_loads
from tests.helpers.cli import ladder

EXISTING = b'[project]\r\nname = "shop"  # keep this comment\r\n\r\n[tool.black]\r\nline-length = 100\r\n'


def _tree(root, *files):
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")
    return root


def test_init_appends_a_valid_table_and_keeps_every_byte_of_the_file(tmp_path):
    project = _tree(tmp_path, "src/shop/__init__.py", "tests/test_shop.py", "scripts/release.py", "docs/conf.py")
    (project / "pyproject.toml").write_bytes(EXISTING)
    done = ladder(["init"], project)
    assert done.returncode == 0, done.stderr
    written = (project / "pyproject.toml").read_bytes()
    assert written.startswith(EXISTING) and b"\r\n[tool.ladder]\r\n" in written and b"\n" not in written.replace(
        b"\r\n", b"")
    settings = load_settings(project)
    assert settings.paths == ("src", "tests", "scripts")
    assert settings.role_globs == (("script", ("scripts/**",)),)
    check = ladder(["check", "--no-record"], project)
    assert check.returncode == 0, check.stdout + check.stderr


def test_init_names_top_level_packages_when_there_is_no_src(tmp_path):
    project = _tree(tmp_path, "alpha/__init__.py", "beta/__init__.py", "notes/readme.py", "test/test_a.py")
    assert ladder(["init"], project).returncode == 0
    assert load_settings(project).paths == ("alpha", "beta", "test")


def test_init_creates_pyproject_and_falls_back_to_the_root(tmp_path):
    _tree(tmp_path, "tool.py")
    (tmp_path / ".git").mkdir()  # the project root
    assert ladder(["init"], tmp_path).returncode == 0
    assert load_settings(tmp_path).paths == (".",)


@pytest.mark.parametrize("content", [b"[tool.ladder]\nmode = 'strict'\n", b"[tool.ladder.thresholds]\nabc_max = 20\n",
                                     b"[project\nname = 1\n"])
def test_init_refuses_an_existing_table_or_an_invalid_file_and_changes_nothing(tmp_path, content):
    (tmp_path / "pyproject.toml").write_bytes(content)
    done = ladder(["init"], tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("ladder: error: ") and "Traceback" not in done.stderr
    assert (tmp_path / "pyproject.toml").read_bytes() == content


def test_init_dry_run_prints_the_table_and_writes_nothing(tmp_path):
    project = _tree(tmp_path, "src/shop/__init__.py")
    (project / "pyproject.toml").write_bytes(EXISTING)
    done = ladder(["init", "--dry-run"], project)
    assert done.returncode == 0 and '[tool.ladder]\n' in done.stdout and 'paths = ["src"]' in done.stdout
    assert (project / "pyproject.toml").read_bytes() == EXISTING


def test_init_writes_every_mode_the_default_one_active(tmp_path):
    table = starter_table(_tree(tmp_path, "src/shop/__init__.py"))
    written = [line.lstrip("# ").partition("  #")[0].rstrip() for line in table.splitlines() if "mode = " in line]
    assert sorted(written) == sorted(f'mode = "{mode}"' for mode in MODES)
    assert toml_loads(table)["tool"]["ladder"]["mode"] == "recurrence"  # the others are comments


@pytest.mark.parametrize("files", [
    ("src/shop/__init__.py", "scripts/release.py", "tools/gen.py"),
    ("alpha/__init__.py", "bin/run.py"),
    ("tests/test_a.py", "tools/gen.py"),
    ("scripts/release.py",),
])
def test_init_gives_a_role_only_to_folders_its_paths_cover(tmp_path, files):
    ladder = toml_loads(starter_table(_tree(tmp_path, *files)))["tool"]["ladder"]
    paths = ladder["paths"]
    globs = [glob for role in ladder.get("roles", {}).values() for glob in role]
    assert globs and all(any(p == "." or glob.startswith(f"{p}/") for p in paths) for glob in globs), ladder
