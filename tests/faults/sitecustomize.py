"""Simulated write faults for the front-end fault tests; imported as ``sitecustomize``.

The tests put this directory on ``PYTHONPATH`` so that every process of a run
(flake8 and xdist workers too, under fork or spawn) gets the same fault.
``LADDER_FAULT`` names an errno (``ENOSPC``, ``EACCES`` or ``EROFS``) and
``LADDER_FAULT_DIR`` the directory it applies to. A full disk lets files be opened
but not written and reports no free blocks; permission denied and a read-only file
system refuse to create, open for writing or rename anything there. Reading is
never affected.
"""

from __future__ import annotations

import builtins
import errno
import io
import os

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Faults:
    """The patched ``os`` and ``open`` functions, and the real ones they wrap."""

    def __init__(self, fault: str, directory: str) -> None:
        self.code = getattr(errno, fault)
        self.disk_full = fault == "ENOSPC"
        self.dir = os.path.realpath(directory)
        self.full: set[int] = set()  # descriptors opened on the full disk: their writes fail
        self.real = {name: getattr(os, name) for name in ("open", "write", "close", "mkdir", "replace", "rename",
                                                          "statvfs")}
        self.real_open = builtins.open

    def inside(self, path: object) -> bool:
        if isinstance(path, int):
            return False
        real = os.path.realpath(os.fsdecode(path))  # type: ignore[call-overload]
        return real == self.dir or real.startswith(self.dir + os.sep)

    def error(self, path: object = None) -> OSError:
        return OSError(self.code, os.strerror(self.code), path)

    def open(self, path, flags, mode=0o777, *, dir_fd=None):
        writing = flags & _WRITE_FLAGS and self.inside(path)
        if writing and not self.disk_full:
            raise self.error(path)
        fd = self.real["open"](path, flags, mode, dir_fd=dir_fd)
        if writing:
            self.full.add(fd)
        return fd

    def write(self, fd, data):
        if fd in self.full:
            raise self.error()
        return self.real["write"](fd, data)

    def close(self, fd):
        self.full.discard(fd)
        return self.real["close"](fd)

    def mkdir(self, path, mode=0o777, *, dir_fd=None):
        if self.inside(path):
            raise self.error(path)
        return self.real["mkdir"](path, mode, dir_fd=dir_fd)

    def replace(self, src, dst, *, src_dir_fd=None, dst_dir_fd=None):
        if not self.disk_full and self.inside(dst):
            raise self.error(dst)
        return self.real["replace"](src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    def statvfs(self, path):
        result = self.real["statvfs"](path)
        if not (self.disk_full and self.inside(path)):
            return result
        fields = list(result)
        fields[3:5] = [0, 0]  # f_bfree, f_bavail
        return os.statvfs_result(fields)

    def builtin_open(self, file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+") and self.inside(file):
            raise self.error(file)  # a buffered file's failing write: the same error, earlier
        return self.real_open(file, mode, *args, **kwargs)

    def install(self) -> None:
        os.open, os.write, os.close, os.mkdir = self.open, self.write, self.close, self.mkdir
        os.replace = os.rename = self.replace
        os.statvfs = self.statvfs
        builtins.open = io.open = self.builtin_open


if os.environ.get("LADDER_FAULT"):
    Faults(os.environ["LADDER_FAULT"], os.environ.get("LADDER_FAULT_DIR", "/nonexistent")).install()
