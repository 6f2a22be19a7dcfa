"""The run's settings, read from pytest's options (the families' through their hook), and the checks that refuse
a run before any match (exit 4)."""

from __future__ import annotations

import socket
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from stratbench.llm.limits import LimitSettings
from stratbench.redact import redact_text
from stratbench.registry import Registry
from stratbench.run.session import RunSettings, StratbenchSession
from stratbench.llm.local import LocalModelError, is_local, parse_model_files
from stratbench.reference import ReferenceError, choose_profile
from stratbench.family_settings import merged_options
from stratbench.run.scheduling import schedule_problem
from stratbench.run.startup import directory_problem, missing_key_problem, results_file_problem
from stratbench.run.results import RESULTS_FILE
from stratbench.llm.budget import unpriced_models, unpriced_note
from stratbench.run.gating import load_baseline
from stratbench.llm.litellm_env import import_litellm


def is_controller(config: pytest.Config) -> bool:
    """Tells whether this process is the xdist controller or a plain session: the one that writes files."""
    return not hasattr(config, "workerinput")  # xdist workers have workerinput (pytest #10641 pattern)


def settings_from_config(config: pytest.Config) -> RunSettings:
    root = Path(config.rootpath)
    if is_controller(config):
        run_id = time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:6]
    else:
        run_id = config.workerinput.get("stratbench_run_id", "worker")  # type: ignore[attr-defined]
    report_dir = config.getoption("report_dir") or config.getini("stratbench_report_dir")
    cassette_dir = config.getoption("stratbench_cassette_dir") or config.getini("stratbench_cassette_dir")
    cassette_path = (root / cassette_dir) if not Path(cassette_dir).is_absolute() else Path(cassette_dir)
    models = list(config.getoption("model"))
    reference_mode = config.getoption("stratbench_reference")

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
        retry_backoff=config.getoption("retry_backoff"),
        max_concurrency=config.getoption("max_concurrency"),
        prices={model: (inp / 1e6, out / 1e6) for model, inp, out in config.getoption("price")},
        match_timeout=config.getoption("match_timeout") or None,
        metric_timeout=config.getoption("stratbench_metric_timeout") or None,
        resume=config.getoption("stratbench_resume"),
        scaffold_settings={"rap": {"depth": config.getoption("rap_depth"),
                                   "iterations": config.getoption("rap_iterations")}},
        families=family_settings(config),
        reasoning_efforts=list(dict.fromkeys(config.getoption("reasoning_effort"))),
        thinking_budget=config.getoption("thinking_budget"),
        answer_formats=list(dict.fromkeys(config.getoption("answer_format"))) or ["text"],
        prompt_cache=config.getoption("prompt_cache"),
        obfuscations=list(dict.fromkeys(config.getoption("obfuscate"))),
        seed_salt=config.getoption("seed_salt") or "",
        on_truncation=config.getoption("on_truncation"),
        concurrency=default_concurrency(config.getoption("stratbench_concurrency"), models,
                                        list(config.getoption("stratbench_agent"))
                                        + (["human"] if config.getoption("human_web") else []),
                                        budgeted=config.getoption("max_cost") is not None),
        limits=LimitSettings(
            concurrency={model: int(n) for model, n in config.getoption("model_concurrency")},
            rpm=dict(config.getoption("model_rpm")),
            tpm=dict(config.getoption("model_tpm")),
        ),
    )


