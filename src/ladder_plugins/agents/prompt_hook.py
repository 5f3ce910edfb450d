"""``ladder hook prompt``: the prompt hook of Claude Code, Codex and Gemini CLI (``docs/how-to/agent-hooks.md``).

It runs before the agent sees each prompt, so it must never make the user wait:

* no network, no subprocess waited for, nothing heavier than the standard library and
  ``config`` (the analysis and the history are never imported); what only a captured prompt
  needs (the lock, hashing, the review's start) and what only an existing rules file or lesson
  folder needs (``rules_file``, ``lessons``) is imported when it is needed;
* a time budget (:data:`DEFAULT_BUDGET`, or ``LADDER_HOOK_BUDGET_MS``) checked between the
  steps; past it nothing more is done and the host's "nothing to add" is printed. The
  console entry also waits for the work at most that long (it runs in a daemon thread),
  so a hung file system cannot hold the prompt either;
* exit status 0 always; ``{}`` on any internal failure (every host accepts it); nothing on
  stderr.

What it does:

1. **Captures dissatisfaction** (:mod:`.classify`, then classifier plugins of the
   ``ladder_classify_feedback`` hook for what the patterns miss, each answer after the
   deadline discarded) as one line of ``.ladder/feedback/captures.jsonl`` (:mod:`.captures`),
   which the tracker counts as a level-1 occurrence; then writes the capture's review job and
   starts the review detached (:mod:`.review_queue`: its own session, stdio ``/dev/null``, never
   waited on), which may publish a lesson for later prompts (:mod:`.review`).
2. **Injects the applicable lessons**: up to three lessons of ``.agent/reflections/`` whose
   keywords the prompt names, published before this prompt was handled (its publication cutoff),
   those the block gives in full left out (``lessons.select``), within a quarter of the block's budget.
3. **Injects the managed rules block** of the configured files (``[tool.ladder.rules]
   files``, default ``.agent/rules/feedback-loop.md``), read by ``rules_file.read_block``
   and bounded below Claude Code's 10,000 characters per string, so a rule that recurred
   enough is in front of the agent every turn, whether or not it opens the file.

The dialect comes from ``hook_event_name`` and the fields present: ``UserPromptSubmit`` with
``turn_id`` or ``model`` is Codex, without them Claude Code; ``BeforeAgent`` is Gemini CLI
(without an event name, ``timestamp`` means Gemini CLI). What is printed:

* Claude Code and Codex, something to add: ``{"hookSpecificOutput": {"hookEventName":
  "UserPromptSubmit", "additionalContext": "..."}}``, exactly that (Codex fails a hook whose
  JSON does not fit its schema); nothing to add: nothing (both take empty stdout as "no
  context"; plain text would be added as context).
* Gemini CLI, something to add: the same object with ``"hookEventName": "BeforeAgent"``;
  nothing to add: ``{}``, because Gemini CLI shows stdout that is not JSON to the user.
* Another event, or stdin that is not a JSON object: ``{}``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence

from .classify import Classification, classify, skipped, transcript_referent
from ..hosts import CONTEXT_CAP, Host, sender
from ..readers.stdin import DEFAULT_BUDGET, budget_of, read_payload, silenced, working_dir

if TYPE_CHECKING:  # only a capture needs the module, and it imports it itself
    from datetime import datetime

__all__ = [
    "DEFAULT_BUDGET",
    "PLUGIN_SHARE",
    "EMPTY",
    "MAX_CONTEXT",
    "PromptInput",
    "HookConfig",
    "budget_of",
    "dialect_of",
    "parse_input",
    "load_config",
    "plugins_installed",
    "plugin_reasons",
    "rules_context",
    "lessons_for",
    "LESSONS_SHARE",
    "render",
    "run",
    "main",
    "console",
]

#: the share of the budget classifier plugins may use; the rest is the capture's and the rules'
PLUGIN_SHARE = 0.5
#: what every host accepts as "nothing to add", and the answer to anything that went wrong
EMPTY = "{}"
#: characters of context at most: below the hosts' cap on each string
MAX_CONTEXT = CONTEXT_CAP - 500
#: the share of the block's budget the lessons that match a prompt may take
LESSONS_SHARE = 0.25
_GRACE = 0.25
_MAX_PLUGIN_REASONS = 8
_DEFAULT_RULES = (".agent/rules/feedback-loop.md",)
_DEFAULT_MAX_BYTES = 6144


@dataclass(frozen=True)
class PromptInput:
    """What the hook takes from the host's stdin."""

    #: the host that sent it: the answer is in its form
    dialect: Host
    prompt: str
    #: where the project root is looked for (``cwd`` on stdin, else the host's project directory), or None
    start: Optional[str]
    transcript: Optional[str]
    session_id: Optional[str]


