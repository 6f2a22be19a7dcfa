"""The pytest plugin: options, match parametrisation, outcome capture and the summary.

Installing pytest-stratbench activates this module through the ``pytest11``
entry point. The run state lives in a :class:`~stratbench.session.StratbenchSession`
kept in ``config.stash``; only the xdist controller (or a plain session)
writes files.
"""

from __future__ import annotations

import json
import socket
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from stratbench import options as _options
from stratbench.core.schedule import MatchSpec, SuiteSpec, build_schedule
from stratbench.core.types import HarnessError
from stratbench.llm.budget import BudgetExceeded
from stratbench.registry import Registry
from stratbench.session import PlayedMatch, RunSettings, StratbenchSession

SESSION_KEY = pytest.StashKey[StratbenchSession]()
PLAYED_KEY = pytest.StashKey[PlayedMatch]()
RECORD_PROPERTY = "stratbench_record"
TRANSCRIPT_PROPERTY = "stratbench_transcript"
RESULT_PROPERTY = "stratbench_result"
_STATUS = {
    "won": ("W", "WON", {"green": True}),
    "lost": ("L", "LOST", {"red": True}),
    "draw": ("D", "DRAW", {"yellow": True}),
    "scored": ("S", "SCORE", {"cyan": True}),
}


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Adds stratbench's hook specifications."""
    from stratbench import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds the ``stratbench`` option group."""
    _options.add_options(parser)


def _is_controller(config: pytest.Config) -> bool:
    # xdist workers have workerinput; only the controller writes files (pytest #10641 pattern).
    return not hasattr(config, "workerinput")


def build_registry(config: pytest.Config) -> Registry:
    """Collects every game, agent, scaffold and metric registered through the hooks."""
    registry = Registry()
    config.hook.pytest_stratbench_add_games(registry=registry)
    config.hook.pytest_stratbench_add_agents(registry=registry)
    config.hook.pytest_stratbench_add_scaffolds(registry=registry)
    config.hook.pytest_stratbench_add_metrics(registry=registry)
    config.hook.pytest_stratbench_add_reporters(registry=registry)
    return registry


def pytest_configure(config: pytest.Config) -> None:
    """Registers the built-ins, validates the options and creates the session."""
    config.addinivalue_line(
        "markers",
        "stratbench(game, opponents, baselines, matches, seats, ...): declare a suite test that "
        "plays matches of a game through the 'match' fixture",
    )
    from stratbench import builtins

    if not config.pluginmanager.is_registered(builtins):
        config.pluginmanager.register(builtins, "stratbench-builtins")
    settings = _settings(config)
    registry = build_registry(config)
    _validate(config, settings, registry)
    session = StratbenchSession(settings, registry, is_controller=_is_controller(config))
    config.stash[SESSION_KEY] = session
    if session.is_controller:
        baseline = _load_baseline(config.getoption("baseline"))
        config.pluginmanager.register(ControllerPlugin(config, session, baseline), "stratbench-controller")
        from stratbench.system_components import register_notice

        register_notice(config, {"stockfish": settings.stockfish})


def _settings(config: pytest.Config) -> RunSettings:
    root = Path(config.rootpath)
    if _is_controller(config):
        run_id = time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:6]
    else:
        run_id = config.workerinput.get("stratbench_run_id", "worker")  # type: ignore[attr-defined]
    report_dir = config.getoption("report_dir") or config.getini("stratbench_report_dir")
    cassette_dir = config.getoption("stratbench_cassette_dir") or config.getini("stratbench_cassette_dir")
    cassette_path = (root / cassette_dir) if not Path(cassette_dir).is_absolute() else Path(cassette_dir)
    models = list(config.getoption("model"))
    reference_mode = config.getoption("stratbench_reference")
    from stratbench.llm.local import LocalModelError, parse_model_files
    from stratbench.reference import ReferenceError, choose_profile

    try:
        reference = choose_profile(
            reference_mode, cassette_path, subjects_given=bool(models or config.getoption("stratbench_agent"))
        )
        local_models = parse_model_files(
            list(config.getoption("local_model")), models + list(reference.models if reference else [])
        )
    except (ReferenceError, LocalModelError) as error:
        raise pytest.UsageError(f"stratbench: {error}") from None
    return RunSettings(
        models=models,
        scaffolds=list(config.getoption("scaffold")) or ["direct"],
        agents=list(config.getoption("stratbench_agent")),
        matches=config.getoption("matches"),
        seed=config.getoption("seed"),
        api_base=config.getoption("api_base"),
        temperature=config.getoption("temperature"),
        max_tokens=config.getoption("stratbench_max_tokens"),
        max_cost=config.getoption("max_cost"),
        report_dir=(root / report_dir) if not Path(report_dir).is_absolute() else Path(report_dir),
        cassette_dir=cassette_path,
        record_mode=config.getoption("record_mode"),
        run_id=run_id,
        stockfish=config.getoption("stockfish"),
        pddl_dir=Path(config.getoption("pddl_dir")).resolve() if config.getoption("pddl_dir") else None,
        annotator_model=config.getoption("annotator_model"),
        vision=config.getoption("stratbench_vision"),
        local_models=local_models,
        reference=reference,
        reference_mode="record" if reference_mode == "record" else "replay",
        request_timeout=config.getoption("request_timeout"),
        retries=config.getoption("retries"),
        prices={model: (inp / 1e6, out / 1e6) for model, inp, out in config.getoption("price")},
    )


def _validate(config: pytest.Config, settings: RunSettings, registry: Registry) -> None:
    try:
        for name in settings.scaffolds:
            registry.check_scaffold(name)
        for name in settings.agents:
            registry.check_agent(name)
    except ValueError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None
    if "human" in settings.agents and config.getoption("capture") != "no":
        raise pytest.UsageError("stratbench: the human agent reads your moves from the terminal; run pytest with -s")
    if settings.models:
        _validate_models(settings.models)
    if settings.reference is not None:
        try:
            for name in settings.reference.scaffolds:
                registry.check_scaffold(name)
        except ValueError as error:
            raise pytest.UsageError(f"stratbench: {settings.reference.path}: {error}") from None
    if settings.api_base and settings.record_mode != "none" and settings.models and _is_controller(config):
        _check_reachable(settings.api_base)
    _check_directories(config, settings)


def _check_directories(config: pytest.Config, settings: RunSettings) -> None:
    """Refuses, before any match, a report or cassette directory the run cannot use."""
    from stratbench.startup import directory_problem

    records = settings.record_mode != "none" and bool(
        settings.models or settings.annotator_model or settings.reference_mode == "record"
    )
    checks = [("--stratbench-cassette-dir", settings.cassette_dir, records)]
    if _is_controller(config):
        checks.append(("--report-dir", settings.report_dir, True))
    for option, path, write in checks:
        problem = directory_problem(option, path, write=write)
        if problem is not None:
            raise pytest.UsageError(f"stratbench: {problem}")


def _cost_notes(settings: RunSettings) -> list[str]:
    """Returns the warning that --max-cost cannot bound the models litellm cannot price (empty if none)."""
    if settings.max_cost is None:
        return []
    from stratbench.llm.budget import unpriced_models, unpriced_note

    models = [*settings.models, *([settings.annotator_model] if settings.annotator_model else [])]
    unpriced = unpriced_models(models, settings.prices)
    return [unpriced_note(settings.max_cost, unpriced)] if unpriced else []


def _load_baseline(path: str | None) -> dict[str, Any] | None:
    """Loads and checks a --baseline results.json before any test runs."""
    if path is None:
        return None
    file = Path(path)
    if file.is_dir():
        file = file / "results.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise pytest.UsageError(f"stratbench: --baseline {path}: cannot read a results.json ({error})") from None
    if not isinstance(data, dict) or "matches" not in data:
        raise pytest.UsageError(f"stratbench: --baseline {path}: not a stratbench results.json (no 'matches')")
    return data


def _validate_models(models: list[str]) -> None:
    from stratbench.llm.client import configure_litellm_environment

    configure_litellm_environment()
    import litellm

    from stratbench.llm.local import is_local

    for model in models:
        if is_local(model):
            continue
        try:
            litellm.get_llm_provider(model)
        except Exception:  # litellm raises several types for unknown providers
            raise pytest.UsageError(
                f"stratbench: --model {model!r}: litellm cannot tell its provider; use a "
                f"'provider/model' string such as openai/gpt-4o or anthropic/claude-sonnet-4-5"
            ) from None


def _check_reachable(api_base: str) -> None:
    url = urlparse(api_base)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        with socket.create_connection((url.hostname or "", port), timeout=3):
            pass
    except OSError as error:
        raise pytest.UsageError(
            f"stratbench: cannot reach --api-base {api_base} ({error.strerror or error}); start the "
            f"server, or drop --api-base and use --record-mode=none to replay cassettes"
        ) from None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Hands the controller's run id to each xdist worker."""
    session = node.config.stash[SESSION_KEY]
    node.workerinput["stratbench_run_id"] = session.settings.run_id


