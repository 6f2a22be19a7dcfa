"""The pytest plugin: options, match parametrisation, outcome capture and the summary.

Installing pytest-stratbench activates this module through the ``pytest11``
entry point. The run state lives in a :class:`~stratbench.run.session.StratbenchSession`
kept in ``config.stash``; only the xdist controller (or a plain session)
writes files.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from stratbench import options as _options
from stratbench.core.schedule import MatchSpec, SuiteSpec, build_schedule, from_book, with_obfuscations
from stratbench.long_lived import freeze_once
from stratbench.match.fixture import Match, match
from stratbench.redact import redact_value
from stratbench.registry import Registry
from stratbench.run.config import (
    check_model_keys,
    dropped_request_params,
    is_controller,
    load_baseline_option,
    settings_from_config,
    validate_run,
)
from stratbench.run.controller import ControllerPlugin, peak_rss_mb
from stratbench.run.gating import openings, plays_pairs
from stratbench.run.pool import MatchPool, upcoming_items, worker_queue
from stratbench.run.suite_files import match_ids, suite_game
from stratbench.run.remote_results import CASSETTE_PROPERTY, cassette_property, controller_input, is_remote
from stratbench.run.results import ERRORED, SKIPPED, WorkerJournal, is_scored
from stratbench.run.session import StratbenchSession
from stratbench.stash import (
    KEYS_CHECKED_KEY,
    PLAYED_KEY,
    POOL_ENTRY_KEY,
    POOL_KEY,
    POSITIONS_KEY,
    RECORD_PROPERTY,
    RECORDED_KEY,
    REMOTE_KEY,
    RESULT_PROPERTY,
    SESSION_KEY,
    TRANSCRIPT_PROPERTY,
    UNSCORED_KEY,
)
from stratbench.llm.cassettes import cassette_path

__all__ = ["ControllerPlugin", "Match", "build_registry", "match"]  # ``match``: the fixture pytest finds here

ADAPTIVE_PLUGIN = "stratbench-adaptive"
GATE_PLAN_PLUGIN = "stratbench-gate-plan"
"""A gated run that plays as collected: says the gate's plan and skips the matches that cannot complete a unit."""
_STATUS = {
    "won": ("W", "WON", {"green": True}),
    "lost": ("L", "LOST", {"red": True}),
    "draw": ("D", "DRAW", {"yellow": True}),
    "scored": ("S", "SCORE", {"cyan": True}),
}


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Adds stratbench's hook specifications and registers the installed families (:mod:`stratbench.families`).

    The earliest hook of the plugin: a family's own ``pytest_addhooks`` runs as
    it is registered, before any conftest or test module loads.
    """
    from stratbench import hookspecs  # setup: loads after _skip_assert_rewriting
    from stratbench.families import FamilyLoadError, register_families  # setup: loads after _skip_assert_rewriting

    _skip_assert_rewriting(pluginmanager)
    pluginmanager.add_hookspecs(hookspecs)
    try:
        register_families(pluginmanager)
    except FamilyLoadError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None


def _skip_assert_rewriting(pluginmanager: pytest.PytestPluginManager) -> None:
    """Asks pytest not to rewrite the asserts of stratbench's modules imported from now on.

    pytest rewrites an installed plugin's whole package, parsing each module
    as it is imported, in whichever thread imports it. A match imports its
    game's heavier modules late, in its own worker thread, and CPython 3.11's
    AST constructor is not thread-safe: two such imports at once can fail with
    ``SystemError: AST constructor recursion depth mismatch`` (pytest #10763),
    erroring a match for nothing. stratbench's modules hold no test asserts.
    """
    hook = getattr(pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)  # pytest's set of packages to rewrite (no public way to unmark)
    if isinstance(marked, set) and "stratbench" in marked:
        marked.discard("stratbench")
        cache = getattr(hook, "_marked_for_rewrite_cache", None)
        if isinstance(cache, dict):
            cache.clear()


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """Adds the ``stratbench`` option group, then each family's options (``pytest_stratbench_addoption``)."""
    _options.add_options(parser)
    pluginmanager.hook.pytest_stratbench_addoption.call_historic(kwargs={"parser": parser})


def build_registry(config: pytest.Config) -> Registry:
    """Collects every game, agent, scaffold and metric registered through the hooks."""
    from stratbench.families import fill_registry  # setup: loads after _skip_assert_rewriting

    return fill_registry(config.hook)


def pytest_configure(config: pytest.Config) -> None:
    """Registers the built-ins, validates the options and creates the session."""
    config.addinivalue_line(
        "markers",
        "stratbench(game, opponents, baselines, matches, seats, ...): declare a suite test that "
        "plays matches of a game through the 'match' fixture",
    )
    settings = settings_from_config(config)
    registry = build_registry(config)
    validate_run(config, settings, registry)
    if is_controller(config):  # a worker gets them from the controller: the labels must agree
        settings = replace(settings, dropped_params=dropped_request_params(settings))
    else:
        dropped = json.loads(config.workerinput.get("stratbench_dropped", "{}"))  # type: ignore[attr-defined]
        settings = replace(settings, dropped_params={model: tuple(names) for model, names in dropped.items()})
    session = StratbenchSession(settings, registry, is_controller=is_controller(config))
    config.stash[SESSION_KEY] = session
    if config.getoption("human_web") or config.getoption("human_port"):  # a port without a page is refused there
        from stratbench.human_web.run import start_for_run  # setup: loads after _skip_assert_rewriting

        start_for_run(config)
    baseline = load_baseline_option(config.getoption("baseline"))
    config._stratbench_baseline = baseline  # read once: the gate's pairs and openings use this copy too
    if config.getoption("stratbench_schedule") == "adaptive":
        from stratbench.run.scheduling import AdaptiveSchedule  # setup: loads after _skip_assert_rewriting

        # Adaptive scheduling picks each match from the results before it: no matches are started ahead.
        config.pluginmanager.register(AdaptiveSchedule(config.getoption("stratbench_budget")), ADAPTIVE_PLUGIN)
    elif config.getoption("stratbench_gate_until_decided") or config.getoption("stratbench_gate_plan"):
        from stratbench.run.gate_schedule import GateSchedule  # setup: loads after _skip_assert_rewriting
        from stratbench.run.gating import settings_from_pytest  # setup: loads after _skip_assert_rewriting

        config.pluginmanager.register(GateSchedule(config, settings_from_pytest(config), baseline),
                                      ADAPTIVE_PLUGIN)  # taken and run like adaptive
    elif settings.concurrency > 1:
        config.stash[POOL_KEY] = MatchPool(session, settings.concurrency)
    if config.pluginmanager.get_plugin(ADAPTIVE_PLUGIN) is None and (
            config.getoption("baseline") or config.getoption("stratbench_gate_map")):
        from stratbench.run.gate_schedule import GateSchedule  # setup: loads after _skip_assert_rewriting
        from stratbench.run.gating import settings_from_pytest  # setup: loads after _skip_assert_rewriting

        # any other gated run: the plan first, and no match played that cannot complete a unit
        config.pluginmanager.register(GateSchedule(config, settings_from_pytest(config), baseline,
                                                   until_decided=False), GATE_PLAN_PLUGIN)
    if session.is_controller:
        controller = ControllerPlugin(config, session, baseline)
        controller.start()
        config.pluginmanager.register(controller, "stratbench-controller")
        from stratbench.system_components import register_notice  # setup: loads after _skip_assert_rewriting

        register_notice(config, registry.system_components, settings.as_options())
    else:
        workerinput = config.workerinput  # type: ignore[attr-defined]
        session.journal = WorkerJournal(settings.report_dir, settings.run_id, str(workerinput.get("workerid", "gw")))
        session.finished = json.loads(workerinput.get("stratbench_finished", "{}"))
        config.stash[REMOTE_KEY] = is_remote(workerinput, settings.cassette_dir)
        from stratbench.run.xdist_orphan import watch_controller  # setup: loads after _skip_assert_rewriting

        watch_controller(config)
    freeze_once()  # the plugin's and its families' modules live as long as the process


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any | None:
    """Keeps each worker's queue as long as its match pool is wide (:mod:`stratbench.run.xdist_schedule`)."""
    session = config.stash.get(SESSION_KEY, None)
    if session is None or config.getoption("stratbench_schedule") == "adaptive":
        return None
    from stratbench.run.xdist_schedule import make_scheduler  # setup: loads after _skip_assert_rewriting

    return make_scheduler(config, log, session.settings.concurrency)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Hands the controller's run id (and, with --resume, the finished matches) to each xdist worker."""
    session = node.config.stash[SESSION_KEY]
    node.workerinput["stratbench_run_id"] = session.settings.run_id
    node.workerinput["stratbench_finished"] = json.dumps(session.finished)
    node.workerinput["stratbench_dropped"] = json.dumps(session.settings.dropped_params)
    node.workerinput.update(controller_input(session.settings.cassette_dir))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """Keeps each xdist worker's peak RSS for the summary."""
    controller = node.config.pluginmanager.get_plugin("stratbench-controller")
    output = getattr(node, "workeroutput", None) or {}
    if controller is not None and "stratbench_peak_rss_mb" in output:
        controller.peak_rss[str(output.get("workerid", node.gateway.id))] = output["stratbench_peak_rss_mb"]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands its peak RSS to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["stratbench_peak_rss_mb"] = peak_rss_mb()
        workeroutput["workerid"] = session.config.workerinput.get("workerid", "gw")  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    """Cancels the started matches no item asked for, then closes the session's event loop."""
    pool = config.stash.get(POOL_KEY, None)
    if pool is not None:
        pool.close()
        del config.stash[POOL_KEY]
    session = config.stash.get(SESSION_KEY, None)
    if session is not None:
        session.close()
        del config.stash[SESSION_KEY]
    for name in ("stratbench-controller", ADAPTIVE_PLUGIN, GATE_PLAN_PLUGIN):
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin)


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Says aloud when the gate makes two-seat matches play each seed in both seatings, and where the games with an
    opening book start when ``--openings`` was not given."""
    lines = []
    if plays_pairs(config) and not config.getoption("stratbench_pairs"):
        lines.append("stratbench gate: each seed of a two-seat game plays in both seatings, one unit of the gate "
                     "(as --pairs)")
    gated = config.getoption("baseline") or config.getoption("stratbench_gate_map")
    if gated and (config.getoption("numprocesses", None) or config.getoption("tx", None)):
        lines.append("stratbench gate: under -n the workers collect the matches, so the plan (units that pair, units "
                     "to a decision, cost) is not printed here: the same command with --gate-plan, without -n, prints "
                     "it; each worker skips the matches that cannot complete a unit")
    start, why = openings(config)
    if why is not None and start == "book":
        lines.append(f"stratbench: the games with an opening book (Tic-Tac-Toe, Connect Four, chess) start each seed "
                     f"from a balanced position of it (--openings book: {why}; the paper protocol keeps the "
                     "empty board)")
    elif why is not None:
        lines.append(f"stratbench gate: every seed starts from the game's own start ({why}): a game played the same "
                     "way twice counts once; record the baseline with --pairs for positions that differ")
    return lines


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
        suite = session.apply_protocol(SuiteSpec.from_marker(marker.kwargs))
        game = registry.game(suite.game)
        seated = {t for seating in (suite.seatings or {}).values() for t in seating if t != "subject"}
        for opponent in (*suite.opponents, *suite.baselines, *sorted(seated)):
            registry.check_agent(opponent)
        if suite.variants is not None:
            variants = [(v, None) for v in suite.variants]
        else:
            listed = registry.variants(suite.game, {**session.settings.as_options(), "protocol": suite.protocol})
            variants = None if listed is None else [(v.name, v.skip) for v in listed]
        specs = build_schedule(
            suite,
            session.subjects(suite),
            num_sides=len(game.info.sides),
            matches=session.settings.matches,
            base_seed=session.settings.seed,
            variants=variants,
            limits=session.limits(suite),
            pairs=plays_pairs(metafunc.config),
        )
        specs = [session.seat_models(spec) for spec in specs]
        if getattr(game, "supports_openings", False) and openings(metafunc.config)[0] == "book":
            specs = [spec if spec.protocol != "default" or session.is_reference(spec) else from_book(spec)
                     for spec in specs]  # the papers' protocols and the committed recordings keep their starts
        if getattr(game, "supports_obfuscation", False):  # --obfuscate: a probe beside each match
            specs = [probe for spec in specs for probe in with_obfuscations([spec], session.renamings_for(spec))]
    except ValueError as error:
        pytest.fail(f"{name}: {error}", pytrace=False)
    params = [
        pytest.param((spec, suite), id=spec.id, marks=[pytest.mark.skip(reason=spec.skip)] if spec.skip else [])
        for spec in specs
    ]
    metafunc.parametrize("match", params, indirect=True)


def _match_param(item: pytest.Item) -> tuple[MatchSpec, SuiteSpec] | None:
    """Returns the (spec, suite) an item plays, or None for an item that is not a match."""
    callspec = getattr(item, "callspec", None)
    param = callspec.params.get("match") if callspec is not None else None
    if isinstance(param, tuple) and len(param) == 2 and isinstance(param[0], MatchSpec):
        return param
    return None


@pytest.hookimpl(trylast=True)  # after -k, -m and other plugins' selections: shard what is left
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Selects the items this run plays: its shard, then (--resume) those without a scored record.

    Under ``--schedule adaptive`` the adaptive scheduler then takes the
    remaining items (it decides their order and which matches to skip).
    """
    session = config.stash.get(SESSION_KEY, None)
    if session is None:
        return
    shard = config.getoption("stratbench_shard", None)
    if shard is not None:
        kept, others = shard.split(items, lambda item: item.nodeid)
        items[:] = kept
        if others:
            config.hook.pytest_deselected(items=others)
    _deselect_finished(config, session, items)
    if is_controller(config):  # under xdist the controller collects nothing: see pytest_xdist_node_collection_finished
        matches = [item.nodeid for item in items if _match_param(item) is not None]
        controller = config.pluginmanager.get_plugin("stratbench-controller")
        if controller is not None:
            controller.claim_store(len(matches))
            per_model: dict[str, Counter] = {}
            for item in items:
                param = _match_param(item)
                if param is not None and not item.get_closest_marker("skip"):
                    for model in {side.model for side in param[0].sides if side.model}:
                        per_model.setdefault(model, Counter())[param[0].game] += 1
            controller.say_estimate(per_model)
        check_model_keys(config, session, matches)
    adaptive = config.pluginmanager.get_plugin(ADAPTIVE_PLUGIN) or config.pluginmanager.get_plugin(GATE_PLAN_PLUGIN)
    if adaptive is not None:
        adaptive.take([(item, (_match_param(item) or (None,))[0]) for item in items], session.records)


