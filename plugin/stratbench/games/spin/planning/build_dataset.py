"""Builds the committed default planning dataset from the domain generators.

Usage::

    python -m stratbench.games.spin.planning.build_dataset            # every domain package present
    python -m stratbench.games.spin.planning.build_dataset --domains blocksworld,grid --per-domain 20

For each package under ``planning/domains/`` with a ``generator.py`` and a
``domain.pddl``, it generates ``--per-domain`` instances spread evenly over
the generator's ``TIERS`` (earlier tiers take the remainder), seeded by the
instance number. Each instance must be

* new (a text already generated for the domain is redrawn with another seed),
* readable by unified-planning,
* solved by the ``planner`` agent's procedure — engines tried in the agent's
  order, each in a child process, within ``--timeout`` seconds in all — so
  the agent is known to solve 100% of the dataset.

The reference plan is the shortest plan found by any available engine
(the generator's ``PLANNER`` hint and the default engines), checked with the
validator; its length is S_i of the N-step metric. The script writes
``dataset/<domain>/domain.pddl``, ``dataset/<domain>/instances/pNN.pddl`` and
``dataset/manifest.json`` (per instance: domain, category, tier, seed,
generator, reference plan and length, engines and versions, sha256 of both
files, and the task metrics of SPIN-Bench Fig. 3a/3b: ``legal_actions_per_step``
and ``state_action_pairs``, :mod:`stratbench.games.spin.metrics.action_space`,
each computed within ``--metric-timeout`` seconds as a match's metric is).
Domains not rebuilt keep their manifest entries.

``--metrics-only`` leaves the tasks as they are and (re)computes only the
task metrics of the listed domains (every domain by default), for instance
after a change that bumps ``METRICS_VERSION``::

    python -m stratbench.games.spin.planning.build_dataset --metrics-only
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from stratbench.games.spin.metrics.action_space import LEGAL, PAIRS, manifest_stamp, task_metrics
from stratbench.games.spin.planning.dataset import DATASET_DIR, MANIFEST
from stratbench.games.spin.planning.plan_parsing import render_plan
from stratbench.games.spin.planning.planner_process import solve_isolated
from stratbench.games.spin.planning.planners import DEFAULT_ENGINES, available_engines, engine_version
from stratbench.games.spin.planning.reading import PDDLReadError, read_problem
from stratbench.games.spin.planning.validation import check_steps
from stratbench.match.metric_budget import DEFAULT_METRIC_TIMEOUT_S

__all__ = ["DomainPackage", "build", "build_metrics", "discover_domains", "main", "tier_plan"]

DOMAINS_DIR = Path(__file__).resolve().parent / "domains"
_MAX_ATTEMPTS = 8
_SEED_STRIDE = 1000


@dataclass(frozen=True)
class DomainPackage:
    """A domain package: its name, files and generator module."""

    name: str
    directory: Path
    module: Any

    @property
    def domain_text(self) -> str:
        """Returns the package's ``domain.pddl``."""
        return (self.directory / "domain.pddl").read_text(encoding="utf-8")


def discover_domains(names: list[str] | None = None, root: Path = DOMAINS_DIR) -> list[DomainPackage]:
    """Returns the domain packages present (with ``generator.py`` and ``domain.pddl``), sorted by name.

    Raises:
        ValueError: naming a requested domain that has no package.
    """
    found = {}
    for directory in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        if (directory / "generator.py").is_file() and (directory / "domain.pddl").is_file():
            module = importlib.import_module(f"stratbench.games.spin.planning.domains.{directory.name}.generator")
            found[directory.name] = DomainPackage(directory.name, directory, module)
    if names:
        missing = sorted(set(names) - set(found))
        if missing:
            raise ValueError(f"no domain package for {', '.join(missing)}; present: {', '.join(found) or 'none'}")
        return [found[n] for n in sorted(names)]
    return list(found.values())


def tier_plan(tiers: tuple[str, ...], count: int) -> list[str]:
    """Returns the tier of each of ``count`` instances, spread evenly, earlier tiers first.

    Examples:
        >>> tier_plan(("easy", "medium", "hard"), 7)
        ['easy', 'easy', 'easy', 'medium', 'medium', 'hard', 'hard']
    """
    base, extra = divmod(count, len(tiers))
    plan: list[str] = []
    for index, tier in enumerate(tiers):
        plan.extend([tier] * (base + (1 if index < extra else 0)))
    return plan


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _agent_solve(domain: str, problem_text: str, problem: Any, timeout: float) -> tuple[Any, list[Any]]:
    """Replays the planner agent's procedure in child processes; returns (its solution, all solutions)."""
    deadline = time.monotonic() + timeout
    for engine in available_engines(DEFAULT_ENGINES, problem):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None, []
        solution = solve_isolated(domain, problem_text, engine, remaining)
        if solution is not None and check_steps(problem, solution.steps).valid:
            return solution, [solution]
        if time.monotonic() >= deadline:
            return None, []
    return None, []


