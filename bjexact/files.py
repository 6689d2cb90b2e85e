"""Writing output files: whole or not at all, and standard output that may be closed or full."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import BjexactError

__all__ = ["write_atomically", "write_files", "staged_files", "check_writable", "check_distinct", "write_stdout",
           "os_error_message", "read_bounded", "text_bytes"]


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
    _check_permission(shown, path, info, directory)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    return path, directory, mode


def _check_permission(shown: Path, path: Path, info: os.stat_result | None, directory: Path) -> None:
    """Refuse a file this user may not write, though replacing it would work: a read-only file
    (someone else's, in a directory anyone may write); and a directory where no file can be made.

    The file is replaced by renaming a new one over it, which needs only the directory's
    permission: without this check another user's read-only file would be replaced.
    """
    denied = os.strerror(errno.EACCES)
    if info is not None and not os.access(path, os.W_OK):
        raise BjexactError(f"cannot write {shown}: {denied} (the file is read-only for this user)")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise BjexactError(f"cannot write {shown}: {denied} (no new file can be made in {directory})")
    if info is not None and _sticky_and_not_ours(directory, info):
        raise BjexactError(f"cannot write {shown}: {denied} (another user's file in the sticky directory "
                           f"{directory})")


def _sticky_and_not_ours(directory: Path, info: os.stat_result) -> bool:
    """Whether ``directory`` is sticky (as /tmp) and the file ``info`` describes may not be replaced
    there by this user (owner of neither the file nor the directory, and not root)."""
    user = os.geteuid()
    folder = os.stat(directory)
    return bool(folder.st_mode & stat.S_ISVTX) and user != 0 and user not in (info.st_uid, folder.st_uid)


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it: never half-written.

    A symbolic link is written through (its target changes, the link stays); a file
    that is not a regular file (a directory, a FIFO, a device), or that this user may not
    write, is refused. A file that exists keeps its permissions; a new one gets those a
    plain ``open`` would give it (0666 less the umask). Failures raise :class:`BjexactError`
    in one line, and leave no temporary file behind.
    """
    write_files([(Path(path), data)])


def write_files(contents: Sequence[tuple[Path, bytes]]) -> None:
    """Write every (path, data) as :func:`write_atomically` does, all or none (:func:`staged_files`)."""
    with staged_files(contents):
        pass


@dataclass(frozen=True)
class _Staged:
    """A file written under a temporary name beside its target, waiting to be moved into place."""

    shown: Path
    temporary: Path
    target: Path


def _stage(shown: Path, data: bytes) -> _Staged:
    """``data`` in a temporary file beside the file ``shown`` names (checked as :func:`check_writable`)."""
    path, directory, mode = _prepare(Path(shown))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise BjexactError(f"cannot write {shown}: {os_error_message(exc)} (in {directory})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BjexactError(f"cannot write {shown}: {os_error_message(exc)}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return _Staged(shown, Path(tmp), path)


@contextlib.contextmanager
def staged_files(contents: Sequence[tuple[Path, bytes]]) -> Iterator[None]:
    """Every file of ``contents`` written under a temporary name beside it; after the block, all
    moved into place (a rename each). A file that cannot be written, or a block that raises,
    leaves none of them and no temporary file: a command's outputs are all written, or none.

    Two paths naming one file are refused first (the second would replace the first).
    """
    check_distinct([(str(path), Path(path)) for path, _ in contents])
    staged: list[_Staged] = []
    try:
        for path, data in contents:
            staged.append(_stage(Path(path), data))
        yield
    except BaseException:
        for item in staged:
            item.temporary.unlink(missing_ok=True)
        raise
    for done, item in enumerate(staged):
        try:
            os.replace(item.temporary, item.target)
        except OSError as exc:
            for rest in staged[done:]:
                rest.temporary.unlink(missing_ok=True)
            raise BjexactError(f"cannot write {item.shown}: {os_error_message(exc)}") from None


def check_distinct(named: Sequence[tuple[str, Path]]) -> None:
    """Refuse two outputs that are one file (through links, or spelled differently): the second
    would replace the first. ``named``: (how the output was given, e.g. ``--plot``, its path)."""
    seen: dict[str, str] = {}
    for name, path in named:
        try:
            key = os.path.realpath(path)
        except (OSError, ValueError):
            continue  # refused with its reason when it is written
        if key in seen:
            raise BjexactError(f"{seen[key]} and {name} name the same file {str(path)[:60]}: "
                               "give each output its own")
        seen[key] = name


def _first_file(directory: Path) -> Path:
    """The first component of ``directory`` that exists but is not a directory (else ``directory``)."""
    for parent in (*reversed(directory.parents), directory):
        if parent.exists() and not parent.is_dir():
            return parent
    return directory


def text_bytes(text: str) -> bytes:
    r"""``text`` as the bytes of a file bjexact writes: UTF-8, and a name the user gave in bytes that
    are not UTF-8 (a file name under ``LC_ALL=C``, read by Python as lone surrogates) written back
    as those very bytes.

    >>> text_bytes("chart: ch\udce4rt.txt, 16 v T \u2264 0")
    b'chart: ch\xe4rt.txt, 16 v T \xe2\x89\xa4 0'
    """
    return text.encode("utf-8", "surrogateescape")


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output and flush it; a closed or full standard output is a one-line error.

    A reader that went away (``| head -1``) raises ``BrokenPipeError``, which the command
    line ends quietly.
    """
    stream = sys.stdout
    if stream is None:
        raise BjexactError("standard output is closed: nothing can be written (use -o FILE)")
    try:
        try:
            stream.write(text)
        except UnicodeEncodeError:  # an ASCII locale (LC_ALL=C): '♠' as 's', '·' as '-'
            stream.write(encodable(text, getattr(stream, "encoding", None) or "ascii"))
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise BrokenPipeError(exc.errno, exc.strerror) from None
        raise BjexactError(f"cannot write to standard output: {os_error_message(exc)}") from None
    except ValueError:  # "I/O operation on closed file"
        raise BjexactError("standard output is closed: nothing can be written (use -o FILE)") from None


# The symbols bjexact prints, in ASCII: suits by their initials, separators and arrows by lookalikes.
_ASCII_SYMBOLS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c", "·": "-", "▶": ">", "│": "|", "−": "-",
                                "–": "-", "—": "-", "×": "x", "…": "...", "≥": ">=", "≤": "<=", "±": "+/-"})


def encodable(text: str, encoding: str) -> str:
    """``text`` as ``encoding`` can write it: bjexact's symbols in ASCII, anything else as '?'."""
    try:
        return text.translate(_ASCII_SYMBOLS).encode(encoding, "replace").decode(encoding)
    except LookupError:  # an encoding Python does not know
        return text.translate(_ASCII_SYMBOLS).encode("ascii", "replace").decode("ascii")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_bounded(path: str, *, limit: int, what: str, name: str | None = None) -> str:
    """The UTF-8 text of the file ``path`` (``-``: standard input), refused beyond ``limit`` bytes.

    At most ``limit + 1`` bytes are ever read, so that ``/dev/zero``, a FIFO that never ends
    or a file of gigabytes costs no memory or time; ``what`` names what the file should hold
    ("table", "play log") and ``name`` the file (default: its path) in the one-line refusals.
    """
    name = name or ("standard input" if path == "-" else path)
    try:
        if path == "-":
            data = _read_stdin(limit + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
    except OSError as exc:
        raise BjexactError(f"cannot read {name}: {os_error_message(exc)}") from None
    if len(data) > limit:
        size = f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 2**10} kB"
        raise BjexactError(f"cannot read {name}: larger than {size}, far more than any {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BjexactError(f"cannot read {name}: not UTF-8 text, so not a {what}") from None


def _read_stdin(size: int) -> bytes:
    """Up to ``size`` bytes of standard input (of its text, where it has no bytes underneath)."""
    if sys.stdin is None:
        raise BjexactError("standard input is closed: give a FILE")
    if hasattr(sys.stdin, "buffer"):
        return bytes(sys.stdin.buffer.read(size))
    return sys.stdin.read(size).encode("utf-8", "surrogateescape")