@dataclass(frozen=True)
class HookConfig:
    """The few keys of ``[tool.ladder]`` the hook reads. A value of the wrong type is taken as the default:
    the hook must not fail on configuration, and the commands that validate the settings say what is wrong."""

    root: Path
    rules_files: tuple[str, ...] = _DEFAULT_RULES
    rules_max_bytes: int = _DEFAULT_MAX_BYTES
    store_prompts: bool = False
    history_dir: str = ".ladder"
    #: a capture starts the detached review (``[tool.ladder.feedback] review``)
    review: bool = True


def dialect_of(data: Mapping[str, Any]) -> Optional[Host]:
    """The host that sent ``data``, or ``None`` for an event this hook does not serve (an event named
    otherwise than a host's prompt event: an empty or non-string one too)."""
    return sender(data, data.get("hook_event_name"), "prompt")


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value and "\x00" not in value else None


def parse_input(stdin: bytes, environ: Mapping[str, str]) -> Optional[PromptInput]:
    """The host's stdin, or ``None`` for what this hook does not serve (not a JSON object, another event)."""
    try:
        data = json.loads(stdin.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    dialect = dialect_of(data) if isinstance(data, dict) else None
    if dialect is None:
        return None
    prompt = data.get("prompt")
    session = data.get("session_id")
    return PromptInput(dialect, prompt if isinstance(prompt, str) else "", working_dir(data, environ),
                       _text(data.get("transcript_path")), session if isinstance(session, str) else None)


def _relative_path(value: Any) -> Optional[str]:
    """A path relative to the root that stays below it, or ``None``."""
    if not isinstance(value, str) or not value.strip() or "\x00" in value or os.path.isabs(value):
        return None
    parts = PurePosixPath(value.replace("\\", "/")).parts
    return value if parts and ".." not in parts else None


def _table(data: Any, key: str) -> Mapping[str, Any]:
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _rules_files(rules: Mapping[str, Any]) -> tuple[str, ...]:
    files = rules.get("files")
    if not isinstance(files, list):
        return _DEFAULT_RULES
    return tuple(f for f in map(_relative_path, files) if f) or _DEFAULT_RULES


def _config_of(root: Path, ladder: Mapping[str, Any]) -> HookConfig:
    rules, feedback = _table(ladder, "rules"), _table(ladder, "feedback")
    size = rules.get("max_bytes")
    return HookConfig(
        root,
        _rules_files(rules),
        size if isinstance(size, int) and not isinstance(size, bool) and 512 <= size <= 1_000_000
        else _DEFAULT_MAX_BYTES,
        feedback.get("store_prompts") is True,
        _relative_path(ladder.get("history_dir")) or ".ladder",
        feedback.get("review") is not False,
    )


def load_config(start: Optional[str]) -> HookConfig:
    """The project root above ``start`` (``config.find_root``: cheap, no settings built) and the hook's keys of
    its ``[tool.ladder]``; a pyproject.toml that is not valid TOML raises (the hook then answers ``{}``)."""
    from ..config import find_root, read_pyproject

    root, pyproject = find_root(start)
    if pyproject is None:
        return HookConfig(root)
    return _config_of(root, _table(_table(read_pyproject(pyproject), "tool"), "ladder"))


# ---------------------------------------------------------------------------
# classifier plugins


def _codes(answer: Any) -> tuple[str, ...]:
    """A plugin's reason codes, as words: anything else in its answer is dropped."""
    items = (answer,) if isinstance(answer, str) else answer if isinstance(answer, (list, tuple)) else ()
    return tuple(a for a in items if isinstance(a, str) and a.isidentifier() and a.isascii() and len(a) <= 50)


def _entry_point_manager() -> Any:
    """A plugin manager holding only the ``ladder`` entry points: the built-in metrics never classify a
    prompt, so they are not imported."""
    import pluggy

    from .. import hookspecs

    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs.LadderSpec)
    manager.load_setuptools_entrypoints(hookspecs.PROJECT_NAME)
    return manager