def _reference(
    package: DomainPackage, domain: str, problem_text: str, problem: Any, timeout: float, found: list[Any]
) -> Any:
    """Returns the shortest valid plan among the engines' plans (the agent's included)."""
    hint = getattr(package.module, "PLANNER", None)
    order = ([hint] if hint else []) + [e for e in DEFAULT_ENGINES if e != hint]
    tried = {s.engine for s in found}
    solutions = list(found)
    for engine in available_engines(tuple(order), problem):
        if engine in tried or (engine == "enhsp" and solutions):
            continue
        solution = solve_isolated(domain, problem_text, engine, timeout)
        if solution is not None:
            solutions.append(solution)
    valid = [s for s in solutions if check_steps(problem, s.steps).valid]
    return min(valid, key=lambda s: (len(s.steps), order.index(s.engine) if s.engine in order else 99), default=None)


def build_domain(
    package: DomainPackage, out: Path, per_domain: int, timeout: float, log: Any = print,
    metric_timeout: float | None = DEFAULT_METRIC_TIMEOUT_S,
) -> list[dict[str, Any]]:
    """Generates, solves and writes one domain's instances; returns their manifest entries."""
    tiers = tuple(getattr(package.module, "TIERS", ("easy", "medium", "hard")))
    category = getattr(package.module, "CATEGORY", None)
    domain = package.domain_text
    folder = out / package.name
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "instances").mkdir(parents=True)
    (folder / "domain.pddl").write_text(domain, encoding="utf-8")
    seen: set[str] = set()
    entries = []
    for number, tier in enumerate(tier_plan(tiers, per_domain), start=1):
        for attempt in range(_MAX_ATTEMPTS):
            seed = number + attempt * _SEED_STRIDE
            text = package.module.generate(seed, tier)
            if text in seen:
                continue
            try:
                problem = read_problem(domain, text)
            except PDDLReadError as error:
                raise RuntimeError(
                    f"{package.name} seed {seed} ({tier}): unified-planning cannot read it: {error.reason}"
                ) from None
            started = time.perf_counter()
            agent, found = _agent_solve(domain, text, problem, timeout)
            agent_seconds = time.perf_counter() - started
            if agent is None:
                log(f"  {package.name} p{number:02d} seed {seed} ({tier}): the planner agent did not solve it "
                    f"in {timeout:g}s; redrawing")
                continue
            reference = _reference(package, domain, text, problem, timeout, found)
            if reference is None:
                continue
            break
        else:
            raise RuntimeError(
                f"{package.name} p{number:02d} ({tier}): no solvable new instance in {_MAX_ATTEMPTS} seeds"
            )
        seen.add(text)
        instance = f"p{number:02d}"
        (folder / "instances" / f"{instance}.pddl").write_text(text, encoding="utf-8")
        entries.append(
            {
                "name": f"{package.name}/{instance}",
                "domain": package.name,
                "instance": instance,
                "category": category,
                "tier": tier,
                "seed": seed,
                "generator": f"stratbench.games.spin.planning.domains.{package.name}.generator",
                "reference_length": len(reference.steps),
                "reference_plan": render_plan(reference.steps).splitlines(),
                "reference_engine": reference.engine,
                "reference_engine_version": reference.engine_version,
                "planner_engine": agent.engine,
                "planner_engine_version": agent.engine_version,
                "planner_seconds": round(agent_seconds, 3),
                "sha256": {"domain": _sha256(domain), "problem": _sha256(text)},
                **task_metrics(domain, text, render_plan(reference.steps).splitlines(), metric_timeout),
            }
        )
        log(f"  {package.name}/{instance} {tier:<6} seed {seed:<5} S={len(reference.steps):<4} "
            f"ref={reference.engine:<10} agent={agent.engine} {agent_seconds:.2f}s")
    return entries


def build(
    names: list[str] | None, out: Path, per_domain: int, timeout: float, log: Any = print,
    metric_timeout: float | None = DEFAULT_METRIC_TIMEOUT_S,
) -> dict[str, Any]:
    """Builds the listed domains (all present if None) into ``out`` and rewrites its manifest.

    The manifest is rewritten after each domain, so an interrupted build
    keeps the domains it finished. A domain whose generator fails, or yields
    no instance the planner agent solves in time, is left out (and its old
    files removed); the returned manifest lists it under ``failed`` (not
    written to the file).
    """
    packages = discover_domains(names)
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / MANIFEST
    old = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else {}
    rebuilt = {p.name for p in packages}
    entries = [e for e in _current_metrics(old) if e["domain"] not in rebuilt and (out / e["domain"]).is_dir()]
    domains = {k: v for k, v in old.get("domains", {}).items() if k not in rebuilt and (out / k).is_dir()}
    failed = {}
    for package in packages:
        log(f"{package.name}:")
        started = time.perf_counter()
        try:
            entries.extend(build_domain(package, out, per_domain, timeout, log, metric_timeout))
        except (RuntimeError, ValueError) as error:
            failed[package.name] = str(error)
            log(f"  FAILED: {error}")
            shutil.rmtree(out / package.name, ignore_errors=True)
            continue
        domains[package.name] = {
            "category": getattr(package.module, "CATEGORY", None),
            "description": getattr(package.module, "DESCRIPTION", ""),
            "tiers": list(getattr(package.module, "TIERS", ("easy", "medium", "hard"))),
            "domain_sha256": _sha256(package.domain_text),
            "build_seconds": round(time.perf_counter() - started, 1),
        }
        _write_manifest(manifest_path, entries, domains)
    return {**_write_manifest(manifest_path, entries, domains), "failed": failed}