def pytest_unconfigure(config: pytest.Config) -> None:
    """Closes the session's event loop."""
    session = config.stash.get(SESSION_KEY, None)
    if session is not None:
        session.close()
        del config.stash[SESSION_KEY]
    controller = config.pluginmanager.get_plugin("stratbench-controller")
    if controller is not None:
        config.pluginmanager.unregister(controller)


# -----------------------------------------------------------------------------
# collection
# -----------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Expands a suite test's ``match`` fixture into its schedule of matches."""
    if "match" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("stratbench")
    name = metafunc.definition.nodeid
    if marker is None:
        pytest.fail(f"{name} uses the 'match' fixture but has no @pytest.mark.stratbench(game=...)", pytrace=False)
    session = metafunc.config.stash[SESSION_KEY]
    registry = build_registry(metafunc.config)
    session.registry = registry
    try:
        suite = SuiteSpec.from_marker(marker.kwargs)
        game = registry.game(suite.game)
        seated = {t for seating in (suite.seatings or {}).values() for t in seating if t != "subject"}
        for opponent in (*suite.opponents, *suite.baselines, *sorted(seated)):
            registry.check_agent(opponent)
        if suite.variants is not None:
            variants = [(v, None) for v in suite.variants]
        else:
            listed = registry.variants(suite.game, session.settings.as_options())
            variants = None if listed is None else [(v.name, v.skip) for v in listed]
        specs = build_schedule(
            suite,
            session.subjects(suite),
            num_sides=len(game.info.sides),
            matches=session.settings.matches,
            base_seed=session.settings.seed,
            variants=variants,
            limits=session.limits(suite),
        )
    except ValueError as error:
        pytest.fail(f"{name}: {error}", pytrace=False)
    params = [
        pytest.param((spec, suite), id=spec.id, marks=[pytest.mark.skip(reason=spec.skip)] if spec.skip else [])
        for spec in specs
    ]
    metafunc.parametrize("match", params, indirect=True)


