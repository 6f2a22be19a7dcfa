"""Start-up checks of the directories and the results file a run writes into.

A run that cannot write its results or cassettes must say so before it plays
anything: one line naming the option and the path (pytest then exits 4),
instead of a traceback after the first match.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def directory_problem(option: str, path: Path, *, write: bool) -> str | None:
    """Returns one line saying why ``path`` cannot serve as ``option``'s directory, or None.

    The directory need not exist yet: its nearest existing ancestor must be a
    directory. With ``write``, the directory is created (as the run would) and a
    file is written into it and removed again.

    Args:
        option: The option or setting that names the directory (for the message).
        path: The directory.
        write: Whether the run will write into it.
    """
    for candidate in (path, *path.parents):
        if candidate.exists():
            if not candidate.is_dir():
                where = "is a file" if candidate == path else f"lies under {candidate}, which is a file"
                return f"{option} {path}: {where}, not a directory"
            break
    if not write:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".stratbench-write-check-", dir=path)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        return f"{option} {path}: cannot write there ({error.strerror or error})"
    return None


def results_file_problem(option: str, path: Path) -> str | None:
    """Returns one line saying why the run cannot write the results file ``path``, or None.

    An existing file must open for appending (``chattr +i`` refuses even
    root), and one with records must be movable aside (a new run moves it to
    ``results.<run id>.jsonl``; ``chattr +a`` refuses that). Neither check
    changes the file. A missing file is left to :func:`directory_problem`.

    Args:
        option: The option that names the report directory (for the message).
        path: The results file.
    """
    if not os.path.lexists(path):
        return None
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        with path.open("a", encoding="utf-8"):
            pass
        if path.stat().st_size > 0 and path.is_file():
            _check_movable(path)
    except OSError as error:
        return f"{option} {path.parent}: cannot write its results file {path} ({error.strerror or error})"
    return None


def _check_movable(path: Path) -> None:
    """Raises OSError when ``path`` cannot be renamed: a hard link to it is refused where links work."""
    probe = path.with_name(f".stratbench-move-check-{os.getpid()}")
    try:
        os.link(path, probe)
    except OSError as error:
        if error.errno != errno.EPERM or not _links_work(path.parent):
            return  # a filesystem without hard links says nothing about renaming
        raise
    os.unlink(probe)


def _links_work(directory: Path) -> bool:
    handle, probe = tempfile.mkstemp(prefix=".stratbench-link-check-", dir=directory)
    os.close(handle)
    try:
        os.link(probe, probe + ".link")
    except OSError:
        return False
    else:
        os.unlink(probe + ".link")
        return True
    finally:
        os.unlink(probe)