def build_metrics(
    names: list[str] | None, out: Path, metric_timeout: float | None = DEFAULT_METRIC_TIMEOUT_S, log: Any = print
) -> dict[str, Any]:
    """Computes the task metrics of the listed domains' tasks (every domain if None) and rewrites the manifest.

    The tasks are not touched. The manifest is rewritten after each domain,
    so an interrupted run keeps what it finished.

    Raises:
        ValueError: when ``out`` has no manifest, or a listed domain is not in it.
    """
    manifest_path = out / MANIFEST
    if not manifest_path.is_file():
        raise ValueError(f"no {MANIFEST} in {out}: build the dataset first")
    old = json.loads(manifest_path.read_text(encoding="utf-8"))
    entries = _current_metrics(old)
    present = sorted({e["domain"] for e in entries})
    missing = sorted(set(names or ()) - set(present))
    if missing:
        raise ValueError(f"no tasks of {', '.join(missing)} in {manifest_path}; present: {', '.join(present)}")
    for domain in names or present:
        log(f"{domain}:")
        for entry in (e for e in entries if e["domain"] == domain):
            texts = [(out / domain / "domain.pddl").read_text(encoding="utf-8"),
                     (out / domain / "instances" / f"{entry['instance']}.pddl").read_text(encoding="utf-8")]
            started = time.perf_counter()
            entry.update(task_metrics(*texts, entry.get("reference_plan"), metric_timeout))
            log(f"  {entry['name']} {LEGAL}={entry[LEGAL]} {PAIRS}={entry[PAIRS]} "
                f"{time.perf_counter() - started:.2f}s")
        _write_manifest(manifest_path, entries, old.get("domains", {}), old.get("tools"))
    return _write_manifest(manifest_path, entries, old.get("domains", {}), old.get("tools"))


def _current_metrics(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Returns a manifest's entries; task metrics computed under another stamp are dropped (they would pass as
    current once the manifest is written with this code's stamp)."""
    entries = list(manifest.get("instances", []))
    if manifest.get("task_metrics") == manifest_stamp():
        return entries
    return [{k: v for k, v in e.items() if k not in (LEGAL, PAIRS)} for e in entries]


def _write_manifest(
    path: Path, entries: list[dict[str, Any]], domains: dict[str, Any], tools: dict[str, Any] | None = None
) -> dict[str, Any]:
    manifest = {
        "version": 1,
        "built_by": "python -m stratbench.games.spin.planning.build_dataset",
        "reference": (
            "shortest valid plan among the available engines; planner_engine is the engine the planner agent uses"
        ),
        "tools": tools or {
            "unified-planning": version("unified-planning"),
            **{engine: engine_version(engine) for engine in DEFAULT_ENGINES},
        },
        "task_metrics": manifest_stamp(),
        "domains": dict(sorted(domains.items())),
        "instances": sorted(entries, key=lambda e: e["name"]),
    }
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)  # a run reading the manifest meanwhile sees the old one or the new one, never half
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Runs the builder from the command line."""
    parser = argparse.ArgumentParser(
        prog="python -m stratbench.games.spin.planning.build_dataset", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--domains", default="", help="comma-separated domain packages (default: every one present)")
    parser.add_argument("--per-domain", type=int, default=20, help="instances per domain (default 20)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds for the planner agent's procedure per instance (default 10)")
    parser.add_argument("--out", type=Path, default=DATASET_DIR, help="output directory (default: the package dataset)")
    parser.add_argument("--metric-timeout", type=float, default=DEFAULT_METRIC_TIMEOUT_S,
                        help=f"seconds for each task metric, as a match's (default {DEFAULT_METRIC_TIMEOUT_S:g}; "
                             "0: no limit)")
    parser.add_argument("--metrics-only", action="store_true",
                        help="only (re)compute the task metrics of the dataset's tasks, leaving the tasks as they are")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.domains.split(",") if n.strip()] or None
    try:
        if args.metrics_only:
            manifest = build_metrics(names, args.out, args.metric_timeout or None)
            print(f"wrote the task metrics of {len(manifest['instances'])} instances to {args.out / MANIFEST}")
            return 0
        manifest = build(names, args.out, args.per_domain, args.timeout, metric_timeout=args.metric_timeout or None)
    except (ValueError, RuntimeError) as error:
        print(f"build_dataset: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(manifest['instances'])} instances of {len(manifest['domains'])} domains to {args.out}")
    for name, error in manifest["failed"].items():
        print(f"build_dataset: {name} not built: {error}", file=sys.stderr)
    return 1 if manifest["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
