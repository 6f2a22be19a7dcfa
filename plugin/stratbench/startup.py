"""Start-up checks of the directories a run writes into.

A run that cannot write its results or cassettes must say so before it plays
anything: one line naming the option and the path (pytest then exits 4),
instead of a traceback after the first match.
"""

from __future__ import annotations

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
