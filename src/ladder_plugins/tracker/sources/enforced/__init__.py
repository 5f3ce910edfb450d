"""Level 4 of the ladder: what a project already enforces (linters, type checks, coverage gates, hooks, CI).

A built-in feedback source. It reads the project's tool configuration (never running or
importing anything: TOML, YAML, INI and conftest.py are parsed) into *signals*
(``ruff:E722``, ``ladder:cyclomatic_max``, ``precommit:detect-secrets``, ``ci:pytest``,
``mypy:strict``, ...), each with where it was found. A topic of the topic table whose
``enforced_by`` names a present signal is a level-4 sighting, with the topic's words so
that feedback about it matches; a pre-commit hook, CI step, tox command or set of
conftest fixtures that no topic covers is a sighting of its own, its text the command.

Linters are read as they decide: ruff from the first of ``.ruff.toml``, ``ruff.toml``,
``pyproject.toml`` that configures it, flake8 from the first of ``setup.cfg``,
``tox.ini``, ``.flake8`` with a ``[flake8]`` section; a linter's defaults count where
the project runs it (its configuration exists, or pre-commit, tox or CI runs it). Every
file goes through :func:`~.files.read_source`; a file that cannot be read or parsed, or
has the wrong shape, is one warning naming it, never an exception.

May import: what the tracker's sources may (the spine, ``ladderdir``, ``readers``, ``history``,
the tracker's ``model``, ``files`` and ``topics``).
Must not import: the tracker's ``scan``, ``state`` or ``service``, ``rules_block``, ``agents`` or a
front end.
"""

from __future__ import annotations

import ast
import configparser
import os
import re
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Optional, Sequence

from ....config import settings_from_table, toml_loads
from ....errors import ConfigError
from ....hookspecs import hookimpl
from ....ladderdir.paths import inside
from ...files import identity_of, read_source
from ...model import Sighting, SourceContext
from ...topics import Topic, load_topics

if TYPE_CHECKING:
    from ....catalogue import Rule
    from ....config import Settings

__all__ = ["ladder_feedback_sources", "enforced_sightings", "detected_signals", "command_signals"]

#: a name safe to put in a signal (hook ids, fixture names come from untrusted files)
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}")
_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Evidence:
    """One thing a project enforces, found in one file: the signals it gives and where."""

    #: the file, relative to the root (its identity is this file and ``text``)
    file: str
    #: for people: ``pyproject.toml [tool.ruff.lint] select: I``
    location: str
    signals: tuple[str, ...]
    #: what the identity hashes (the relevant configuration, not the whole file); for a command, its words
    text: str = ""
    #: a hook, a CI step, a tox command or a set of fixtures: a sighting of its own when no topic covers it
    freeform: bool = False

    @property
    def identity(self) -> str:
        return identity_of(self.file, self.text or self.location)


def _clean(text: str, limit: int = 200) -> str:
    """One line of printable text, at most ``limit`` characters: what a file says, safe to show."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text[: limit * 4]).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _flag(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in _TRUE)


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value if isinstance(value, (int, float)) else str(value).strip())
    except ValueError:
        return None


def _get(values: Mapping[str, Any], key: str) -> tuple[str, Any]:
    """(the spelling found, its value) of an option spelt with dashes or underscores; ``("", None)``."""
    for name in (key, key.replace("-", "_"), key.replace("_", "-")):
        if name in values:
            return name, values[name]
    return "", None


def _strings(value: Any) -> list[str]:
    """The strings of a list, or the lines of a text (INI values are text)."""
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _selectors(value: Any, pattern: "re.Pattern[str]") -> tuple[str, ...]:
    """Rule selectors of an option: a list, or text separated by commas or spaces; what is not one is left out."""
    items = re.split(r"[,\s]+", value) if isinstance(value, str) else _strings(value)
    return tuple(item.strip() for item in items if pattern.fullmatch(item.strip()))


# ---------------------------------------------------------------------------
# reading files: each once, through read_source; each problem said once per file


class _Malformed(Exception):
    """A file that was read but cannot be parsed; the message says why."""


def _parse_toml(text: str) -> Any:
    try:
        return toml_loads(text)
    except ValueError as exc:
        raise _Malformed(f"not valid TOML ({_clean(str(exc), 120)})") from None


def _parse_ini(text: str) -> Any:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise _Malformed(f"not a valid INI file ({_clean(str(exc), 120)})") from None
    return parser


def _parse_yaml(text: str) -> Any:
    try:
        import yaml  # PyYAML: only the feedback tracker reads YAML
    except ImportError:  # pragma: no cover - PyYAML is installed with the tracker
        raise _Malformed("PyYAML is not installed, so YAML is not read") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise _Malformed("not valid YAML" + (f" (line {mark.line + 1})" if mark is not None else "")) from None


def _parse_python(text: str) -> Any:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        raise _Malformed("not valid Python" + (f" (line {line})" if line else "")) from None


_PARSERS: Mapping[str, Callable[[str], Any]] = {
    "toml": _parse_toml, "ini": _parse_ini, "yaml": _parse_yaml, "python": _parse_python,
}


class _Files:
    """The files of one scan, each read and parsed at most once; a file's first problem is its one warning."""

    def __init__(self, context: SourceContext) -> None:
        self.context = context
        self.root = context.root
        self._parsed: dict[tuple[str, str], Any] = {}
        self._warned: set[str] = set()

    def warn(self, rel: str, problem: str) -> None:
        if rel not in self._warned:
            self._warned.add(rel)
            self.context.warn(f"{rel}: {problem}")

    def parsed(self, rel: str, kind: str) -> Any:
        key = (rel, kind)
        if key not in self._parsed:
            self._parsed[key] = self._parse(rel, kind)
        return self._parsed[key]

    def _parse(self, rel: str, kind: str) -> Any:
        text = read_source(self.root / rel, self.context)
        if text is None:
            self._warned.add(rel)  # read_source said why (or the file is absent)
            return None
        try:
            return _PARSERS[kind](text)
        except _Malformed as exc:
            self.warn(rel, f"{exc}; skipped")
        except (RecursionError, MemoryError):
            self.warn(rel, "nested too deeply to read; skipped")
        return None

    def table(self, rel: str, kind: str, path: Sequence[str]) -> Optional[Mapping[str, Any]]:
        """The table at ``path`` (an INI section, or TOML keys), or ``None`` when the file or table is absent."""
        data = self.parsed(rel, kind)
        if kind == "ini":
            return dict(data.items(path[0], raw=True)) if data is not None and data.has_section(path[0]) else None
        for key in path:
            data = data.get(key) if isinstance(data, dict) else None
        return data if isinstance(data, dict) else None

    def mapping(self, rel: str) -> Optional[Mapping[Any, Any]]:
        """A YAML file that must be a mapping; anything else (a list, a scalar) is said once."""
        data = self.parsed(rel, "yaml")
        if data is not None and not isinstance(data, dict):
            self.warn(rel, f"expected a mapping at the top, found {type(data).__name__}; skipped")
        return data if isinstance(data, dict) else None

    def listing(self, rel_dir: str, suffixes: tuple[str, ...]) -> list[str]:
        """The files of a directory inside the root with one of ``suffixes``, sorted; a directory leading
        outside the root (a symlink) is said and never listed."""
        directory = self.root / rel_dir
        if not os.path.lexists(directory):
            return []
        if not inside(directory, self.root.resolve()):
            self.warn(rel_dir, f"leads outside {self.root.resolve()} (a symlink); skipped, never followed")
            return []
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            self.warn(rel_dir, f"cannot be listed ({exc.strerror or exc}); skipped")
            return []
        if not all(name.isprintable() for name in names):
            self.warn(rel_dir, "a file name with control characters; that file skipped")
        return [f"{rel_dir}/{name}" for name in names if name.endswith(suffixes) and name.isprintable()]


