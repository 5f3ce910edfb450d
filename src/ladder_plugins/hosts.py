"""The agent hosts, one table: Claude Code, Codex and Gemini CLI as our hooks, the installer, the tracker's
hooks source and ``ladder doctor`` know them.

What a host is, for this package: its name on the command line, the directory and files its hook settings
live in (and how each is written), the events our two hooks answer and the matchers they are installed
with, the unit of a hook's timeout, the fields only its payloads carry, its tools, and the shape of an
answer. Everything that reads one of these facts reads it here; nothing else spells them. A new host is a
row of :data:`HOSTS` (and, if its payloads carry fields no other host's do, an entry of :data:`RECOGNITION`).

The standard library only, and nothing imported at all but ``dataclasses``: the prompt hook reads this
table on every prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

__all__ = [
    "HookFile", "Host", "CLAUDE", "CODEX", "GEMINI", "HOSTS", "NAMES", "RECOGNITION", "CONTEXT_CAP",
    "TIMEOUT_SECONDS", "EDIT_PATH_FIELDS", "PATCH_FIELDS", "PLUGIN_HOOK_FILE", "PLUGIN_MANIFEST", "host",
    "own_tools", "sender", "answering",
]

#: how long a host lets one of our hooks run, in seconds (each host's setting says it in its own unit)
TIMEOUT_SECONDS = 10
#: characters a host takes in one context string at most: Claude Code's cap, the tightest of the three
CONTEXT_CAP = 10_000
#: where a tool's arguments name the file it edited (Claude Code and Gemini CLI: ``file_path``)
EDIT_PATH_FIELDS = ("file_path", "absolute_path", "path", "filePath")
#: where Codex's ``apply_patch`` sends its patch (``{"command": "*** Begin Patch ..."}``)
PATCH_FIELDS = ("command", "input", "patch")
#: a Claude Code plugin's hooks, below its directory, and the manifest that makes a directory a plugin
PLUGIN_HOOK_FILE = ("hooks/hooks.json", "json")
PLUGIN_MANIFEST = ".claude-plugin/plugin.json"


@dataclass(frozen=True)
class HookFile:
    """A file of a host's directory that holds hook settings."""

    #: its name inside the host's directory (``settings.json``)
    name: str
    #: how it is written: ``json``, ``jsonc`` (JSON with comments, Gemini CLI's) or ``toml``
    form: str
    #: whether ``ladder hook install`` may write it (and ``uninstall`` clean it); a file the host reads that
    #: install leaves to the user (Claude Code's ``settings.local.json``) is still read by the tracker and doctor
    installs: bool = True


@dataclass(frozen=True)
class Host:
    """One agent host: where it reads hooks, what it sends them, what it takes back."""

    #: its name on the command line (``--agent claude``) and in doctor's report
    name: str
    #: its name for people
    title: str
    #: its settings directory, in the project and in the home directory (``.claude``)
    directory: str
    #: the files there that hold hooks; the first is the one install writes by default
    files: tuple[HookFile, ...]
    #: the event our prompt hook answers, and our edit hook
    prompt_event: str
    edit_event: str
    #: the tools that edit a file, as the edit hook's matcher names them (``Edit|Write|MultiEdit``)
    edit_tools: tuple[str, ...]
    #: tools that name a file without changing it (a hook installed without a matcher sees them too)
    read_only_tools: tuple[str, ...] = ()
    #: the prompt hook's matcher group's ``matcher``; ``None``: the group has none (Gemini CLI's documented
    #: shape gives every group one, ``""`` for lifecycle events)
    prompt_matcher: Optional[str] = None
    #: a hook's ``timeout`` per second: 1 (seconds: Claude Code, Codex) or 1000 (milliseconds: Gemini CLI)
    per_second: int = 1
    #: fields only this host's payloads carry: how a payload without ``hook_event_name`` (or with an event two
    #: hosts share) is told apart
    own_fields: tuple[str, ...] = ()
    #: the environment variable holding the project directory the host started in, when it sets one
    project_dir_env: Optional[str] = None
    #: what the prompt hook prints when it has nothing to add: nothing (plain text would be added as context),
    #: or ``{}`` where the host shows stdout that is not JSON to the user
    prompt_nothing: str = ""
    #: an answer's ``decision`` that blocks
    block_decision: str = "block"
    #: whether the host asks the user to trust a hook it has not run before
    asks_trust: bool = False
    #: its CLI run once, non-interactively, as the detached feedback reviewer (``agents.reviewer``): the
    #: reviewer's request goes to its stdin, the answer comes on stdout
    review_command: tuple[str, ...] = ()
    #: the field of the JSON object the review command prints that holds the answer; ``""``: stdout is the answer
    review_answer: str = ""
    #: the environment variable that moves the host's home directory (``~/<directory>``), when it has one
    config_dir_env: Optional[str] = None
    #: where the host's own memory tool writes a project's facts: the file at the project root, and the heading
    #: of its section there (``""``: none the tracker reads there; Claude Code keeps memory files elsewhere)
    memory_file: str = ""
    memory_section: str = ""

    @property
    def edit_matcher(self) -> str:
        """The edit hook's matcher: its tools, ``|``-separated."""
        return "|".join(self.edit_tools)

    @property
    def timeout(self) -> int:
        """Our hooks' ``timeout`` in the host's unit."""
        return TIMEOUT_SECONDS * self.per_second

    def event(self, kind: str) -> str:
        """The event our hook ``kind`` (``prompt`` or ``post-edit``) answers."""
        return self.prompt_event if kind == "prompt" else self.edit_event


