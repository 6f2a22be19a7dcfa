"""What is known about a planning task, kept on disk by the task's content.

A task's readability verdict and its metrics (SPIN-Bench Fig. 3a/3b) depend
only on its domain and problem texts and on the code that computes them, not
on the match. This module stores such facts in the user's cache folder, one
small JSON file per key:

* the folder is ``$STRATBENCH_CACHE_DIR/planning-tasks`` when that variable is
  set, else ``$XDG_CACHE_HOME/stratbench/planning-tasks``, else
  ``~/.cache/stratbench/planning-tasks``; nothing is created until a fact is
  stored;
* a key (:func:`task_key`) is the sha256 of what the fact is, a version of the
  code that computes it (:func:`code_version`) and both texts, so an edited
  task file or a changed computation gets a new key, and the old file is
  simply no longer read;
* a file is written to a temporary name beside it and renamed
  (``os.replace``), so xdist workers storing the same fact at once never
  leave a half-written file; a fact that cannot be stored or read back is
  recomputed, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

__all__ = ["CACHE_ENV", "cache_dir", "code_version", "load", "store", "task_key"]

CACHE_ENV = "STRATBENCH_CACHE_DIR"
"""The environment variable naming stratbench's cache folder (this module uses its ``planning-tasks``)."""
_FOLDER = "planning-tasks"


def cache_dir() -> Path:
    """Returns the folder of the task facts (see the module docstring); it may not exist yet."""
    root = os.environ.get(CACHE_ENV) or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "stratbench"
    return Path(root) / _FOLDER


@lru_cache(maxsize=16)
def code_version(*sources: Path) -> str:
    """Returns a short hash of the given source files and the installed unified-planning's version.

    A fact computed by code read from ``sources`` is keyed with it, so any
    change to that code, or another unified-planning, makes it recomputed.
    """
    digest = hashlib.sha256()
    try:
        digest.update(version("unified-planning").encode())
    except PackageNotFoundError:
        digest.update(b"no unified-planning")
    for source in sources:
        digest.update(Path(source).name.encode() + b"\0" + Path(source).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def task_key(kind: str, code: str, domain_text: str, problem_text: str, *extra: str) -> str:
    """Returns the key of one fact (``kind``, computed by code of version ``code``) about one task.

    ``extra`` holds anything else the fact depends on (a reference plan...).
    """
    digest = hashlib.sha256()
    for part in (kind, code, domain_text, problem_text, *extra):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big") + data)
    return f"{kind}-{digest.hexdigest()}"


def _path(key: str) -> Path:
    return cache_dir() / f"{key}.json"


def load(key: str) -> dict[str, Any] | None:
    """Returns the fact stored under ``key``, or None when there is none (or it cannot be read)."""
    try:
        value = json.loads(_path(key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def store(key: str, value: dict[str, Any]) -> None:
    """Stores a fact under ``key`` (atomically; a folder that cannot be written is left alone)."""
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:24]}", suffix=".partial")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(value, out)
        os.replace(partial, path)  # atomic: a concurrent reader sees the old file or the new one
    except OSError:
        pass
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
