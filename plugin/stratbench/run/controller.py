"""The controller's plugin: stores every match's record as it ends, writes the reports, runs the gate and prints
the summary."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from stratbench.run.config import cost_notes, dropped_notes
from stratbench.run.estimate import estimate_lines
from stratbench.run.progress import Progress, line_writer
from stratbench.run.remote_results import CASSETTE_PROPERTY, store_cassette
from stratbench.run.session import StratbenchSession
from stratbench.stash import POOL_KEY, RECORD_PROPERTY, TRANSCRIPT_PROPERTY
from stratbench.run.gating import check_pytest_options, run_gate
from stratbench.run.results import (
    StoreBusy,
    carried_records,
    fold_run,
    fold_worker_journals,
    interrupted_record,
    journal_entries,
    latest_per_match,
    match_outcome,
    outcomes_line,
    shown_name,
    shown_usd,
    silent_reasoning,
    status_of,
    summarize_by_agent,
    unscored_by_agent,
)
from stratbench.match.record import unstarted_record
from stratbench.core.match_work import still_running
from stratbench.report.memorisation import unrenamed_games


def peak_rss_mb() -> float:
    """Returns this process's peak resident memory in MB (0 where the platform does not say)."""
    try:
        import resource  # optional: resource is POSIX-only
    except ImportError:  # not on POSIX
        return 0.0
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # Linux reports KiB


