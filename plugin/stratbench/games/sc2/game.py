"""StarCraft II through the LLM-PySC2 text interface, as a stratbench game.

:class:`SC2TextGame` plays one side's agents (one seat per configured agent:
Commander, CombatGroup1...) against whatever the environment runs on the
other side (the built-in AI, a map trigger). It takes an environment
*factory*, so the same class drives pysc2's mock environment
(:mod:`~stratbench.games.sc2.mock_battle`), ``SC2Env`` on the offline engine,
and ``SC2Env`` on the live game. Every decision all acting agents answer at
once (a simultaneous game: the runner gathers them), each reply is one
open-ended answer ``reply`` holding the analysis, ``Team`` blocks and
messages; the state hands the replies to
:class:`~stratbench.games.sc2.multi_agent.LockStepEpisode`. Messages are also
posted to the core's message log, so records and transcripts carry them.

Scores: the side gets 1 for a win, 0.5 for a tie, 0 for a loss. The episode's
summary (KD values, invalid actions, per-agent counts) is kept on the game
for the metrics (:mod:`stratbench.games.sc2.metrics`).

Each request is the released layout: system prompt, example input, example
output, text observation (:mod:`~stratbench.games.sc2.prompts`); ``protocol="paper"``
switches to the released 2025 prompt and strict reading.

Entry points: :class:`SC2TextGame`, :func:`mock_game` (the registered
``sc2_mock`` game), :func:`read_reply` (the ``sc2-reply`` answer reader).
"""

from __future__ import annotations

import functools

from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, ActionParseError, Asking, Observation, Rules
from stratbench.games.sc2.config import (
    DEFAULTS,
    Defaults,
    Layout,
    TeamConfig,
    smac_layout,
)
from stratbench.games.sc2.images import render_png
from stratbench.games.sc2.multi_agent import EnvFactory, EpisodeResult, LockStepEpisode
from stratbench.games.sc2.prompts import (
    example_exchange,
    paper_example_exchange,
    paper_system_prompt,
    system_prompt,
)
from stratbench.registry import Variant
from stratbench.games.sc2.config import AgentConfig
from stratbench.games.sc2.pysc2_compat import unavailable_reason

REPLY = "reply"
"""The one open-ended action of every decision: the agent's whole answer."""

REPLY_PROMPT = "your analysis, then Actions: with a Team <name>: block of <Action(args)> per team"

SCORES = {"win": 1.0, "tie": 0.5, "loss": 0.0}

RULES = Rules(
    title="StarCraft II (LLM-PySC2)",
    summary=(
        "You command Protoss unit teams in StarCraft II through text. Each decision you read your teams' units, "
        "nearby allies and enemies, and your valid actions; you answer with up to the allowed number of actions "
        "per team, written <ActionName(args)> under a 'Team <name>:' header. The game waits for every agent, then "
        "executes the actions for one game second. Win by defeating the enemy before the time runs out."
    ),
)


