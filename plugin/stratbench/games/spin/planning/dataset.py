"""Planning datasets: the committed default set and directories in SPIN-Bench's layout.

A dataset directory holds ``<domain>/domain.pddl`` and
``<domain>/instances/*.pddl`` (SPIN-Bench's ``classical_planning_dataset``
layout), and optionally a ``manifest.json`` with each instance's category,
tier and reference plan length (the committed set under ``dataset/`` has one;
see :mod:`stratbench.games.spin.planning.build_dataset`).

Instances are named ``<domain>/<instance>`` (``blocksworld/p01``): these are
the ``pddl`` game's variants. :func:`list_variants` lists the default set, or
the ``--pddl-dir`` directory when the run gives one; it also remembers that
listing in this process, so :func:`resolve` (called by the game factory,
which gets only the variant name) finds the same files. Collection and play
happen in the same process (xdist workers collect too), so this holds.

For a ``--pddl-dir`` directory each domain is parsed once, with its first
instance; a domain unified-planning cannot read, or whose features its
sequential validator cannot check, yields its instances as skipped with one
reason naming the construct. Every instance file is also scanned for
constructs the reader rejects (names with dots...), which skips just that
instance. Each verdict is kept by the task's content
(:func:`readability`, :mod:`stratbench.games.spin.planning.task_cache`), so
a second collection, or the other xdist workers, read it instead of
deciding again. Collection never raises for a bad dataset.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from stratbench.registry import Variant

__all__ = [
    "CATEGORIES",
    "DATASET_DIR",
    "Instance",
    "default_instances",
    "domain_problem",
    "list_variants",
    "load_manifest",
    "readability",
    "resolve",
    "scan_directory",
    "smoke_subset",
]

DATASET_DIR = Path(__file__).resolve().parent / "dataset"
"""The committed default dataset."""
MANIFEST = "manifest.json"

CATEGORIES: dict[str, str] = {
    "drone": "spatial", "floortile": "spatial", "grid": "spatial", "depots": "resource",
    "logistics": "spatial", "rovers": "resource", "sokoban": "spatial", "termes": "spatial",
    "assembly": "sequential", "blocksworld": "sequential", "briefcaseworld": "sequential",
    "multi_agent_coordination": "sequential", "cooperate_sequential_gripper": "sequential",
    "elevator": "sequential", "barman": "sequential", "counters": "resource", "markettrader": "resource",
    "satellite": "resource", "freecell": "resource", "settlersnumeric": "resource", "sugar": "resource",
}
"""SPIN-Bench's domains and their category in the released scorer (one per domain).

The paper lists some domains under two categories (depots and rovers also
spatial, elevator also spatial); stratbench reports the released scorer's
single category, as the domain packages declare it.
"""

_LISTED: dict[str, Instance] = {}
_VARIANT_SAFE = re.compile(r"[^A-Za-z0-9_.+-]+")


@dataclass(frozen=True)
class Instance:
    """One planning task.

    Attributes:
        name: ``<domain>/<instance>``, the game variant.
        domain: The domain directory name.
        domain_path: The domain file.
        problem_path: The problem file.
        category: ``spatial``, ``sequential``, ``resource``, or None if unknown.
        tier: The difficulty tier (``easy``...), or None if unknown.
        reference_length: The reference plan's length (S_i of N-step), or None.
        skip: Why this instance cannot run here, or None.
    """

    name: str
    domain: str
    domain_path: Path
    problem_path: Path
    category: str | None = None
    tier: str | None = None
    reference_length: int | None = None
    skip: str | None = None


def load_manifest(root: Path = DATASET_DIR) -> dict[str, Any] | None:
    """Returns the ``manifest.json`` of a dataset directory, or None if it has none."""
    path = Path(root) / MANIFEST
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def domain_problem(instance: Instance) -> tuple[str, str]:
    """Returns the domain and problem PDDL texts of an instance."""
    return instance.domain_path.read_text(encoding="utf-8"), instance.problem_path.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def default_instances() -> tuple[Instance, ...]:
    """Returns the committed default dataset's instances, from its manifest (none if not built)."""
    manifest = load_manifest(DATASET_DIR)
    if manifest is None:
        return ()
    return tuple(_from_manifest(DATASET_DIR, entry) for entry in manifest["instances"])


