"""The lock-step multi-agent loop: every agent of a side decides, then the environment moves.

One *decision* (the released "loop step") goes:

1. every agent that has units (or is marked ``always``) gets its text
   observation, built from the same pysc2 observation;
2. all of them answer (concurrently: :func:`play_episode` here, or
   stratbench's match runner, which gathers the seats of a simultaneous
   game); the environment does not step while they think, so nothing depends
   on how long a model takes;
3. :meth:`LockStepEpisode.submit` reads every reply, routes its
   ``<MessageTo(...)>`` / ``<ListenTo(...)>`` (delivered when the next
   decision starts, as released), and executes the agents' plans in
   configuration order, one pysc2 call per environment step, each resolved
   against the observation of that moment (:mod:`~stratbench.games.sc2.action_translate`);
4. the environment then idles (``no_op``) until one game second has passed
   since the decision started (the released one decision per game second);
5. the next decision starts by selecting each acting team in turn (one step
   per selection call, as the released main loop does before it observes),
   so each team's ``Valid Actions`` are those pysc2 makes available to it.

A refused action becomes ``no_op``; its reason is shown to the agent in the
next observation and counted. :func:`play_episode` is the loop without
stratbench's runner: per-agent coroutines, a per-decision timeout (a late
agent's reply counts as empty, and the timeout is counted), and wall-clock
latency per agent. The bench (``bench/sc2_latency.py``) uses it.

Entry points: :class:`LockStepEpisode`, :func:`play_episode`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from stratbench.games.sc2.action_grammar import ParsedReply, parse_actions
from stratbench.games.sc2.action_translate import Step, plan, resolve, select_team
from stratbench.games.sc2.config import (
    DEFAULTS,
    Defaults,
    Layout,
    TeamView,
    assign_teams,
)
from stratbench.games.sc2.observation_text import (
    Received,
    TextContext,
    observation_text,
)
from stratbench.games.sc2.pysc2_compat import import_pysc2
from stratbench.games.sc2.unit_table import UnitTable

EnvFactory = Callable[[], Any]
"""Returns a fresh environment with pysc2's interface: ``reset()``, ``step(actions)``, ``action_spec()``,
``observation_spec()``, ``close()`` (``SC2Env``, ``SC2TestEnv``, the offline engine)."""


@dataclass
class AgentStats:
    """One agent's counts over an episode.

    Attributes:
        decisions: Decisions it took part in.
        actions: Text actions it wrote (every team block, kept or not).
        invalid: Of those, actions refused before or during execution.
        timeouts: Decisions whose reply came too late (:func:`play_episode` only).
        messages: Messages it sent.
        latency_s: Wall seconds per decision (:func:`play_episode` only).
    """

    decisions: int = 0
    actions: int = 0
    invalid: int = 0
    timeouts: int = 0
    messages: int = 0
    latency_s: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Returns the counts as builtins."""
        return {"decisions": self.decisions, "actions": self.actions, "invalid": self.invalid,
                "timeouts": self.timeouts, "messages": self.messages, "latency_s": list(self.latency_s)}


@dataclass(frozen=True)
class Delivery:
    """A message routed this decision: from ``sender`` to ``recipients`` (agent names), maybe via a channel."""

    sender: str
    recipients: tuple[str, ...]
    text: str
    channel: str = ""


