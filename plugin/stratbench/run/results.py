"""The append-only JSONL store of match records (the record itself: :mod:`stratbench.match.record`).

One JSON object per collected match, appended to ``<dir>/results.jsonl`` and
fsynced at once, so nothing is lost if the session dies later. Its ``status``
says how the match ended: ``scored`` (played; only these are rated),
``skipped`` or ``errored`` (with ``reason``, and for errors the ``fault``:
``provider``, ``harness`` or ``model``). One run writes a store at a time: its
controller holds an exclusive lock on ``<dir>/.stratbench.lock`` (holding its pid)
from its start, and a second run on the same directory is refused before it
reads or writes anything there. A new run that finds an older
``results.jsonl`` moves it aside to ``results.<its run id>.jsonl`` (kept,
never deleted) and starts fresh. Transcripts are written under
``transcripts/<run id>/``, one JSON file per match, so every results file
keeps linking to its own run's transcripts; one over
:data:`COMPRESS_TRANSCRIPTS_OVER` bytes is gzipped (``.json.gz``), and
:func:`read_transcript` reads either form.

Under xdist each worker also journals its records as it finishes them, to
``<dir>/.workers/<run id>/<worker>.jsonl`` (fsynced): the controller folds
any record it never received into the results file, at the end of the run or,
when the controller was killed, at the start of the next run in that
directory.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from stratbench.match.record import ERRORED, SCORED, SKIPPED, MatchRecord, RecordError

RESULTS_FILE = "results.jsonl"
LOCK_FILE = ".stratbench.lock"
"""The store's lock (``flock``, held for the run by its controller); it holds the holder's pid."""
TRANSCRIPT_DIR = "transcripts"
WORKERS_DIR = ".workers"
COMPRESS_TRANSCRIPTS_OVER = 16_000
"""Bytes of JSON over which a transcript is written gzipped, as ``<name>.json.gz`` (long games: 10-25x smaller)."""


VOLATILE_FIELDS = frozenset(
    {"run_id", "run_ids", "started_at", "duration_s", "command_line", "transcript", "played_run_id"}
)
"""Fields that differ between two runs of the same matches: ids, timestamps, durations, the command,
the transcript file (it lies under its run's id) and the run a resumed record was played in."""


def status_of(record: dict[str, Any]) -> str:
    """Returns a record's status; records written before statuses existed are ``scored``."""
    return str(record.get("status", SCORED))


def is_scored(record: dict[str, Any]) -> bool:
    """Tells whether a record holds a played, scored match (the only kind that is rated)."""
    return status_of(record) == SCORED


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


def transcript_path(run_id: str, match_id: str) -> str:
    """Returns a transcript's path relative to the report directory: ``transcripts/<run id>/<name>``."""
    return f"{TRANSCRIPT_DIR}/{_safe_run_id(run_id)}/{transcript_name(match_id)}"


def write_transcript(directory: Path, run_id: str, match_id: str, events: list[dict[str, Any]]) -> str:
    """Writes a match's transcript durably under ``directory`` and returns its relative path.

    A transcript over :data:`COMPRESS_TRANSCRIPTS_OVER` bytes is gzipped and its path ends in ``.json.gz``.
    """
    relative = transcript_path(run_id, match_id)
    text = json.dumps({"match_id": match_id, "events": events})
    if len(text) > COMPRESS_TRANSCRIPTS_OVER:
        relative += ".gz"
    target = directory / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    if relative.endswith(".gz"):
        _write_durably_bytes(target, gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
    else:
        _write_durably(target, text)
    return relative


def read_transcript(path: Path) -> dict[str, Any]:
    """Reads a transcript file, plain (``.json``) or gzipped (``.json.gz``).

    Raises:
        OSError: when it cannot be read; ValueError or EOFError when it is not (whole) JSON or gzip.
    """
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a transcript is a JSON object")
    return data


class StoreBusy(RuntimeError):
    """Another run holds the results store's lock; the message names its pid."""


class ResultStore:
    """Appends match records and transcripts under one directory; one run at a time (:meth:`lock`).

    Args:
        directory: The report directory (created on first write).
        run_id: The current run's id; stored records must carry it.
    """

    def __init__(self, directory: Path, run_id: str) -> None:
        self.directory = directory
        self.run_id = run_id
        self._started = False
        self._lock_fd: int | None = None

    def lock(self) -> None:
        """Takes the store's lock for this run (an exclusive ``flock`` on :data:`LOCK_FILE`, freed by the kernel if
        the process dies), before anything in the directory is read or written.

        Raises:
            StoreBusy: another run holds it (the message names its pid).
        """
        import fcntl  # lean: POSIX only, used once per run

        if self._lock_fd is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise StoreBusy(f"another run (pid {holder}) is writing its results there") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def unlock(self) -> None:
        """Frees the store's lock (the file stays: removing it would race with the next run's lock)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    @property
    def path(self) -> Path:
        """Returns the results file path."""
        return self.directory / RESULTS_FILE

    def start(self, carried: Iterable[dict[str, Any]] = ()) -> None:
        """Moves an older results file aside and writes the records carried over from it (``--resume``)."""
        if self._started:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size > 0:
            _move_aside(self.path)
        self._started = True
        lines = [_line(record) for record in carried]
        if lines:
            _append_lines(self.path, lines)

    def append(self, record: dict[str, Any], transcript: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Writes one record (and its transcript) durably; returns the record as stored."""
        self.start()
        if transcript is not None:
            path = write_transcript(self.directory, self.run_id, record["match_id"], transcript)
            record = {**record, "transcript": path}
        _append_lines(self.path, [_line(record)])
        return record


    def rewrite(self, records: Iterable[dict[str, Any]]) -> None:
        """Replaces the results file with these records, atomically (written beside it, then renamed)."""
        self.start()
        partial = self.path.with_name(self.path.name + ".partial")
        _write_durably(partial, "".join(_line(record) + "\n" for record in records))
        os.replace(partial, self.path)


class WorkerJournal:
    """A worker's own durable log of the matches it starts and finishes.

    Each line is ``{"event": "started"|"finished", "record": {...}}``; a
    ``started`` record is the match's unscored skeleton, so the controller can
    record a match whose worker died while playing it.
    """

    def __init__(self, directory: Path, run_id: str, worker: str) -> None:
        self.directory = directory
        self.run_id = run_id
        self.path = directory / WORKERS_DIR / _safe_run_id(run_id) / f"{_safe_run_id(worker)}.jsonl"
        self.error: OSError | None = None
        """The first write that failed (a full disk); the journal writes nothing after it."""

    def started(self, skeleton: dict[str, Any]) -> None:
        """Notes that a match began (its skeleton record)."""
        self._write("started", skeleton)

    def finished(self, record: dict[str, Any], transcript: list[dict[str, Any]] | None) -> dict[str, Any]:
        """Writes the transcript and the finished record; returns the record with its transcript path.

        The record comes back without a ``transcript`` when the journal could
        not write it: the controller then writes the transcript itself (or
        stops the run when it cannot either).
        """
        if transcript is not None and self.error is None:
            try:
                path = write_transcript(self.directory, self.run_id, record["match_id"], transcript)
            except OSError as error:
                self.error = error
            else:
                record = {**record, "transcript": path}
        self._write("finished", record)
        return record

    def _write(self, event: str, record: dict[str, Any]) -> None:
        if self.error is not None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _append_lines(self.path, [json.dumps({"event": event, "record": record}, sort_keys=True,
                                                 separators=(",", ":"))])
        except OSError as error:
            self.error = error


def journal_entries(directory: Path, run_id: str) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Reads a run's worker journals: (started skeletons, finished records), each by match id."""
    started: dict[str, dict[str, Any]] = {}
    finished: dict[str, dict[str, Any]] = {}
    folder = directory / WORKERS_DIR / _safe_run_id(run_id)
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        for entry in read_records(path, unreadable=[]):  # a line no process finished writing holds nothing
            record = entry.get("record")
            if isinstance(record, dict) and isinstance(record.get("match_id"), str):
                (finished if entry.get("event") == "finished" else started)[record["match_id"]] = record
    return started, finished


def interrupted_record(skeleton: dict[str, Any], reason: str) -> dict[str, Any]:
    """Returns the errored record of a match whose process died while playing it (a harness fault).

    A skeleton this code cannot read (journaled by another stratbench version) keeps its fields as written.
    """
    try:
        return MatchRecord.from_json(skeleton).interrupted(reason).to_json()
    except RecordError:
        return {**skeleton, "status": ERRORED, "result": ERRORED, "reason": reason, "fault": "harness"}


def fold_worker_journals(directory: Path, *, skip_run: str | None = None) -> list[dict[str, Any]]:
    """Folds the journals of earlier runs whose controller died into their results files.

    Each journal's finished records that its run's results file lacks are
    appended to it; a match that was started but never finished gets an
    errored record (the process playing it died). The journals are removed
    once folded. Returns the records added.

    Args:
        directory: The report directory.
        skip_run: A run id to leave alone (the run now starting).
    """
    root = directory / WORKERS_DIR
    added: list[dict[str, Any]] = []
    if not root.is_dir():
        return added
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if folder.name == skip_run:
            continue
        added += fold_run(directory, folder.name, reason="the run stopped while this match was being played")
    return added


def fold_run(directory: Path, run_id: str, *, reason: str, known: set[str] | None = None) -> list[dict[str, Any]]:
    """Appends one run's journaled records that its results file lacks; removes the journal.

    Args:
        known: Match ids already stored (read from the results file when None).
        reason: The reason given to matches started but never finished.
    """
    started, finished = journal_entries(directory, run_id)
    if not started and not finished:
        return []
    target = _results_file_of(directory, run_id)
    if known is None:
        known = {r.get("match_id") for r in read_records(target, unreadable=[])} if target.is_file() else set()
    missing = [record for match_id, record in finished.items() if match_id not in known]
    missing += [interrupted_record(skeleton, reason) for match_id, skeleton in started.items()
                if match_id not in known and match_id not in finished]
    if missing:
        _append_lines(target, [_line(record) for record in missing])
    shutil.rmtree(directory / WORKERS_DIR / _safe_run_id(run_id), ignore_errors=True)
    return missing


def _results_file_of(directory: Path, run_id: str) -> Path:
    """Returns the results file that holds (or should hold) a run's records.

    The current ``results.jsonl`` when it is that run's (or absent or empty);
    its moved-aside file when one exists; otherwise a new file beside the
    current one, which moves aside first when it belongs to an older run.
    """
    current = directory / RESULTS_FILE
    safe = _safe_run_id(run_id)
    if not current.is_file() or current.stat().st_size == 0 or _first_run_id(current) == safe:
        return current
    aside = directory / f"results.{safe}.jsonl"
    if aside.exists():
        return aside
    if (_first_run_id(current) or "") < safe:
        _move_aside(current)
        return current
    return aside


def resumable_records(directory: Path, unreadable: list[str] | None = None) -> list[dict[str, Any]]:
    """Returns the scored records of the latest results file in a report directory, last per match id.

    Args:
        unreadable: When given, lines that are not JSON objects are skipped
            and noted here (``<file>:<line>: <problem>``); else they raise ValueError.
    """
    path = directory / RESULTS_FILE
    if not path.is_file():
        return []
    latest: dict[str, dict[str, Any]] = {}
    for record in read_records(path, unreadable=unreadable):
        if isinstance(record.get("match_id"), str) and record.get("settings_hash"):
            latest[record["match_id"]] = record
    return [record for record in latest.values() if is_scored(record)]


def carried_records(directory: Path, run_id: str, unreadable: list[str] | None = None) -> list[dict[str, Any]]:
    """Returns the records ``--resume`` carries into run ``run_id``: :func:`resumable_records`, read as
    :class:`~stratbench.match.record.MatchRecord` and marked with the run that played them.

    Args:
        unreadable: When given, a line or record this code cannot read (a ``version`` newer
            than it knows, a missing field) is skipped and noted here; else it raises ValueError.
    """
    carried = []
    for record in resumable_records(directory, unreadable):
        try:
            carried.append(MatchRecord.from_json(record).carried_into(run_id).to_json())
        except RecordError as error:
            problem = f"{directory / RESULTS_FILE}: {record['match_id']}: {error}"
            if unreadable is None:
                raise ValueError(problem) from None
            unreadable.append(problem)
    return carried


def _move_aside(path: Path) -> Path:
    previous = _first_run_id(path) or "previous"
    target = path.parent / f"results.{previous}.jsonl"
    counter = 1
    while target.exists():
        counter += 1
        target = path.parent / f"results.{previous}.{counter}.jsonl"
    os.replace(path, target)
    return target


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def _append_lines(path: Path, lines: list[str]) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in lines))
        handle.flush()
        os.fsync(handle.fileno())


