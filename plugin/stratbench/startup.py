"""Start-up checks: the directories a run writes into, the keys of the models it must call.

A run that cannot write its results or cassettes, or must call a model whose
key is not set, says so before it plays anything: one line naming the option
and the path, or the model and the variable (pytest then exits 4), instead of
a traceback or the same error after every match.
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
    import re

    from stratbench.llm.cassettes import cassette_path, will_record
    from stratbench.llm.client import missing_environment
    from stratbench.llm.local import is_local

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