@dataclass(frozen=True)
class EpisodeResult:
    """How an episode ended.

    Attributes:
        outcome: ``"win"``, ``"tie"`` or ``"loss"`` (final reward +1 with discount 0, 0, -1).
        reward: The last step's reward.
        killed_value: Minerals + 2 × vespene of the enemy units killed (``score_by_category``).
        lost_value: The same for own units lost.
        decisions: Decisions played.
        game_loop: The last observation's game loop.
        env_steps: Environment steps taken.
        agents: Per-agent counts.
        messages: Every routed message: ``decision`` (from 1), ``sender``, ``recipients``, ``channel``, ``text``.
    """

    outcome: str
    reward: float
    killed_value: float
    lost_value: float
    decisions: int
    game_loop: int
    env_steps: int
    agents: dict[str, dict[str, Any]]
    messages: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Returns the result as builtins."""
        return {"outcome": self.outcome, "reward": self.reward, "killed_value": self.killed_value,
                "lost_value": self.lost_value, "decisions": self.decisions, "game_loop": self.game_loop,
                "env_steps": self.env_steps, "agents": self.agents, "messages": list(self.messages)}


class LockStepEpisode:
    """One episode of a side's agents against an environment (see the module docstring).

    Args:
        env_factory: Makes the environment (called once, at :meth:`start`).
        layout: The side's agents and teams.
        defaults: Actions per team, decision rate.
        paper: Word observations exactly as the released code.
        raw_space: The environment takes raw actions.
        max_decisions: A safety bound; the episode is a tie after it.
    """

    def __init__(self, env_factory: EnvFactory, layout: Layout, *, defaults: Defaults = DEFAULTS,
                 paper: bool = False, raw_space: bool = False, max_decisions: int = 200) -> None:
        self.env_factory = env_factory
        self.layout = layout
        self.defaults = defaults
        self.paper = paper
        self.raw_space = raw_space
        self.max_decisions = max_decisions
        self.env: Any = None
        self.timestep: Any = None
        self.decisions = 0
        self.env_steps = 0
        self.stats = {agent.name: AgentStats() for agent in layout.agents}
        self.deliveries: list[list[Delivery]] = []
        """The messages routed at each decision, in order."""
        self._teams: dict[str, tuple[TeamView, ...]] = {}
        self._last_actions: dict[str, dict[str, list[str]]] = {}
        self._errors: dict[str, tuple[tuple[str, str], ...]] = {}
        self._inbox: dict[str, tuple[Received, ...]] = {}
        self._channels: dict[str, list[str]] = {}
        self._available: dict[str, frozenset[int]] = {}
        self._decision_loop = 0

    # -- lifecycle ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Makes the environment and takes its first observation."""
        self.env = self.env_factory()
        self.timestep = self.env.reset()[0]
        self._refresh()
        self._decision_loop = self._game_loop()
        self._observe_teams()

    def close(self) -> None:
        """Closes the environment."""
        if self.env is not None:
            self.env.close()

    @property
    def finished(self) -> bool:
        """Tells whether the episode is over (the environment's last step, or the decision bound)."""
        return self.timestep is not None and (self.timestep.last() or self.decisions >= self.max_decisions)

    # -- one decision -------------------------------------------------------------------------------

    def acting(self) -> tuple[str, ...]:
        """Returns the agents that decide now, in configuration order."""
        if self.finished:
            return ()
        return tuple(a.name for a in self.layout.agents if a.always or self._teams.get(a.name))

    def teams(self, agent: str) -> tuple[TeamView, ...]:
        """Returns an agent's teams this decision."""
        return self._teams.get(agent, ())

    def text(self, agent: str) -> str:
        """Returns an agent's text observation for this decision."""
        context = TextContext(
            layout=self.layout,
            teams=self._teams,
            last_actions=self._last_actions.get(agent, {}),
            errors=self._errors.get(agent, ()),
            received=self._inbox.get(agent, ()),
            max_actions=self.defaults.max_actions,
            paper=self.paper,
            available=self._available,
        )
        return observation_text(self.timestep.observation, self.layout.agent(agent), context)

    def submit(self, replies: dict[str, str]) -> list[Delivery]:
        """Reads every acting agent's reply, routes messages, executes the actions and idles to the next decision.

        Args:
            replies: Each acting agent's reply text (missing or empty: no actions).

        Returns:
            The messages routed (delivered at the next decision).
        """
        acting = self.acting()
        parsed = {name: parse_actions(replies.get(name, "") or "", strict=self.paper) for name in acting}
        deliveries = self._route(parsed) if self.layout.communication else []
        errors: dict[str, list[tuple[str, str]]] = {name: [] for name in acting}
        for name in acting:
            stats = self.stats[name]
            stats.decisions += 1
            reply = parsed[name]
            written = sum(len(block.actions) for block in reply.teams)
            stats.actions += written
            planned = plan(reply, self._teams.get(name, ()), max_actions=self.defaults.max_actions,
                           raw_space=self.raw_space, strict_teams=self.paper)
            failed = {(r.team, r.action) for r in planned.rejected}
            errors[name].extend((r.action, r.reason) for r in planned.rejected)
            self._last_actions[name] = planned.accepted
            for step in planned.steps:
                if self.timestep.last():
                    break
                reason = self._execute(step)
                if reason is not None:
                    label = step.source or f"<select Team {step.team}>"
                    errors[name].append((label, reason))
                    if step.source:
                        failed.add((step.team, step.source))
            stats.invalid += len(failed)
        self._errors = {name: tuple(found) for name, found in errors.items()}
        loops = self.defaults.game_loops_per_second / self.defaults.decision_hz
        while not self.timestep.last() and self._game_loop() - self._decision_loop < loops:
            self._step(import_pysc2().actions.FUNCTIONS.no_op())
        self.decisions += 1
        self.deliveries.append(deliveries)
        self._inbox = {}
        for delivery in deliveries:
            for recipient in delivery.recipients:
                self._inbox.setdefault(recipient, ())
                self._inbox[recipient] += (Received(delivery.sender, delivery.text, delivery.channel),)
        self._refresh()
        self._decision_loop = self._game_loop()
        self._observe_teams()
        return deliveries

    def result(self) -> EpisodeResult:
        """Returns how the episode ended (call once :attr:`finished`)."""
        observation = self.timestep.observation
        reward = float(self.timestep.reward)
        if self.timestep.last() and reward > 0 and float(self.timestep.discount) == 0:
            outcome = "win"
        elif self.timestep.last() and reward < 0:
            outcome = "loss"
        else:
            outcome = "tie"
        killed, lost = value_killed_and_lost(observation)
        messages = tuple(
            {"decision": index, "sender": d.sender, "recipients": list(d.recipients), "channel": d.channel,
             "text": d.text}
            for index, deliveries in enumerate(self.deliveries, 1) for d in deliveries
        )
        return EpisodeResult(outcome, reward, killed, lost, self.decisions, self._game_loop(), self.env_steps,
                             {name: stats.to_dict() for name, stats in self.stats.items()}, messages)

    # -- helpers --------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        self._teams = assign_teams(self.layout, UnitTable.from_observation(self.timestep.observation))

    def _observe_teams(self) -> None:
        """Selects each acting team in turn and notes what pysc2 makes available to it (released stage 1).

        One environment step per selection call; the teams are then re-read
        from the last observation. Off with ``Defaults.select_to_observe``.
        """
        self._available = {}
        if not self.defaults.select_to_observe:
            return
        for name in self.acting():
            for team in self._teams.get(name, ()):
                for step in select_team(team):
                    if self.timestep.last():
                        self._refresh()
                        return
                    self._execute(step)
                self._available[team.name] = frozenset(int(a) for a in self.timestep.observation["available_actions"])
        self._refresh()

    def _game_loop(self) -> int:
        return int(self.timestep.observation["game_loop"][0])

    def _step(self, call: Any) -> None:
        self.timestep = self.env.step([call])[0]
        self.env_steps += 1

    def _execute(self, step: Step) -> str | None:
        observation = self.timestep.observation
        table = UnitTable.from_observation(observation)
        screen = int(observation["feature_screen"].shape[-1]) if "feature_screen" in observation else \
            self.defaults.screen_size
        minimap = int(observation["feature_minimap"].shape[-1]) if "feature_minimap" in observation else \
            self.defaults.minimap_size
        call, reason = resolve(step, table, observation["available_actions"], screen_size=screen,
                               minimap_size=minimap)
        if call is not None:
            self._step(call)
        return reason

    def _route(self, parsed: dict[str, ParsedReply]) -> list[Delivery]:
        names = [a.name for a in self.layout.agents]
        for sender, reply in parsed.items():
            for channel in reply.listens:
                members = self._channels.setdefault(channel, [])
                if sender not in members:
                    members.append(sender)
        deliveries: list[Delivery] = []
        for sender, reply in parsed.items():
            for message in reply.messages:
                self.stats[sender].messages += 1
                if message.to in self._channels or message.to.startswith("Channel-"):
                    members = [m for m in self._channels.get(message.to, []) if m != sender]
                    deliveries.append(Delivery(sender, tuple(members), message.text, message.to))
                elif message.to in names and message.to != sender:
                    deliveries.append(Delivery(sender, (message.to,), message.text))
        return deliveries