def _runner(evidence: Sequence[Evidence], signals: Sequence[str]) -> Optional[Evidence]:
    """The first evidence that runs a tool (its pre-commit hook, tox command or CI step)."""
    return next((ev for ev in evidence if not set(signals).isdisjoint(ev.signals)), None)


# ---------------------------------------------------------------------------
# commands: the tools a shell line runs, and what their options enforce

_SHELL_SPLIT = re.compile(r"&&|\|\||[;|\n]")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")
_PYTHON = re.compile(r"(?:python[0-9.]*|py|pypy[0-9.]*|\{envpython\})(?:\.exe)?")
#: words before the command itself: ``sudo pytest``, ``uvx ruff``, ``env CI=1 pytest``
_PREFIXES = frozenset({"sudo", "time", "exec", "env", "nice", "command", "uvx", "pipx", "npx"})
#: project runners used as ``uv run pytest``, ``poetry run mypy``
_PROJECT_RUNNERS = frozenset({"uv", "poetry", "pdm", "hatch", "pipenv", "rye"})
_TOOLS: Mapping[str, str] = {
    "pytest": "pytest", "py.test": "pytest", "unittest": "unittest", "mypy": "mypy", "dmypy": "mypy",
    "pyright": "pyright", "ruff": "ruff", "flake8": "flake8", "pylint": "pylint", "black": "black",
    "isort": "isort", "coverage": "coverage", "pre-commit": "pre-commit", "pre_commit": "pre-commit",
    "tox": "tox", "nox": "nox", "bandit": "bandit", "ladder": "ladder", "detect-secrets": "detect-secrets",
    "detect-secrets-hook": "detect-secrets", "gitleaks": "gitleaks", "trufflehog": "trufflehog",
    "codespell": "codespell", "interrogate": "interrogate", "pydocstyle": "pydocstyle", "vulture": "vulture",
    "pip-audit": "pip-audit", "safety": "safety", "pyupgrade": "pyupgrade",
}
_STRICT_MYPY = frozenset({"--strict", "--disallow-untyped-defs"})
_PRECOMMIT_SETUP = frozenset({"install", "uninstall", "autoupdate", "clean", "gc", "sample-config", "init-templatedir"})
_PYTEST_FLAGS: Mapping[str, str] = {
    "--strict-markers": "pytest:strict-markers", "--strict": "pytest:strict-markers",
    "--strict-config": "pytest:strict-config", "--cov-fail-under": "coverage:fail_under",
    "--ladder": "pytest:ladder", "--doctest-modules": "pytest:doctest",
}


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment, comments=True)
    except ValueError:  # an unbalanced quote: the words as they stand
        return segment.split()


