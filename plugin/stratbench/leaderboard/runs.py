"""Collects the runs a leaderboard shows: result files and report directories, found recursively.

A *run* is one input: a report directory (``results.jsonl`` and, when the
report was written, ``results.json``, ``report.html`` and the match pages
beside it), or a result file given on its own (``results.jsonl`` or
``results.json``). A folder that is neither is searched recursively for them.
Everything the leaderboard shows about a run is read here once: its match
records, its date, versions, protocols, settings hashes, the command line
(masked) and where its report and match pages lie.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from stratbench.redact import redact_argv
from stratbench.report.gate import BaselineError, finite_number, validate_report
from stratbench.run.results import (
    RESULTS_FILE,
    TRANSCRIPT_DIR,
    WORKERS_DIR,
    is_scored,
    transcript_name,
)

__all__ = ["REPORT_JSON", "Run", "RunInputError", "collect_runs", "find_result_files", "load_run"]

REPORT_JSON = "results.json"
"""The analysed report data a report directory holds beside ``results.jsonl``."""
_SKIPPED_FOLDERS = {TRANSCRIPT_DIR, WORKERS_DIR, ".git"}
_RUN_ID_DATE = re.compile(r"^(\d{8}T\d{6})")
_LAST_TIMESTAMP = datetime(9999, 12, 31, tzinfo=timezone.utc).timestamp()


class RunInputError(ValueError):
    """An input that is not a run; the message is one line naming the file."""


@dataclass
class Run:
    """One run as the leaderboard reads it.

    Attributes:
        label: A short, unique name (its run id).
        source: The file the records came from.
        records: Its match records (scored, skipped and errored), as stored.
        report_dir: The directory holding its ``report.html`` (None: only a result file was given).
        pages: Match id → its match page, relative to ``report_dir`` (only pages that exist).
        command_line: The command that played it, secrets masked (empty: not recorded).
        started: When its first match started (UTC).
    """

    label: str
    source: Path
    records: list[dict[str, Any]]
    report_dir: Path | None = None
    pages: dict[str, str] = field(default_factory=dict)
    command_line: list[str] = field(default_factory=list)
    started: datetime | None = None

    @property
    def scored(self) -> list[dict[str, Any]]:
        """The records that are rated (played and scored)."""
        return [r for r in self.records if is_scored(r)]

    @property
    def run_ids(self) -> list[str]:
        """The run ids its records carry (a resumed run carries its earlier run's too)."""
        return sorted({str(r["run_id"]) for r in self.records if r.get("run_id")})

    @property
    def date(self) -> str:
        """Its start as ``YYYY-MM-DD HH:MM`` (UTC), or ``unknown``."""
        return self.started.strftime("%Y-%m-%d %H:%M") if self.started else "unknown"

    @property
    def protocols(self) -> list[str]:
        """The protocols its matches were played in."""
        return sorted({str(r.get("protocol") or "default") for r in self.records}) or ["default"]

    @property
    def settings_hashes(self) -> list[str]:
        """The distinct settings hashes of its matches (empty: not recorded, a results.json alone)."""
        return sorted({str(r["settings_hash"]) for r in self.records if r.get("settings_hash")})

    def version(self, package: str) -> str:
        """The version of ``package`` its records name (several: joined; none: ``unknown``)."""
        found = sorted({str(v[package]) for r in self.records
                        if isinstance(v := r.get("versions"), dict) and v.get(package)})
        return ", ".join(found) or "unknown"


def find_result_files(path: Path) -> list[Path]:
    """Returns the result files an input stands for: itself, its directory's, or those found below it.

    A directory holding ``results.jsonl`` (or only ``results.json``) is one run, and each earlier run a later one
    moved aside there (``results.<run id>.jsonl``) one more; any other directory is searched recursively
    (transcript and journal folders left out).

    Raises:
        RunInputError: The path does not exist, or nothing was found under it.
    """
    if not path.exists():
        raise RunInputError(f"{path}: no such file or directory")
    if path.is_file():
        return [path]
    own = _own_result_file(path)
    if own is not None:
        return [own, *_set_aside(path)]
    found = []
    for folder in sorted(p for p in path.rglob("*") if p.is_dir()):
        if _SKIPPED_FOLDERS & set(folder.relative_to(path).parts):
            continue
        own = _own_result_file(folder)
        if own is not None:
            found += [own, *_set_aside(folder)]
    if not found:
        raise RunInputError(f"{path}: no {RESULTS_FILE} or {REPORT_JSON} found in it or below it")
    return found


def _own_result_file(folder: Path) -> Path | None:
    for name in (RESULTS_FILE, REPORT_JSON):
        if (folder / name).is_file():
            return folder / name
    return None


def _set_aside(folder: Path) -> list[Path]:
    """The earlier runs' results a later run moved aside in ``folder`` (``results.<run id>.jsonl``)."""
    stem, suffix = RESULTS_FILE.rsplit(".", 1)
    return sorted(p for p in folder.glob(f"{stem}.*.{suffix}") if p.is_file())


def collect_runs(paths: list[Path], notes: list[str] | None = None) -> list[Run]:
    """Loads every run the inputs stand for, each file once (a ``results.json`` given beside its ``results.jsonl``
    counts once), oldest first, with unique labels, each match once (:func:`deduplicated`; what was left out is
    said in ``notes``).

    Raises:
        RunInputError: An input is missing, holds no run, or a file is not a stratbench result file.
    """
    files: dict[Path, Path] = {}
    for path in paths:
        for file in find_result_files(path):
            files.setdefault(file.resolve(), file)
    runs = [load_run(file) for resolved, file in files.items()  # a results.json beside its results.jsonl: one run
            if not (resolved.name == REPORT_JSON and resolved.with_name(RESULTS_FILE) in files)]
    runs.sort(key=lambda run: (run.started or datetime.max.replace(tzinfo=timezone.utc), str(run.source)))
    runs = deduplicated(runs, notes if notes is not None else [])
    seen: dict[str, int] = {}
    for run in runs:
        seen[run.label] = seen.get(run.label, 0) + 1
        if seen[run.label] > 1:
            run.label = f"{run.label}#{seen[run.label]}"
    return runs


def deduplicated(runs: list[Run], notes: list[str]) -> list[Run]:
    """Keeps each match once, as ``stratbench merge`` does: a record whose run (the run that played it, for one a
    ``--resume`` carried) and match id an earlier run already holds is left out; a run left with none is dropped.
    Each run that lost records gets a line in ``notes``."""
    seen: dict[tuple[str, str], str] = {}
    kept = []
    for run in runs:
        records, repeated, holders = [], 0, set()
        for record in run.records:
            played = record.get("played_run_id") or record.get("run_id")
            key = (str(played), str(record.get("match_id"))) if played else None
            if key is not None and key in seen:
                repeated += 1
                holders.add(seen[key])
                continue
            if key is not None:
                seen[key] = str(run.source)
            records.append(record)
        if repeated:
            where = ", ".join(sorted(holders))
            notes.append(f"{run.source}: " + (f"the same run as {where}; counted once" if not records else
                                              f"{repeated} match(es) already in {where}; counted once"))
        if records:
            run.records = records
            kept.append(run)
    return kept


def load_run(file: Path) -> Run:
    """Reads one run from a ``results.jsonl`` or ``results.json`` (and its report directory, if any).

    Raises:
        RunInputError: naming the file (and line or record) when it is not a stratbench result file.
    """
    if file.suffix == ".json":
        report = _report_data(file, strict=True)
        records = _records_from_report(file, report or {})
    else:
        report = _report_data(file.parent / REPORT_JSON)  # beside a results.jsonl: its links and command line
        records = _records_from_jsonl(file)
    folder = file.parent
    report_dir = folder if (folder / "report.html").is_file() else None
    manifest = (report or {}).get("manifest") if isinstance((report or {}).get("manifest"), dict) else {}
    command = manifest.get("command_line") if isinstance(manifest.get("command_line"), list) else []
    run = Run(label="", source=file, records=records, report_dir=report_dir,
              pages=_pages(report or {}, records, report_dir), command_line=redact_argv([str(w) for w in command]),
              started=_started(records, manifest))
    run.label = (run.run_ids or [folder.name or file.stem])[-1]
    return run


def _records_from_jsonl(file: Path) -> list[dict[str, Any]]:
    from stratbench.report.analysis import read_match_records  # leaderboard: report.analysis loads the rating stack

    try:
        return read_match_records(file)[0]  # a truncated last line is skipped, as every reader skips it
    except ValueError as error:
        raise RunInputError(str(error)) from None


def _report_data(file: Path, *, strict: bool = False) -> dict[str, Any] | None:
    """Reads a results.json; a broken one beside a results.jsonl only loses its links (None)."""
    if not file.is_file():
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        if strict:
            raise RunInputError(f"{file}: not a stratbench {REPORT_JSON} ({error})") from None
        return None
    if not isinstance(data, dict) or not isinstance(data.get("matches"), list):
        if strict:
            raise RunInputError(f"{file}: not a stratbench {REPORT_JSON} (no 'matches' list)")
        return None
    return data


def _records_from_report(file: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Turns a results.json's match rows into records (no per-side usage or settings hash: not stored there)."""
    protocols = data.get("protocols") if isinstance(data.get("protocols"), list) else []
    protocol = protocols[0] if len(protocols) == 1 else None
    try:
        validate_report(data, str(file))  # every row as the gate reads it
    except BaselineError as error:
        raise RunInputError(str(error)) from None
    manifest = data.get("manifest") if isinstance(data.get("manifest"), dict) else {}
    run_ids = manifest.get("run_ids") if isinstance(manifest.get("run_ids"), list) else []
    records = []
    for row in data["matches"]:
        record = {key: row.get(key) for key in ("match_id", "test_id", "game", "variant", "seed", "scores",
                                                "subject", "result", "terminal", "turns", "tokens", "cost_usd",
                                                "transcript", "score_range")}
        record["sides"] = [{"agent": str(agent)} for agent in row["agents"]]
        if protocol is not None:
            record["protocol"] = protocol
        if len(run_ids) == 1:
            record["run_id"] = run_ids[0]
        records.append({k: v for k, v in record.items() if v is not None})
    from stratbench.report.analysis import malformed  # leaderboard: report.analysis loads the rating stack

    for number, record in enumerate(records):
        problem = malformed(record)
        if problem is not None:
            raise RunInputError(f"{file}: matches[{number}]: {problem}")
    if not records:
        raise RunInputError(f"{file}: no match rows ('matches' is empty)")
    return records


def _pages(data: dict[str, Any], records: list[dict[str, Any]], report_dir: Path | None) -> dict[str, str]:
    """Match id → its page as the report linked it (``page`` in results.json), else the page named after its
    transcript (``transcripts/<transcript name>.html``); only pages that exist are kept."""
    if report_dir is None:
        return {}
    candidates: dict[str, str] = {}
    for record in records:
        candidates[str(record["match_id"])] = f"{TRANSCRIPT_DIR}/{transcript_name(str(record['match_id']))[:-5]}.html"
    for row in [*(data.get("matches") or []), *(data.get("unscored") or [])]:
        if isinstance(row, dict) and isinstance(row.get("page"), str):
            candidates[str(row.get("match_id"))] = row["page"]
    return {match_id: page for match_id, page in candidates.items()
            if not Path(page).is_absolute() and ".." not in Path(page).parts and (report_dir / page).is_file()}


def _started(records: list[dict[str, Any]], manifest: dict[str, Any]) -> datetime | None:
    """When a run began: its first match's start, else the date in its run id."""
    starts = [r["started_at"] for r in records if finite_number(r.get("started_at"))
              and 0 <= r["started_at"] < _LAST_TIMESTAMP]  # a time a clock can give; others say nothing
    if starts:
        return datetime.fromtimestamp(min(starts), tz=timezone.utc)
    listed = manifest.get("run_ids") if isinstance(manifest.get("run_ids"), list) else []
    for run_id in [*(str(r.get("run_id", "")) for r in records), *listed]:
        match = _RUN_ID_DATE.match(str(run_id))
        if match:
            return datetime.strptime(match.group(1), "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc)
    return None
