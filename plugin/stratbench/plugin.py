"""The pytest plugin: options, match parametrisation, outcome capture and the summary.

Installing pytest-stratbench activates this module through the ``pytest11``
entry point. The run state lives in a :class:`~stratbench.run.session.StratbenchSession`
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
from stratbench.llm.limits import LimitSettings
from stratbench.match.play import MatchFailure
from stratbench.run.pool import MatchPool, upcoming_items, worker_queue
from stratbench.redact import redact_text, redact_value
from stratbench.registry import Registry
from stratbench.run.remote_results import CASSETTE_PROPERTY, cassette_property, controller_input, is_remote, store_cassette
from stratbench.run.results import ERRORED, SKIPPED, is_scored
from stratbench.run.session import PlayedMatch, RunSettings, StratbenchSession

SESSION_KEY = pytest.StashKey[StratbenchSession]()
PLAYED_KEY = pytest.StashKey[PlayedMatch]()
UNSCORED_KEY = pytest.StashKey[tuple[dict[str, Any], list[dict[str, Any]]]]()
RECORDED_KEY = pytest.StashKey[bool]()
REMOTE_KEY = pytest.StashKey[bool]()
POOL_KEY = pytest.StashKey[MatchPool]()
POSITIONS_KEY = pytest.StashKey[dict[int, int]]()
KEYS_CHECKED_KEY = pytest.StashKey[bool]()
RECORD_PROPERTY = "stratbench_record"
TRANSCRIPT_PROPERTY = "stratbench_transcript"
RESULT_PROPERTY = "stratbench_result"
ADAPTIVE_PLUGIN = "stratbench-adaptive"
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
    from stratbench import hookspecs
    from stratbench.families import FamilyLoadError, register_families

    pluginmanager.add_hookspecs(hookspecs)
    try:
        register_families(pluginmanager)
    except FamilyLoadError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """Adds the ``stratbench`` option group, then each family's options (``pytest_stratbench_addoption``)."""
    _options.add_options(parser)
    pluginmanager.hook.pytest_stratbench_addoption.call_historic(kwargs={"parser": parser})


def _is_controller(config: pytest.Config) -> bool:
    # xdist workers have workerinput; only the controller writes files (pytest #10641 pattern).
    return not hasattr(config, "workerinput")


def build_registry(config: pytest.Config) -> Registry:
    """Collects every game, agent, scaffold and metric registered through the hooks."""
    from stratbench.families import fill_registry

    return fill_registry(config.hook)


