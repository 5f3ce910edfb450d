"""Exceptions of our own, so every front end can turn them into its native form.

The CLI prints the message and exits 2, flake8 reports it as an error on the file,
pytest turns it into a usage error. Messages are written for the user: they name the
file, the key or the line, and say what is expected.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional

__all__ = ["LadderError", "ConfigError", "SourceError", "WarnOnce"]


class LadderError(Exception):
    """Base class of every error ladder-plugins raises on purpose."""


class ConfigError(LadderError):
    """The configuration (pyproject.toml, command-line options) is invalid."""


class SourceError(LadderError):
    """A source file cannot be analysed (syntax error, encoding, NUL byte, too deep).

    ``role`` is the file's role when it was known before the problem was found.
    """

    def __init__(self, message: str, *, role: str = "app") -> None:
        super().__init__(message)
        self.role = role


class WarnOnce:
    """A run's warning sink that says each message once, however many parts repeat it.

    The history store, the analysis cache and the write-access check can each notice
    the same problem (a symlink leading out, a full disk); the user hears of it once.
    Without a ``sink`` it only collects (pytest prints them in its summary); ``said``
    are messages another process has already said (a spawned flake8 worker's parent).
    """

    def __init__(self, sink: Optional[Callable[[str], None]] = None, said: Iterable[str] = ()) -> None:
        self.sink = sink
        self._said = dict.fromkeys(said)

    @property
    def said(self) -> list[str]:
        return list(self._said)

    def __call__(self, message: str) -> None:
        if message not in self._said:
            self._said[message] = None
            if self.sink is not None:
                self.sink(message)