def _deselect_finished(config: pytest.Config, session: StratbenchSession, items: list[pytest.Item]) -> None:
    """With --resume, deselects the matches that already have a scored record for the same settings."""
    if not session.finished:
        return
    keep, done = [], []
    for item in items:
        param = _match_param(item)
        finished = param is not None and session.finished.get(item.nodeid) == session.settings_hash(*param)
        (done if finished else keep).append(item)
    if done:
        config.hook.pytest_deselected(items=done)
        items[:] = keep


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """On the xdist controller: refuses, before any match is sent, a run that must call a model without its key."""
    config = node.config
    session = config.stash.get(SESSION_KEY, None)
    if session is not None and not config.stash.get(KEYS_CHECKED_KEY, False):
        config.stash[KEYS_CHECKED_KEY] = True  # every worker collects the same ids
        controller = config.pluginmanager.get_plugin("stratbench-controller")
        matches = match_ids(list(ids), config.rootpath)  # the workers collected them; read from the suite files
        if controller is not None:
            controller.claim_store(len(matches))
            per_model: dict[str, Counter] = {}
            for nodeid in matches:  # the ids name each side's agent label: model+scaffold
                for model in session.settings.models:
                    if f"{model}+" in nodeid:
                        per_model.setdefault(model, Counter())[suite_game(nodeid, config.rootpath) or "?"] += 1
            controller.say_estimate(per_model)
        check_model_keys(config, session, list(ids))
        if controller is not None:  # the progress line over the matches the workers collected
            controller.start_progress(matches)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Notes each item's position, so the match pool finds the items that come next at once; starts the progress
    line over the matches to play (one process)."""
    if POOL_KEY in session.config.stash:
        session.config.stash[POSITIONS_KEY] = {id(item): i for i, item in enumerate(session.items)}
    controller = session.config.pluginmanager.get_plugin("stratbench-controller")
    if controller is not None:
        controller.start_progress([item.nodeid for item in session.items if _match_param(item) is not None
                                   and not item.get_closest_marker("skip")])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """With ``--stratbench-concurrency`` above 1, starts the matches of the items that come next.

    N matches of this process's upcoming items (this one first) are in flight
    on the session's loop; each item's ``match.play()`` waits for its own
    (see :mod:`stratbench.run.pool`). Items marked skip or skipif are
    left to pytest.
    """
    pool = item.config.stash.get(POOL_KEY, None)
    if pool is None or _match_param(item) is None:
        return
    positions = item.config.stash.get(POSITIONS_KEY, {})
    if id(item) not in positions:
        return
    read_queue = worker_queue(item.config)

    def upcoming() -> list[tuple[str, MatchSpec, SuiteSpec]]:
        found = []
        for candidate in upcoming_items(item.session.items, positions[id(item)], nextitem,
                                        read_queue() if read_queue is not None else None):
            entry = _pool_entry(candidate)
            if entry is None:
                continue
            found.append(entry)
            if len(found) == pool.lookahead:
                break
        return found

    # Without xdist what comes next is fixed; a worker's queue grows as the controller sends more.
    pool.plan(upcoming(), upcoming if read_queue is not None else None)


def _pool_entry(item: pytest.Item) -> tuple[str, MatchSpec, SuiteSpec] | None:
    """Returns what the match pool starts for an item (node id, spec, suite), or None: not a match, or marked
    skip or skipif. Read once per item (each item is looked at again as every earlier one starts)."""
    if POOL_ENTRY_KEY not in item.stash:
        param = _match_param(item)
        skipped = any(next(item.iter_markers(name), None) for name in ("skip", "skipif"))
        item.stash[POOL_ENTRY_KEY] = None if param is None or skipped else (item.nodeid, *param)
    return item.stash[POOL_ENTRY_KEY]


# -----------------------------------------------------------------------------
# reporting
# -----------------------------------------------------------------------------


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Attaches each match's one record to its report (builtin types only): scored, skipped or errored.

    On an xdist worker the record and transcript are first written to the
    worker's own journal (fsynced), so nothing finished is lost if the
    controller dies.
    """
    outcome = yield
    report = outcome.get_result()
    param = _match_param(item)
    if param is None or item.stash.get(RECORDED_KEY, False):
        return
    found = _record_for(item, report, param)
    if found is None:
        return
    record, transcript = found
    record, transcript = redact_value(record), redact_value(transcript)  # no URL credentials reach a file
    item.stash[RECORDED_KEY] = True
    session = item.config.stash[SESSION_KEY]
    remote = item.config.stash.get(REMOTE_KEY, False)
    if session.journal is not None:  # a worker on another machine also sends the transcript and cassette
        journaled = session.beside_matches(session.journal.finished, record, transcript)
        written = "transcript" in journaled  # else the controller writes it
        record, transcript = (journaled, transcript) if remote or not written else (journaled, None)
    properties = [(RECORD_PROPERTY, json.dumps(record))]
    if remote:
        cassette_dir = session.settings.cassette_dir
        returned = cassette_property(record, cassette_dir, cassette_path(cassette_dir, item.nodeid))
        if returned is not None:
            properties.append((CASSETTE_PROPERTY, returned))
    if transcript is not None:
        properties.append((TRANSCRIPT_PROPERTY, json.dumps(transcript)))
    if is_scored(record):
        score = record["scores"][record["subject"]]
        properties.insert(0, (RESULT_PROPERTY, f"{record['result']}|{score:.2f}"))
    report.user_properties = [*report.user_properties, *properties]