class SC2TextGame(Game):
    """One side's LLM-PySC2 agents against an environment (see the module docstring).

    Args:
        name: The registered game name (``"sc2_mock"``, ``"llm_smac"``).
        env_factory: Makes a fresh environment per match.
        layout: The side's agents and teams.
        protocol: ``"default"`` or ``"paper"``.
        raw_space: The environment takes raw actions.
        defaults: Actions per team, decision rate.
        max_decisions: Decisions before the episode is called a tie.
        family: The benchmark family in reports.
        backend: What plays the environment (``mock``, ``engine``, ``live``), recorded with every match.
    """

    def __init__(self, name: str, env_factory: EnvFactory, layout: Layout, *, protocol: str = "default",
                 raw_space: bool = False, defaults: Defaults = DEFAULTS, max_decisions: int = 200,
                 family: str = "llm-pysc2", backend: str = "mock") -> None:
        if protocol not in ("default", "paper"):
            raise ValueError(f"protocol must be 'default' or 'paper', got {protocol!r}")
        self.env_factory = env_factory
        self.layout = layout
        self.protocol = protocol
        self.raw_space = raw_space
        self.defaults = defaults
        self.max_decisions = max_decisions
        self.backend = backend
        self.agent_names = tuple(agent.name for agent in layout.agents)
        self.info = GameInfo(
            name=name,
            num_players=len(layout.agents),
            sides=(tuple(range(len(layout.agents))),),
            max_turns=max_decisions + 1,
            simultaneous=True,
            score_range=(0.0, 1.0),
            score_sum=None,
            family=family,
        )
        self.rules = RULES
        self.results: list[EpisodeResult] = []
        """The summary of every episode played with this game, in order (for the metrics)."""

    def new_initial_state(self, seed: int) -> SC2State:
        """Starts an episode; a factory marked ``takes_seed`` (the offline engine's) gets the match seed."""
        factory = self.env_factory
        if getattr(factory, "takes_seed", False):
            factory = functools.partial(self.env_factory, seed=seed)
        episode = LockStepEpisode(factory, self.layout, defaults=self.defaults,
                                  paper=self.protocol == "paper", raw_space=self.raw_space,
                                  max_decisions=self.max_decisions)
        episode.start()
        return SC2State(self, episode)

    def observe(self, state: State, player: int) -> Observation:
        """Returns the agent's request: released system prompt, example exchange and text observation."""
        assert isinstance(state, SC2State)
        name = self.agent_names[player]
        agent = self.layout.agent(name)
        communication = self.layout.communication
        if self.protocol == "paper":
            system = paper_system_prompt(name, agent.describe, communication=communication)
            example = paper_example_exchange(communication=communication)
        else:
            system = system_prompt(agent.describe, communication=communication)
            example = example_exchange(communication=communication)
        episode = state.episode
        teams = episode.teams(name)
        text = episode.text(name)
        return Observation(
            game=self.info.name,
            player=player,
            text=text,
            legal_actions=(),
            rules=self.rules,
            open_ended={REPLY: REPLY_PROMPT},
            role=name,
            turn=state.turn,
            image_png=render_png(episode.timestep.observation),
            asking=Asking(answer_parser="sc2-reply", prompt=text, system_prompt=system, preamble=example),
            data={
                "agent": name,
                "teams": {team.name: [hex(tag) for tag in team.tags] for team in teams},
                "actions": {team.name: list(team.config.action_names()) for team in teams},
                "observation": episode.timestep.observation,
            },
        )

    def role(self, player: int) -> str:
        """Returns the agent's name."""
        return self.agent_names[player]


class SC2State(State):
    """A match in progress: the episode and the decision counter."""

    def __init__(self, game: SC2TextGame, episode: LockStepEpisode) -> None:
        super().__init__(game)
        self.episode = episode
        self._recorded = False

    def __deepcopy__(self, memo: dict[int, Any]) -> SC2State:
        raise TypeError("an SC2 match holds a live environment and cannot be copied")

    def _current_players(self) -> list[int]:
        names = self.episode.acting()
        return [i for i, name in enumerate(self.game.agent_names) if name in names]  # type: ignore[attr-defined]

    def _legal_actions(self, player: int) -> list[str]:
        return []

    def _open_ended(self, player: int) -> dict[str, str]:
        return {REPLY: REPLY_PROMPT}

    def _apply(self, actions: dict[int, Action]) -> None:
        names = self.game.agent_names  # type: ignore[attr-defined]
        replies = {names[p]: action.response or "" for p, action in actions.items()}
        phase = f"decision-{self.episode.decisions + 1}"
        for delivery in self.episode.submit(replies):
            sender = names.index(delivery.sender)
            recipients = tuple(names.index(r) for r in delivery.recipients)
            if recipients:
                self.messages.post(sender, Outgoing(delivery.text, to=recipients, sender_role=delivery.sender,
                                                    to_roles=delivery.recipients), phase, 1)
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        if self.episode.finished and not self._recorded:
            self._recorded = True
            self.game.results.append(self.episode.result())  # type: ignore[attr-defined]
            self.episode.close()

    def _is_terminal(self) -> bool:
        return self.episode.finished

    def _scores(self) -> list[float]:
        return [SCORES[self.episode.result().outcome]]

    def _terminal_reason(self) -> str:
        return self.episode.result().outcome

    def pass_action(self, player: int) -> Action:
        """The ``drop`` fallback: an answer with no actions (the released default action)."""
        return Action(REPLY, "<No_Operation()>")

    def fallback_action(self, player: int, rng: Any) -> Action:
        """The ``random`` fallback: also no actions."""
        return Action(REPLY, "<No_Operation()>")


