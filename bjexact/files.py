"""Writing output files: whole or not at all, and standard output that may be closed or full."""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from .errors import BjexactError

__all__ = ["write_atomically", "check_writable", "write_stdout", "os_error_message"]


def os_error_message(exc: OSError) -> str:
    """The reason of an ``OSError`` in a few words (``Permission denied``, ``No space left on device``)."""
    if exc.strerror:
        return exc.strerror
    return os.strerror(exc.errno) if exc.errno else (str(exc) or type(exc).__name__)


def _target(path: Path) -> Path:
    """The file that writing ``path`` changes: the end of its symbolic links (written through, not replaced)."""
    if str(path) == "":
        raise BjexactError("no output file named: give a file name after -o (or '-' for standard output)")
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def check_writable(path: Path) -> None:
    """Raise :class:`BjexactError` now if :func:`write_atomically` would refuse ``path`` (nothing is written)."""
    _prepare(Path(path))


def _prepare(path: Path) -> tuple[Path, Path, int]:
    """(the file to replace, its directory, the mode to give it), or a one-line refusal."""
    shown = path
    try:
        path = _target(Path(path))
    except OSError as exc:  # a name too long, a loop of links
        raise BjexactError(f"cannot write {str(shown)[:60]}: {os_error_message(exc)}") from None
    directory = path.parent if str(path.parent) else Path(".")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        raise BjexactError(f"cannot write {shown}: {_first_file(directory)} is a file, not a directory") from None
    except OSError as exc:
        raise BjexactError(f"cannot write {str(shown)[:60]}: {os_error_message(exc)}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise BjexactError(f"cannot write {shown}: it is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise BjexactError(f"cannot write {shown}: it is not a regular file (a FIFO, a device or a socket); "
                           "use '-o -' for standard output")
    if not directory.is_dir():
        if _first_file(directory).exists():
            raise BjexactError(f"cannot write {shown}: {_first_file(directory)} is a file, not a directory")
        raise BjexactError(f"cannot write {shown}: the directory {directory} does not exist")
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    return path, directory, mode


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it: never half-written.

    A symbolic link is written through (its target changes, the link stays); a file
    that is not a regular file (a directory, a FIFO, a device) is refused. A file
    that exists keeps its permissions; a new one gets those a plain ``open`` would
    give it (0666 less the umask). Failures raise :class:`BjexactError` in one line,
    and leave no temporary file behind.
    """
    shown = path
    path, directory, mode = _prepare(Path(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise BjexactError(f"cannot write {shown}: {os_error_message(exc)} (in {directory})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BjexactError(f"cannot write {shown}: {os_error_message(exc)}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _first_file(directory: Path) -> Path:
    """The first component of ``directory`` that exists but is not a directory (else ``directory``)."""
    for parent in (*reversed(directory.parents), directory):
        if parent.exists() and not parent.is_dir():
            return parent
    return directory


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output and flush it; a closed or full standard output is a one-line error.

    A reader that went away (``| head -1``) raises ``BrokenPipeError``, which the command
    line ends quietly.
    """
    stream = sys.stdout
    if stream is None:
        raise BjexactError("standard output is closed: nothing can be written (use -o FILE)")
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise BrokenPipeError(exc.errno, exc.strerror) from None
        raise BjexactError(f"cannot write to standard output: {os_error_message(exc)}") from None
    except ValueError:  # "I/O operation on closed file"
        raise BjexactError("standard output is closed: nothing can be written (use -o FILE)") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