def _record_for(
    item: pytest.Item, report: pytest.TestReport, param: tuple[MatchSpec, SuiteSpec]
) -> tuple[dict[str, Any], list[dict[str, Any]] | None] | None:
    """Returns the record a report settles for its match (and its transcript), or None when not yet settled."""
    session = item.config.stash[SESSION_KEY]
    spec, suite = param
    if report.when == "setup" and not report.passed:
        if report.skipped:
            return session.unscored(spec, suite, item.nodeid, SKIPPED, _skip_reason(report)), None
        return session.unscored(spec, suite, item.nodeid, ERRORED, _failure(report), fault="harness"), None
    if report.when != "call":
        return None
    played = item.stash.get(PLAYED_KEY, None)
    if played is not None:
        return played.record, played.transcript
    unscored = item.stash.get(UNSCORED_KEY, None)
    if unscored is not None:
        return unscored
    if report.skipped:
        return session.unscored(spec, suite, item.nodeid, SKIPPED, _skip_reason(report)), None
    reason = _failure(report) if report.failed else "the test ended without calling match.play()"
    return session.unscored(spec, suite, item.nodeid, ERRORED, reason, fault="harness"), None


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return str(text).removeprefix("Skipped: ")


def _failure(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return str(crash.message)
    lines = [line for line in report.longreprtext.splitlines() if line.strip()]
    return lines[-1] if lines else "failed"


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    """Shows a match's outcome for its subject (``WON 1.00``, ``LOST 0.00``, ``DRAW 0.50``) as its status; the run's
    count line says ``N scored``."""
    if report.when != "call" or not report.passed:
        return None
    result = dict(report.user_properties).get(RESULT_PROPERTY)
    if result is None:
        return None
    category, _, score = result.partition("|")
    letter, word, markup = _STATUS.get(category, ("?", category.upper(), {}))
    # counted as "scored": the subject's won or lost summed over a run reads from nobody's side (minimax's wins are
    # random's losses); the summary's "outcomes:" line counts each agent's own
    return "scored", letter, (f"{word} {score}", markup)