def pytest_configure(config: pytest.Config) -> None:
    """Registers the built-ins, validates the options and creates the session."""
    config.addinivalue_line(
        "markers",
        "stratbench(game, opponents, baselines, matches, seats, ...): declare a suite test that "
        "plays matches of a game through the 'match' fixture",
    )
    settings = _settings(config)
    registry = build_registry(config)
    _validate(config, settings, registry)
    session = StratbenchSession(settings, registry, is_controller=_is_controller(config))
    config.stash[SESSION_KEY] = session
    if config.getoption("stratbench_schedule") == "adaptive":
        from stratbench.run.scheduling import AdaptiveSchedule

        # Adaptive scheduling picks each match from the results before it: no matches are started ahead.
        config.pluginmanager.register(AdaptiveSchedule(config.getoption("stratbench_budget")), ADAPTIVE_PLUGIN)
    elif config.getoption("stratbench_gate_until_decided"):
        from stratbench.run.gate_schedule import GateSchedule
        from stratbench.run.gating import settings_from_pytest

        config.pluginmanager.register(GateSchedule(config, settings_from_pytest(config)),
                                      ADAPTIVE_PLUGIN)  # taken and run like adaptive
    elif settings.concurrency > 1:
        config.stash[POOL_KEY] = MatchPool(session, settings.concurrency)
    if session.is_controller:
        baseline = _load_baseline(config.getoption("baseline"))
        controller = ControllerPlugin(config, session, baseline)
        controller.start()
        config.pluginmanager.register(controller, "stratbench-controller")
        from stratbench.system_components import register_notice

        register_notice(config, registry.system_components, settings.as_options())
    else:
        from stratbench.run.results import WorkerJournal

        workerinput = config.workerinput  # type: ignore[attr-defined]
        session.journal = WorkerJournal(settings.report_dir, settings.run_id, str(workerinput.get("workerid", "gw")))
        session.finished = json.loads(workerinput.get("stratbench_finished", "{}"))
        config.stash[REMOTE_KEY] = is_remote(workerinput, settings.cassette_dir)
        from stratbench.run.xdist_orphan import watch_controller

        watch_controller(config)


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
        temperature=0.0 if config.getoption("temperature") is None else config.getoption("temperature"),
        temperature_given=config.getoption("temperature") is not None,
        protocol=config.getoption("stratbench_protocol"),
        max_tokens=config.getoption("stratbench_max_tokens"),
        max_cost=config.getoption("max_cost"),
        report_dir=(root / report_dir) if not Path(report_dir).is_absolute() else Path(report_dir),
        cassette_dir=cassette_path,
        record_mode=config.getoption("record_mode"),
        run_id=run_id,
        annotator_model=config.getoption("annotator_model"),
        vision=config.getoption("stratbench_vision"),
        local_models=local_models,
        reference=reference,
        reference_mode="record" if reference_mode == "record" else "replay",
        request_timeout=config.getoption("request_timeout"),
        retries=config.getoption("retries"),
        max_concurrency=config.getoption("max_concurrency"),
        prices={model: (inp / 1e6, out / 1e6) for model, inp, out in config.getoption("price")},
        match_timeout=config.getoption("match_timeout") or None,
        metric_timeout=config.getoption("stratbench_metric_timeout") or None,
        resume=config.getoption("stratbench_resume"),
        scaffold_settings={"rap": {"depth": config.getoption("rap_depth"),
                                   "iterations": config.getoption("rap_iterations")}},
        families=_family_settings(config),
        concurrency=default_concurrency(config.getoption("stratbench_concurrency"), models,
                                        list(config.getoption("stratbench_agent")),
                                        budgeted=config.getoption("max_cost") is not None),
        limits=LimitSettings(
            concurrency={model: int(n) for model, n in config.getoption("model_concurrency")},
            rpm=dict(config.getoption("model_rpm")),
            tpm=dict(config.getoption("model_tpm")),
        ),
    )


def _family_settings(config: pytest.Config) -> dict[str, Any]:
    """Each family's settings (``pytest_stratbench_family_settings``), by family; two with one name is an error."""
    from stratbench.family_settings import merged_options

    families: dict[str, Any] = {}
    for settings in config.hook.pytest_stratbench_family_settings(config=config):
        if settings is None:
            continue
        name = type(settings).family
        if not name or name in families:
            raise pytest.UsageError(f"stratbench: family settings {type(settings).__name__} "
                                    f"{'name no family' if not name else f'use the family name {name!r} twice'}")
        families[name] = settings
    try:
        merged_options(families)
    except ValueError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None
    return families


DEFAULT_CONCURRENCY_WITH_MODEL = 16
"""Matches in flight per process when a model is under test and ``--stratbench-concurrency`` is not given."""


def default_concurrency(given: int | None, models: list[str], agents: list[str], *, budgeted: bool = False) -> int:
    """Returns the matches a process plays at once.

    ``--stratbench-concurrency`` when given; else 16 with a ``--model`` (a
    model call takes seconds, and the process would otherwise wait on one at
    a time), else 1 (offline baselines and replays are CPU-bound: playing them
    at once gains nothing). With ``--max-cost`` the default is 1: every match
    in flight spends, so the budget would stop many half-played matches
    instead of the next one. The human agent reads the terminal: always 1.
    """
    if "human" in agents:
        return 1
    if given is not None:
        return given
    return DEFAULT_CONCURRENCY_WITH_MODEL if models and not budgeted else 1


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
    if _is_controller(config):  # litellm's import costs seconds: an xdist worker loads it at its first call
        if settings.models:
            _validate_models(settings.models)
        for option, model in settings.family_models().items():
            _validate_models([model], option=option)
    if settings.reference is not None:
        try:
            for name in settings.reference.scaffolds:
                registry.check_scaffold(name)
        except ValueError as error:
            raise pytest.UsageError(f"stratbench: {settings.reference.path}: {error}") from None
    from stratbench.run.scheduling import schedule_problem

    problem = schedule_problem(config)
    if problem is not None:
        raise pytest.UsageError(f"stratbench: {problem}")
    if settings.api_base and settings.record_mode != "none" and settings.models and _is_controller(config):
        _check_reachable(settings.api_base)
    _check_directories(config, settings)