def _implementations(make: Callable[[], Any]) -> list[Any]:
    """The ``ladder_classify_feedback`` implementations in pluggy's call order (the last registered first),
    wrappers left out; none when the plugins cannot even be loaded."""
    try:
        caller = getattr(make().hook, "ladder_classify_feedback", None)
        impls = [] if caller is None else caller.get_hookimpls()
    except Exception:  # a plugin that cannot be loaded says nothing
        return []
    return [i for i in reversed(impls) if not (getattr(i, "hookwrapper", False) or getattr(i, "wrapper", False))]


def _ask(prompt: str, deadline: float, make: Callable[[], Any], answers: Any) -> None:
    """In the worker thread: each plugin in turn, its answer stamped with the time it came."""
    given = {"prompt": prompt, "deadline": deadline}
    for impl in _implementations(make):
        if time.monotonic() > deadline:
            return
        try:
            answer = impl.function(**{name: given[name] for name in impl.argnames if name in given})
        except Exception:  # a plugin raising is ignored, the others still answer
            continue
        answers.put((time.monotonic(), _codes(answer)))


def plugins_installed() -> bool:
    """Whether some distribution may declare ``ladder`` entry points: a scan of ``entry_points.txt`` files,
    so a prompt in an installation without plugins never pays for loading entry points."""
    from .. import hookspecs, plugins

    return plugins.declared_anywhere(hookspecs.PROJECT_NAME)


def plugin_reasons(prompt: str, deadline: float, make: Callable[[], Any] = _entry_point_manager) -> tuple[str, ...]:
    """Reason codes the classifier plugins of ``make()`` (the ``ladder`` entry points) give before ``deadline``
    (a ``time.monotonic()`` value).

    The plugins are loaded and asked in a daemon thread that is waited for until the deadline at most; an
    answer that comes later is discarded and a plugin that raises says nothing, so a slow, hanging or
    broken plugin costs the prompt nothing beyond the budget."""
    import queue
    import threading

    answers: "queue.SimpleQueue[tuple[float, tuple[str, ...]]]" = queue.SimpleQueue()
    worker = threading.Thread(target=_ask, args=(prompt, deadline, make, answers), name="ladder-classify",
                              daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()))
    found: list[str] = []
    while not answers.empty():
        at, codes = answers.get()
        found.extend(codes if at <= deadline else ())
    return tuple(dict.fromkeys(found))[:_MAX_PLUGIN_REASONS]


# ---------------------------------------------------------------------------
# the steps


def _memo(compute: Callable[[], Optional[bool]]) -> Callable[[], Optional[bool]]:
    """``compute`` called once, when first asked (the transcript is read only when a pattern needs it)."""
    box: list[Optional[bool]] = []

    def once() -> Optional[bool]:
        if not box:
            box.append(compute())
        return box[0]

    return once


