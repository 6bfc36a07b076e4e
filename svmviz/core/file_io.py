"""Reading and writing files: every write is atomic, every failure an InputError naming the
file and the problem (the caller keeps what it has in memory).

A write goes to a temporary file in the destination folder, is flushed to the disk, then
renamed over the destination: a crash or a full disk leaves the old file as it was, never a
half-written one. A temporary is named for its document and the process writing it
(``.NAME.svmviz-PID-XXXXXXXX.tmp``), so that one a killed process left behind is found and
removed later (:func:`remove_temporaries`). No pickle anywhere: JSON, CSV, PNG/SVG/GIF bytes
and ``.npz`` files of plain numeric and text arrays (read with ``allow_pickle=False``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
import os
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from svmviz.core.errors import InputError, shown


def atomic_write_bytes(path, data: bytes) -> os.stat_result:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``;
    the written file's stat (for a :class:`Stamp`)."""
    return atomic_write_all({path: data})[0]


def atomic_write_all(files: dict) -> list[os.stat_result]:
    """Write each path's bytes of ``files`` to a temporary file beside it, then rename them
    all over their paths: when one cannot be written, none is (and no temporary is left).
    The written files' stats, in order (taken before the rename, which keeps them: no
    other writer can slip in between)."""
    temps: list[tuple[str, Path]] = []
    stats = []
    try:
        for path, data in files.items():
            path = Path(path)
            tmp, stat = _written_temporary(path, data)
            temps.append((tmp, path))
            stats.append(stat)
        while temps:
            tmp, path = temps[0]
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
            temps.pop(0)
    finally:
        for tmp, _ in temps:
            Path(tmp).unlink(missing_ok=True)
    return stats