def read_reply(reply: str, observation: Observation) -> Action:
    """Reads an agent's answer: the whole reply is the ``reply`` action (the ``sc2-reply`` reader).

    Raises:
        ActionParseError: when the reply is empty.
    """
    if not reply or not reply.strip():
        raise ActionParseError("The reply was empty: answer with Actions: and a Team <name>: block per team.")
    return Action(REPLY, reply)


# -- the registered mock game ---------------------------------------------------------------------------

MOCK_VARIANTS: dict[str, tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]] = {
    "2s1z_vs_4zg": ((("Protoss.Stalker", 2), ("Protoss.Zealot", 1)), (("Zerg.Zergling", 4),)),
    "3s_vs_2r": ((("Protoss.Stalker", 3),), (("Zerg.Roach", 2),)),
}
"""The mock skirmishes: own and enemy units per variant."""


def mock_layout(variant: str) -> Layout:
    """Returns the mock skirmish's layout: one LLM-SMAC agent, a team per own unit type."""
    own, _ = MOCK_VARIANTS[variant]
    teams = tuple(TeamConfig(f"{kind.split('.')[1]}-1", (kind.split(".")[1],),
                             actions=("Attack_Unit", "Move_Screen")) for kind, _ in own)
    return smac_layout(teams, "Kill as much as enemy units as possible and avoid losing unit.")


def mock_multi_layout(variant: str) -> Layout:
    """Returns a two-agent layout with communication: a CombatGroup per own unit type."""
    own, _ = MOCK_VARIANTS[variant]
    agents = tuple(
        AgentConfig(f"CombatGroup{i}", f"Protoss frontline commander, controls several {kind.split('.')[1]}s.",
                    (TeamConfig(f"{kind.split('.')[1]}-1", (kind.split(".")[1],),
                                actions=("Attack_Unit", "Move_Screen")),))
        for i, (kind, _) in enumerate(own)
    )
    return Layout(agents, communication=True,
                  task={"*": "Kill as much as enemy units as possible and avoid losing unit."})


MULTI_SUFFIX = "-2agents"
"""A mock variant with this suffix plays one agent per own unit type, with messages on."""


def mock_variant_names() -> list[str]:
    """Lists the ``sc2_mock`` variants: each skirmish with one agent, then the first with two talking agents."""
    names = list(MOCK_VARIANTS)
    return [*names, names[0] + MULTI_SUFFIX]


def mock_game(variant: str | None = None, *, protocol: str = "default", max_steps: int = 60) -> SC2TextGame:
    """Builds the ``sc2_mock`` game: a skirmish on pysc2's mock environment.

    Args:
        variant: A name from :func:`mock_variant_names` (default: the first): a skirmish of
            :data:`MOCK_VARIANTS`, with ``-2agents`` for one talking agent per own unit type.
        protocol: ``"default"`` or ``"paper"``.
        max_steps: Environment steps before the skirmish is a tie.
    """
    from stratbench.games.sc2.mock_battle import make_env_factory, skirmish  # lean: its engine, when a mock is built

    variant = variant or next(iter(MOCK_VARIANTS))
    if variant not in mock_variant_names():
        raise ValueError(f"unknown sc2_mock variant {variant!r}; known: {mock_variant_names()}")
    skirmish_name = variant.removesuffix(MULTI_SUFFIX)
    own, enemy = MOCK_VARIANTS[skirmish_name]
    layout = mock_multi_layout(skirmish_name) if variant.endswith(MULTI_SUFFIX) else mock_layout(skirmish_name)
    return SC2TextGame("sc2_mock", make_env_factory(skirmish(own, enemy), max_steps=max_steps), layout,
                       protocol=protocol, max_decisions=max_steps)


def mock_variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the mock skirmishes; each is skipped, with the install hint, when pysc2 is missing."""
    skip = unavailable_reason()
    return [Variant(name, skip) for name in mock_variant_names()]