def _classified(hook: PromptInput, plugin_deadline: float) -> Optional[Classification]:
    """The built-in patterns; where they find nothing in a prompt with a referent (or none known), the
    plugins."""
    if skipped(hook.prompt):
        return None
    referent = _memo(lambda: transcript_referent(hook.transcript))
    found = classify(hook.prompt, referent)
    if found is not None or time.monotonic() > plugin_deadline or not plugins_installed() or referent() is False:
        return found
    return _from_plugins(hook.prompt, plugin_reasons(hook.prompt, plugin_deadline, _entry_point_manager))


def _from_plugins(prompt: str, reasons: Sequence[str]) -> Optional[Classification]:
    """The plugins' codes as a classification: the built-in codes first, in their order, then the others."""
    if not reasons:
        return None
    from .classify import REASONS, capture_keywords

    ordered = sorted(reasons, key=lambda code: REASONS.index(code) if code in REASONS else len(REASONS))
    return Classification(tuple(ordered), capture_keywords(prompt))


def _capture(hook: PromptInput, config: HookConfig, found: Classification, now: Optional[datetime],
             deadline: float) -> Optional[dict[str, Any]]:
    """Write the capture; the entry written, or ``None`` when nothing was."""
    from .captures import append_capture, capture_entry, in_project

    if not in_project(config.root):
        return None
    entry = capture_entry(hook.prompt, found, session_id=hook.session_id, now=now, store_prompt=config.store_prompts)
    left = min(0.2, deadline - time.monotonic())
    if left <= 0 or append_capture(config.root, entry, config.history_dir, timeout=left) is None:
        return None
    return entry


def _captured_fact(found: Classification) -> str:
    about = f"; about: {', '.join(found.keywords)}" if found.keywords else ""
    return (f"ladder-plugins recorded this prompt as corrective feedback on the agent's work "
            f"(reasons: {', '.join(found.reasons)}{about}).")


def _start_review(hook: PromptInput, config: HookConfig, entry: Mapping[str, Any], found: Classification,
                  environ: Mapping[str, str]) -> None:
    """The capture's review job written and the review started, detached: never waited for (the prompt's
    context is decided without it; what it publishes reaches later prompts only)."""
    from . import review_queue

    job = review_queue.job_entry(entry, hook.prompt, hook.transcript, found.keywords)
    if review_queue.write_job(config.root, config.history_dir, job) is not None:
        review_queue.start_review(config.root, environ, config.history_dir)


def _rules_paths(config: HookConfig) -> list[Path]:
    """The configured rules files that exist as regular files inside the root (symlinks resolved)."""
    from ..ladderdir.paths import inside

    root = Path(os.path.realpath(config.root))
    paths = [root / name for name in dict.fromkeys(config.rules_files)]
    return [p for p in paths if p.is_file() and inside(p, root)]


def _block_body(text: str) -> str:
    """The block without its marker lines (the model has no use for them)."""
    lines = [line for line in text.splitlines() if not line.startswith("<!-- ladder:rules:")]
    return "\n".join(lines).strip()


def _block_of(read: Callable[..., Any], path: Path, room: int) -> tuple[str, int]:
    try:
        text, left_out = read(path, room)
    except Exception:  # a file being rewritten, a reader of another version: this prompt goes without it
        return "", 0
    return _block_body(text) if isinstance(text, str) else "", left_out if isinstance(left_out, int) else 0


def _left_out_fact(path: Path, root: Path, left_out: int, room: int) -> str:
    from ..reports.sanitize import agent_data  # loaded already: the block's reader imports it

    sections = "section" if left_out == 1 else "sections"
    name = agent_data(path.relative_to(root).as_posix())
    return f"({left_out} more {sections} of the block in {name} did not fit in {room} bytes here.)"


def _add_block(parts: list[str], read: Callable[..., Any], path: Path, config: HookConfig, room: int) -> None:
    """The block of ``path`` (and what it left out) added to ``parts``, unless the same block is there."""
    body, left_out = _block_of(read, path, room)
    if body and body not in parts:
        parts.append(body)
        if left_out:
            parts.append(_left_out_fact(path, Path(os.path.realpath(config.root)), left_out, room))