def _base(word: str) -> str:
    """``pytest`` for ``.venv/bin/pytest``, ``C:\\py\\ruff.exe`` or ``{envbindir}/pytest``."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name[:-4] if name.endswith(".exe") else name


def _without_options(words: list[str]) -> list[str]:
    while words and words[0].startswith("-"):
        words = words[1:]
    return words


def _strip_once(words: list[str]) -> Optional[list[str]]:
    """The words without one wrapper (an assignment, ``sudo``, ``uv run``, ``python -m``), or ``None``."""
    if not words:
        return None
    head = _base(words[0])
    if _ASSIGNMENT.fullmatch(words[0]) or head in _PREFIXES:
        return words[1:]
    if head in _PROJECT_RUNNERS and words[1:2] == ["run"]:
        return _without_options(words[2:])
    if _PYTHON.fullmatch(head):
        return words[2:] if words[1:2] == ["-m"] else []  # a script, or ``python -c``: no known tool
    return None


def _unwrapped(words: list[str]) -> list[str]:
    shorter = _strip_once(words)
    while shorter is not None:
        words, shorter = shorter, _strip_once(shorter)
    return words


def _warning_filter(word: str, following: str) -> str:
    """The warning filter an option sets: ``-W error``, ``-Werror``, ``--pythonwarnings=error``."""
    if word in ("-W", "--pythonwarnings"):
        return following
    if word.startswith("--pythonwarnings="):
        return word.partition("=")[2]
    return word[2:].lstrip("=") if word.startswith("-W") else ""


def _pytest_options(words: Sequence[str]) -> list[str]:
    """What pytest options enforce: ``--strict-markers``, ``-W error``, ``--cov-fail-under``, ``--ladder``."""
    found = [_PYTEST_FLAGS[w.partition("=")[0]] for w in words if w.partition("=")[0] in _PYTEST_FLAGS]
    pairs = zip(words, [*words[1:], ""])
    if any(_warning_filter(word, following).startswith("error") for word, following in pairs):
        found.append("pytest:warnings-error")
    return found


def _coverage_run(args: list[str]) -> list[str]:
    inner = _segment_signals(args[args.index("-m") + 1:]) if "-m" in args else []
    gate = "report" in args and any(a.startswith("--fail-under") for a in args)
    return ["coverage", *inner, *(["coverage:fail_under"] if gate else [])]


#: tool → what its arguments say beyond "it runs"
_REFINE: Mapping[str, Callable[[list[str]], list[str]]] = {
    "ruff": lambda args: ["ruff-format" if args[:1] == ["format"] else "ruff"],
    "mypy": lambda args: ["mypy", *(["mypy:strict"] if _STRICT_MYPY.intersection(args) else [])],
    "pytest": lambda args: ["pytest", *_pytest_options(args)],
    "coverage": _coverage_run,
    "pre-commit": lambda args: [] if args[:1] and args[0] in _PRECOMMIT_SETUP else ["pre-commit"],
}


def _segment_signals(words: list[str]) -> list[str]:
    tool = _TOOLS.get(_base(words[0])) if words else None
    if tool is None:
        return []
    refine = _REFINE.get(tool)
    return refine(words[1:]) if refine is not None else [tool]


def command_signals(command: str, namespace: str) -> tuple[str, ...]:
    """The signals of a shell command: ``<namespace>:<tool>`` for each known tool it runs (``ci:pytest``;
    ``pip install mypy`` runs nothing), and what their options enforce (``mypy:strict``,
    ``coverage:fail_under``, ``pytest:strict-markers``, ``pytest:warnings-error``, ``pytest:ladder``)."""
    found: dict[str, None] = {}
    for segment in _SHELL_SPLIT.split(command.replace("\\\n", " ")):
        for name in _segment_signals(_unwrapped(_words(segment))):
            found.setdefault(name if ":" in name else f"{namespace}:{name}")
    return tuple(found)


def _command(file: str, where: str, command: str, label: str, namespace: str) -> Evidence:
    shown = _clean(command, 160)
    return Evidence(file, f"{where}: {shown}", command_signals(command, namespace), _clean(f"{label}: {command}"),
                    freeform=True)


# ---------------------------------------------------------------------------
# configuration tables: coverage, mypy, pytest, black, isort


def _coverage_table(file: str, name: str, values: Mapping[str, Any]) -> list[Evidence]:
    key, value = _get(values, "fail_under")
    if (_number(value) or 0) <= 0:
        return []
    return [Evidence(file, f"{file} [{name}] {key} = {_clean(str(value), 20)}", ("coverage:fail_under",))]


def _mypy_table(file: str, name: str, values: Mapping[str, Any]) -> list[Evidence]:
    strict = [key for key in ("strict", "disallow_untyped_defs") if _flag(_get(values, key)[1])]
    where = f"{file} [{name}]" + (f" {strict[0]} = true" if strict else "")
    return [Evidence(file, where, ("mypy:config", *(["mypy:strict"] if strict else [])), where)]


def _pytest_keys(values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(signal, key) of pytest's own options: ``filterwarnings = error``, ``xfail_strict``, ``strict``."""
    filters = _strings(_get(values, "filterwarnings")[1])
    found = [("pytest:warnings-error", "filterwarnings")] if filters and filters[0].startswith("error") else []
    for key, signals in (("xfail_strict", ("pytest:xfail-strict",)), ("strict_markers", ("pytest:strict-markers",)),
                         ("strict", ("pytest:strict-markers", "pytest:strict-config", "pytest:xfail-strict"))):
        found += [(signal, key) for signal in signals if _flag(values.get(key))]
    return found


def _pytest_table(file: str, name: str, values: Mapping[str, Any]) -> list[Evidence]:
    key, addopts = _get(values, "addopts")
    words = _words(addopts) if isinstance(addopts, str) else _strings(addopts)
    found = [("pytest:config", ""), *((signal, key) for signal in _pytest_options(words)), *_pytest_keys(values)]
    return [Evidence(file, f"{file} [{name}]" + (f" {key}" if key else ""), (signal,)) for signal, key in found]


def _present(tool: str) -> Callable[[str, str, Mapping[str, Any]], list[Evidence]]:
    return lambda file, name, values: [Evidence(file, f"{file} [{name}]", (f"{tool}:config",))]