def _written_temporary(path: Path, data: bytes) -> tuple[str, os.stat_result]:
    """A temporary file beside ``path`` holding ``data``, on the disk, and its stat."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        os.fchmod(fd, _mode_for(path))  # (mkstemp makes it private: 0600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            stat = os.fstat(f.fileno())
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp, stat


def _temporary_prefix(path: Path, pid: int | None = None) -> str:
    return f".{path.name}.svmviz-{os.getpid() if pid is None else pid}-"


# no write takes this long: a temporary older is a leftover even if its pid is alive again
# (pids are reused), and so is one of the names svmviz gave them before they carried a pid
STALE_TEMPORARY_SECONDS = 600
_OLD_TEMPORARY = re.compile(r"[a-z0-9_]{8}")  # mkstemp's random part


def remove_temporaries(path, pid: int | None = None) -> list[Path]:
    """Remove the temporaries a killed writer left beside ``path``: those of the process
    ``pid`` (it is gone), else those of processes that are gone, and any older than
    STALE_TEMPORARY_SECONDS (also those named as before they carried a pid:
    ``.NAME.XXXXXXXX.tmp``). Never one a running write may still rename. The removed."""
    path = Path(path)
    removed: list[Path] = []
    try:
        candidates = list(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))
    except OSError:
        return removed
    for tmp in candidates:
        middle = tmp.name[len(path.name) + 2 : -len(".tmp")]
        owner = re.fullmatch(r"svmviz-(\d+)-[a-z0-9_]{8}", middle)
        if owner is None and not _OLD_TEMPORARY.fullmatch(middle):
            continue  # not one of ours
        if owner is not None and pid is not None:
            stale = int(owner[1]) == pid
        else:
            stale = owner is not None and not process_alive(int(owner[1]))
        try:
            stale = stale or time.time() - tmp.stat().st_mtime > STALE_TEMPORARY_SECONDS
            if stale:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            pass  # gone meanwhile, or a folder that takes no change: left
    return removed


def glob_escape(name: str) -> str:
    """``name`` matched literally by Path.glob."""
    return re.sub(r"([\[\]*?])", r"[\1]", name)


def process_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (perhaps another that reused it)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (it exists, but is another user's)
        return True
    return True


@dataclass(frozen=True)
class Stamp:
    """A file as this program last read or wrote it: its identity on the disk (device,
    inode, modification time, size) and a digest of its bytes. Another writer's change
    shows as another identity (every svmviz write is a new inode) and, unless it wrote the
    same bytes (a copy, ``touch``), another digest."""

    ident: tuple
    digest: str

    @classmethod
    def of(cls, stat: os.stat_result, data: bytes) -> Stamp:
        return cls(identity(stat), hashlib.sha256(data).hexdigest())

    @classmethod
    def read(cls, path) -> Stamp:
        """The stamp of ``path`` as it is now (an InputError when it cannot be read). Its
        identity is taken before its bytes: a change between them shows as a change."""
        try:
            stat = os.stat(path)
        except OSError:
            stat = None
        data = read_bytes(path)  # (the reason it cannot be read, in read_bytes' words)
        return cls.of(stat if stat is not None else os.stat(path), data)

    def changed(self, path) -> bool:
        """Whether ``path`` no longer holds these bytes (it is gone, or was rewritten)."""
        try:
            if identity(os.stat(path)) == self.ident:
                return False
            return hashlib.sha256(read_bytes(path)).hexdigest() != self.digest
        except (OSError, InputError):
            return True


def identity(stat: os.stat_result) -> tuple:
    return (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)


def check_writable(path, option: str) -> Path:
    """Refuse, before any work is done for it, an output ``path`` given to ``option`` that
    could not be written: no name, a folder, a missing folder, a folder that takes no new
    file (tried: permissions do not tell, for root or on a read-only disk)."""
    if not str(path).strip():
        raise InputError(f"{option} needs a file name")
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{option} {path}: is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise InputError(f"{option} {path}: the folder {folder} does not exist")
    try:
        fd, probe = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError(
            f"{option} {path}: cannot write in the folder {folder} ({exc.strerror or exc})"
        ) from None
    os.close(fd)
    os.unlink(probe)
    return path


def _mode_for(path: Path) -> int:
    """The permissions ``path`` has, or those a new file gets (0666 less the umask)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_text(path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def write_json(path, d: dict) -> Stamp:
    """Write ``d`` as JSON (:func:`json_bytes`), atomically; the written file's stamp."""
    data = json_bytes(d)
    return Stamp.of(atomic_write_bytes(path, data), data)


def json_bytes(d: dict) -> bytes:
    """The JSON text every svmviz file is written as (:func:`json_pieces`)."""
    return ("".join(json_pieces(d)) + "\n").encode("utf-8")


ROWS_PER_PIECE = 1000
_dumps = json.JSONEncoder(ensure_ascii=False).encode


def json_pieces(value, indent: int = 0) -> Iterator[str]:
    """The JSON text of ``value`` in pieces of a bounded cost: an object a member a line,
    an array of rows (arrays of numbers: points, matrices) a row a line, other arrays of
    arrays or objects an item a line, everything else on one line. Each piece is one call
    of the C encoder over at most ROWS_PER_PIECE rows, so that a thread writing 50,000
    points lets the GUI thread run between pieces (Python's indenting encoder holds the GIL
    throughout)."""
    pad = " " * (indent + 1)
    if isinstance(value, dict) and value:
        for k, (key, item) in enumerate(value.items()):
            yield ("{\n" if k == 0 else ",\n") + pad + _dumps(str(key)) + ": "
            yield from json_pieces(item, indent + 1)
        yield "\n" + " " * indent + "}"
    elif isinstance(value, (list, tuple)) and (
        len(value) > ROWS_PER_PIECE or any(isinstance(v, (list, tuple, dict)) for v in value)
    ):
        yield from _long_array(value, indent)
    else:
        yield _dumps(value)


def python_rows(*columns) -> list:
    """The rows of numpy ``columns`` (2-D blocks or 1-D columns, side by side) as lists of
    Python numbers, converted ROWS_PER_PIECE rows at a time: one ``tolist`` of all the points
    would hold the GIL long enough to stall the window while a thread writes them."""
    rows: list = []
    for start in range(0, len(columns[0]) if columns else 0, ROWS_PER_PIECE):
        blocks = [np.asarray(c[start : start + ROWS_PER_PIECE]) for c in columns]
        parts = [b.tolist() if b.ndim == 2 else b[:, None].tolist() for b in blocks]
        rows.extend(functools.reduce(lambda a, b: list(map(operator.add, a, b)), parts))
    return rows


def _long_array(value, indent: int) -> Iterator[str]:
    """An array in pieces of ROWS_PER_PIECE items: of arrays or objects an item a line
    (rows of numbers encoded a chunk at a time), else on one line."""
    nested = any(isinstance(item, (list, tuple, dict)) for item in value)
    pad = "\n" + " " * (indent + 1)
    between = "," + pad if nested else ", "
    for start in range(0, len(value), ROWS_PER_PIECE):
        chunk = list(value[start : start + ROWS_PER_PIECE])
        opening = ("[" + (pad if nested else "")) if start == 0 else between
        text = _dumps(chunk)
        if not nested:
            yield opening + text[1:-1]
        elif '"' not in text and "{" not in text and text.count("[") == len(chunk) + 1:
            yield opening + text[1:-1].replace("], [", "]" + between + "[")  # rows of numbers
        else:
            for k, item in enumerate(chunk):
                yield (opening if k == 0 else between) + "".join(json_pieces(item, indent + 1))
    yield ("\n" + " " * indent if nested else "") + "]"


MAX_FILE_BYTES = 256 * 2**20  # a file we read: 50,000 points of CSV are ~2 MB


def read_bytes(path) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES (a FIFO or a device would make
    the read wait or never end; a file of gigabytes would fill the memory)."""
    import stat

    path = Path(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: is not a regular file (a pipe or a device?)")
        if info.st_size > MAX_FILE_BYTES:
            raise InputError(
                f"{path}: is {info.st_size / 2**20:,.0f} MiB; svmviz reads files "
                f"of at most {MAX_FILE_BYTES // 2**20} MiB"
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def read_json(path):
    """The JSON value in ``path``; an InputError says where it is not JSON."""
    path = Path(path)
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: is not a UTF-8 text file (byte {exc.start})") from None
    return parse_json(text, path)


def parse_json(text: str, where):
    """The JSON value in ``text``; an InputError names ``where`` and what is wrong. Texts
    that could not be written back as UTF-8 (a lone surrogate, from an escape such as
    ``"\\ud800"``) are refused too."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{where}, line {exc.lineno}, column {exc.colno}: not JSON ({exc.msg})"
        ) from None
    except RecursionError:
        raise InputError(f"{where}: nested too deeply to be one of ours") from None
    except ValueError:  # an integer of more than 4,300 digits (int's limit)
        raise InputError(f"{where}: has a number of thousands of digits") from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            f"{where}: has a text with an invalid character (a lone \\u surrogate escape)"
        ) from None
    except RecursionError:
        raise InputError(f"{where}: nested too deeply to be one of ours") from None
    if nesting(value) > MAX_NESTING:
        raise InputError(f"{where}: nested more than {MAX_NESTING} levels deep: not one of ours")
    return value


MAX_NESTING = 32  # our files nest 4 levels; the writer's pieces recurse about 2 frames a level


def nesting(value) -> int:
    """How many arrays and objects deep ``value`` nests (0: a number or a text), counted
    without recursion."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            level.extend((v, depth + 1) for v in item if isinstance(v, (list, dict)))
    return deepest


def check_format(d, where, fmt: str, version: int, what: str) -> None:
    """A JSON object of ours: ``format`` is ``fmt`` and ``version`` at most ``version``."""
    if not isinstance(d, dict) or d.get("format") != fmt:
        found = d.get("format") if isinstance(d, dict) else None
        also = f' (its "format" is {shown(found)})' if isinstance(found, str) else ""
        raise InputError(f'{where}: not an svmviz {what} (no "format": "{fmt}"){also}')
    v = d.get("version")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise InputError(f"{where}: the {what}'s version {shown(v)} is not a version number")
    if v > version:
        raise InputError(
            f"{where}: a {what} of version {shown(v)}, written by a newer svmviz; this one reads "
            f"up to version {version} (update svmviz to open it)"
        )