CLAUDE = Host(
    "claude", "Claude Code", ".claude",
    (HookFile("settings.json", "json"), HookFile("settings.local.json", "json", installs=False)),
    "UserPromptSubmit", "PostToolUse", ("Edit", "Write", "MultiEdit"),
    read_only_tools=("Read", "NotebookRead", "Glob", "Grep", "LS"), project_dir_env="CLAUDE_PROJECT_DIR",
    config_dir_env="CLAUDE_CONFIG_DIR",
    # print mode reads the prompt from stdin; --output-format json prints one object, the answer in "result"
    review_command=("claude", "-p", "--output-format", "json"), review_answer="result",
)
# Codex's apply_patch answers to Edit and Write; naming it keeps older builds without those aliases covered.
# config.toml holds [[hooks.<Event>]] tables; install writes there only in the cases install.settings_path says
CODEX = Host(
    "codex", "Codex", ".codex", (HookFile("hooks.json", "json"), HookFile("config.toml", "toml")),
    "UserPromptSubmit", "PostToolUse", ("Edit", "Write", "MultiEdit", "apply_patch"),
    own_fields=("turn_id", "model"), asks_trust=True,
    # exec reads the prompt from stdin ("-") and prints only the final message on stdout; read-only sandbox,
    # no rollout files kept, and it runs in a temporary directory (no git repository there)
    review_command=("codex", "exec", "--sandbox", "read-only", "--skip-git-repo-check", "--ephemeral", "-"),
)
GEMINI = Host(
    "gemini", "Gemini CLI", ".gemini", (HookFile("settings.json", "jsonc"),),
    "BeforeAgent", "AfterTool", ("write_file", "replace"),
    read_only_tools=("read_file", "read_many_files", "list_directory", "glob", "search_file_content"),
    prompt_matcher="", per_second=1000, own_fields=("timestamp",), project_dir_env="GEMINI_PROJECT_DIR",
    prompt_nothing="{}", block_decision="deny",
    # its memory tool's MEMORY_SECTION_HEADER, in the project's GEMINI.md
    memory_file="GEMINI.md", memory_section="## Gemini Added Memories",
    # headless: -p's text is the instruction, stdin is appended to it; --output-format json: the answer in "response"
    review_command=("gemini", "--output-format", "json", "-p",
                    "Answer the review request given on standard input with the one JSON object it asks for."),
    review_answer="response",
)

#: every host, in the order commands list them (``--agent all``, doctor)
HOSTS = (CLAUDE, CODEX, GEMINI)
NAMES = tuple(h.name for h in HOSTS)
#: the order hosts are recognised by their own fields: a payload carrying two hosts' is taken for the first
#: here (Claude Code has none: it is the host a payload is taken for when nothing else says otherwise)
RECOGNITION = (GEMINI, CODEX)
_BY_NAME = {h.name: h for h in HOSTS}


def host(name: str) -> Optional[Host]:
    """The host called ``name`` (``claude``, ``codex``, ``gemini``), or ``None``."""
    return _BY_NAME.get(name)


def own_tools(one: Host) -> frozenset[str]:
    """The edit tools of ``one`` that no other host has (Codex's ``apply_patch``; none of Claude Code's, which
    Codex answers to as well)."""
    others = {tool for other in HOSTS if other is not one for tool in other.edit_tools}
    return frozenset(one.edit_tools) - others


def sender(data: Mapping[str, Any], named: Any, kind: str, tool: Any = None) -> Optional[Host]:
    """The host that sent a payload to our hook ``kind`` (``prompt`` or ``post-edit``), or ``None`` when no
    host sends ``named`` to it.

    ``named`` is the payload's event (``None``: it names none). The candidates are the hosts whose
    ``kind`` hook answers that event (every host, when none is named); of those, the first of
    :data:`RECOGNITION` whose own fields the payload carries (or one of whose own tools ``tool`` is), else
    the first candidate of the table."""
    candidates = [h for h in HOSTS if named is None or h.event(kind) == named]
    for one in RECOGNITION:
        if one in candidates and _carries(data, one, tool):
            return one
    return candidates[0] if candidates else None


def _carries(data: Mapping[str, Any], one: Host, tool: Any) -> bool:
    """Whether a payload carries a field only ``one`` sends, or names (``tool``) a tool only ``one`` has."""
    return any(f in data for f in one.own_fields) or (isinstance(tool, str) and tool in own_tools(one))


def answering(one: Host, kind: str) -> Host:
    """The first host of the table whose ``kind`` hook answers the event ``one``'s does: hosts sharing an
    event (Claude Code and Codex) take the same answer."""
    return next(h for h in HOSTS if h.event(kind) == one.event(kind))