class Match:
    """The ``match`` fixture's value: one scheduled match, played by :meth:`play`."""

    def __init__(self, session: StratbenchSession, spec: MatchSpec, suite: SuiteSpec, item: pytest.Item) -> None:
        self.session = session
        self.spec = spec
        self.suite = suite
        self.item = item

    def play(self, **options: Any) -> PlayedMatch:
        """Plays the match and records its outcome on the test report.

        Args:
            **options: Extra agent options (for example ``human_input``).

        Returns:
            The played match: outcome, result record and transcript.
        """
        try:
            played = self.session.play(self.spec, self.suite, self.item.nodeid, options=options)
        except BudgetExceeded as error:
            pytest.skip(str(error))
        except HarnessError as error:
            pytest.fail(f"{type(error).__name__}: {error}", pytrace=False)
        self.item.stash[PLAYED_KEY] = played
        return played


@pytest.fixture
def match(request: pytest.FixtureRequest) -> Match:
    """Provides the match a suite test plays (parametrised by the plugin)."""
    if not hasattr(request, "param"):
        pytest.fail("the 'match' fixture needs @pytest.mark.stratbench(game=...) on the test", pytrace=False)
    spec, suite = request.param
    session = request.config.stash[SESSION_KEY]
    if session.budget is not None and spec.uses_llm:
        try:
            session.budget.check()
        except BudgetExceeded as error:
            pytest.skip(str(error))
    return Match(session, spec, suite, request.node)


