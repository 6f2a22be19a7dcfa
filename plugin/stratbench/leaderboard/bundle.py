"""Puts what the leaderboard links (each run's ``report.html`` and match pages) inside the site folder.

The site is published as one folder (``--out``), so a link may not leave it.
A run whose report directory already lies inside ``--out`` (the CI layout:
``public/runs/<run>/`` beside ``public/index.html``) is linked where it lies;
any other run's ``report.html`` and the match pages its report links are
copied to ``<out>/runs/<run label>/`` (the same relative layout, so the copied
report's links and the match pages' ``../report.html`` keep working). Nothing
else is copied: no ``results.jsonl``, no raw transcripts.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

from stratbench.leaderboard.runs import Run

__all__ = ["REPORT_PAGE", "RUNS_DIR", "bundle_reports", "run_folder"]

RUNS_DIR = "runs"
"""The folder under ``--out`` that the copies go to."""
REPORT_PAGE = "report.html"
"""A run's report page, in its report directory."""
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


def run_folder(label: str) -> str:
    """A run's folder name under :data:`RUNS_DIR`: its label where that is a safe file name, else a readable
    form of it and a hash (so two labels never share a folder)."""
    if _SAFE_NAME.fullmatch(label) and len(label) <= 100:
        return label
    readable = re.sub(r"[^A-Za-z0-9._+-]+", "_", label).strip("._")[:80] or "run"
    return f"{readable}-{hashlib.sha256(label.encode()).hexdigest()[:8]}"


def bundle_reports(runs: list[Run], out: Path) -> dict[str, Path]:
    """Makes every run's report reachable inside ``out``; returns, by run label, the folder inside ``out`` whose
    ``report.html`` and match pages (:attr:`Run.pages`, relative to it) the pages link. A run without a report
    is not in it.

    Raises:
        OSError: A copy could not be written.
    """
    root = out.resolve()
    in_place = {run.label: run.report_dir.resolve() for run in runs
                if run.report_dir is not None and run.report_dir.resolve().is_relative_to(root)}
    placed: dict[str, Path] = {}
    for run in runs:
        if run.report_dir is None:
            continue
        if run.label in in_place:
            placed[run.label] = in_place[run.label]
            continue
        target = root / RUNS_DIR / run_folder(run.label)
        if any(folder.is_relative_to(target) or target.is_relative_to(folder) for folder in in_place.values()):
            target = target.with_name(f"{target.name}-copy")  # never over a run that lies in the site already
        source = run.report_dir.resolve()
        for name in (REPORT_PAGE, *sorted(set(run.pages.values()))):
            _copy(source / name, target / name)
        placed[run.label] = target
    return placed


def _copy(source: Path, target: Path) -> None:
    """Copies a file unless the same one (size and modification time) is there from an earlier build."""
    if target.is_file():
        have, want = target.stat(), source.stat()
        if have.st_size == want.st_size and have.st_mtime_ns == want.st_mtime_ns:
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
