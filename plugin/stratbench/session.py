"""The run state of one pytest session and how it plays a match.

:class:`StratbenchSession` lives in ``config.stash`` (one per process: the
controller and each xdist worker). It owns the registry, the LLM client, one
event loop for every match of the process, and, on the controller only, the
result store and the records of this run.
"""

from __future__ import annotations

import asyncio
import platform
import random
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from stratbench.core.agent import Agent, AgentContext, AgentSpec
from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome, MatchRules, run_match
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError, to_builtin
from stratbench.llm import cassettes
from stratbench.llm.budget import Budget
from stratbench.llm.client import LLMClient
from stratbench.reference import ReferenceProfile
from stratbench.registry import Registry
from stratbench.results import RECORD_VERSION, ResultStore


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
    max_tokens: int | None = None
    max_cost: float | None = None
    report_dir: Path = Path("reports/latest")
    cassette_dir: Path = Path("cassettes")
    record_mode: str = "once"
    run_id: str = ""
    stockfish: str | None = None
    pddl_dir: Path | None = None
    annotator_model: str | None = None
    vision: str = "auto"
    local_models: dict[str, Path] = field(default_factory=dict)
    reference: ReferenceProfile | None = None
    reference_mode: str = "replay"
    request_timeout: float = 120.0
    retries: int = 4
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    """USD per token (input, output) by model string, from ``--price``."""

    def as_options(self) -> dict[str, Any]:
        """Returns the settings as a plain dict (for variant listers and agents)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass
class PlayedMatch:
    """A played match: its outcome, result record and transcript."""

    outcome: MatchOutcome
    record: dict[str, Any]
    transcript: list[dict[str, Any]]


class StratbenchSession:
    """Holds the run's registry, client and loop, and plays matches."""

    def __init__(self, settings: RunSettings, registry: Registry, *, is_controller: bool) -> None:
        self.settings = settings
        self.registry = registry
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
        self.versions = _versions()

    # -- subjects ---------------------------------------------------------------

    def subjects(self, suite: SuiteSpec) -> list[AgentSpec]:
        """Returns the agents under test for a suite: models × scaffolds, extra agents, baselines."""
        subjects = [
            AgentSpec(kind="llm", model=model, scaffold=scaffold)
            for model in self.settings.models
            for scaffold in self.settings.scaffolds
        ]
        if self.settings.reference is not None:
            subjects.extend(self.settings.reference.subjects())
        names = list(self.settings.agents) + [b for b in suite.baselines if b not in self.settings.agents]
        subjects.extend(AgentSpec(kind=name) for name in names)
        return subjects

    def limits(self, suite: SuiteSpec) -> dict[str, Any]:
        """Returns the narrower schedules of the reference subjects for a suite's game.

        Raises:
            ReferenceError: when the profile's options for the game cannot build it.
        """
        reference = self.settings.reference
        if reference is None:
            return {}
        if suite.game in reference.game_options:  # a bad option fails at collection, naming the field
            self._build_game(suite.game, None, reference=True)
        return reference.limits(suite.game)

    def _build_game(self, name: str, variant: str | None, *, reference: bool) -> tuple[Game, dict[str, Any]]:
        """Builds a match's game and returns it with the options it was built with.

        A reference match's game takes the reference profile's options for it.

        Raises:
            ReferenceError: when those options cannot build the game.
        """
        profile = self.settings.reference
        options = dict(profile.game_options.get(name, {})) if reference and profile is not None else {}
        if not options:
            return self.registry.game(name, variant), {}
        from stratbench.reference import ReferenceError

        try:
            return self.registry.game(name, variant, **options), options
        except (TypeError, ValueError) as error:
            assert profile is not None
            raise ReferenceError(f"{profile.path}: games.{name}.options: {error}") from None

    def is_reference(self, spec: MatchSpec) -> bool:
        """Tells whether a reference subject plays in the match."""
        reference = self.settings.reference
        return reference is not None and any(side.label in reference.labels() for side in spec.sides)

    # -- playing ------------------------------------------------------------------

    @property
    def client(self) -> LLMClient:
        """Returns the run's LLM client, built on first use."""
        if self._client is None:
            from stratbench.llm.local import LocalModels

            self._client = LLMClient(
                api_base=self.settings.api_base,
                budget=self.budget,
                local=LocalModels(files=dict(self.settings.local_models)),
                timeout_s=self.settings.request_timeout,
                max_attempts=self.settings.retries + 1,
                prices=dict(self.settings.prices),
            )
        return self._client

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """Returns the event loop every match of this process runs on."""
        if self._loop is None or self._loop.is_closed():
            self._loop = asyncio.new_event_loop()
        return self._loop

    def close(self) -> None:
        """Stops local model servers, cancels leftover background tasks and closes the loop."""
        if self._client is not None:
            self._client.local.close()
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()

    def play(self, spec: MatchSpec, suite: SuiteSpec, nodeid: str, *, options: dict[str, Any] | None = None) -> PlayedMatch:
        """Plays one match, inside its cassette when a model takes part."""
        if self.budget is not None and spec.uses_llm:
            self.budget.check()
        reference = self.is_reference(spec)
        game, game_options = self._build_game(spec.game, spec.variant, reference=reference)
        if len(spec.sides) != len(game.info.sides):
            raise HarnessError(f"{spec.game} has {len(game.info.sides)} sides, the match has {len(spec.sides)}")
        transcript = Transcript()
        state = game.new_initial_state(spec.seed)
        mode = self.settings.record_mode
        agent_options = {**self.settings.as_options(), "seed": spec.seed}
        if reference:
            assert self.settings.reference is not None
            mode = "once" if self.settings.reference_mode == "record" else "none"
            agent_options["max_tokens"] = self.settings.reference.max_tokens
        agent_options.update(options or {})
        agents, sessions = self._build_agents(spec, game, transcript, agent_options)
        rules = MatchRules(illegal_tolerance=suite.illegal_tolerance, fallback=suite.fallback)
        rng = random.Random(f"{spec.seed}:match")
        annotators = (
            self.registry.annotators.get(game.info.name, {}) if self.settings.annotator_model else {}
        )
        uses_llm = spec.uses_llm or bool(annotators)
        cassette_path = cassettes.cassette_path(self.settings.cassette_dir, nodeid) if uses_llm else None
        if cassette_path is not None and mode == "once" and reference:
            cassette_path.unlink(missing_ok=True)  # re-recording the reference: from scratch
        started = time.time()
        annotation: dict[str, Any] = {}
        coroutine = self._play_and_annotate(
            agents,
            lambda: run_match(game, state, agents, rng=rng, rules=rules, transcript=transcript),
            game,
            annotators,
            transcript,
            annotation,
            spec.seed,
        )
        if cassette_path is None:
            outcome = self.loop.run_until_complete(coroutine)
        else:
            self.client.cassette = str(cassette_path)
            self.client.recording = cassettes.will_record(cassette_path, mode)
            self.client.allow_placeholder_key = bool(self.settings.api_base) or not self.client.recording
            try:
                with cassettes.use_cassette(cassette_path, mode):
                    outcome = self.loop.run_until_complete(coroutine)
            finally:
                coroutine.close()
        metrics = self._metrics(game, outcome, spec.seed)
        for player, values in annotation.get("metrics", {}).items():
            metrics.setdefault(str(player), {}).update(values)
        record = self._record(
            spec, suite, nodeid, game, game_options, outcome, sessions, metrics, cassette_path, started, mode
        )
        if "usage" in annotation:
            record["annotator"] = {
                "model": self.settings.annotator_model,
                "settings": annotation["settings"],
                "annotators": annotation["annotators"],
                "usage": annotation["usage"],
                "retries": annotation["retries"],
                "dropped_params": annotation["dropped_params"],
            }
        return PlayedMatch(outcome, record, transcript.to_list())

    async def _play_and_annotate(
        self,
        agents: dict[int, Agent],
        start_match: Any,
        game: Any,
        annotators: dict[str, Any],
        transcript: Transcript,
        annotation: dict[str, Any],
        seed: int,
    ) -> MatchOutcome:
        """Plays the match, closes the agents, then runs the LLM annotators.

        The annotators' model is sampled at temperature 0 with the match's seed
        (as the agents' models are), so replays and cassette keys are stable.
        """
        outcome = await _play_and_close(agents, start_match())
        if annotators:
            from stratbench.llm.session import ModelSession

            judge = ModelSession(
                client=self.client,
                model=str(self.settings.annotator_model),
                player=-1,
                transcript=transcript,
                settings=annotator_settings(seed),
            )
            merged: dict[int, dict[str, Any]] = {}
            for _, annotator in sorted(annotators.items()):
                for player, values in (await annotator(game, outcome, judge)).items():
                    merged.setdefault(int(player), {}).update(values)
            annotation["metrics"] = merged
            annotation["settings"] = dict(judge.settings)
            annotation["annotators"] = sorted(annotators)
            annotation["usage"] = judge.usage.to_dict()
            annotation["retries"] = judge.retries
            annotation["dropped_params"] = sorted(judge.dropped_params)
        return outcome

    def _build_agents(
        self, spec: MatchSpec, game: Any, transcript: Transcript, options: dict[str, Any]
    ) -> tuple[dict[int, Agent], dict[int, Any]]:
        from stratbench.agents.llm import LLMAgent

        agents: dict[int, Agent] = {}
        sessions: dict[int, Any] = {}
        for side, players in enumerate(game.info.sides):
            agent_spec = spec.sides[side]
            for player in players:
                context = AgentContext(
                    spec=agent_spec,
                    game=game,
                    player=player,
                    side=side,
                    rng=random.Random(f"{spec.seed}:{player}:{agent_spec.label}"),
                    transcript=transcript,
                    llm=self.client if agent_spec.uses_llm else None,
                    options=options,
                )
                if agent_spec.uses_llm:
                    scaffold = self.registry.scaffold(agent_spec.scaffold or "direct")
                    agent = LLMAgent(context, scaffold)
                    sessions[player] = agent.session
                else:
                    agent = self.registry.agent_factory(agent_spec.kind)(context)
                agents[player] = agent
        return agents, sessions

    def _metrics(self, game: Any, outcome: MatchOutcome, seed: int) -> dict[str, Any]:
        merged: dict[str, dict[str, Any]] = {}
        for name, metric in sorted(self.registry.metrics.get(game.info.name, {}).items()):
            for player, values in metric(game, outcome, seed).items():
                merged.setdefault(str(player), {}).update(values)
        return merged

    def _record(
        self,
        spec: MatchSpec,
        suite: SuiteSpec,
        nodeid: str,
        game: Any,
        game_options: dict[str, Any],
        outcome: MatchOutcome,
        sessions: dict[int, Any],
        metrics: dict[str, Any],
        cassette_path: Path | None,
        started: float,
        mode: str,
    ) -> dict[str, Any]:
        info = game.info
        sides = []
        illegal, fallbacks, decisions, usage = [], [], [], []
        for side, players in enumerate(info.sides):
            sides.append({**spec.sides[side].to_dict(), "players": list(players),
                          "roles": [game.role(p) for p in players]})
            illegal.append(sum(outcome.illegal[p] for p in players))
            fallbacks.append(sum(outcome.fallbacks[p] for p in players))
            decisions.append(sum(outcome.decisions[p] for p in players))
            side_usage = [sessions[p].usage.to_dict() for p in players if p in sessions]
            if any(p in sessions for p in players):
                sides[-1]["vision"] = any(sessions[p].vision for p in players if p in sessions)
                sides[-1]["retries"] = sum(sessions[p].retries for p in players if p in sessions)
                sides[-1]["dropped_params"] = sorted(set().union(*(sessions[p].dropped_params for p in players
                                                                   if p in sessions)))
            usage.append(_sum_usage(side_usage))
        record = {
            "type": "match",
            "version": RECORD_VERSION,
            "run_id": self.settings.run_id,
            "match_id": nodeid,
            "test_id": spec.id,
            "game": info.name,
            "family": info.family,
            "seed": spec.seed,
            "variant": spec.variant,
            "game_options": game_options,
            "sides": sides,
            "subject": spec.subject,
            "scores": outcome.scores,
            "result": result_for(outcome.scores, spec.subject, _same_agent_sides(spec)),
            "terminal": outcome.terminal,
            "forfeited_by_side": None if outcome.forfeited_by is None else info.side_of(outcome.forfeited_by),
            "turns": outcome.turns,
            "decisions": decisions,
            "illegal": illegal,
            "fallbacks": fallbacks,
            "rules": {"illegal_tolerance": suite.illegal_tolerance, "fallback": suite.fallback},
            "metrics": metrics,
            "usage": usage,
            "cost_usd": round(sum(u["cost_usd"] for u in usage), 8),
            "tokens": sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage),
            "duration_s": round(outcome.duration_s, 6),
            "started_at": started,
            "cassette": None,
            "versions": self.versions,
        }
        if cassette_path is not None:
            record["cassette"] = {
                "path": _relative(cassette_path, self.settings.cassette_dir.parent),
                "sha256": cassettes.file_sha256(cassette_path),
                "record_mode": mode,
            }
        return to_builtin(record)