_HANDLERS: Mapping[str, Callable[[str, str, Mapping[str, Any]], list[Evidence]]] = {
    "coverage": _coverage_table, "mypy": _mypy_table, "pytest": _pytest_table,
    "black": _present("black"), "isort": _present("isort"),
}

#: (file, its format, the table's path in it, what it configures), in the order tools read them
_TABLES = (
    ("pyproject.toml", "toml", ("tool", "coverage", "report"), "coverage"),
    ("setup.cfg", "ini", ("coverage:report",), "coverage"),
    ("tox.ini", "ini", ("coverage:report",), "coverage"),
    (".coveragerc", "ini", ("report",), "coverage"),
    ("mypy.ini", "ini", ("mypy",), "mypy"),
    (".mypy.ini", "ini", ("mypy",), "mypy"),
    ("pyproject.toml", "toml", ("tool", "mypy"), "mypy"),
    ("setup.cfg", "ini", ("mypy",), "mypy"),
    ("pytest.ini", "ini", ("pytest",), "pytest"),
    ("pytest.toml", "toml", ("pytest",), "pytest"),
    (".pytest.toml", "toml", ("pytest",), "pytest"),
    ("pyproject.toml", "toml", ("tool", "pytest", "ini_options"), "pytest"),
    ("pyproject.toml", "toml", ("tool", "pytest"), "pytest"),
    ("tox.ini", "ini", ("pytest",), "pytest"),
    ("setup.cfg", "ini", ("tool:pytest",), "pytest"),
    ("pyproject.toml", "toml", ("tool", "black"), "black"),
    ("pyproject.toml", "toml", ("tool", "isort"), "isort"),
    (".isort.cfg", "ini", ("settings",), "isort"),
    ("setup.cfg", "ini", ("isort",), "isort"),
)


def _config_evidence(files: _Files) -> list[Evidence]:
    found = []
    for rel, kind, path, what in _TABLES:
        values = files.table(rel, kind, path)
        if values is not None:
            found += _HANDLERS[what](rel, ".".join(path), values)
    return found


# ---------------------------------------------------------------------------
# commands in tox, pre-commit, GitHub Actions, GitLab CI; fixtures in conftest.py


def _tox_evidence(files: _Files) -> list[Evidence]:
    parser = files.parsed("tox.ini", "ini")
    sections = [s for s in parser.sections() if s == "testenv" or s.startswith("testenv:")] if parser else []
    commands = [(section, parser.get(section, "commands", raw=True, fallback="")) for section in sections]
    return [ev for section, text in commands for ev in _tox_env(section, text)]


def _tox_env(section: str, commands: str) -> list[Evidence]:
    env = section.partition(":")[2] or "(all)"
    lines = [line.strip() for line in commands.replace("\\\n", " ").splitlines()]
    return [_command("tox.ini", f"tox.ini [{section}] commands", line, f"tox env {env}", "tox")
            for line in lines if line and not line.startswith("#")]


_PRECOMMIT = ".pre-commit-config.yaml"


def _precommit_evidence(files: _Files) -> list[Evidence]:
    data = files.mapping(_PRECOMMIT)
    repos = data.get("repos") if data is not None else None
    if data is not None and not isinstance(repos, list):
        files.warn(_PRECOMMIT, "repos is not a list; skipped")
    return [ev for n, repo in enumerate(repos) for ev in _repo_hooks(files, n, repo)] if isinstance(repos, list) \
        else []


def _repo_hooks(files: _Files, index: int, repo: Any) -> list[Evidence]:
    hooks = repo.get("hooks") if isinstance(repo, dict) else None
    if not isinstance(hooks, list):
        files.warn(_PRECOMMIT, f"repos[{index}] has no list of hooks; skipped")
        return []
    found = [_hook(f"repos[{index}].hooks[{n}]", hook) for n, hook in enumerate(hooks)]
    if None in found:
        files.warn(_PRECOMMIT, f"repos[{index}]: a hook without an id; skipped")
    return [ev for ev in found if ev is not None]


def _hook_text(hook_id: str, hook: Mapping[str, Any]) -> tuple[str, str]:
    """(the command a hook runs: its entry, or its id, and its args; the sighting's text)."""
    command = " ".join([str(hook.get("entry") or hook_id), *_strings(hook.get("args"))])
    name = hook.get("name")
    label = f"pre-commit hook {hook_id}" + (f" ({name})" if isinstance(name, str) and name != hook_id else "")
    return command, _clean(label if command == hook_id else f"{label}: {command}")


def _hook(where: str, hook: Any) -> Optional[Evidence]:
    hook_id = hook.get("id") if isinstance(hook, dict) else None
    if not isinstance(hook_id, str) or not hook_id.strip():
        return None
    command, text = _hook_text(hook_id, hook)
    own = (f"precommit:{hook_id}",) if _SAFE_NAME.fullmatch(hook_id) else ()
    return Evidence(_PRECOMMIT, f"{_PRECOMMIT} {where} id: {_clean(hook_id, 80)}",
                    tuple(dict.fromkeys(own + command_signals(command, "precommit"))), text, freeform=True)


_WORKFLOWS = ".github/workflows"


def _workflow_evidence(files: _Files) -> list[Evidence]:
    return [ev for rel in files.listing(_WORKFLOWS, (".yml", ".yaml")) for ev in _workflow(files, rel)]


def _workflow(files: _Files, rel: str) -> list[Evidence]:
    data = files.mapping(rel)
    jobs = data.get("jobs") if data is not None else None
    if data is not None and not isinstance(jobs, dict):
        files.warn(rel, "jobs is not a mapping; skipped")
    jobs = jobs if isinstance(jobs, dict) else {}
    return [ev for name, job in jobs.items() for ev in _job(files, rel, _clean(str(name), 60), job)]