def value_killed_and_lost(observation: Any) -> tuple[float, float]:
    """Returns killed and lost value (minerals + 2 × vespene, army + economy) from ``score_by_category``."""
    score = observation["score_by_category"]
    features = import_pysc2().features
    rows, cols = features.ScoreByCategory, features.ScoreCategories

    def value(minerals: Any, vespene: Any) -> float:
        m = float(score[minerals][cols.army] + score[minerals][cols.economy])
        v = float(score[vespene][cols.army] + score[vespene][cols.economy])
        return m + 2 * v

    return value(rows.killed_minerals, rows.killed_vespene), value(rows.lost_minerals, rows.lost_vespene)


Decider = Callable[[str], Awaitable[str]]
"""An agent's brain for :func:`play_episode`: text observation in, reply text out."""


async def play_episode(episode: LockStepEpisode, deciders: dict[str, Decider], *,
                       timeout_s: float = DEFAULTS.decision_timeout_s) -> EpisodeResult:
    """Plays an episode with concurrent agents and a per-decision timeout.

    Args:
        episode: A started or fresh episode.
        deciders: One coroutine function per agent name.
        timeout_s: Wall seconds each decision may take; a later reply counts as empty.

    Returns:
        The episode's result (latencies and timeouts in each agent's stats).
    """
    if episode.timestep is None:
        episode.start()
    try:
        while not episode.finished:
            names = episode.acting()
            texts = {name: episode.text(name) for name in names}

            async def decide(name: str, text: str) -> str:
                started = time.perf_counter()
                try:
                    return await asyncio.wait_for(deciders[name](text), timeout_s)
                except TimeoutError:
                    episode.stats[name].timeouts += 1
                    return ""
                finally:
                    episode.stats[name].latency_s.append(time.perf_counter() - started)

            replies = await asyncio.gather(*(decide(name, texts[name]) for name in names))
            episode.submit(dict(zip(names, replies)))
        return episode.result()
    finally:
        episode.close()