def replace_text(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` whole: beside it first, then renamed over it (no reader sees half a file)."""
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def _write_durably(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _write_durably_bytes(path: Path, data: bytes) -> None:
    with path.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _safe_run_id(run_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", run_id) or "run"


def _first_run_id(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8") as handle:
            first = json.loads(handle.readline())
        run_id = str(first.get("run_id", ""))
    except (OSError, ValueError, AttributeError):
        return None
    return re.sub(r"[^A-Za-z0-9._-]", "_", run_id) or None


def read_records(path: Path, *, unreadable: list[str] | None = None) -> list[dict[str, Any]]:
    """Reads match records from a results file; a truncated last line is skipped.

    Args:
        unreadable: When given, a line that is not a JSON object is skipped
            and ``<file>:<line>: <problem>`` appended here instead of raised.

    Raises:
        ValueError: naming the file and line when a line other than the last
            is not a JSON object (unless ``unreadable`` is given).
    """
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(lines):
                break  # a run killed mid-write leaves a partial last line
            problem = f"{path}:{number}: not JSON ({error.msg})"
        else:
            if isinstance(value, dict):
                records.append(value)
                continue
            problem = f"{path}:{number}: not a JSON object"
        if unreadable is None:
            raise ValueError(problem)
        unreadable.append(problem)
    return records


def summarize_by_agent(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Aggregates scored records per agent label: matches, W/D/L, mean score, illegal, tokens, cost.

    Skipped and errored records are left out (see :func:`unscored_by_agent`).
    Every side of every two-sided match counts for its agent; single-side
    matches count their score with no W/D/L.
    """
    table: dict[str, dict[str, Any]] = {}
    for record in records:
        if not is_scored(record):
            continue
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
        row["unpriced"] = row["tokens"] > 0 and row["cost_usd"] == 0 and not str(row["agent"]).startswith("local/")
        rows.append(row)
    return sorted(rows, key=lambda r: (-r["mean_score"], r["agent"]))


def match_outcome(match: dict[str, Any]) -> str:
    """A match's result read from the side it belongs to, with how the game ended: ``random lost (X wins)``
    (the result is the subject's, which need not sit first); other results (``scored``, errored) as they are.
    ``match`` is a report row (``agents``) or a record (``sides``)."""
    result = str(match.get("result"))
    agents = match.get("agents") or [side.get("agent") for side in match.get("sides") or []]
    subject = match.get("subject")
    if result in ("won", "lost", "draw") and isinstance(subject, int) and 0 <= subject < len(agents):
        result = f"{agents[subject]} {'drew' if result == 'draw' else result}"
    return result + (f" ({match['terminal']})" if match.get("terminal") else "")


def outcomes_line(rows: list[dict[str, Any]]) -> str:
    """The run's results read from each agent's side, best first: ``minimax 39 won, 1 drew; random 30 lost``
    (:func:`summarize_by_agent`'s rows; an agent of one-side games: ``n scored``)."""
    parts = []
    for row in rows:
        counts = [f"{row[key]} {word}" for key, word in (("won", "won"), ("drawn", "drew"), ("lost", "lost"))
                  if row[key]]
        parts.append(f"{row['agent']} {', '.join(counts) or str(row['matches']) + ' scored'}")
    return "; ".join(parts)


def silent_reasoning(records: Iterable[dict[str, Any]]) -> list[str]:
    """A note per agent that asked for reasoning (an effort or a thinking budget) and got no reasoning tokens back
    in any of its scored matches: the model may not reason, or its provider may not report it."""
    asked: dict[str, list[int]] = {}
    for record in records:
        if not is_scored(record):
            continue
        for index, side in enumerate(record.get("sides", [])):
            params = side.get("params") or {}
            if not side.get("model") or not ({"reasoning_effort", "thinking_budget"} & set(params)):
                continue
            usage = (record.get("usage") or [{}] * (index + 1))[index] or {}
            asked.setdefault(side["agent"], []).append(int(usage.get("reasoning_tokens") or 0))
    return [f"{agent}: asked to reason, and no reasoning tokens came back in its {len(tokens)} match(es) (the "
            "model may not reason, or its provider may not report it)"
            for agent, tokens in sorted(asked.items()) if not any(tokens)]


def shown_name(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters with an ellipsis when longer (a table column)."""
    return name if len(name) <= width else name[:width - 1] + "…"


def shown_usd(row: dict[str, Any], width: int = 9) -> str:
    """An agent's cost for a table: ``unpriced`` where it spent tokens that no price covers (give ``--price``),
    never a 0 that reads as free."""
    return f"{'unpriced':>{width}}" if row.get("unpriced") else f"{row['cost_usd']:>{width}.4f}"


def unscored_by_agent(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Counts skipped and errored records per agent label (every side of a match counts for its agent).

    Returns:
        Rows ``{"agent", "skipped", "errored", "faults": {fault: n}}`` sorted by agent.
    """
    table: dict[str, dict[str, Any]] = {}
    for record in records:
        status = status_of(record)
        if status == SCORED:
            continue
        for agent in sorted({side.get("agent", "?") for side in record.get("sides", [])}):
            row = table.setdefault(agent, {"agent": agent, SKIPPED: 0, ERRORED: 0, "faults": {}})
            row[status if status in (SKIPPED, ERRORED) else ERRORED] += 1
            if status == ERRORED:
                fault = str(record.get("fault") or "harness")
                row["faults"][fault] = row["faults"].get(fault, 0) + 1
    return [table[agent] for agent in sorted(table)]


def latest_per_match(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns one record per match id, the last given (a match played again replaces its earlier record)."""
    return list({record["match_id"]: record for record in records}.values())