def _job(files: _Files, rel: str, name: str, job: Any) -> list[Evidence]:
    if not isinstance(job, dict):
        files.warn(rel, f"jobs.{name} is not a mapping; skipped")
        return []
    if isinstance(job.get("uses"), str):  # a reusable workflow
        return [_uses(rel, f"{rel} jobs.{name}", job["uses"], f"CI job {name}")]
    steps = job.get("steps", [])
    if not isinstance(steps, list):
        files.warn(rel, f"jobs.{name}.steps is not a list; skipped")
        return []
    found = [_step(rel, f"jobs.{name}.steps[{n}]", step) for n, step in enumerate(steps)]
    return [ev for ev in found if ev is not None]


def _step(rel: str, where: str, step: Any) -> Optional[Evidence]:
    if not isinstance(step, dict):
        return None
    name = step.get("name")
    label = "CI step" + (f" {name}" if isinstance(name, str) else "")
    if isinstance(step.get("run"), str):
        return _command(rel, f"{rel} {where}", step["run"], label, "ci")
    if isinstance(step.get("uses"), str):
        return _uses(rel, f"{rel} {where}", step["uses"], label)
    return None


def _uses_signals(uses: str) -> tuple[str, ...]:
    """``ci:<tool>`` for an action named after a tool: ``pre-commit/action``, ``astral-sh/ruff-action``."""
    if uses.startswith(("./", "docker://")):
        return ()
    parts = uses.partition("@")[0].lower().split("/")
    words = [word for part in parts for word in (part, *part.split("-"))]
    return tuple(dict.fromkeys(f"ci:{_TOOLS[word]}" for word in words if word in _TOOLS))


def _uses(rel: str, where: str, uses: str, label: str) -> Evidence:
    shown = _clean(uses, 120)
    return Evidence(rel, f"{where}: uses {shown}", _uses_signals(uses), _clean(f"{label}: uses {shown}"),
                    freeform=True)


_GITLAB = ".gitlab-ci.yml"
#: top-level keys of .gitlab-ci.yml that are not jobs
_GITLAB_KEYS = frozenset({"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                          "before_script", "after_script", "spec"})


def _gitlab_evidence(files: _Files) -> list[Evidence]:
    data = files.mapping(_GITLAB) or {}
    jobs = [(_clean(str(name), 60), job) for name, job in data.items()
            if isinstance(job, dict) and "script" in job and not str(name).startswith(".")
            and str(name) not in _GITLAB_KEYS]
    return [ev for name, job in jobs for ev in _gitlab_job(files, name, job["script"])]


def _gitlab_job(files: _Files, name: str, script: Any) -> list[Evidence]:
    entries = [script] if isinstance(script, str) else script if isinstance(script, list) else None
    if entries is None:
        files.warn(_GITLAB, f"{name}.script is not a list of commands; skipped")
        return []
    lines = [line for entry in entries for line in (entry if isinstance(entry, list) else [entry])]
    return [_command(_GITLAB, f"{_GITLAB} {name}.script[{n}]", line, f"GitLab job {name}", "ci")
            for n, line in enumerate(lines) if isinstance(line, str)]


_CONFTESTS = ("conftest.py", "tests/conftest.py")


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
        isinstance(target, ast.Name) and target.id == "fixture")


def _fixture_name(decorator: ast.expr, default: str) -> str:
    """The name a fixture is requested by: ``@pytest.fixture(name="client")``, else the function's."""
    for keyword in decorator.keywords if isinstance(decorator, ast.Call) else ():
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value,
                                                                                            str):
            return keyword.value.value
    return default