def family_settings(config: pytest.Config) -> dict[str, Any]:
    """Each family's settings (``pytest_stratbench_family_settings``), by family; two with one name is an error."""
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
    instead of the next one. The human agent (``human``, ``human:<name>``, or ``--human-web``) plays one
    match at a time: always 1.
    """
    if any(is_human(name) for name in agents):
        return 1
    if given is not None:
        return given
    return DEFAULT_CONCURRENCY_WITH_MODEL if models and not budgeted else 1


def is_human(agent: str) -> bool:
    """Tells whether an agent name is the human agent (``human`` or ``human:<name>``)."""
    return agent == "human" or agent.startswith("human:")


def validate_run(config: pytest.Config, settings: RunSettings, registry: Registry) -> None:
    try:
        for name in settings.scaffolds:
            registry.check_scaffold(name)
        for name in settings.agents:
            registry.check_agent(name)
    except ValueError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None
    if "tools" in settings.answer_formats and settings.protocol not in (None, "default"):
        raise pytest.UsageError(f"stratbench: --answer-format tools: protocol {settings.protocol!r} asks in its "
                                f"paper's released prompts, which prescribe their own answer format; use "
                                f"--answer-format text")
    if settings.thinking_budget and settings.max_tokens and settings.max_tokens <= settings.thinking_budget:
        raise pytest.UsageError(
            f"stratbench: --thinking-budget {settings.thinking_budget}: the answer's token limit "
            f"--stratbench-max-tokens {settings.max_tokens} must lie above it (the thinking is counted in the "
            "limit, and the provider refuses such a request); raise the limit or lower the budget")
    if config.getoption("stratbench_openings") == "book" and settings.protocol not in (None, "default"):
        raise pytest.UsageError(f"stratbench: --openings book: protocol {settings.protocol!r} starts every game "
                                "where its paper did; use --openings book with the default protocol")
    if "tools" in settings.answer_formats:
        refusing = [name for name in settings.scaffolds if not getattr(
            registry.scaffold(name, **settings.scaffold_settings.get(name, {})), "answers_by_tool", False)]
        if refusing:
            raise pytest.UsageError(f"stratbench: --answer-format tools: scaffold {', '.join(refusing)} chooses "
                                    f"its answers itself; use it with --answer-format text")
    if settings.seed_salt and not settings.obfuscations:
        raise pytest.UsageError("stratbench: --seed-salt: salts the renamings of --obfuscate, and none is given; "
                                "add --obfuscate MODE[:SEED]")
    if config.getoption("human_web") and (config.getoption("numprocesses", None) or not is_controller(config)):
        raise pytest.UsageError("stratbench: --human-web: one person plays one match at a time through one page; "
                                "run without -n (xdist)")
    if (any(is_human(name) for name in settings.agents) and config.getoption("capture") != "no"
            and not config.getoption("human_web") and settings.record_mode != "none"):
        raise pytest.UsageError("stratbench: the human agent reads your moves from the terminal; run pytest with -s "
                                "(or play in the browser: --human-web)")
    if is_controller(config):  # litellm's import costs seconds: an xdist worker loads it at its first call
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

    problem = schedule_problem(config)
    if problem is not None:
        raise pytest.UsageError(f"stratbench: {problem}")
    if settings.api_base and settings.record_mode != "none" and settings.models and is_controller(config):
        _check_reachable(settings.api_base)
    _check_directories(config, settings)


def _check_directories(config: pytest.Config, settings: RunSettings) -> None:
    """Refuses, before any match, a report or cassette directory (or results file) the run cannot use."""
    records = settings.record_mode != "none" and bool(
        settings.models or settings.annotator_model or settings.family_models()
        or settings.reference_mode == "record"
    )
    checks = [("--stratbench-cassette-dir", settings.cassette_dir, records)]
    if is_controller(config):
        checks.append(("--report-dir", settings.report_dir, True))
    for option, path, write in checks:
        problem = directory_problem(option, path, write=write)
        if problem is not None:
            raise pytest.UsageError(f"stratbench: {problem}")
    if is_controller(config):
        problem = results_file_problem("--report-dir", settings.report_dir / RESULTS_FILE)
        if problem is not None:
            raise pytest.UsageError(f"stratbench: {problem}")


REQUEST_SETTINGS = {"reasoning_effort": ("--reasoning-effort", "reasoning_effort", "a reasoning effort"),
                    "thinking_budget": ("--thinking-budget", "thinking", "a thinking budget")}
"""Agent request settings a model may not take: (option, litellm's parameter, what it is)."""


def dropped_request_params(settings: RunSettings) -> dict[str, tuple[str, ...]]:
    """Per model, the requested ``--reasoning-effort`` / ``--thinking-budget`` its provider does not take (as
    litellm lists the provider's parameters); a model litellm does not know keeps them (sent as given)."""
    from stratbench.llm.client import accepted_params  # lean: litellm loads only when a model is under test

    requested = [name for name, value in (("reasoning_effort", settings.reasoning_efforts),
                                          ("thinking_budget", settings.thinking_budget)) if value]
    dropped = {}
    for model in dict.fromkeys(settings.models):
        accepted = None if is_local(model) or not requested else accepted_params(model)
        if accepted is None:
            continue
        names = tuple(name for name in requested if REQUEST_SETTINGS[name][1] not in accepted)
        if names:
            dropped[model] = names
    return dropped


def dropped_notes(settings: RunSettings) -> list[str]:
    """One warning per model and dropped setting: said at start-up and in the report."""
    notes = []
    for model, names in settings.dropped_params.items():
        for name in names:
            option, _, what = REQUEST_SETTINGS[name]
            given = ", ".join(settings.reasoning_efforts) if name == "reasoning_effort" else settings.thinking_budget
            notes.append(f"{option} {given}: {model} takes no {what.split(' ', 1)[1]} (litellm lists none for its "
                         f"provider), so it is not sent and its agent's label does not name it")
    return notes


def cost_notes(settings: RunSettings) -> list[str]:
    """Returns the warning that --max-cost cannot bound the models litellm cannot price (empty if none)."""
    if settings.max_cost is None:
        return []

    models = [*settings.models, *([settings.annotator_model] if settings.annotator_model else []),
              *settings.family_models().values()]
    unpriced = unpriced_models(models, settings.prices)
    return [unpriced_note(settings.max_cost, unpriced)] if unpriced else []


def load_baseline_option(path: str | None) -> dict[str, Any] | None:
    """Loads and checks a --baseline results.json before any test runs."""
    try:
        return load_baseline(path)
    except ValueError as error:
        raise pytest.UsageError(f"stratbench: {error}") from None


def _validate_models(models: list[str], option: str = "--model") -> None:
    litellm = import_litellm()

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


def check_model_keys(config: pytest.Config, session: StratbenchSession, nodeids: list[str]) -> None:
    """Raises a usage error (exit 4, nothing played) when a collected match must call a model whose key is unset."""
    if config.option.collectonly:
        return

    settings = session.settings
    problem = missing_key_problem(nodeids, settings.models, cassette_dir=settings.cassette_dir,
                                  record_mode=settings.record_mode, api_base=settings.api_base)
    if problem is not None:
        raise pytest.UsageError(f"stratbench: {problem}")
