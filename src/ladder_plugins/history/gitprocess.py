"""One git process: run with a bounded time and a bounded answer, its answer streamed, its failure said.

Every question the history asks git goes through :func:`run` (a short answer, read whole) or
:func:`streaming` (an answer read as it comes). Each call is one ``git`` process in a session of its own,
in an environment without pager, prompts or locale surprises, given ``LADDER_GIT_TIMEOUT`` seconds
(killed with everything it started past that, and not asked again by this process or its workers); its
complaints are drained beside it and a failure is :class:`GitUnavailable` with git's reason, or with the
fix where git refuses a repository another user owns.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator, Optional, Sequence

__all__ = ["DEFAULT_TIMEOUT", "GitSaidNo", "GitUnavailable", "TIMEOUT_ENV", "run", "streaming"]

TIMEOUT_ENV = "LADDER_GIT_TIMEOUT"  # seconds one git call may take
#: by default: a hung git holds an interactive run this long, once, and the run goes on without git
DEFAULT_TIMEOUT = 20.0
_GAVE_UP_ENV = "LADDER_GIT_GAVE_UP"  # "<pid> <why>": a process that gave up on git, for it and its workers
_MAX_ANSWER = 64 << 20  # bytes of an answer read whole (ids, names, times): more is not what was asked
_MAX_ERRORS = 64 << 10  # bytes of git's complaints kept: its reason comes first, a flood is drained unread


class GitUnavailable(Exception):
    """Git cannot answer (not installed, not a repository, corrupt, failing); the message says why."""


class GitSaidNo(GitUnavailable):
    """git ran and exited with a failure: to some questions ("which commit is HEAD?") an answer, where a
    time-out or garbage never is."""


def _environment() -> dict[str, str]:
    """git's environment: no pager, no prompts, no locale surprises, no user diff drivers."""
    env = dict(os.environ)
    env.update(GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0", LC_ALL="C", GIT_OPTIONAL_LOCKS="0")
    return env


def run(cwd: Path, args: Sequence[str], stdin: Optional[bytes] = None, limit: int = _MAX_ANSWER) -> bytes:
    """git's whole answer to ``args``, for the questions with short answers (ids, names, times): more than
    ``limit`` bytes is no answer to what was asked, and git is stopped there."""
    with streaming(cwd, args, stdin) as out:
        answer = out.read(limit + 1)
        if len(answer) > limit:
            raise GitUnavailable(f"git {args[0]} gave more than {limit >> 10} KiB of output, far more than was "
                                 "asked for")
    return answer


@contextmanager
def streaming(cwd: Path, args: Sequence[str], stdin: Optional[bytes] = None) -> Iterator[IO[bytes]]:
    """git running ``args``, its answer read as it comes (never held whole here).

    Each call is bounded by ``LADDER_GIT_TIMEOUT``: past it git and every process it started (its own
    session) are killed, and this process and the workers it starts ask git nothing more (a hung git is
    one wait, not one per question or per worker). Leaving the block early (an answer that does not parse)
    kills git too; a failing git is said once its answer was read.
    """
    call = _Call(cwd, args, stdin)
    try:
        yield call.stdout
        call.finish()
    except BaseException:
        _kill(call.proc)
        if call.expired.is_set():
            raise _gave_up(args, call.limit) from None  # the answer was cut by the kill, not garbled by git
        raise
    finally:
        call.close()
    if call.expired.is_set():
        raise _gave_up(args, call.limit)
    if call.proc.returncode != 0:
        raise _failure(args, call.proc.returncode, bytes(call.errors))


class _Call:
    """One git process: the pipe of its answer, its complaints (drained beside it), what it is given to read
    (written beside it: git answers while it reads, and pipes are small), and the timer that kills it."""

    def __init__(self, cwd: Path, args: Sequence[str], stdin: Optional[bytes]) -> None:
        import subprocess  # only a run that asks git pays for the imports
        import threading

        self.limit = _timeout()
        _refuse_after_giving_up()
        try:
            self.proc = subprocess.Popen(["git", "-c", "core.quotepath=off", "-c", "color.ui=false", *args],
                                         cwd=cwd, stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(),
                                         start_new_session=True)
        except FileNotFoundError:
            raise GitUnavailable("git is not installed (no 'git' on PATH)") from None
        except OSError as exc:
            raise GitUnavailable(f"git cannot be run: {exc.strerror or exc}") from None
        assert self.proc.stdout is not None  # a pipe was asked for
        self.stdout = self.proc.stdout
        self.expired, self.errors = threading.Event(), bytearray()
        self.timer = threading.Timer(self.limit, self._expire)
        self.helpers = [threading.Thread(target=_drain, args=(self.proc.stderr, self.errors), daemon=True)]
        if stdin is not None:
            self.helpers.append(threading.Thread(target=_feed, args=(self.proc.stdin, stdin), daemon=True))
        for started in (self.timer, *self.helpers):
            started.start()

    def _expire(self) -> None:
        self.expired.set()
        _kill(self.proc)

    def finish(self) -> None:
        """The answer was read: git ends, and its complaints are complete (the timer still bounds both)."""
        self.proc.wait()
        for helper in self.helpers:
            helper.join(self.limit)

    def close(self) -> None:
        self.timer.cancel()
        _kill(self.proc)  # whatever git left running holds nothing of ours
        self.stdout.close()  # its complaints' pipe is the drain's to close: closing it here would wait on the read


def _timeout() -> float:
    """Seconds one git call may take: ``LADDER_GIT_TIMEOUT``, else :data:`DEFAULT_TIMEOUT`."""
    given = os.environ.get(TIMEOUT_ENV, "").strip()
    if not given:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 3600:  # NaN fails too
        raise GitUnavailable(f"{TIMEOUT_ENV}={given[:40]!r} is not a number of seconds from 0 to 3600; set it "
                             f"to e.g. 60, or unset it for {DEFAULT_TIMEOUT:g}")
    return seconds


def _refuse_after_giving_up() -> None:
    """A process that gave up on git (or whose parent did, before starting it) does not ask again."""
    gave_up = os.environ.get(_GAVE_UP_ENV, "").split(" ", 1)
    if len(gave_up) == 2 and gave_up[0] in (str(os.getpid()), str(os.getppid())):
        raise GitUnavailable(gave_up[1])


def _gave_up(args: Sequence[str], limit: float) -> GitUnavailable:
    """A call that ran out of time; said the same way by every later call of this process and its workers,
    which inherit the environment (flake8's, xdist's), so the run's sinks say it once."""
    why = (f"git {args[0]} did not finish in {limit:g} s ({TIMEOUT_ENV} sets the limit); git is not asked again "
           "in this run")
    os.environ[_GAVE_UP_ENV] = f"{os.getpid()} {why}"
    return GitUnavailable(why)


_DUBIOUS = re.compile(r"detected dubious ownership in repository at '([^\n]*)'")


def _failure(args: Sequence[str], status: int, errors: bytes) -> GitUnavailable:
    """What a failing git said: its last line, or what its safe.directory refusal means and its fix."""
    text = errors.decode("utf-8", "replace")
    dubious = _DUBIOUS.search(text)
    if dubious:
        import shlex

        where = shlex.quote(dubious.group(1))
        return GitUnavailable(f"the repository {where} is owned by another user, and git reads such a repository "
                              "only once it is marked safe; if you trust it: git config --global --add "
                              f"safe.directory {where}")
    lines = text.strip().splitlines()
    return GitSaidNo(f"git {args[0]} failed: {lines[-1] if lines else f'exit status {status}'}")


def _kill(proc: Any) -> None:
    """Kill git and every process it started: a child holding the pipe would keep a read waiting."""
    try:
        os.killpg(proc.pid, 9)  # SIGKILL; the group is git's own session, so nothing else is in it
    except AttributeError:  # no process groups (Windows)
        proc.kill()
    except OSError:
        pass  # the group is gone already


def _drain(pipe: IO[bytes], kept: bytearray) -> None:
    """Read git's complaints to their end (a full pipe would stop git), keeping their first part."""
    with pipe:
        for chunk in iter(lambda: pipe.read(1 << 16), b""):
            kept.extend(chunk[:max(_MAX_ERRORS - len(kept), 0)])


def _feed(pipe: Any, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except OSError:
        pass  # git ended or was stopped before reading it all: its answer (or the time-out) says why
