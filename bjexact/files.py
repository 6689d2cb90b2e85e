"""Writing output files: whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import BjexactError

__all__ = ["write_atomically"]


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it: never half-written.

    The file gets the permissions a plain ``open`` would give it (0666 less the umask).
    """
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise BjexactError(f"cannot write {path}: the directory {directory} does not exist")
    if path.is_dir():
        raise BjexactError(f"cannot write {path}: it is a directory")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
