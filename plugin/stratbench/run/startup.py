"""Start-up checks: the directories and the results file a run writes into, the keys of the models it must call.

A run that cannot write its results or cassettes, or must call a model whose
key is not set, says so before it plays anything: one line naming the option
and the path, or the model and the variable (pytest then exits 4), instead of
a traceback or the same error after every match.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from pathlib import Path

from stratbench.llm.cassettes import cassette_path, will_record
from stratbench.llm.client import missing_environment
from stratbench.llm.local import is_local


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


def missing_key_problem(
    nodeids: list[str], models: list[str], *, cassette_dir: Path, record_mode: str, api_base: str | None
) -> str | None:
    """Returns one line naming each model that must be called but has no API key set, or None.

    A model must be called when a collected match it plays has no cassette to
    replay under ``record_mode``. With ``--api-base`` (a gateway or local
    server), a local model, or every match on a cassette, no key is needed.
    A match plays a model when its id names it (``[<model>+<scaffold>…``,
    ``-vs-<model>+…``, ``paper-<model>+…``).

    Args:
        nodeids: The collected items' node ids (after deselection).
        models: The ``--model`` strings.
        cassette_dir: Where the cassettes live.
        record_mode: The run's record mode.
        api_base: ``--api-base``, or None.
    """
    if api_base or record_mode == "none" or not models:
        return None


    problems = []
    for model in models:
        if is_local(model):
            continue
        plays = re.compile(r"[\[-]" + re.escape(model) + r"\+")
        calling = [
            nodeid for nodeid in nodeids
            if plays.search(nodeid.partition("::")[2]) and will_record(cassette_path(cassette_dir, nodeid), record_mode)
        ]
        if not calling:
            continue
        credentials, _ = missing_environment(model, None)
        if credentials:
            problems.append(
                f"{model} needs {' or '.join(credentials)}, which is not set, and {len(calling)} collected "
                f"match(es) have no cassette to replay"
            )
    if not problems:
        return None
    return ("; ".join(problems) + ": export the key, pass --api-base for a local server or gateway, "
            "or replay recorded cassettes with --record-mode=none")


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