# -----------------------------------------------------------------------------
# reporting
# -----------------------------------------------------------------------------


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Attaches a played match's record to the call report (builtin types only)."""
    outcome = yield
    report = outcome.get_result()
    played = item.stash.get(PLAYED_KEY, None)
    if report.when == "call" and played is not None:
        record = played.record
        score = record["scores"][record["subject"]]
        report.user_properties = [
            *report.user_properties,
            (RESULT_PROPERTY, f"{record['result']}|{score:.2f}"),
            (RECORD_PROPERTY, json.dumps(record)),
            (TRANSCRIPT_PROPERTY, json.dumps(played.transcript)),
        ]


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    """Shows a match's outcome (``WON 1.00``, ``LOST 0.00``, ``DRAW 0.50``) as its status."""
    if report.when != "call" or not report.passed:
        return None
    result = dict(report.user_properties).get(RESULT_PROPERTY)
    if result is None:
        return None
    category, _, score = result.partition("|")
    letter, word, markup = _STATUS.get(category, ("?", category.upper(), {}))
    return category, letter, (f"{word} {score}", markup)


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
        self.cost_notes = _cost_notes(session.settings)
        if baseline is None:
            for flag in ("--stratbench-gate-tolerance", "--stratbench-gate-map"):
                if config.getoption(flag.lstrip("-").replace("-", "_")) not in (0.0, []):
                    raise pytest.UsageError(
                        f"stratbench: {flag} needs --baseline PATH (a results.json to compare with)"
                    )

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Warns, before any match, about models the cost budget cannot bound."""
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        for note in self.cost_notes:
            if terminal is not None:
                terminal.write_line(f"stratbench: warning: {note}", yellow=True)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Writes the reports and runs the gate once every match has finished."""
        records = self.session.records
        if not records:
            return
        import sys

        from stratbench.report.analysis import analyse, manifest_for
        from stratbench.report.render import write_reports

        manifest = manifest_for(records, command=["pytest", *sys.argv[1:]], versions=self.session.versions)
        self.report = analyse(
            records,
            sections=self.session.registry.report_sections,
            resamples=self.config.getoption("stratbench_bootstrap"),
            manifest=manifest,
        )
        self.report["notes"].extend(self.cost_notes)
        from stratbench.report.boards import BOARDS

        try:
            self.written = write_reports(self.report, self.session.settings.report_dir, boards=BOARDS)
        except OSError as error:  # the results are stored already; say why the reports are missing
            self.report_error = f"could not write the reports into {self.session.settings.report_dir}: {error}"
        if self.baseline is not None:
            from stratbench.report.gate import GateSettings, check

            settings = GateSettings(
                tolerance=self.config.getoption("stratbench_gate_tolerance"),
                agent_map=dict(item.split("=", 1) for item in self.config.getoption("stratbench_gate_map")),
            )
            self.gate = check(self.report, self.baseline, settings)
            if self.gate.failed and session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Stores each finished match's record at once."""
        if report.when != "call":
            return
        properties = dict(report.user_properties)
        if RECORD_PROPERTY not in properties or self.session.store is None:
            return
        record = json.loads(properties[RECORD_PROPERTY])
        transcript = json.loads(properties.get(TRANSCRIPT_PROPERTY, "[]"))
        self.session.store.append(record, transcript)
        from stratbench.results import TRANSCRIPT_DIR, transcript_name

        # The store writes the transcript file; the report links it from the record, as stored.
        record["transcript"] = f"{TRANSCRIPT_DIR}/{transcript_name(record['match_id'])}"
        self.session.records.append(record)
        self.config.hook.pytest_stratbench_match_recorded(record=record)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Prints the per-agent summary of this run's matches."""
        session = self.session
        if not session.records or session.store is None:
            return
        from stratbench.results import summarize_by_agent

        rows = summarize_by_agent(session.records)
        terminalreporter.write_sep("=", "stratbench: per-agent summary")
        terminalreporter.write_line(
            f"{'agent':<34} {'matches':>7} {'W':>4} {'D':>4} {'L':>4} {'mean':>6} {'illegal':>7} "
            f"{'tokens':>9} {'cost $':>9}"
        )
        for row in rows:
            terminalreporter.write_line(
                f"{row['agent'][:34]:<34} {row['matches']:>7} {row['won']:>4} {row['drawn']:>4} {row['lost']:>4} "
                f"{row['mean_score']:>6.2f} {row['illegal']:>7} {row['tokens']:>9} {row['cost_usd']:>9.4f}"
            )
        terminalreporter.write_line(f"results: {session.store.path}")
        if self.report is not None:
            self._write_ratings(terminalreporter)
            for path in self.written.values():
                terminalreporter.write_line(f"wrote {path}")
            if self.report_error:
                terminalreporter.write_line(f"stratbench: {self.report_error}", red=True)
        if self.gate is not None:
            terminalreporter.write_sep("=", "stratbench: regression gate")
            for line in self.gate.explain().splitlines():
                terminalreporter.write_line(line, red=line.strip().startswith("FAIL"))

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
            terminalreporter.write_line(f"{'agent':<34} {'rating':>7}  {'interval':<17} {'matches':>7} {'Elo':>6}")
            elo = report.get("elo") or {}
            order = sorted(range(len(ratings["agents"])), key=lambda k: (
                -ratings["mean"][k] if ratings["mean"][k] is not None else float("inf"), ratings["agents"][k]))
            for k in order:
                agent, mean, low, high = (ratings["agents"][k], ratings["mean"][k], ratings["low"][k],
                                          ratings["high"][k])
                if mean is None:
                    continue
                interval = "–" if low is None or high is None else f"[{low:+.2f}, {high:+.2f}]"
                terminalreporter.write_line(
                    f"{agent[:34]:<34} {mean:>+7.2f}  {interval:<17} {ratings['n_matches'][k]:>7} "
                    f"{elo.get(agent, float('nan')):>6.0f}"
                )
        for note in report.get("notes", []):
            terminalreporter.write_line(f"note: {note}", yellow=True)