def _fixture_defs(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """(name, first line of its docstring) of every ``@pytest.fixture`` function."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            marks = [_fixture_name(d, node.name) for d in node.decorator_list if _is_fixture(d)]
            doc = (ast.get_docstring(node) or "").strip()
            if marks and _SAFE_NAME.fullmatch(marks[0]):
                yield marks[0], _clean(doc.splitlines()[0], 80) if doc else ""


def _conftest_evidence(files: _Files) -> list[Evidence]:
    found = []
    for rel in _CONFTESTS:
        tree = files.parsed(rel, "python")
        fixtures = dict(_fixture_defs(tree)) if tree is not None else {}
        if fixtures:
            described = "; ".join(f"{name} ({doc})" if doc else name for name, doc in fixtures.items())
            signals = ("pytest:fixtures", *(f"pytest:fixture:{name}" for name in fixtures))
            found.append(Evidence(rel, _clean(f"{rel}: pytest fixtures {', '.join(fixtures)}"), signals,
                                  _clean(f"pytest fixtures in {rel}: {described}", 600), freeform=True))
    return found


# ---------------------------------------------------------------------------
# linters: which rule codes ruff and flake8 report


@dataclass(frozen=True)
class _Linter:
    """The rule selection of one linter: selectors (each with where it was chosen) and ignores."""

    name: str
    selected: tuple[tuple[str, Evidence], ...]
    ignored: tuple[str, ...] = ()
    #: flake8: the selectors and ignores the configuration names (they beat flake8's defaults)
    chosen: frozenset[str] = frozenset()
    chosen_ignored: frozenset[str] = frozenset()
    #: flake8: code prefixes no plugin reports as configured (mccabe's C90 without max-complexity)
    off: tuple[str, ...] = ()

    def reports(self, code: str) -> Optional[Evidence]:
        """Where the selector that makes this linter report ``code`` was chosen, or ``None``."""
        selector = (_ruff_decision if self.name == "ruff" else _flake8_decision)(self, code)
        return next((ev for name, ev in self.selected if name == selector), None) if selector else None


def _rank(code: str, prefixes: Sequence[str], chosen: frozenset[str]) -> tuple[int, str]:
    """flake8's view of a code against a list: (2 chosen explicitly, 1 by default, 0 not at all; the longest
    matching prefix)."""
    matching = [p for p in prefixes if code.startswith(p)]
    if not matching:
        return 0, ""
    return (2 if chosen.intersection(matching) else 1), max(matching, key=len)


def _flake8_decision(linter: _Linter, code: str) -> Optional[str]:
    """flake8's own rule (``style_guide.DecisionEngine``): explicit beats default, then the longest prefix;
    a tie is ignored."""
    sel_rank, selector = _rank(code, [name for name, _ in linter.selected], linter.chosen)
    ign_rank, ignore = _rank(code, linter.ignored, linter.chosen_ignored)
    if sel_rank == 0 or code.startswith(linter.off):
        return None
    if ign_rank > sel_rank or (ign_rank == sel_rank and len(ignore) >= len(selector)):
        return None
    return selector


_RUFF_CODE = re.compile(r"([A-Z]+)([0-9]*)")
_PYLINT = frozenset({"PLC", "PLE", "PLR", "PLW"})


def _ruff_covers(selector: str, code: str) -> bool:
    """Ruff's selectors are a linter's letters and a code prefix: ``D`` covers ``D100``, not ``DTZ005``."""
    if selector == "ALL":
        return True
    sel, wanted = _RUFF_CODE.fullmatch(selector), _RUFF_CODE.fullmatch(code)
    if sel is None or wanted is None:
        return False
    letters = sel.group(1) == wanted.group(1) or (sel.group(1) == "PL" and wanted.group(1) in _PYLINT)
    return letters and wanted.group(2).startswith(sel.group(2))


def _specificity(selector: str) -> int:
    return -1 if selector == "ALL" else len(selector)


def _most_specific(code: str, selectors: Sequence[str]) -> Optional[str]:
    return max((s for s in selectors if _ruff_covers(s, code)), key=_specificity, default=None)


def _ruff_decision(linter: _Linter, code: str) -> Optional[str]:
    """Ruff's rule: the most specific selector wins; between a select and an ignore as specific, the ignore."""
    selector = _most_specific(code, [name for name, _ in linter.selected])
    ignore = _most_specific(code, linter.ignored)
    if selector is None or (ignore is not None and _specificity(ignore) >= _specificity(selector)):
        return None
    return selector


_FLAKE8_FILES = ("setup.cfg", "tox.ini", ".flake8")
_FLAKE8_CODE = re.compile(r"[A-Z]{1,3}[0-9]{0,3}")
_FLAKE8_RUNNERS = ("precommit:flake8", "tox:flake8", "ci:flake8")


def _flake8_plugins() -> tuple[tuple[str, str], ...]:
    """(code prefix, distribution) of every installed flake8 plugin (pycodestyle's E and W, pyflakes' F and
    mccabe's C90 among them): flake8 selects them all by default."""
    from importlib.metadata import entry_points

    try:
        found = entry_points(group="flake8.extension")
    except TypeError:  # pragma: no cover - Python 3.9
        found = entry_points().get("flake8.extension", ())  # type: ignore[arg-type]  # 3.9 returns a dict
    return tuple(sorted({(ep.name, _distribution(ep)) for ep in found if _FLAKE8_CODE.fullmatch(ep.name)}))


def _distribution(entry_point: Any) -> str:
    """The distribution that installed an entry point (Python 3.10+), else its module."""
    dist = getattr(entry_point, "dist", None)
    return getattr(dist, "name", None) or str(entry_point.value).partition(":")[0]


def _flake8_option(values: Mapping[str, Any], key: str) -> tuple[str, tuple[str, ...]]:
    spelt, value = _get(values, key)
    return spelt, _selectors(value, _FLAKE8_CODE) if spelt else ()


