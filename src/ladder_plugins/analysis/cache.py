"""A content-addressed cache of per-file analysis results under ``.ladder/cache/``.

Shared by flake8, pytest and the CLI. The key is a hash of the file's bytes, its path
(roles and fingerprints depend on it), the effective settings, the package and
Python versions, the loaded plugins, and what the test runner collected: a change
in any of them is a miss; touching the file's mtime alone is a hit. Entries are
written atomically (temporary file, then rename), so concurrent readers and
writers never see half an entry. The cache is bounded (oldest entries evicted);
a damaged entry (one that does not parse, or whose report does not match the
digest in its header line) is one warning, kept aside as ``*.damaged``, and the
file is analysed again.
``LADDER_NO_CACHE=1`` or the front ends' ``--no-cache`` options bypass it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence

from ..ladderdir.aside import keep_aside
from ..ladderdir.paths import first_outside, make_dirs

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["AnalysisCache", "cache_dir", "cache_disabled_by_env", "DEFAULT_MAX_MB"]

DEFAULT_MAX_MB = 100
_EVICT_EVERY = 500  # writes between size checks in one process
NO_CACHE_ENV = "LADDER_NO_CACHE"
_FORMAT = "entry-2"  # a header line with the report's digest, then the report
#: How the built-in metrics count; one more whenever a rule counts differently within a package version, so
#: no cached report of the old counting is read (3: cognitive recursion scoping, ABC's iterating lambdas,
#: file_lines of CR-only files)
COUNTING = 3


def cache_disabled_by_env(environ: Optional[Mapping[str, str]] = None) -> bool:
    value = (os.environ if environ is None else environ).get(NO_CACHE_ENV, "")
    return value.strip().lower() not in ("", "0", "false", "no")


def cache_dir(settings: Settings) -> Path:
    return settings.root / settings.history_dir / "cache"


def _digest(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


def _encode(key: str, report: dict[str, Any]) -> bytes:
    """An entry: a header line (its key and the digest of the report), then the report's JSON."""
    body = json.dumps(report, separators=(",", ":")).encode("utf-8")
    return json.dumps({"key": key, "digest": _digest(body)}).encode() + b"\n" + body


def _decode(data: bytes, key: str) -> dict[str, Any]:
    """The report of an entry; ``ValueError`` saying why when it is not a whole entry for ``key``."""
    head, _, body = data.partition(b"\n")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("key") != key:
        raise ValueError("not an entry for this key")
    if header.get("digest") != _digest(body):
        raise ValueError("its report does not match its digest")
    report = json.loads(body)
    if not isinstance(report, dict):
        raise ValueError("not a report")
    return report


def _context(settings: Any, plugins: Sequence[str]) -> str:
    """Everything besides the file that changes its results (and the entry format)."""
    from .. import __version__
    from .identity import HASH_VERSION

    parts = [_FORMAT, __version__, f"counting {COUNTING}", f"hashes {HASH_VERSION}", sys.implementation.name,
             f"{sys.version_info[:3]}",
             settings.digest(), *sorted(plugins)]
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()


class AnalysisCache:
    """``get``/``put`` per-file reports (as JSON data, see :mod:`.serialize`)."""

    def __init__(self, settings: Any, plugins: Sequence[str], *, warn: Optional[Callable[[str], None]] = None,
                 max_mb: float = DEFAULT_MAX_MB) -> None:
        self.dir = cache_dir(settings)
        self.root = Path(os.path.realpath(settings.root))
        self.context = _context(settings, plugins)
        self.max_bytes = int(max_mb * 1024 * 1024)
        self._warn = warn
        self._writes = 0
        self._made: set[Path] = set()
        self.unsafe_reason = first_outside((self.dir.parent, self.dir), self.root)  # a symlink leading out
        self.usable = self.unsafe_reason is None
        if self.unsafe_reason:
            self.warn(self.unsafe_reason)

    def warn(self, message: str) -> None:
        if self._warn is not None:
            self._warn(message)

    def key(self, data: bytes, rel: str, extra: str = "") -> str:
        digest = hashlib.blake2b(data, digest_size=16)
        digest.update(f"\x1f{rel}\x1f{extra}\x1f{self.context}".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> Optional[dict[str, Any]]:
        if not self.usable:
            return None
        path = self._path(key)
        try:
            report = self._read(path, key)
            os.utime(path)  # recently used: evicted last
            return report
        except (FileNotFoundError, NotADirectoryError):
            return None
        except (OSError, ValueError, RecursionError) as exc:
            self._set_aside(path, str(exc) if isinstance(exc, ValueError) else type(exc).__name__)
            return None

    def _read(self, path: Path, key: str) -> dict[str, Any]:
        with open(path, "rb") as handle:
            # An entry larger than the whole cache may be is not one of ours (e.g. a sparse file).
            if os.fstat(handle.fileno()).st_size > self.max_bytes:
                raise ValueError("larger than the cache's size bound")
            return _decode(handle.read(), key)

    def discard(self, key: str, why: str) -> None:
        """An entry that was read but does not fit (wrong shape or types): keep it aside, say so once."""
        self._set_aside(self._path(key), why)

    def _set_aside(self, path: Path, why: str) -> None:
        keep_aside(path, ".damaged", self.warn, f"analysis cache entry {path.name} ({why})", "analysing the file again")

    def put(self, key: str, report: dict[str, Any]) -> None:
        if not self.usable:
            return
        path = self._path(key)
        # A name of this process's own, then an atomic rename: readers see a whole entry or none.
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            if path.parent not in self._made:
                make_dirs(self.dir.parent, path.parent)
                self._made.add(path.parent)
            with open(temp, "wb") as handle:
                handle.write(_encode(key, report))
            os.replace(temp, path)
        except OSError as exc:
            self.usable = False  # e.g. a read-only checkout: analyse without caching, say it once
            self.warn(f"cannot write the analysis cache in {self.dir}: {exc.strerror or exc}; continuing without it")
            return
        self._writes += 1
        if self._writes % _EVICT_EVERY == 0:
            self.evict()

    def evict(self) -> int:
        """Remove the least recently used entries until the cache is under its size bound."""
        entries = []
        for path in self.dir.glob("*/*.json"):
            try:
                stat = path.stat()
            except OSError:
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in entries)
        removed = 0
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        return removed