def _check_directories(config: pytest.Config, settings: RunSettings) -> None:
    """Refuses, before any match, a report or cassette directory (or results file) the run cannot use."""
    from stratbench.run.startup import directory_problem

    records = settings.record_mode != "none" and bool(
        settings.models or settings.annotator_model or settings.family_models()
        or settings.reference_mode == "record"
    )
    checks = [("--stratbench-cassette-dir", settings.cassette_dir, records)]
    if _is_controller(config):
        checks.append(("--report-dir", settings.report_dir, True))
    for option, path, write in checks:
        problem = directory_problem(option, path, write=write)
        if problem is not None:
            raise pytest.UsageError(f"stratbench: {problem}")
    if _is_controller(config):
        from stratbench.run.results import RESULTS_FILE
        from stratbench.run.startup import results_file_problem

        problem = results_file_problem("--report-dir", settings.report_dir / RESULTS_FILE)
        if problem is not None:
            raise pytest.UsageError(f"stratbench: {problem}")


def _cost_notes(settings: RunSettings) -> list[str]:
    """Returns the warning that --max-cost cannot bound the models litellm cannot price (empty if none)."""
    if settings.max_cost is None:
        return []
    from stratbench.llm.budget import unpriced_models, unpriced_note

    models = [*settings.models, *([settings.annotator_model] if settings.annotator_model else []),
              *settings.family_models().values()]
    unpriced = unpriced_models(models, settings.prices)
    return [unpriced_note(settings.max_cost, unpriced)] if unpriced else []


def _load_baseline(path: str | None) -> dict[str, Any] | None:
    """Loads and checks a --baseline results.json before any test runs."""
    from stratbench.run.gating import load_baseline

    try:
        return load_baseline(path)
    except ValueError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None


def _validate_models(models: list[str], option: str = "--model") -> None:
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
                f"stratbench: {option} {model!r}: litellm cannot tell its provider; use a "
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
            f"stratbench: cannot reach --api-base {redact_text(api_base)} ({error.strerror or error}); start the "
            f"server, or drop --api-base and use --record-mode=none to replay cassettes"
        ) from None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any | None:
    """Keeps each worker's queue as long as its match pool is wide (:mod:`stratbench.run.xdist_schedule`)."""
    session = config.stash.get(SESSION_KEY, None)
    if session is None or config.getoption("stratbench_schedule") == "adaptive":
        return None
    from stratbench.run.xdist_schedule import make_scheduler

    return make_scheduler(config, log, session.settings.concurrency)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Hands the controller's run id (and, with --resume, the finished matches) to each xdist worker."""
    session = node.config.stash[SESSION_KEY]
    node.workerinput["stratbench_run_id"] = session.settings.run_id
    node.workerinput["stratbench_finished"] = json.dumps(session.finished)
    node.workerinput.update(controller_input(session.settings.cassette_dir))