def rules_context(config: HookConfig, deadline: float, limit: int = MAX_CONTEXT) -> str:
    """The managed rules block of each configured file (the same block in several files once), whole
    sections only, within ``limit`` characters in all; ``""`` when there is none or the reader is not
    installed."""
    paths = _rules_paths(config)
    if not paths:
        return ""
    try:
        from ..rules_block.files import read_block
    except ImportError:  # an installation without the rules block: nothing to inject
        return ""
    parts: list[str] = []
    for path in paths:
        room = min(config.rules_max_bytes, limit - sum(len(p) + 2 for p in parts) - 120)
        if time.monotonic() > deadline or room < 200:
            break
        _add_block(parts, read_block, path, config, room)
    return "\n\n".join(parts)


def _cutoff(now: Optional[datetime]) -> str:
    """The prompt's publication cutoff, fixed when it is handled: lessons published later reach later prompts."""
    from datetime import datetime, timezone

    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def lessons_for(prompt: str, config: HookConfig, cutoff: str, block: str) -> str:
    """Up to three lessons of ``.agent/reflections/`` whose keywords the prompt names (published by
    ``cutoff``), those the block already gives in full left out, within :data:`LESSONS_SHARE` of the
    block's budget; ``""`` for none (and nothing is imported where there is no lesson folder)."""
    from ..lessons import REFLECTIONS_DIR

    if not prompt.strip() or not os.path.isdir(config.root / REFLECTIONS_DIR):
        return ""
    from ..lessons.select import applicable, lessons_context
    from ..lessons.store import read_lessons
    from ..rules_block.block import gives_in_full

    # a lesson the block only names (demoted to fit) is given: the agent has its title there, not what to do
    fresh = [x for x in read_lessons(config.root, cutoff=cutoff) if not gives_in_full(block, x.severity, x.title)]
    return lessons_context(applicable(fresh, prompt), int(config.rules_max_bytes * LESSONS_SHARE))


def _context(hook: PromptInput, config: HookConfig, cutoff: str, deadline: float, limit: int) -> str:
    """The applicable lessons and the rules block, within the block's budget (``rules_max_bytes``) together:
    the block is read again with less room only when the lessons need it."""
    rules = rules_context(config, deadline, limit)
    lessons = lessons_for(hook.prompt, config, cutoff, rules) if time.monotonic() < deadline else ""
    if not lessons:
        return rules
    size = len(lessons.encode("utf-8")) + 2
    if rules and len(rules.encode("utf-8")) + size > config.rules_max_bytes:
        smaller = HookConfig(**{**config.__dict__, "rules_max_bytes": max(512, config.rules_max_bytes - size)})
        rules = rules_context(smaller, deadline, limit - len(lessons) - 2)
    return "\n\n".join(part for part in (lessons, rules) if part)


def render(dialect: Host, context: str) -> str:
    """What to print: the host's JSON carrying ``context`` (cut to :data:`MAX_CONTEXT`), or its nothing."""
    if not context:
        return dialect.prompt_nothing
    output = {"hookEventName": dialect.prompt_event, "additionalContext": context[:MAX_CONTEXT]}
    return json.dumps({"hookSpecificOutput": output})


def _answer(stdin: bytes, environ: Mapping[str, str], now: Optional[datetime], began: float) -> str:
    """The steps in order, each only while the budget lasts: the input, the root and its keys, the
    classification, the capture, the rules block, the answer."""
    budget = budget_of(environ)
    deadline = began + budget
    hook = parse_input(stdin, environ)
    if hook is None:
        return EMPTY
    cutoff = _cutoff(now)
    config = load_config(hook.start)
    said = _feedback(hook, config, now, (began + budget * PLUGIN_SHARE, deadline), environ)
    rules = _context(hook, config, cutoff, deadline, MAX_CONTEXT - len(said) - 2) if time.monotonic() < deadline \
        else ""
    if time.monotonic() > deadline:
        return hook.dialect.prompt_nothing
    return render(hook.dialect, "\n\n".join(part for part in (said, rules) if part))


