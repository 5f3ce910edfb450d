"""The agent hooks' stdin: read with a deadline, so a host that never closes it cannot hold a prompt or an edit;
and where the host that sent it works.

Both hooks (``prompt_hook``, ``edit_hook``) read the host's JSON payload here. A host may write its
payload and leave stdin open: the read ends as soon as the bytes are one whole JSON object. A host
that never finishes its payload costs the hook the budget (``LADDER_HOOK_BUDGET_MS``), after which
the hook fails open. The standard library only, and nothing imported until it is needed: the
prompt hook imports this module on every prompt.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator, Mapping, Optional

__all__ = ["DEFAULT_BUDGET", "MAX_STDIN", "budget_of", "read_payload", "silenced", "working_dir"]

#: seconds a hook may take (the prompt hook's whole work; the edit hook's wait for its stdin)
DEFAULT_BUDGET = 1.0
#: bytes read at most: a payload bigger than this is not one a hook serves
MAX_STDIN = 16 << 20


def budget_of(environ: Mapping[str, str]) -> float:
    """The time budget in seconds: ``LADDER_HOOK_BUDGET_MS`` (50 to 10,000) or :data:`DEFAULT_BUDGET`."""
    try:
        return min(max(int(environ.get("LADDER_HOOK_BUDGET_MS", "")), 50), 10_000) / 1000
    except ValueError:
        return DEFAULT_BUDGET


def _whole(data: bytearray) -> bool:
    """Whether ``data`` is one whole JSON object: no strict prefix of an object is one, so nothing more is
    coming that belongs to it. Only tried when it ends with ``}`` (a payload is read in few chunks)."""
    import json

    if not data.rstrip().endswith(b"}"):
        return False
    try:
        return isinstance(json.loads(bytes(data).decode("utf-8-sig")), dict)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False


def _read(fd: int, data: bytearray, max_bytes: int) -> None:
    """In the reader thread: ``fd`` until its end, a whole JSON object, or ``max_bytes``. ``os.read``, no
    buffered object: a reader abandoned at exit holds no lock the interpreter's shutdown would wait for."""
    with contextlib.suppress(OSError, ValueError):
        while len(data) <= max_bytes:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            data.extend(chunk)
            if _whole(data):
                return


def read_payload(fd: int, seconds: float, max_bytes: int = MAX_STDIN) -> Optional[bytes]:
    """The host's payload from ``fd``: what was read by its end, once it was one whole JSON object, or once it
    passed ``max_bytes``; ``None`` when ``seconds`` passed first (the hook then fails open). The read runs
    in a daemon thread, waited for at most ``seconds``: a host that never closes stdin is left behind."""
    import threading

    data = bytearray()
    reader = threading.Thread(target=_read, args=(fd, data, max_bytes), name="ladder-hook-stdin", daemon=True)
    reader.start()
    reader.join(max(0.0, seconds))
    return None if reader.is_alive() else bytes(data)


def working_dir(data: Mapping[str, object], environ: Mapping[str, str]) -> Optional[str]:
    """Where the host works: ``cwd`` of its payload ``data`` (it follows worktrees), else the project directory
    a host set in its environment (:attr:`~ladder_plugins.hosts.Host.project_dir_env`); the first that is an
    absolute path of an existing directory, or ``None``."""
    from ..hosts import HOSTS

    given = [data.get("cwd")] + [environ.get(h.project_dir_env) for h in HOSTS if h.project_dir_env]
    for value in given:
        if isinstance(value, str) and value and "\x00" not in value and os.path.isabs(value) and os.path.isdir(value):
            return value
    return None


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """No warning and nothing else on stderr while a hook works: the host may show stderr to the user (a
    ``SyntaxWarning`` from parsing an edited file would otherwise reach it)."""
    import io
    import warnings

    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        yield
