"""Reading and writing files: every write is atomic, every failure an InputError naming the
file and the problem (the caller keeps what it has in memory).

A write goes to a temporary file in the destination folder, is flushed to the disk, then
renamed over the destination: a crash or a full disk leaves the old file as it was, never a
half-written one. No pickle anywhere: JSON, CSV, PNG/SVG/GIF bytes and ``.npz`` files of
plain numeric and text arrays (read with ``allow_pickle=False``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from svmviz.core.errors import InputError, shown


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    atomic_write_all({path: data})


def atomic_write_all(files: dict) -> None:
    """Write each path's bytes of ``files`` to a temporary file beside it, then rename them
    all over their paths: when one cannot be written, none is (and no temporary is left)."""
    temps: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            path = Path(path)
            temps.append((_written_temporary(path, data), path))
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


def _written_temporary(path: Path, data: bytes) -> str:
    """A temporary file beside ``path`` holding ``data``, on the disk."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        os.fchmod(fd, _mode_for(path))  # (mkstemp makes it private: 0600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


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
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
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


def write_json(path, d: dict) -> None:
    atomic_write_bytes(path, json_bytes(d))


def json_bytes(d: dict) -> bytes:
    """The JSON text every svmviz file is written as."""
    return (json.dumps(d, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


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
    return value


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
