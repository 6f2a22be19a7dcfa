"""The run state of one pytest session and how it plays a match.

:class:`StratbenchSession` lives in ``config.stash`` (one per process: the
controller and each xdist worker). It owns the registry, the LLM client, one
event loop for every match of the process, and, on the controller only, the
result store and the records of this run. It coordinates the five steps of a
match, each in its own module: ``match_build`` (game and agents),
``match_play`` (the loop and the cassette), ``match_annotate`` (LLM judges),
``match_score`` (metrics) and ``match_record`` (the result record).
"""

from __future__ import annotations

import asyncio
import functools
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from stratbench.child_processes import kill_leftovers
from stratbench.core.agent import AgentSpec
from stratbench.core.game import GameBase
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.runner import MatchOutcome
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.shapes import MatchSetup
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.family_settings import FamilySettings, merged_options
from stratbench.llm import cassettes
from stratbench.llm.budget import Budget, BudgetExceeded
from stratbench.llm.client import LLMClient, load_litellm
from stratbench.llm.limits import DEFAULT_CONCURRENCY as DEFAULT_MODEL_CONCURRENCY
from stratbench.llm.limits import LimitSettings
from stratbench.match.annotate import annotate, annotator_settings
from stratbench.match.build import build_game, obfuscation_options
from stratbench.match.play import MatchFailure, play_and_close, play_in_cassette
from stratbench.match.record import build_record, package_versions, result_for, unscored_record
from stratbench.match.score import score_match
from stratbench.match.shapes import shape_of
from stratbench.match.settings import match_settings, settings_hash
from stratbench.match.metric_budget import DEFAULT_METRIC_TIMEOUT_S
from stratbench.protocols import DEFAULT, Protocol, effective_name
from stratbench.protocols import agent_options as agent_options_for
from stratbench.reference import ReferenceProfile
from stratbench.registry import Registry
from stratbench.scaffolds.family_parts import use_registry
from stratbench.run.results import ResultStore, WorkerJournal
from stratbench.llm.local import LocalModels

__all__ = ["PlayedMatch", "RunSettings", "StratbenchSession", "annotator_settings", "result_for"]

T = TypeVar("T")