def _feedback(hook: PromptInput, config: HookConfig, now: Optional[datetime], deadlines: tuple[float, float],
              environ: Mapping[str, str]) -> str:
    """Classify and capture while the budget lasts (plugins until the first deadline), and start the capture's
    review (with ``review``); the fact to say."""
    if time.monotonic() >= deadlines[1]:
        return ""
    found = _classified(hook, deadlines[0])
    entry = None if found is None else _capture(hook, config, found, now, deadlines[1])
    if found is None or entry is None:
        return ""
    if config.review and time.monotonic() < deadlines[1]:
        _start_review(hook, config, entry, found, environ)
    return _captured_fact(found)


def run(stdin: bytes, environ: Optional[Mapping[str, str]] = None, now: Optional[datetime] = None, *,
        began: Optional[float] = None) -> str:
    """What to print for the host's ``stdin`` (``environ`` defaults to ``os.environ``; ``now`` is the
    capture's time, for tests; ``began``, a ``time.monotonic()`` value, where the budget started, by default
    now); ``{}`` on any internal failure."""
    start = time.monotonic() if began is None else began
    try:
        with silenced():
            return _answer(stdin, os.environ if environ is None else environ, now, start)
    except Exception:  # fail open, whatever it was: the user's prompt goes on
        return EMPTY


def main(stdin: bytes, environ: Optional[Mapping[str, str]] = None,
         now: Optional[datetime] = None) -> tuple[str, int]:
    """``(stdout, exit status)`` for the host's ``stdin``: the exit status is always 0."""
    return run(stdin, environ, now), 0


# ---------------------------------------------------------------------------
# the console entry


def _in_thread(target: Callable[..., None], args: Sequence[Any], timeout: float) -> bool:
    """Run ``target`` in a daemon thread for ``timeout`` seconds at most; whether it finished."""
    import threading

    worker = threading.Thread(target=target, args=tuple(args), name="ladder-prompt-hook", daemon=True)
    worker.start()
    worker.join(max(0.0, timeout))
    return not worker.is_alive()


def _work(data: bytes, answer: list[str], began: float) -> None:
    answer.append(run(data, began=began))


def _stdin_fd() -> int:
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # no stdin at all (a closed or a replaced stream)
        return 0


def console(stdin_fd: Optional[int] = None, stdout: Optional[Any] = None, *, hard_exit: bool = False) -> int:
    """``ladder hook prompt``: stdin to stdout within the budget, exit status 0 whatever happened.

    Stdin is read until it ends or holds one whole JSON object (``hook_input.read_payload``), within the
    budget; the work runs in a daemon thread waited for until the budget (and a quarter of a second) is
    spent: a host that never finishes its payload, or a file system that hangs, gets ``{}`` in time. With
    ``hard_exit`` (the command line) the process then ends at once, without waiting for a thread a plugin
    may have left behind."""
    began, budget = time.monotonic(), budget_of(os.environ)
    answer: list[str] = []
    with silenced():
        data = read_payload(_stdin_fd() if stdin_fd is None else stdin_fd, budget)
        done = data is not None and _in_thread(_work, (data, answer, began), began + budget + _GRACE - time.monotonic())
    text = answer[0] if done and answer else EMPTY
    target = sys.stdout if stdout is None else stdout
    with contextlib.suppress(Exception):
        if text:
            target.write(text + "\n")
        target.flush()
    if hard_exit:
        os._exit(0)
    return 0


if __name__ == "__main__":  # ``python -m ladder_plugins.agents.prompt_hook``, until the command is wired
    sys.exit(console(hard_exit=True))