def list_variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the ``pddl`` game's variants: ``options["pddl_dir"]``'s instances, else the default set.

    A run with no model and no extra agent (``options["models"]`` and
    ``options["agents"]`` empty) plays only the suite's baselines; it then
    gets a smoke subset, the first instance of each domain, so that
    ``pytest suites/`` stays fast. Any subject given on the command line
    gets the whole dataset.
    """
    root = options.get("pddl_dir")
    instances = scan_directory(Path(root)) if root else list(default_instances())
    if not root and "models" in options and not options.get("models") and not options.get("agents"):
        instances = smoke_subset(instances)
    _LISTED.clear()
    _LISTED.update({i.name: i for i in instances})
    return [Variant(i.name, i.skip) for i in instances]


def smoke_subset(instances: list[Instance]) -> list[Instance]:
    """Returns the first instance of each domain (in name order)."""
    seen: set[str] = set()
    subset = []
    for instance in sorted(instances, key=lambda i: i.name):
        if instance.domain not in seen:
            seen.add(instance.domain)
            subset.append(instance)
    return subset


def resolve(name: str) -> Instance:
    """Returns the instance a variant name stands for: the last listing's, else the default set's.

    Raises:
        ValueError: for a name in neither.
    """
    if name in _LISTED:
        return _LISTED[name]
    for instance in default_instances():
        if instance.name == name:
            return instance
    raise ValueError(f"unknown planning instance {name!r}; variants are <domain>/<instance> of the dataset")


def scan_directory(root: Path) -> list[Instance]:
    """Lists the instances of a directory in SPIN-Bench's layout, each with its own skip reason.

    Every instance is checked on its own (:func:`_instance_skips`, cached by
    file version), so a broken instance never hides a valid one beside it. A domain folder
    (a folder holding ``.pddl`` files or an ``instances/`` folder) without
    instances becomes one skipped item, ``<domain>/no-instances``, saying
    so. Never raises for a malformed dataset: a missing directory, a
    missing domain file or an unreadable task become skip reasons.
    """
    root = Path(root)
    if not root.is_dir():
        return [Instance(f"{_safe(root.name)}/missing", _safe(root.name), root, root, skip=f"{root}: not a directory")]
    manifest = load_manifest(root) or {}
    known = {entry["name"]: entry for entry in manifest.get("instances", [])}
    instances: list[Instance] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))):
        instances_dir = folder / "instances"
        problems = sorted(instances_dir.glob("*.pddl")) if instances_dir.is_dir() else []
        domain_file = folder / "domain.pddl"
        if not problems:
            empty = _empty_domain(folder, instances_dir)
            if empty is not None:
                instances.append(Instance(f"{_safe(folder.name)}/no-instances", folder.name, domain_file,
                                          instances_dir, CATEGORIES.get(folder.name.lower()), skip=empty))
            continue
        skips = _instance_skips(domain_file, problems)
        for problem in problems:
            name = f"{_safe(folder.name)}/{_safe(problem.stem)}"
            entry = known.get(name, {})
            instances.append(
                Instance(
                    name=name,
                    domain=folder.name,
                    domain_path=domain_file,
                    problem_path=problem,
                    category=entry.get("category") or CATEGORIES.get(folder.name.lower()),
                    tier=entry.get("tier"),
                    reference_length=entry.get("reference_length"),
                    skip=skips[problem],
                )
            )
    return instances


def _empty_domain(folder: Path, instances_dir: Path) -> str | None:
    """Returns why a domain folder has no instances, or None for a folder that is no domain at all."""
    beside = sorted(p.name for p in folder.glob("*.pddl") if p.name != "domain.pddl")
    if not instances_dir.is_dir() and not (folder / "domain.pddl").is_file() and not beside:
        return None
    where = f"{folder.name}/instances/*.pddl"
    if not instances_dir.is_dir():
        found = f"; found {len(beside)} other .pddl file{'s' if len(beside) != 1 else ''} beside it" if beside else ""
        return f"{folder.name}: no instances/ folder, so no tasks (expected {where}{found})"
    return f"{folder.name}: instances/ holds no .pddl files, so no tasks (expected {where})"


def _from_manifest(root: Path, entry: dict[str, Any]) -> Instance:
    domain = entry["domain"]
    return Instance(
        name=entry["name"],
        domain=domain,
        domain_path=root / domain / "domain.pddl",
        problem_path=root / domain / "instances" / f"{entry['instance']}.pddl",
        category=entry.get("category"),
        tier=entry.get("tier"),
        reference_length=entry.get("reference_length"),
    )


def _instance_skips(domain_file: Path, problems: list[Path]) -> dict[Path, str | None]:
    """Returns why each instance of a domain cannot run (None when it can), each for its own fault.

    Every instance gets the quick check (:func:`_quick_check`: the text,
    the normaliser, names declared); the first instance passing it gets the
    full one (:func:`_full_check`: unified-planning reads the task and its
    validator can check it). When that fails, every instance gets the full
    check, so a fault of one instance never decides the others.
    """
    skips = {problem: _quick_skip(domain_file, problem, _full=False) for problem in problems}
    passing = [problem for problem in problems if skips[problem] is None]
    if passing and _quick_skip(domain_file, passing[0], _full=True) is not None:
        for problem in passing:
            skips[problem] = _quick_skip(domain_file, problem, _full=True)
    return skips


def _quick_skip(domain_file: Path, problem: Path, *, _full: bool) -> str | None:
    domain = domain_file.parent.name
    if not domain_file.is_file():
        return f"{domain}: no domain.pddl"
    try:
        problem.stat()
    except OSError as error:
        return f"{domain}/{problem.name}: cannot read it: {error.strerror or error}"
    texts = _texts(str(domain_file), str(problem))
    if isinstance(texts, str):
        return texts
    verdict = readability(*texts, full=_full)
    return None if verdict is None else f"{domain}/{problem.name}: {verdict}"


def _texts(domain_file: str, problem_file: str) -> tuple[str, str] | str:
    """Returns both texts, or why they cannot be read."""
    domain = Path(domain_file).parent.name
    try:
        domain_text = Path(domain_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return f"{domain}: cannot read domain.pddl: {error}"
    try:
        return domain_text, Path(problem_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return f"{domain}/{Path(problem_file).name}: cannot read it: {error}"


_VERDICTS: dict[str, str | None] = {}
"""The readability verdicts decided in this process, by their task-cache key."""
_READ_SOURCES = tuple(Path(__file__).resolve().parent / name
                      for name in ("dataset.py", "normalise.py", "sexpr.py", "reading.py", "validation.py",
                                   "derivation.py"))
"""The code a readability verdict comes from: a change to any of it decides every task again."""


def readability(domain_text: str, problem_text: str, *, full: bool) -> str | None:
    """Returns why unified-planning cannot run a task (None when it can), decided once per task content.

    ``full=False`` is the quick check (:func:`_quick_check`: the normaliser
    and the names declared, no parse); ``full=True`` the full one
    (:func:`_full_check`: unified-planning reads the task and its validator can
    check it). The verdict is kept in this process and in the task cache
    (:mod:`stratbench.games.spin.planning.task_cache`), keyed by both texts and
    the code that decides it, so a second collection, or another xdist
    worker, reads it instead of parsing the task again.
    """
    from stratbench.games.spin.planning import task_cache  # lean: only a dataset check loads it

    kind = "read-full" if full else "read-quick"
    key = task_cache.task_key(kind, task_cache.code_version(*_READ_SOURCES), domain_text, problem_text)
    if key not in _VERDICTS:
        stored = task_cache.load(key) or {}
        if "skip" in stored and (stored["skip"] is None or isinstance(stored["skip"], str)):
            _VERDICTS[key] = stored["skip"]
        else:
            _VERDICTS[key] = (_full_check if full else _quick_check)(domain_text, problem_text)
            task_cache.store(key, {"skip": _VERDICTS[key]})
    return _VERDICTS[key]


def _quick_check(domain_text: str, problem_text: str) -> str | None:
    """Checks what needs no parse by unified-planning: the normaliser, the names used."""
    from stratbench.games.spin.planning.normalise import (  # lean: only a dataset check loads it
        UnrepairableTask,
        normalise,
    )

    try:
        normalise(domain_text, problem_text)
    except UnrepairableTask as error:
        return f"unified-planning cannot read it: {error.reason}"
    return None


def _full_check(domain_text: str, problem_text: str) -> str | None:
    """Reads the task with unified-planning and checks that its validator can check plans for it."""
    from stratbench.games.spin.planning.reading import PDDLReadError, read_task  # lean: only a dataset check loads it
    from stratbench.games.spin.planning.validation import unsupported_features  # lean: only a dataset check loads it

    try:
        task = read_task(domain_text, problem_text)
    except PDDLReadError as error:
        return f"unified-planning cannot read it: {error.reason}"
    missing = unsupported_features(task.problem)
    if missing:
        return f"unified-planning's sequential validator cannot check it: {', '.join(missing)}"
    return None


def _safe(name: str) -> str:
    return _VARIANT_SAFE.sub("_", name)