def peak_rss_mb() -> float:
    """Returns this process's peak resident memory in MB (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return 0.0
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # Linux reports KiB


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
    for name in ("stratbench-controller", ADAPTIVE_PLUGIN):
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin)


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
            pairs=metafunc.config.getoption("stratbench_pairs"),
        )
        specs = [session.seat_models(spec) for spec in specs]
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
    if _is_controller(config):  # under xdist the controller collects nothing: see pytest_xdist_node_collection_finished
        _check_model_keys(config, session, [item.nodeid for item in items if _match_param(item) is not None])
    adaptive = config.pluginmanager.get_plugin(ADAPTIVE_PLUGIN)
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
        _check_model_keys(config, session, list(ids))


def _check_model_keys(config: pytest.Config, session: StratbenchSession, nodeids: list[str]) -> None:
    """Raises a usage error (exit 4, nothing played) when a collected match must call a model whose key is unset."""
    if config.option.collectonly:
        return
    from stratbench.run.startup import missing_key_problem

    settings = session.settings
    problem = missing_key_problem(nodeids, settings.models, cassette_dir=settings.cassette_dir,
                                  record_mode=settings.record_mode, api_base=settings.api_base)
    if problem is not None:
        raise pytest.UsageError(f"stratbench: {problem}")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Notes each item's position, so the match pool finds the items that come next at once."""
    if POOL_KEY in session.config.stash:
        session.config.stash[POSITIONS_KEY] = {id(item): i for i, item in enumerate(session.items)}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """With ``--stratbench-concurrency`` above 1, starts the matches of the items that come next.

    Up to N matches of this process's upcoming items (this one first) are in
    flight on the session's loop; each item's ``match.play()`` waits for its
    own (see :mod:`stratbench.run.pool`). Items marked skip or skipif are
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
            param = _match_param(candidate)
            if param is None or any(next(candidate.iter_markers(name), None) for name in ("skip", "skipif")):
                continue
            found.append((candidate.nodeid, *param))
            if len(found) == pool.width:
                break
        return found

    # Without xdist what comes next is fixed; a worker's queue grows as the controller sends more.
    pool.plan(upcoming(), upcoming if read_queue is not None else None)


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
        failure: MatchFailure | None = None
        pool = self.item.config.stash.get(POOL_KEY, None)
        nodeid = self.item.nodeid
        try:
            if pool is not None and pool.has(nodeid) and not options:
                played = pool.result(nodeid)
            else:
                if pool is not None:
                    pool.discard(nodeid)  # started without the options this test passes: play it again
                played = self.session.play(self.spec, self.suite, nodeid, options=options)
        except BudgetExceeded as error:
            pytest.skip(str(error))
        except Exception as error:
            failure = self.session.failures.pop(nodeid, None)
            if failure is None or failure.error is not error:
                raise
        if failure is not None:  # outside the except block: the failure line carries no exception chain
            record = self.session.unscored(self.spec, self.suite, self.item.nodeid, ERRORED, str(failure),
                                           fault=failure.fault, started=failure.started)
            self.item.stash[UNSCORED_KEY] = (record, failure.transcript)
            if failure.fault == "harness" and not isinstance(failure.error, HarnessError):
                raise failure.error  # a bug: keep its traceback
            pytest.fail(redact_text(f"{failure} [fault: {failure.fault}]"), pytrace=False)
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
    if session.journal is not None:  # an xdist worker notes the start, so a crash still gets a record
        session.journal.started(session.unscored(spec, suite, request.node.nodeid, ERRORED, "started",
                                                 fault="harness"))
    return Match(session, spec, suite, request.node)


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
        journaled = session.journal.finished(record, transcript)
        written = "transcript" in journaled  # else the controller writes it
        record, transcript = (journaled, transcript) if remote or not written else (journaled, None)
    properties = [(RECORD_PROPERTY, json.dumps(record))]
    if remote:
        from stratbench.llm.cassettes import cassette_path

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
        from stratbench.run.gating import check_pytest_options

        self.gate_error: str | None = None
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
        """Folds the journals of earlier runs whose controller died; with --resume, carries their records.

        Only scored records are carried (their run id becomes this run's, the
        run that played them stays in ``played_run_id``); every other match of
        the selection is played again. A write that fails here (a full disk)
        is one line and exit 4, before any match.
        """
        settings = self.session.settings
        try:
            self._carry_over()
        except OSError as error:
            raise pytest.UsageError(
                f"stratbench: cannot write {error.filename or settings.report_dir} ({error.strerror or error})"
            ) from None

    def _carry_over(self) -> None:
        from stratbench.run.results import carried_records, fold_worker_journals

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
            stored = self.session.store.append(record, transcript)
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
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Folds in what workers finished but never reported, writes the reports and runs the gate."""
        from stratbench.run.results import fold_run, latest_per_match

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
        if self.baseline is not None or self.config.getoption("stratbench_gate_map"):
            from stratbench.run.gating import run_gate

            self.gate, self.gate_error, status = run_gate(self.config, self.report, self.baseline)
            self.report["gate"] = None if self.gate is None else self.gate.to_dict()
            if status and session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = status
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
        from stratbench.match.record import unstarted_record
        from stratbench.run.results import interrupted_record, journal_entries

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
        from stratbench.run.results import latest_per_match, summarize_by_agent

        records = latest_per_match(session.records)
        rows = summarize_by_agent(records)
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
        self._write_unscored(terminalreporter, records)
        if self.carried:
            terminalreporter.write_line(f"resumed: {len(self.carried)} scored match(es) carried from earlier runs")
        if self.folded:
            terminalreporter.write_line(
                f"recovered {len(self.folded)} record(s) an earlier, interrupted run had finished", yellow=True)
        terminalreporter.write_line(f"results: {session.store.path}")
        from stratbench.core.match_work import still_running

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
        from stratbench.run.results import status_of, unscored_by_agent

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