@dataclass
class RunSettings:
    """The command-line settings that shape a run."""

    models: list[str] = field(default_factory=list)
    scaffolds: list[str] = field(default_factory=lambda: ["direct"])
    agents: list[str] = field(default_factory=list)
    matches: int | None = None
    seed: int = 0
    api_base: str | None = None
    temperature: float | None = 0.0
    temperature_given: bool = False
    """Whether ``--temperature`` was given (it then wins over a protocol's)."""
    protocol: str | None = None
    """``--protocol``: the protocol of every suite whose marker pins none."""
    max_tokens: int | None = None
    max_cost: float | None = None
    report_dir: Path = Path("reports/latest")
    cassette_dir: Path = Path("cassettes")
    record_mode: str = "once"
    run_id: str = ""
    annotator_model: str | None = None
    vision: str = "auto"
    local_models: dict[str, Path] = field(default_factory=dict)
    reference: ReferenceProfile | None = None
    reference_mode: str = "replay"
    request_timeout: float = 120.0
    retries: int = 4
    retry_backoff: float = 1.0
    max_concurrency: int = DEFAULT_MODEL_CONCURRENCY
    """``--max-concurrency``: model requests in flight at once per model ``--model-concurrency`` does not name."""
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    """USD per token (input, output) by model string, from ``--price``."""
    match_timeout: float | None = 3600.0
    metric_timeout: float | None = DEFAULT_METRIC_TIMEOUT_S
    """``--stratbench-metric-timeout``: seconds each per-match metric may take (None: no limit)."""
    resume: bool = False
    scaffold_settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per scaffold name, the settings its factory is built with (``rap``: ``--rap-depth``, ``--rap-iterations``)."""
    concurrency: int = 1
    """``--stratbench-concurrency``: matches in flight at once in this process."""
    limits: LimitSettings = field(default_factory=LimitSettings)
    """``--model-concurrency``, ``--model-rpm``, ``--model-tpm``."""

    families: dict[str, FamilySettings] = field(default_factory=dict)
    """Each family's own settings (``pytest_stratbench_family_settings``), by family name."""
    reasoning_efforts: list[str] = field(default_factory=list)
    """``--reasoning-effort``: each value makes every model × scaffold its own agent under test."""
    thinking_budget: int | None = None
    """``--thinking-budget``: thinking tokens per request, for providers that take a budget."""
    dropped_params: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per model, the request settings it does not take (``reasoning_effort``, ``thinking_budget``): never sent,
    and absent from its agent's label (found by the controller, handed to xdist workers)."""
    answer_formats: list[str] = field(default_factory=lambda: ["text"])
    """``--answer-format``: ``text`` (the reply's text) or ``tools`` (a ``make_move`` tool call); each value
    makes every model × scaffold its own agent under test."""
    on_truncation: str | None = None
    """``--on-truncation``: ``retry`` or ``read``; None: ``read`` under a paper protocol, else ``retry``."""
    prompt_cache: str = "auto"
    """``--prompt-cache``: mark the stable prefix for providers that cache on request (``auto``) or not (``off``)."""
    obfuscations: list[str] = field(default_factory=list)
    """``--obfuscate``: each renaming (``MODE:SEED``) makes every match of a game that supports it a probe beside
    the original."""
    seed_salt: str = field(default="", repr=False)
    """``--seed-salt``: mixed into every renaming (never written: ids and records carry its digest only)."""

    def renamings(self) -> list[Obfuscation]:
        """The ``--obfuscate`` renamings, salted with ``--seed-salt``."""
        return [Obfuscation.parse(spec, self.seed_salt) for spec in self.obfuscations]

    def model_params(self, model: str | None = None) -> list[tuple[tuple[str, Any], ...]]:
        """The request parameters of each agent under test a model plays (one entry: none), without those
        ``model`` does not take (:attr:`dropped_params`; variants that then coincide count once)."""
        dropped = set(self.dropped_params.get(model, ())) if model is not None else set()
        variants = []
        for effort in self.reasoning_efforts or [None]:
            for answers in self.answer_formats or ["text"]:
                params = (("reasoning_effort", effort), ("thinking_budget", self.thinking_budget),
                          ("answer_format", None if answers == "text" else answers))
                variants.append(tuple((name, value) for name, value in params
                                      if value is not None and name not in dropped))
        return list(dict.fromkeys(variants))

    def as_options(self) -> dict[str, Any]:
        """Returns the settings as a plain dict, every family's fields included (for variant listers and
        agents)."""
        options = {name: getattr(self, name) for name in self.__dataclass_fields__
                   if name not in ("families", "seed_salt")}
        return {**options, **merged_options(self.families)}

    def __getattr__(self, name: str) -> Any:
        """A family's setting read as a run setting (``settings.stockfish``), as before families had their own:
        deprecated, read ``settings.families[<family>].<name>``."""
        families = self.__dict__.get("families") or {}
        for family, settings in families.items():
            if name in settings.options():
                warnings.warn(f"RunSettings.{name} is deprecated: read settings.families[{family!r}].{name}",
                              DeprecationWarning, stacklevel=2)
                return getattr(settings, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def family_models(self) -> dict[str, str]:
        """The models the families call besides ``--model`` (a paper protocol's opponents), by option."""
        return {option: model for settings in self.families.values() for option, model in settings.models().items()}

    def deciding(self) -> dict[str, Any]:
        """The families' settings that decide a match's outcome (hashed into ``settings_hash``)."""
        return {key: value for settings in self.families.values() for key, value in settings.deciding().items()}


@dataclass
class PlayedMatch:
    """A played match: its outcome, result record (as stored: ``MatchRecord.to_json()``) and transcript."""

    outcome: MatchOutcome
    record: dict[str, Any]
    transcript: list[dict[str, Any]]


class StratbenchSession:
    """Holds the run's registry, client and loop, and plays matches."""

    def __init__(self, settings: RunSettings, registry: Registry, *, is_controller: bool) -> None:
        self.settings = settings
        self.registry = registry
        use_registry(registry)  # the scaffolds' answer readers, prompt styles and guides
        self.is_controller = is_controller
        self.records: list[dict[str, Any]] = []
        self.store = ResultStore(settings.report_dir, settings.run_id) if is_controller else None
        self.budget = (
            Budget(settings.max_cost, settings.report_dir / f".spent-{settings.run_id}")
            if settings.max_cost is not None
            else None
        )
        self._client: LLMClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writer: ThreadPoolExecutor | None = None
        self.versions = package_versions()
        self.journal: WorkerJournal | None = None
        self.last_failure: MatchFailure | None = None
        """The last match that raised in :meth:`play`: its error, fault and transcript so far."""
        self.failures: dict[str, MatchFailure] = {}
        """Each match that raised, by node id (several may be in flight at once)."""
        self.finished: dict[str, str] = {}
        """Match ids with a scored record from an earlier run (``--resume``), mapped to their settings hash."""

    # -- subjects ---------------------------------------------------------------

    def apply_protocol(self, suite: SuiteSpec) -> SuiteSpec:
        """Returns the suite as its protocol plays it (the marker's pin, else ``--protocol``).

        Raises:
            ValueError: when the game has no such protocol.
        """
        name = effective_name(suite.protocol, self.settings.protocol)
        protocol = self.registry.protocol(suite.game, name)
        return replace(suite, **protocol.suite, protocol=name)

    def protocol(self, spec: MatchSpec) -> Protocol:
        """Returns the protocol a match is played in."""
        return self.registry.protocol(spec.game, spec.protocol)

    def subjects(self, suite: SuiteSpec) -> list[AgentSpec]:
        """Returns the agents under test for a suite: models × scaffolds × request parameters, extra agents,
        baselines.

        The reference recordings are of the default protocol: another protocol leaves them out.
        """
        subjects = [
            AgentSpec(kind="llm", model=model, scaffold=scaffold, params=params)
            for model in self.settings.models
            for scaffold in self.settings.scaffolds
            for params in self.settings.model_params(model)
        ]
        if self.settings.reference is not None and (suite.protocol or DEFAULT) == DEFAULT:
            subjects.extend(self.settings.reference.subjects())
        names = list(self.settings.agents) + [b for b in suite.baselines if b not in self.settings.agents]
        subjects.extend(AgentSpec(kind=name) for name in names)
        return subjects

    def seat_models(self, spec: MatchSpec) -> MatchSpec:
        """Returns ``spec`` with its model seats (:meth:`Registry.add_model_seat`) played by a model.

        The model is the one the seat's family option names (Diplomacy's
        ``--diplomacy-opponent``), else the subject's, else the run's first
        ``--model``; with none, the seats keep their offline agent.
        """
        seats = self.registry.model_seats
        seated = [side.kind for side in spec.sides if side.kind in seats and side.model is None]
        if not seated:
            return spec
        subject = spec.sides[spec.subject]
        option = seats[seated[0]]
        chosen = self.settings.as_options().get(option) if option else None
        model = chosen or subject.model or next(iter(self.settings.models), None)
        if model is None:
            return spec
        sides = tuple(
            AgentSpec(kind=side.kind, model=model, scaffold="direct") if side.kind in seats else side
            for side in spec.sides
        )
        return replace(spec, sides=sides)

    def limits(self, suite: SuiteSpec) -> dict[str, Any]:
        """Returns the narrower schedules of the reference subjects for a suite's game.

        Raises:
            ReferenceError: when the profile's options for the game cannot build it.
        """
        reference = self.settings.reference
        if reference is None or (suite.protocol or DEFAULT) != DEFAULT:
            return {}
        if suite.game in reference.game_options:  # a bad option fails at collection, naming the field
            self._build_game(suite.game, None, reference=True)
        return reference.limits(suite.game)

    def _build_game(
        self, name: str, variant: str | None, *, reference: bool, protocol: Protocol | None = None,
        obfuscation: Obfuscation | None = None, openings: str = "empty",
    ) -> tuple[GameBase, dict[str, Any]]:
        """Builds a match's game with its options (see :func:`stratbench.match.build.build_game`)."""
        return build_game(self.registry, self.settings.reference, name, variant, reference=reference,
                          protocol_options=protocol.game_options if protocol is not None else None,
                          obfuscation=obfuscation, openings=openings)

    def renaming(self, spec: MatchSpec) -> Obfuscation | None:
        """The renaming a memorisation probe plays (salted with ``--seed-salt``); None for an original."""
        return None if spec.obfuscation is None else Obfuscation.parse(spec.obfuscation, self.settings.seed_salt)

    def is_reference(self, spec: MatchSpec) -> bool:
        """Tells whether a reference subject plays in the match."""
        reference = self.settings.reference
        return reference is not None and any(side.label in reference.labels() for side in spec.sides)

    def renamings_for(self, spec: MatchSpec) -> list[Obfuscation]:
        """The memorisation probes that play beside a match: the run's ``--obfuscate`` renamings, or for a
        reference match the profile's recorded ones (no recording holds the run's)."""
        if self.is_reference(spec):
            return self.settings.reference.probes(spec.game, spec.sides)
        return self.settings.renamings()

    # -- playing ------------------------------------------------------------------

    @property
    def client(self) -> LLMClient:
        """Returns the run's LLM client, built on first use."""
        if self._client is None:
            self._client = LLMClient(
                api_base=self.settings.api_base,
                budget=self.budget,
                local=LocalModels(files=dict(self.settings.local_models)),
                timeout_s=self.settings.request_timeout,
                max_attempts=self.settings.retries + 1,
                backoff_s=self.settings.retry_backoff,
                max_concurrency=self.settings.max_concurrency,
                prices=dict(self.settings.prices),
                limits=self.settings.limits,
                prompt_cache=self.settings.prompt_cache,
            )
        return self._client

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """Returns the event loop every match of this process runs on."""
        if self._loop is None or self._loop.is_closed():
            self._loop = asyncio.new_event_loop()
        return self._loop

    def beside_matches(self, function: Callable[..., T], /, *args: Any) -> T:
        """Returns ``function(*args)``, called in a thread of its own while the loop plays the matches in flight.

        Between two items pytest runs on the loop's thread, so the matches
        started ahead (``--stratbench-concurrency``) wait meanwhile; blocking
        work there (the results store's and journals' fsyncs, a few ms each)
        holds none of them back this way. The thread is the session's writer,
        not the loop's default executor, where metrics run and could keep it
        waiting. The call is over when this returns, as a plain call is; with
        no match in flight it is one.
        """
        loop = self._loop
        if loop is None or loop.is_closed() or loop.is_running() or all(t.done() for t in asyncio.all_tasks(loop)):
            return function(*args)
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stratbench-writer")
        return loop.run_until_complete(loop.run_in_executor(self._writer, functools.partial(function, *args)))

    def close(self) -> None:
        """Stops local model servers, cancels leftover background tasks (their matches' work is stopped),
        kills any child process still alive (a planner search), closes the loop and frees the results store's
        lock."""
        if self._client is not None:
            self._client.local.close()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
        if self._writer is not None:
            self._writer.shutdown()
            self._writer = None
        kill_leftovers()
        if self.store is not None:
            self.store.unlock()

    # -- settings and unscored records ------------------------------------------

    def _agent_options(self, spec: MatchSpec, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Returns the run options a match's agents get (a reference match: the profile's max tokens and
        scaffold settings)."""
        agent_options = {**self.settings.as_options(), "seed": spec.seed}
        if self.is_reference(spec):
            assert self.settings.reference is not None
            agent_options["max_tokens"] = self.settings.reference.max_tokens_for(spec.game)
            agent_options["scaffold_settings"] = self.settings.reference.merged_scaffold_settings(
                agent_options.get("scaffold_settings") or {})
        agent_options = agent_options_for(self.protocol(spec), agent_options,
                                          temperature_given=self.settings.temperature_given)
        agent_options["on_truncation"] = self.truncation_rule(spec)
        agent_options["protocol"] = spec.protocol
        agent_options.update(options or {})
        return agent_options

    def truncation_rule(self, spec: MatchSpec) -> str:
        """What a match does with a cut answer: a reference match's recorded rule, else ``--on-truncation``,
        else ``read`` under a paper protocol (its released code read a cut answer as it was) and ``retry``."""
        profile = self.settings.reference
        if profile is not None and profile.on_truncation and self.is_reference(spec):
            return profile.on_truncation
        if self.settings.on_truncation:
            return self.settings.on_truncation
        return "retry" if spec.protocol == DEFAULT else "read"

    def _game_options(self, spec: MatchSpec) -> dict[str, Any]:
        profile = self.settings.reference
        options = dict(profile.game_options.get(spec.game, {})) if profile is not None and self.is_reference(spec) else {}
        return {**options, **self.protocol(spec).game_options, **obfuscation_options(self.renaming(spec))}

    def settings_hash(self, spec: MatchSpec, suite: SuiteSpec) -> str:
        """Returns the hash of the settings that decide the match's outcome (see ``match_settings``)."""
        settings = match_settings(
            spec, suite, game_options=self._game_options(spec), options=self._agent_options(spec),
            version=self.versions.get("pytest-stratbench", ""), deciding=self.settings.deciding(),
        )
        return settings_hash(settings)

    def unscored(
        self, spec: MatchSpec, suite: SuiteSpec, nodeid: str, status: str, reason: str, *,
        fault: str | None = None, started: float | None = None,
    ) -> dict[str, Any]:
        """Returns a skipped or errored record for the match, as stored (see ``match.record.unscored_record``)."""
        return unscored_record(
            spec, suite, nodeid, status=status, reason=reason, fault=fault, run_id=self.settings.run_id,
            settings_hash=self.settings_hash(spec, suite), versions=self.versions,
            game_options=self._game_options(spec), started=started if started is not None else time.time(),
            duration_s=0.0 if started is None else time.time() - started,
        ).to_json()

    # -- one match ------------------------------------------------------------------

    def play(self, spec: MatchSpec, suite: SuiteSpec, nodeid: str, *, options: dict[str, Any] | None = None) -> PlayedMatch:
        """Plays one match to its end on the session's loop (see :meth:`play_async`)."""
        return self.loop.run_until_complete(self.play_async(spec, suite, nodeid, options=options))

    async def play_async(
        self, spec: MatchSpec, suite: SuiteSpec, nodeid: str, *, options: dict[str, Any] | None = None
    ) -> PlayedMatch:
        """Plays one match, inside its cassette when a model takes part: build, play, annotate, score, record.

        Several matches may be in flight at once on the session's loop; each
        keeps its own cassette, model-call settings and time limit.

        Raises:
            BudgetExceeded: when the run's budget is spent before the match.
            Exception: whatever the match raised; :attr:`failures` (and
                :attr:`last_failure`) then hold it with its fault and the transcript so far.
        """
        if self.budget is not None and spec.uses_llm:
            self.budget.check()
        if spec.uses_llm:
            load_litellm()  # once per process, before the clock starts: no match's time carries the import
        transcript = Transcript()
        started = time.time()
        try:
            return await self._play(spec, suite, nodeid, options, transcript, started)
        except BudgetExceeded:
            raise
        except Exception as error:
            failure = MatchFailure(error, [], started)
            transcript.add("error", error=str(failure), fault=failure.fault)
            failure.transcript = transcript.to_list()
            self.failures[nodeid] = failure
            self.last_failure = failure
            raise

    async def _play(
        self, spec: MatchSpec, suite: SuiteSpec, nodeid: str, options: dict[str, Any] | None,
        transcript: Transcript, started: float,
    ) -> PlayedMatch:
        reference = self.is_reference(spec)
        game, game_options = self._build_game(spec.game, spec.variant, reference=reference,
                                              protocol=self.protocol(spec), obfuscation=self.renaming(spec),
                                              openings=spec.openings)
        if len(spec.sides) != len(game.info.sides):
            raise HarnessError(f"{spec.game} has {len(game.info.sides)} sides, the match has {len(spec.sides)}")
        mode = self.settings.record_mode
        if reference:
            mode = "once" if self.settings.reference_mode == "record" else "none"
        agent_options = {**self._agent_options(spec, options), "match_id": nodeid}  # the human seat's moves file
        prepared = shape_of(game).prepare(game, MatchSetup(
            spec=spec, suite=suite, registry=self.registry, client=self.client, transcript=transcript,
            options=agent_options,
        ))
        agents, sessions = prepared.agents, prepared.sessions
        annotators = (
            self.registry.annotators.get(game.info.name, {}) if self.settings.annotator_model else {}
        )
        uses_llm = spec.uses_llm or bool(annotators)
        cassette_path = cassettes.cassette_path(self.settings.cassette_dir, nodeid) if uses_llm else None
        if cassette_path is not None and mode == "once" and reference:
            cassette_path.unlink(missing_ok=True)  # re-recording the reference: from scratch
        annotation: dict[str, Any] = {}

        async def play_then_annotate() -> MatchOutcome:
            outcome = await play_and_close(agents, prepared.start())
            if annotators:
                annotation.update(await annotate(
                    self.client, str(self.settings.annotator_model), annotators, game, outcome, transcript, spec.seed
                ))
            return outcome

        outcome = await play_in_cassette(
            play_then_annotate(), cassette_path, mode, api_base=self.settings.api_base,
            timeout_s=self.settings.match_timeout, label=nodeid,
            match=cassettes.describe_match([side.label for side in spec.sides], spec.subject, spec.seed),
        )
        # metrics may run solvers: off the loop, so other matches' model calls go on meanwhile
        metrics, not_computed = await asyncio.to_thread(score_match, self.registry, game, outcome, spec.seed,
                                                        annotation, self.settings.metric_timeout)
        record = build_record(
            spec, suite, nodeid, game, game_options, outcome, sessions, metrics, cassette_path, started, mode,
            run_id=self.settings.run_id, cassette_dir=self.settings.cassette_dir, versions=self.versions,
            settings_hash=self.settings_hash(spec, suite), transcript=transcript.to_list(),
            metrics_not_computed=not_computed, annotation=annotation, annotator_model=self.settings.annotator_model,
        )
        return PlayedMatch(outcome, record.to_json(), transcript.to_list())