async def _play_and_close(agents: dict[int, Agent], coroutine: Any) -> MatchOutcome:
    """Runs the match, then awaits each agent's optional ``aclose()`` (engine processes)."""
    try:
        return await coroutine
    finally:
        for agent in agents.values():
            closer = getattr(agent, "aclose", None)
            if closer is not None:
                await closer()


def annotator_settings(seed: int) -> dict[str, Any]:
    """Returns the request settings of a match's annotator calls: temperature 0 and the match's seed."""
    return {"temperature": 0.0, "seed": int(seed)}


def _same_agent_sides(spec: MatchSpec) -> list[int]:
    """Returns every side the subject's agent controls (several Diplomacy powers).

    In a two-sided game the subject is its own seat, even against a copy of itself.
    """
    if len(spec.sides) <= 2:
        return [spec.subject]
    return [i for i, side in enumerate(spec.sides) if side == spec.sides[spec.subject]]


def result_for(scores: list[float], subject: int, subject_sides: list[int] | None = None) -> str:
    """Returns ``won``, ``lost`` or ``draw`` for the subject (``scored`` for solo games).

    When the subject's agent controls several sides, their scores are summed
    and compared with the best side of any other agent.
    """
    if len(scores) == 1:
        return "scored"
    mine_sides = subject_sides or [subject]
    others = [s for i, s in enumerate(scores) if i not in mine_sides]
    if not others:
        return "scored"
    mine = sum(scores[i] for i in mine_sides)
    best_other = max(others)
    if mine > best_other:
        return "won"
    return "draw" if mine == best_other else "lost"


def _sum_usage(items: list[dict[str, Any]]) -> dict[str, Any]:
    total = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    for item in items:
        for key in total:
            total[key] += item[key]
    total["cost_usd"] = round(total["cost_usd"], 8)
    return total


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for package in ("pytest-stratbench", "litellm", "vcrpy", "pytest"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            pass
    return found
