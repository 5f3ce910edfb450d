"""``ladder hook prompt|post-edit|review|install|uninstall``: the agent hooks, and putting them into a host's settings.

``prompt`` and ``post-edit`` are what Claude Code, Codex and Gemini CLI run on every prompt and every edit:
:mod:`.main` sends them here before building any parser, and each fails open (exit 0, ``{}`` or nothing).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["add_parsers", "COMMANDS", "run_hook"]

_ACTION_HELP = {
    "install": ("merge our prompt and edit hooks into a host's settings",
                "  ladder hook install --agent claude            .claude/settings.json of this project\n"
                "  ladder hook install --agent gemini --user     ~/.gemini/settings.json\n"
                "  ladder hook install --agent codex --dry-run   the diff only, nothing written"),
    "uninstall": ("take our hooks out of a host's settings, the rest kept",
                  "  ladder hook uninstall --agent claude          our entries out again, the rest kept"),
    "prompt": ("the UserPromptSubmit/BeforeAgent hook (stdin JSON → stdout)",
               "  ladder hook prompt                            what the hosts run before each prompt"),
    "post-edit": ("the PostToolUse/AfterTool hook (stdin JSON → stdout)",
                  "  ladder hook post-edit                         what the hosts run after each edit"),
    "review": ("review the captured complaints waiting, publish their lessons (the prompt hook starts it detached)",
               "  ladder hook review                            the pending complaints of this project, now"),
}


def run_hook(name: str) -> int:
    """The agent hooks: stdin to stdout, exit status 0 whatever happens (each module fails open itself)."""
    if name == "post-edit":
        from ..agents.edit_hook import main

        return main()
    from ..agents.prompt_hook import console

    return console(hard_exit=True)


def add_parsers(sub: Any) -> None:
    from ..hosts import HOSTS, NAMES
    from .common import command_group

    parsers = command_group(sub, "hook", _ACTION_HELP)
    for verb in ("install", "uninstall"):
        parser = parsers[verb]
        parser.add_argument("--agent", required=True, choices=(*NAMES, "all"))
        parser.add_argument("--user", action="store_true",
                            help=f"the user's settings ({', '.join('~/' + h.directory for h in HOSTS)})")
        parser.add_argument("--project", action="store_true", help="this project's settings (the default)")
        parser.add_argument("--home", metavar="DIR", help="stands in for ~ (a disposable home, tests)")
        parser.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")


def _said(agent: str, outcome: Any, remove: bool) -> list[str]:
    """What install or uninstall did for ``agent``: the files written and removed, and the user's own commands
    it kept (paths and commands are the user's text: cleaned for the terminal here)."""
    from ..reports.sanitize import clean

    lines = [f"{agent}: {'removed from' if remove else 'installed in'} {clean(str(path))}" for path in outcome.written]
    lines += [f"{agent}: removed {clean(str(path))} (install had created it)" for path in outcome.removed]
    if not lines:
        lines = [f"{agent}: already {'absent' if remove else 'installed'}; nothing changed"]
    elif not remove:
        lines[-1] += _trust_note(agent)
    also = "" if remove else "; the host runs it besides ours: keep one of the two"
    lines += [f"{agent}: kept your own hook command `{clean(command)}` (not written by install){also}"
              for command in outcome.kept]
    return lines


def _trust_note(agent: str) -> str:
    """What a host that asks the user to trust new hooks (Codex) will ask, or ``""``."""
    from ..hosts import host

    found = host(agent)
    return f"; {found.title} asks you to trust the new hooks the next time it starts" if found and found.asks_trust \
        else ""


def _install(args: argparse.Namespace, remove: bool) -> int:
    from ..config import load_settings, no_project
    from ..errors import LadderError
    from ..hosts import NAMES
    from ..agents.install import install, uninstall
    from .common import EXIT_OK

    settings = load_settings(Path.cwd())
    if not args.user and not settings.in_project:
        raise LadderError(f"{no_project(settings.root)}: install into a project from inside it, or use --user")
    agents = NAMES if args.agent == "all" else (args.agent,)
    home = Path(args.home) if args.home else None
    scope = "user" if args.user else "project"
    for agent in agents:
        outcome = uninstall(agent, scope, home, settings.root, args.dry_run) if remove \
            else install(agent, scope, home, settings.root, args.dry_run)
        print(_dry(agent, outcome.diff) if args.dry_run else "\n".join(_said(agent, outcome, remove)))
    return EXIT_OK


def _dry(agent: str, diff: str) -> str:
    return diff.rstrip("\n") if diff else f"{agent}: nothing to change"


def _review(args: argparse.Namespace) -> int:
    """The pending reviews of this project, now, in the foreground: one line per outcome."""
    from ..agents.review import review_pending
    from ..config import load_settings, no_project
    from ..errors import LadderError
    from .common import EXIT_OK

    settings = load_settings(Path.cwd())
    if not settings.in_project:
        raise LadderError(f"{no_project(settings.root)}: run 'ladder hook review' inside a project")
    outcomes = review_pending(settings.root)
    for outcome in outcomes:
        by = f" by {outcome.reviewer}" if outcome.reviewer else ""
        family = f", lesson {outcome.family}" if outcome.family else ""
        print(f"capture {outcome.capture[:12]}: {outcome.event} ({outcome.reason}{by}{family}, {outcome.ms} ms)")
    if not outcomes:
        print("no review waiting (or another review holds the lease)")
    return EXIT_OK


def _hook(args: argparse.Namespace) -> int:
    if args.action in ("prompt", "post-edit"):
        return run_hook(args.action)
    if args.action == "review":
        return _review(args)
    return _install(args, remove=args.action == "uninstall")


COMMANDS = {"hook": _hook}
