"""The result record and its append-only JSONL store.

One JSON object per finished match, appended to ``<dir>/results.jsonl`` and
flushed to disk at once, so nothing is lost if the session dies later. A new
run that finds an older ``results.jsonl`` moves it aside to
``results.<its run id>.jsonl`` (kept, never deleted) and starts fresh.
Transcripts are written beside it, one JSON file per match.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

RECORD_VERSION = 1
RESULTS_FILE = "results.jsonl"
TRANSCRIPT_DIR = "transcripts"


VOLATILE_FIELDS = frozenset({"run_id", "run_ids", "started_at", "duration_s", "command_line"})
"""Fields that differ between two runs of the same matches: ids, timestamps, durations, the command."""


def without_volatile(value: Any) -> Any:
    """Returns a copy of results data without :data:`VOLATILE_FIELDS`, for comparing two runs."""
    if isinstance(value, dict):
        return {k: without_volatile(v) for k, v in value.items() if k not in VOLATILE_FIELDS}
    if isinstance(value, list):
        return [without_volatile(v) for v in value]
    return value


def transcript_name(match_id: str) -> str:
    """Returns a unique, readable file name for a match's transcript.

    The readable part is cut to 150 characters; a short hash of the full match
    id keeps names distinct when ids differ only after that point.
    """
    cleaned = re.sub(r"[^A-Za-z0-9._+=,-]+", "_", match_id).strip("_")
    digest = hashlib.sha256(match_id.encode()).hexdigest()[:10]
    return f"{cleaned[:150]}-{digest}.json"


class ResultStore:
    """Appends match records and transcripts under one directory.

    Args:
        directory: The report directory (created on first write).
        run_id: The current run's id; stored records must carry it.
    """

    def __init__(self, directory: Path, run_id: str) -> None:
        self.directory = directory
        self.run_id = run_id
        self._started = False

    @property
    def path(self) -> Path:
        """Returns the results file path."""
        return self.directory / RESULTS_FILE

    def _start(self) -> None:
        if self._started:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size > 0:
            previous = _first_run_id(self.path) or "previous"
            target = self.directory / f"results.{previous}.jsonl"
            counter = 1
            while target.exists():
                counter += 1
                target = self.directory / f"results.{previous}.{counter}.jsonl"
            os.replace(self.path, target)
        self._started = True

    def append(self, record: dict[str, Any], transcript: list[dict[str, Any]] | None = None) -> None:
        """Writes one record (and its transcript) durably."""
        self._start()
        if transcript is not None:
            folder = self.directory / TRANSCRIPT_DIR
            folder.mkdir(exist_ok=True)
            name = transcript_name(record["match_id"])
            (folder / name).write_text(json.dumps({"match_id": record["match_id"], "events": transcript}))
            record = {**record, "transcript": f"{TRANSCRIPT_DIR}/{name}"}
        line = json.dumps(record, sort_keys=True, separators=(",", ":"))
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def _first_run_id(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8") as handle:
            first = json.loads(handle.readline())
        run_id = str(first.get("run_id", ""))
    except (OSError, ValueError, AttributeError):
        return None
    return re.sub(r"[^A-Za-z0-9._-]", "_", run_id) or None


def read_records(path: Path) -> list[dict[str, Any]]:
    """Reads match records from a results file; a truncated last line is skipped.

    Raises:
        ValueError: naming the file and line when a line other than the last
            is not a JSON object.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(lines):
                break  # a run killed mid-write leaves a partial last line
            raise ValueError(f"{path}:{number}: not JSON ({error.msg})") from None
        if not isinstance(value, dict):
            raise ValueError(f"{path}:{number}: not a JSON object")
        records.append(value)
    return records


def summarize_by_agent(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Aggregates records per agent label: matches, W/D/L, mean score, illegal, tokens, cost.

    Every side of every two-sided match counts for its agent; single-side
    matches count their score with no W/D/L.
    """
    table: dict[str, dict[str, Any]] = {}
    for record in records:
        scores = record["scores"]
        for side, info in enumerate(record["sides"]):
            row = table.setdefault(
                info["agent"],
                {"agent": info["agent"], "matches": 0, "won": 0, "drawn": 0, "lost": 0, "score_sum": 0.0,
                 "illegal": 0, "tokens": 0, "cost_usd": 0.0},
            )
            row["matches"] += 1
            row["score_sum"] += scores[side]
            if len(scores) > 1:
                best_other = max(s for i, s in enumerate(scores) if i != side)
                key = "won" if scores[side] > best_other else "drawn" if scores[side] == best_other else "lost"
                row[key] += 1
            row["illegal"] += record.get("illegal", [0] * len(scores))[side]
            usage = record.get("usage", [{}] * len(scores))[side] or {}
            row["tokens"] += int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
            row["cost_usd"] += float(usage.get("cost_usd", 0.0))
    rows = []
    for row in table.values():
        row["mean_score"] = row.pop("score_sum") / row["matches"]
        rows.append(row)
    return sorted(rows, key=lambda r: (-r["mean_score"], r["agent"]))
