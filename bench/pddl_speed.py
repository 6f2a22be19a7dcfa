"""Benchmarks the planning suite with the random agent: a base commit against the working tree, side by side.

The base commit (default ``daa92e1``, before task metrics were kept) is checked
out with ``git worktree`` into a temporary folder; the same pytest command then
runs in each tree, with ``PYTHONPATH`` set to that tree's ``plugin/`` (checked:
``import stratbench`` must resolve inside the tree, not to the venv's editable
install) and ``STRATBENCH_CACHE_DIR`` set to a fresh folder per tree, so the
working tree's first run is cold and its second warm (the same folder again).
Two datasets:

* **committed**: the committed dataset (``--stratbench-agent random_planner``:
  a subject on the command line gets every task, not the smoke subset), the
  task metrics from the manifest in the working tree;
* **pddl-dir**: a copy of the same tasks in SPIN-Bench's layout without a
  manifest (as SPIN-Bench's own dataset comes), run with ``--pddl-dir``: the
  working tree decides readability and computes the task metrics on the cold
  run, and reads them from the task cache on the warm one. Its collection
  alone (``--collect-only``) is timed the same way.

Per run: wall seconds, items, scored items, and whether every record's scores,
metrics, ``metrics_not_computed`` and settings hash equal the base run's (the
differing test ids are listed). ``--domains`` picks a subset (default: every
domain); ``-k`` is built from it.

Usage::

    python bench/pddl_speed.py [--domains freecell,blocksworld] [--base daa92e1] [-n 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = "suites/spin/test_pddl.py"
DATASET = Path("plugin/stratbench/games/spin/planning/dataset")
COMPARED = ("status", "scores", "metrics", "metrics_not_computed", "settings_hash")
PLUGINS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:anyio")
"""The same plugins in both trees (a tree's own addopts may leave out test-only plugins the other loads)."""


def _shell(*command: str) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=False).stdout.strip()


def _env(tree: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree / "plugin"), STRATBENCH_CACHE_DIR=str(cache),
               PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION="python")
    return env


def _check_import(tree: Path, cache: Path) -> None:
    """Fails unless ``import stratbench`` resolves inside ``tree`` under that tree's environment."""
    done = subprocess.run([sys.executable, "-c", "import stratbench; print(stratbench.__file__)"], cwd=tree,
                          env=_env(tree, cache), capture_output=True, text=True, check=True)
    where = Path(done.stdout.strip()).resolve()
    if not where.is_relative_to(tree.resolve()):
        raise SystemExit(f"import stratbench resolves to {where}, not inside {tree}")


def _run(tree: Path, cache: Path, extra: list[str], report: Path | None) -> tuple[float, str]:
    command = [sys.executable, "-m", "pytest", SUITE, *PLUGINS, "-q", *extra]
    if report is not None:
        command += ["--report-dir", str(report)]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=_env(tree, cache), capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode not in (0, 5):
        tail = "\n".join(lines[-30:]) + done.stderr[-2000:]
        raise SystemExit(f"{' '.join(command)} in {tree} failed ({done.returncode}):\n{tail}")
    return seconds, lines[-1] if lines else ""


def _records(report: Path) -> dict[str, dict]:
    path = report / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []
    return {r["test_id"]: {k: r.get(k) for k in COMPARED} for r in rows if r.get("type") == "match"}


def _compare(base: dict[str, dict], other: dict[str, dict]) -> str:
    differ = sorted(k for k in base.keys() | other.keys() if base.get(k) != other.get(k))
    if not differ:
        return "equal"
    return f"{len(differ)} differ: {', '.join(differ[:8])}{' ...' if len(differ) > 8 else ''}"


def _copy_tasks(tree: Path, out: Path, domains: list[str]) -> None:
    for domain in domains:
        shutil.copytree(tree / DATASET / domain, out / domain)


def _domains(tree: Path, wanted: str) -> list[str]:
    manifest = json.loads((tree / DATASET / "manifest.json").read_text())
    present = sorted({e["domain"] for e in manifest["instances"]})
    chosen = [d.strip() for d in wanted.split(",") if d.strip()] or present
    unknown = sorted(set(chosen) - set(present))
    if unknown:
        raise SystemExit(f"unknown domains {', '.join(unknown)}; present: {', '.join(present)}")
    return chosen


def main() -> int:
    """Runs the comparison and prints a markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="daa92e1", help="the commit to compare with (default daa92e1)")
    parser.add_argument("--domains", default="", help="comma-separated domains (default: every domain)")
    parser.add_argument("-n", dest="workers", default="2", help="xdist workers for every run (default 2)")
    parser.add_argument("--skip-pddl-dir", action="store_true", help="only the committed dataset")
    args = parser.parse_args()
    domains = _domains(ROOT, args.domains)
    selection = ["-k", " or ".join(domains)] if args.domains else []
    subject = ["--stratbench-agent", "random_planner", "-n", args.workers, *selection]
    started, load_before = _shell("date", "-u"), _shell("uptime")
    command = (f"Command in each tree: `python -m pytest {SUITE} {' '.join(PLUGINS)} -q {' '.join(subject)}` "
               "(`-k` quoted), PYTHONPATH=<tree>/plugin, STRATBENCH_CACHE_DIR=<a folder per tree>.")
    lines = [f"Started {started}; {load_before}.", f"Domains ({len(domains)}): {', '.join(domains)}.", command, "",
             "| dataset | tree | cache | wall s | items | records equal to the base's |", "|---|---|---|---:|---|---|"]
    with tempfile.TemporaryDirectory(prefix="pddl-speed-") as tmp:
        work = Path(tmp)
        base = work / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            trees = {"base": (base, work / "cache-base"), "working": (ROOT, work / "cache-working")}
            for tree, cache in trees.values():
                _check_import(tree, cache)
            tasks = work / "tasks"
            _copy_tasks(ROOT, tasks, domains)
            runs = [("committed", [])] + ([] if args.skip_pddl_dir else [("pddl-dir", ["--pddl-dir", str(tasks)])])
            for label, extra in runs:
                reference: dict[str, dict] = {}
                for name, cache_state in (("base", "-"), ("working", "cold"), ("working", "warm")):
                    tree, cache = trees[name]
                    if cache_state == "cold":
                        shutil.rmtree(cache, ignore_errors=True)
                    report = work / f"report-{label}-{name}-{cache_state}"
                    seconds, tail = _run(tree, cache, [*subject, *extra], report)
                    records = _records(report)
                    if name == "base":
                        reference = records
                    same = "(the base)" if name == "base" else _compare(reference, records)
                    lines.append(f"| {label} | {name} | {cache_state} | {seconds:.1f} | {tail} | {same} |")
                    print(lines[-1], flush=True)
                if label == "pddl-dir":
                    for name, cache_state in (("base", "-"), ("working", "cold"), ("working", "warm")):
                        tree, cache = trees[name]
                        if cache_state == "cold":
                            shutil.rmtree(cache, ignore_errors=True)
                        seconds, tail = _run(tree, cache, ["--collect-only", *subject, *extra], None)
                        lines.append(f"| pddl-dir, --collect-only | {name} | {cache_state} | {seconds:.1f} | "
                                     f"{tail} | |")
                        print(lines[-1], flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False,
                           capture_output=True)
    lines += ["", f"Ended {_shell('date', '-u')}; {_shell('uptime')}."]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