def _flake8_selected(where: str, values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(selector, location): ``select`` and ``extend-select``, or without ``select`` every installed plugin."""
    select, extend = _flake8_option(values, "select"), _flake8_option(values, "extend-select")
    chosen = [(code, f"{where} {key}: {code}") for key, codes in (select, extend) if key for code in codes]
    defaults = [] if select[0] else [(name, f"{where}: flake8 plugin {dist} ({name}), on by default")
                                     for name, dist in _flake8_plugins()]
    return defaults + chosen


def _flake8_linter(file: str, where: str, values: Mapping[str, Any]) -> _Linter:
    from flake8.defaults import IGNORE

    ignore, extend_ignore = _flake8_option(values, "ignore"), _flake8_option(values, "extend-ignore")
    chosen = {code for key in ("select", "extend-select") for code in _flake8_option(values, key)[1]}
    complexity = _number(_get(values, "max-complexity")[1])
    return _Linter(
        "flake8", tuple((code, Evidence(file, loc, (f"flake8:{code}",), loc)) for code, loc in
                        _flake8_selected(where, values)),
        ignored=ignore[1] + extend_ignore[1] + (() if ignore[0] else tuple(IGNORE)),
        chosen=frozenset(chosen), chosen_ignored=frozenset(ignore[1] + extend_ignore[1]),
        off=() if complexity is not None and complexity >= 0 else ("C90",),
    )


def _flake8(files: _Files, evidence: Sequence[Evidence]) -> Optional[_Linter]:
    """flake8's selection, from the first of setup.cfg, tox.ini and .flake8 with a [flake8] section (as
    flake8 looks), where the project has one or runs flake8."""
    for rel in _FLAKE8_FILES:
        values = files.table(rel, "ini", ("flake8",))
        if values is not None:
            return _flake8_linter(rel, f"{rel} [flake8]", values)
    runner = _runner(evidence, _FLAKE8_RUNNERS)
    return _flake8_linter(runner.file, f"flake8's defaults, run by {runner.location}", {}) if runner else None


_RUFF_FILES = ((".ruff.toml", ()), ("ruff.toml", ()), ("pyproject.toml", ("tool", "ruff")))
_RUFF_DEFAULT = ("E4", "E7", "E9", "F")
_RUFF_SELECTOR = re.compile(r"ALL|[A-Z]+[0-9]*")
_RUFF_RUNNERS = ("precommit:ruff", "precommit:ruff-check", "tox:ruff", "ci:ruff")


def _ruff_option(table: Mapping[str, Any], prefix: str, key: str) -> tuple[str, tuple[str, ...]]:
    """(where it is set, its selectors) of a rule option: in the ``lint`` table, else at the top."""
    lint = f"{prefix}.lint" if prefix else "lint"
    for name, values in ((lint, table.get("lint")), (prefix, table)):
        if isinstance(values, dict) and key in values:
            return (f"[{name}] {key}" if name else key), _selectors(values[key], _RUFF_SELECTOR)
    return "", ()


def _ruff_selected(file: str, origin: str, table: Mapping[str, Any], prefix: str) -> list[tuple[str, str]]:
    """(selector, location): ``select`` (else ruff's defaults) and ``extend-select``."""
    select_at, select = _ruff_option(table, prefix, "select")
    extend_at, extend = _ruff_option(table, prefix, "extend-select")
    base = [(s, f"{file} {select_at}: {s}") for s in select] if select_at else [
        (s, f"ruff's default rules ({', '.join(_RUFF_DEFAULT)}), {origin}") for s in _RUFF_DEFAULT]
    return base + [(s, f"{file} {extend_at}: {s}") for s in extend]


def _ruff_linter(file: str, origin: str, table: Mapping[str, Any], prefix: str) -> _Linter:
    chosen = _ruff_selected(file, origin, table, prefix)
    ignored = [s for key in ("ignore", "extend-ignore") for s in _ruff_option(table, prefix, key)[1]]
    return _Linter("ruff", tuple((s, Evidence(file, loc, (f"ruff:{s}",), loc)) for s, loc in chosen),
                   tuple(ignored))


def _ruff(files: _Files, evidence: Sequence[Evidence]) -> Optional[_Linter]:
    """Ruff's selection, from the first of .ruff.toml, ruff.toml and pyproject.toml [tool.ruff] (as ruff
    looks), where the project has one or runs ruff (its defaults then)."""
    for rel, path in _RUFF_FILES:
        table = files.table(rel, "toml", path)
        if table is not None:
            where = f"{rel} [{'.'.join(path)}]" if path else rel
            return _ruff_linter(rel, where, table, ".".join(path))
    runner = _runner(evidence, _RUFF_RUNNERS)
    return _ruff_linter(runner.file, f"run by {runner.location}", {}, "") if runner else None


# ---------------------------------------------------------------------------
# ladder's own rules

_LADDER_RUNNERS = ("precommit:ladder-check", "tox:ladder", "ci:ladder", "pytest:ladder")
#: a rule is about the first of these roles it has a default limit for (min_assertions: test; exported_*: library)
_LADDER_ROLES = ("app", "test", "library", "script")


def _ladder_origin(table: Optional[Mapping[str, Any]], evidence: Sequence[Evidence],
                   flake8: Optional[_Linter]) -> Optional[Evidence]:
    """What says ladder runs: ``[tool.ladder]``, its pre-commit hook, tox or CI, pytest --ladder, or flake8
    running the LAD plugin."""
    if table is not None:
        return Evidence("pyproject.toml", "pyproject.toml [tool.ladder]", ())
    return _runner(evidence, _LADDER_RUNNERS) or (flake8.reports("LAD101") if flake8 is not None else None)


def _ladder_settings(files: _Files, table: Mapping[str, Any]) -> Optional[tuple[Settings, dict[str, Rule]]]:
    from ....plugins import known_rules

    rules = {rule.key: rule for rule in known_rules()}
    try:  # [tool.ladder.feedback] is the tracker's, not the rules'
        return settings_from_table({k: v for k, v in table.items() if k != "feedback"}, files.root,
                                   files.root / "pyproject.toml", rules), rules
    except ConfigError as exc:
        files.warn("pyproject.toml", f"[tool.ladder] is not valid, so ladder's rules are not counted ({exc})")
        return None


def _set_in(thresholds: Any, role: str, key: str) -> bool:
    """Whether ``[tool.ladder.thresholds]`` (app) or its role's sub-table sets ``key``."""
    table = thresholds.get(role) if role != "app" and isinstance(thresholds, dict) else thresholds
    return isinstance(table, dict) and key in table


def _ladder_rule(settings: Any, rule: Any, origin: Evidence, thresholds: Any) -> Optional[Evidence]:
    """``ladder:<key>`` where the rule has a limit for the role it is about (a limit turned off there is off)."""
    key = rule.key
    role = next((r for r in _LADDER_ROLES if rule.defaults.get(r) is not None), "app")
    if role in settings.skip_roles or settings.limit(role, key) is None:
        return None
    limit = float(settings.limit(role, key))
    shown = f"{key} = {int(limit) if limit.is_integer() else limit}"
    if _set_in(thresholds, role, key):
        where = f"pyproject.toml [tool.ladder.thresholds{'' if role == 'app' else '.' + role}] {shown}"
        return Evidence("pyproject.toml", where, (f"ladder:{key}",), where)
    where = f"ladder's default {shown} for {role} code, {origin.location}"
    return Evidence(origin.file, where, (f"ladder:{key}",), where)


def _ladder(files: _Files, evidence: Sequence[Evidence], flake8: Optional[_Linter]) -> list[Evidence]:
    """``ladder:<rule key>`` for each rule with a limit, where ladder runs."""
    table = files.table("pyproject.toml", "toml", ("tool", "ladder")) or {}
    origin = _ladder_origin(table or None, evidence, flake8)
    loaded = _ladder_settings(files, table) if origin is not None else None
    if origin is None or loaded is None:
        return []
    return _ladder_rules(*loaded, origin, table.get("thresholds"))


def _ladder_rules(settings: Settings, rules: Mapping[str, Rule], origin: Evidence, thresholds: Any) -> list[Evidence]:
    found = [_ladder_rule(settings, rule, origin, thresholds) for rule in rules.values() if rule.kind in ("max", "min")]
    return [ev for ev in found if ev is not None]


# ---------------------------------------------------------------------------
# the scan, the signals, the sightings


@dataclass(frozen=True)
class _Scan:
    evidence: tuple[Evidence, ...]
    linters: tuple[_Linter, ...]
    #: each signal found as it is, with its first evidence
    index: Mapping[str, Evidence]

    def find(self, signal: str) -> Optional[Evidence]:
        """The evidence of a signal: found as it is, or a rule code a linter's selection reports."""
        direct = self.index.get(signal)
        namespace, _, code = signal.partition(":")
        linter = next((lin for lin in self.linters if lin.name == namespace), None)
        return direct or (linter.reports(code) if linter is not None else None)


#: the readers of evidence found as it is, in the order a signal's location is taken from
_READERS = (_config_evidence, _tox_evidence, _precommit_evidence, _workflow_evidence, _gitlab_evidence,
            _conftest_evidence)


def _scan(context: SourceContext) -> _Scan:
    files = _Files(context)
    found = [ev for reader in _READERS for ev in reader(files)]
    flake8, ruff = _flake8(files, found), _ruff(files, found)
    linters = tuple(linter for linter in (flake8, ruff) if linter is not None)
    found += _selector_evidence(linters)
    found += _ladder(files, found, flake8)
    return _Scan(tuple(found), linters, _first_evidence(found))


def _first_evidence(evidence: Sequence[Evidence]) -> dict[str, Evidence]:
    index: dict[str, Evidence] = {}
    for found in evidence:
        index.update((signal, found) for signal in found.signals if signal not in index)
    return index


def _selector_evidence(linters: Sequence[_Linter]) -> list[Evidence]:
    """The selectors (``ruff:I``, ``flake8:B``) a linter's selection leaves on."""
    return [ev for linter in linters for name, ev in linter.selected if linter.reports(name) is not None]


def _topics(topics: Optional[Sequence[Topic]]) -> Sequence[Topic]:
    return load_topics() if topics is None else topics


def detected_signals(context: SourceContext, topics: Optional[Sequence[Topic]] = None) -> dict[str, str]:
    """Every signal the project gives, with where: those found as they are (``ruff:I``, ``precommit:black``),
    and each rule code that a topic (of ``topics``, default the whole table) names and a linter reports."""
    scan = _scan(context)
    found = {signal: evidence.location for signal, evidence in scan.index.items()}
    for signal in (s for topic in _topics(topics) for s in topic.enforced_by if s not in found):
        evidence = scan.find(signal)
        if evidence is not None:
            found[signal] = evidence.location
    return found


def _evidence_of(scan: _Scan, topic: Topic) -> Optional[Evidence]:
    """The evidence of the first of a topic's signals the project gives."""
    return next((ev for ev in map(scan.find, topic.enforced_by) if ev is not None), None)


def _topic_sighting(topic: Topic, evidence: Evidence) -> Sighting:
    return Sighting(level=4, text=f"{topic.title} ({', '.join(topic.keywords)})", location=evidence.location,
                    source="enforced", identity=f"{evidence.identity}:{topic.id}", keywords=topic.keywords)


def _topic_sightings(scan: _Scan, topics: Sequence[Topic]) -> tuple[dict[str, Sighting], set[str]]:
    """(a sighting per enforced topic, by topic id; the signals those topics name)."""
    found: dict[str, Sighting] = {}
    covered: set[str] = set()
    for topic in topics:
        evidence = _evidence_of(scan, topic)
        if evidence is not None:
            found[topic.id] = _topic_sighting(topic, evidence)
            covered.update(topic.enforced_by)
    return found, covered


def _own_sighting(evidence: Evidence) -> Sighting:
    return Sighting(level=4, text=evidence.text, location=evidence.location, source="enforced",
                    identity=evidence.identity)


def enforced_sightings(context: SourceContext, topics: Optional[Sequence[Topic]] = None) -> tuple[Sighting, ...]:
    """One level-4 sighting per topic the project enforces, then one per hook, CI step, tox command and set
    of conftest fixtures that no enforced topic covers (its text the command)."""
    scan = _scan(context)
    found, covered = _topic_sightings(scan, _topics(topics))
    for evidence in scan.evidence:
        if evidence.freeform and covered.isdisjoint(evidence.signals):
            found.setdefault(evidence.identity, _own_sighting(evidence))
    return tuple(found.values())


@hookimpl
def ladder_feedback_sources(context: SourceContext) -> list[Sighting]:
    """Level 4: the checks the project enforces, read from its configuration (see the module docstring)."""
    return list(enforced_sightings(context))
