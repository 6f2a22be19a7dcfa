"""Files a worker on another machine sends back to the xdist controller with each match.

A worker started through an execnet gateway (``--tx socket=…``, ``--tx ssh=…``)
may run in another directory or on another host: the cassettes it records and
the transcripts it writes would stay there. Such a worker (one whose cassette
directory or host differs from the controller's) therefore puts the match's
transcript and its cassette's text on the test report, beside the record, and
the controller writes them under its own report and cassette directories. A
worker beside the controller (``-n``) shares its directories and sends
neither.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path, PurePosixPath
from typing import Any

CASSETTE_PROPERTY = "stratbench_cassette"
CONTROLLER_CASSETTES = "stratbench_cassette_dir"
CONTROLLER_HOST = "stratbench_host"


def controller_input(cassette_dir: Path) -> dict[str, str]:
    """Returns what the controller tells each worker about where it keeps files."""
    return {CONTROLLER_CASSETTES: str(cassette_dir.resolve()), CONTROLLER_HOST: socket.gethostname()}


def is_remote(workerinput: dict[str, Any], cassette_dir: Path) -> bool:
    """Tells whether a worker keeps its files apart from the controller's (another host or directory)."""
    if CONTROLLER_CASSETTES not in workerinput:
        return False
    return (workerinput.get(CONTROLLER_HOST) != socket.gethostname()
            or workerinput[CONTROLLER_CASSETTES] != str(cassette_dir.resolve()))


def cassette_property(record: dict[str, Any], cassette_dir: Path, cassette_file: Path | None) -> str | None:
    """Returns the JSON report property carrying a match's cassette, or None when it has none."""
    if record.get("cassette") is None or cassette_file is None or not cassette_file.is_file():
        return None
    relative = cassette_file.resolve().relative_to(cassette_dir.resolve()).as_posix()
    return json.dumps({"path": relative, "text": cassette_file.read_text(encoding="utf-8")})


def store_cassette(value: str, cassette_dir: Path) -> Path:
    """Writes a returned cassette under the controller's cassette directory; returns its path.

    Raises:
        ValueError: when the path it names would leave the cassette directory.
    """
    data = json.loads(value)
    relative = PurePosixPath(data["path"])
    if relative.is_absolute() or ".." in relative.parts:
        raise ValueError(f"a worker returned a cassette outside the cassette directory: {data['path']}")
    target = cassette_dir / Path(*relative.parts)
    if target.is_file() and target.read_text(encoding="utf-8") == data["text"]:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(data["text"], encoding="utf-8")
    os.replace(partial, target)
    return target