class ControllerPlugin:
    """Stores results and prints the summary; registered on the controller only."""

    def __init__(self, config: pytest.Config, session: StratbenchSession, baseline: dict[str, Any] | None) -> None:
        self.config = config
        self.session = session
        self.baseline = baseline
        self.report: dict[str, Any] | None = None
        self.written: dict[str, Path] = {}
        self.gate: Any = None
        self.report_error: str | None = None
        self.cost_notes = dropped_notes(session.settings) + cost_notes(session.settings)
        self.start_notes: list[str] = []
        """Warnings found while starting, printed before the first match."""
        self.store_error: str | None = None
        """Why the results store failed to write, once it has; the run then stops."""
        self.pytest_session: pytest.Session | None = None
        self.recorded: set[str] = set()
        self.carried: set[str] = set()
        self.folded: list[dict[str, Any]] = []
        self.peak_rss: dict[str, float] = {}
        """Each xdist worker's peak RSS in MB, by worker id."""
        self.gate_error: str | None = None
        self.claimed = False
        """Whether this run holds its results store (taken once it has matches to play, or under --resume)."""
        self.progress: Progress | None = None
        self.progress_total = 0
        self.started_ids: set[str] = set()
        self.match_set: set[str] = set()
        self.estimated = False
        problem = check_pytest_options(config, baseline)
        if problem:
            raise pytest.UsageError(f"stratbench: {problem}")

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Warns, before any match, about skipped unreadable results lines and models the budget cannot bound."""
        self.pytest_session = session
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        for note in [*self.start_notes, *self.cost_notes]:
            if terminal is not None:
                terminal.write_line(f"stratbench: warning: {note}", yellow=True)

    def start(self) -> None:
        """With --resume: takes the results store's lock (a second run on the directory is refused, naming the
        first's pid), folds the journals of earlier runs whose controller died and carries their records. Any other
        run does so once it has collected matches to play (:meth:`claim_store`): a session that collects none
        never touches the directory.

        Only scored records are carried (their run id becomes this run's, the
        run that played them stays in ``played_run_id``); every other match of
        the selection is played again. A write that fails here (a full disk)
        is one line and exit 4, before any match.
        """
        if self.session.settings.resume:  # the carried records decide what is collected: before collection
            self.claim_store(1)

    def claim_store(self, matches: int) -> None:
        """Takes the results store for a run with ``matches`` to play (nothing for none), once; refused in one line,
        before any match, when another run holds it."""
        settings = self.session.settings
        if self.claimed or not matches or self.session.store is None or self.config.getoption("collectonly"):
            return
        try:
            self.session.store.lock()
            self._carry_over()
        except StoreBusy as error:
            raise pytest.UsageError(f"stratbench: --report-dir {settings.report_dir}: {error}; let it finish, or "
                                    "give this run another --report-dir") from None
        except OSError as error:
            raise pytest.UsageError(
                f"stratbench: cannot write {error.filename or settings.report_dir} ({error.strerror or error})"
            ) from None
        self.claimed = True

    def _carry_over(self) -> None:
        settings = self.session.settings
        self.folded = fold_worker_journals(settings.report_dir, skip_run=settings.run_id)
        if not settings.resume or self.session.store is None:
            return
        unreadable: list[str] = []
        carried = carried_records(settings.report_dir, settings.run_id, unreadable)
        if unreadable:
            more = f" (and {len(unreadable) - 1} more unreadable line(s))" if len(unreadable) > 1 else ""
            self.start_notes.append(
                f"--resume: {unreadable[0]}{more}: skipped; the match a skipped line held is played again "
                f"(the file is kept beside the new one)")
        self.session.finished = {record["match_id"]: record["settings_hash"] for record in carried}
        self.session.store.start(carried)
        self.session.records.extend(carried)
        self.carried = {record["match_id"] for record in carried}

    def _store(self, record: dict[str, Any], transcript: list[dict[str, Any]] | None) -> None:
        if record["match_id"] in self.recorded or self.session.store is None or self.store_error is not None:
            return
        try:
            stored = self.session.beside_matches(self.session.store.append, record, transcript)
        except OSError as error:
            self._stop_storing(error)
            return
        self.recorded.add(record["match_id"])
        self.session.records.append(stored)
        self.config.hook.pytest_stratbench_match_recorded(record=stored)

    def _stop_storing(self, error: OSError) -> None:
        """Stops the run after the results store failed to write (a full disk, a file made read-only).

        Records written before stay as they are; the cassettes of matches
        played since stay too, so ``--resume`` replays those matches without
        model calls (under xdist their records wait in the worker journals,
        folded in by the next run).
        """
        assert self.session.store is not None
        path = error.filename or self.session.store.path
        self.store_error = (
            f"stratbench: cannot write {path} ({error.strerror or error}); the run stops here: the records "
            f"written before are kept, and --resume finishes the run (matches played since replay their cassettes)"
        )
        dsession = self.config.pluginmanager.get_plugin("dsession")  # xdist's controller loop
        if dsession is not None:
            dsession.shouldstop = self.store_error
        elif self.pytest_session is not None:
            self.pytest_session.shouldstop = self.store_error

    @pytest.hookimpl(trylast=True)
    def say_estimate(self, matches: dict[str, Any]) -> None:
        """Before a live run plays: per model, its matches, expected calls, prompt tokens and their cost
        (:mod:`stratbench.run.estimate`); nothing when no model is called (a replay)."""
        settings = self.session.settings
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        if not settings.models or settings.record_mode == "none" or terminal is None or self.estimated:
            return
        self.estimated = True
        for line in estimate_lines(matches, dict(settings.prices)):
            terminal.write_line(line)

    # ------------------------------------------------------------ the progress line

    def start_progress(self, matches: list[str]) -> None:
        """Starts the progress line over the collected matches (their node ids; ``--progress``; never under
        ``-q``)."""
        self.match_set = set(matches)
        total = len(matches)
        interval = self.config.getoption("stratbench_progress")
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        if (self.progress is not None or not interval or terminal is None or total == 0
                or self.config.getoption("verbose") < 0 or self.config.getoption("collectonly")):
            return
        self.progress_total = total
        write = line_writer(self.config, terminal)
        self.progress = Progress(write, interval, self._progress_state)
        self.progress.start()
        pool = self.config.stash.get(POOL_KEY, None)
        if pool is not None and pool.width > 1:  # matches end out of order, ahead of their items: say each at once
            pool.on_done = lambda nodeid, played: write(
                f"stratbench: done: {played.record.get('test_id', nodeid)}: {match_outcome(played.record)}")

    def _progress_state(self) -> tuple[int, int, int, int, int, float | None]:
        pool = self.config.stash.get(POOL_KEY, None)
        if pool is not None and not pool.started:  # an xdist controller's pool plays nothing: its workers' do
            pool = None
        ahead = list(pool.tasks.values()) if pool is not None else []
        finished_ahead = sum(1 for task in ahead if task.done())  # played, its item not reported yet
        done = len(self.recorded) + finished_ahead
        if pool is not None:
            in_flight = len(ahead) - finished_ahead
        else:
            in_flight = max(0, len((self.started_ids & self.match_set) - self.recorded))
        client = getattr(self.session, "_client", None)
        if client is not None:  # one process: every completed call so far
            calls, tokens, cost = (client.usage.calls, client.usage.prompt_tokens + client.usage.completion_tokens,
                                   client.usage.cost_usd)
        else:  # xdist: the finished matches' use
            mine = [r for r in self.session.records if r.get("match_id") in self.recorded]
            usage = [u for r in mine for u in (r.get("usage") or []) if isinstance(u, dict)]
            calls = sum(int(u.get("calls", 0)) for u in usage)
            tokens = sum(int(u.get("prompt_tokens", 0)) + int(u.get("completion_tokens", 0)) for u in usage)
            cost = sum(float(u.get("cost_usd", 0.0)) for u in usage)
        return (done, self.progress_total, in_flight, calls, tokens, None if calls and not cost else cost)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        """Counts a match as in flight when its item starts (here or on an xdist worker)."""
        self.started_ids.add(nodeid)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Folds in what workers finished but never reported, writes the reports and runs the gate."""
        if self.progress is not None:
            self.progress.stop()
        if not self.claimed:  # no match was collected: the report directory is not this session's
            return
        settings = self.session.settings
        if self.store_error is None:  # else the worker journals keep what could not be stored, for --resume
            known = self.recorded | {r["match_id"] for r in self.session.records}
            for record in fold_run(settings.report_dir, settings.run_id, known=known,
                                   reason="the run stopped while this match was being played"):
                self.session.records.append(record)
                self.recorded.add(record["match_id"])
        if self.carried and session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK  # --resume found every match finished
        records = latest_per_match(self.session.records)
        if self.carried & self.recorded and self.session.store is not None and self.store_error is None:
            # carried records whose settings changed were played again: keep one record per match
            self.session.store.rewrite(records)
            self.carried -= self.recorded
        if not records:
            return

        from stratbench.report.analysis import analyse, manifest_for  # lean: rating stack; only the controller reports

        manifest = manifest_for(records, command=["pytest", *sys.argv[1:]], versions=self.session.versions)
        self.report = analyse(
            records,
            sections=self.session.registry.report_sections,
            resamples=self.config.getoption("stratbench_bootstrap"),
            manifest=manifest,
        )
        self.report["notes"].extend([*self.cost_notes, *silent_reasoning(records)])
        if self.baseline is not None or self.config.getoption("stratbench_gate_map"):
            self.gate, self.gate_error, status = run_gate(self.config, self.report, self.baseline)
            self.report["gate"] = None if self.gate is None else self.gate.to_dict()
            if status and session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = status
        from stratbench.report.render import write_reports  # lean: jinja2 and the charts; only the controller reports

        try:
            self.written = write_reports(self.report, self.session.settings.report_dir,
                                         renderers=self.session.registry.board_renderers)
        except OSError as error:  # the results are stored already; say why the reports are missing
            self.report_error = f"could not write the reports into {self.session.settings.report_dir}: {error}"

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Stores each match's record at once, whichever phase settled it.

        A match whose xdist worker crashed gets the record the worker journaled
        before dying, else an errored record (fault ``harness``).
        """
        properties = dict(report.user_properties)
        if CASSETTE_PROPERTY in properties:  # recorded by a worker on another machine
            try:
                store_cassette(properties[CASSETTE_PROPERTY], self.session.settings.cassette_dir)
            except (OSError, ValueError) as error:  # the record is still stored; say what is missing
                terminal = self.config.pluginmanager.get_plugin("terminalreporter")
                if terminal is not None:
                    terminal.write_line(f"stratbench: warning: {report.nodeid}: cassette not kept: {error}",
                                        yellow=True)
        if RECORD_PROPERTY in properties:
            record = json.loads(properties[RECORD_PROPERTY])
            transcript = json.loads(properties[TRANSCRIPT_PROPERTY]) if TRANSCRIPT_PROPERTY in properties else None
            self._store(record, transcript)
        elif report.when == "???" and report.failed and report.nodeid not in self.recorded:
            crashed = self._crashed(report)
            if crashed is not None:
                self._store(crashed, None)

    def _crashed(self, report: pytest.TestReport) -> dict[str, Any] | None:
        started, finished = journal_entries(self.session.settings.report_dir, self.session.settings.run_id)
        if report.nodeid in finished:
            return finished[report.nodeid]
        lines = [line for line in report.longreprtext.splitlines() if line.strip()]
        reason = "the xdist worker crashed while playing it" + (f" ({lines[0].strip()})" if lines else "")
        if report.nodeid in started:
            return interrupted_record(started[report.nodeid], reason)
        if "[" not in report.nodeid:
            return None  # not a match
        # the worker died before the match began: only its id is known
        test_id = report.nodeid.split("[", 1)[1].rstrip("]")
        return unstarted_record(report.nodeid, test_id, self.session.settings.run_id, reason).to_json()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Prints the per-agent summary of this run's matches."""
        session = self.session
        if not session.records or session.store is None:
            return

        records = latest_per_match(session.records)
        rows = summarize_by_agent(records)
        terminalreporter.write_sep("=", "stratbench: per-agent summary")
        terminalreporter.write_line(
            f"{'agent':<34} {'matches':>7} {'W':>4} {'D':>4} {'L':>4} {'mean':>6} {'illegal':>7} "
            f"{'tokens':>9} {'cost $':>9}"
        )
        for row in rows:
            terminalreporter.write_line(
                f"{shown_name(row['agent'], 34):<34} {row['matches']:>7} {row['won']:>4} {row['drawn']:>4} "
                f"{row['lost']:>4} {row['mean_score']:>6.2f} {row['illegal']:>7} {row['tokens']:>9} {shown_usd(row)}"
            )
        if any(row["unpriced"] for row in rows):
            terminalreporter.write_line("unpriced: tokens no price covers (litellm has none for the model); give one "
                                        "with --price MODEL=IN,OUT (USD per million input, output tokens)")
        terminalreporter.write_line(f"outcomes: {outcomes_line(rows)}")
        for note in silent_reasoning(records):
            terminalreporter.write_line(f"stratbench: note: {note}", yellow=True)
        self._write_unscored(terminalreporter, records)
        if session.settings.obfuscations:
            unrenamed = unrenamed_games(records)
            if unrenamed:
                terminalreporter.write_line(f"--obfuscate: games without renamed variants: {', '.join(unrenamed)}")
        if self.carried:
            terminalreporter.write_line(f"resumed: {len(self.carried)} scored match(es) carried from earlier runs")
        if self.folded:
            terminalreporter.write_line(
                f"recovered {len(self.folded)} record(s) an earlier, interrupted run had finished", yellow=True)
        terminalreporter.write_line(f"results: {session.store.path}")

        for stuck in still_running():  # native code a stopped step could not interrupt: it ends when it returns
            terminalreporter.write_line(f"stratbench: warning: a step stopped by --match-timeout is still running "
                                        f"in native code: {stuck}", yellow=True)
        processes = [("controller" if self.peak_rss else "process", peak_rss_mb()), *sorted(self.peak_rss.items())]
        terminalreporter.write_line("peak RSS: " + ", ".join(f"{name} {mb:.0f} MB" for name, mb in processes))
        if self.report is not None:
            self._write_ratings(terminalreporter)
            for path in self.written.values():
                terminalreporter.write_line(f"wrote {path}")
            if self.report_error:
                terminalreporter.write_line(f"stratbench: {self.report_error}", red=True)
        if self.gate is not None or self.gate_error:
            terminalreporter.write_sep("=", "stratbench: regression gate")
            lines = self.gate.explain().splitlines() if self.gate is not None else [self.gate_error]
            for line in lines:
                terminalreporter.write_line(line, red=line.strip().startswith(("FAIL", "stratbench gate: nothing")))

    def _write_unscored(self, terminalreporter: Any, records: list[dict[str, Any]]) -> None:
        """Lists the skipped and errored matches: counts per agent, then one line per match with its reason."""
        rows = unscored_by_agent(records)
        if not rows:
            return
        terminalreporter.write_sep("=", "stratbench: skipped and errored matches")
        terminalreporter.write_line(f"{'agent':<34} {'skipped':>7} {'errored':>7}  faults")
        for row in rows:
            faults = ", ".join(f"{fault} {n}" for fault, n in sorted(row["faults"].items())) or "–"
            terminalreporter.write_line(f"{row['agent'][:34]:<34} {row['skipped']:>7} {row['errored']:>7}  {faults}")
        for record in sorted((r for r in records if status_of(r) != "scored"), key=lambda r: r["match_id"]):
            fault = record.get("fault") or "–"
            terminalreporter.write_line(
                f"{status_of(record).upper():<8} {fault:<8} {record.get('test_id', record['match_id'])}: "
                f"{record.get('reason', '')}",
                red=status_of(record) == "errored", yellow=status_of(record) == "skipped",
            )

    def _write_ratings(self, terminalreporter: Any) -> None:
        report = self.report
        assert report is not None
        terminalreporter.write_sep("=", "stratbench: ratings")
        ratings = report.get("ratings")
        if ratings:
            level = round(ratings["level"] * 100)
            terminalreporter.write_line(
                f"Bradley-Terry, game-balanced bootstrap B={ratings['n_resamples']}, {level}% intervals, "
                f"alpha={ratings['alpha']}, ties {ratings['ties']}, failed resamples {ratings['n_failed']}"
            )
            terminalreporter.write_line(f"{'agent':<34} {'rating':>7}  {'interval':<17} {'matches':>7}")
            order = sorted(range(len(ratings["agents"])), key=lambda k: (
                -ratings["mean"][k] if ratings["mean"][k] is not None else float("inf"), ratings["agents"][k]))
            for k in order:
                agent, mean, low, high = (ratings["agents"][k], ratings["mean"][k], ratings["low"][k],
                                          ratings["high"][k])
                if mean is None:
                    continue
                interval = "–" if low is None or high is None else f"[{low:+.2f}, {high:+.2f}]"
                terminalreporter.write_line(
                    f"{agent[:34]:<34} {mean:>+7.2f}  {interval:<17} {ratings['n_matches'][k]:>7}"
                )
        for note in report.get("notes", []):
            terminalreporter.write_line(f"note: {note}", yellow=True)
