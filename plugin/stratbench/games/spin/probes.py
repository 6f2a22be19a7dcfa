"""SPIN-Bench's planning probes as one-sided, one-answer games.

``factual_retrieval`` (variants ``d<properties>-l<length>``) and
``spatial_tracking`` (variants ``l<length>``) each generate one task from the
match seed (:mod:`stratbench.games.spin.planning.probes`), ask once, and score the
answer 1 if right, else 0. The answer is the open-ended action ``answer``.
"""

from __future__ import annotations

from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.spin.planning import probes
from stratbench.registry import Variant

__all__ = [
    "FACTUAL_VARIANTS",
    "FactualRetrieval",
    "ProbeState",
    "SPATIAL_VARIANTS",
    "SpatialTracking",
    "factual_variants",
    "spatial_variants",
]

ANSWER = "answer"
FACTUAL_VARIANTS = tuple(f"d{d}-l{n}" for d in (2, 4, 8, 16) for n in (1, 10, 25, 50))
"""Mutable properties x trajectory length (SPIN-Bench C.1: lengths 1-50)."""
SPATIAL_VARIANTS = tuple(f"l{n}" for n in (1, 5, 10, 20, 30, 40, 50))
"""Number of moves."""


def _info(name: str) -> GameInfo:
    return GameInfo(name=name, num_players=1, sides=((0,),), max_turns=1, score_range=(0.0, 1.0),
                    score_sum=None, family="spin")


class ProbeState(State):
    """A probe before and after its one answer.

    Attributes:
        task: The generated task (:class:`~stratbench.games.spin.planning.probes.FactualTask` or ``SpatialTask``).
        answer: The agent's answer once given.
        correct: Whether it was right, once given.
        detail: Per-game scoring detail (share of properties right, position read).
    """

    def __init__(self, game: _ProbeGame, task: Any) -> None:
        super().__init__(game)
        self.task = task
        self.answer: str | None = None
        self.correct: bool | None = None
        self.detail: dict[str, Any] = {}

    def _current_players(self) -> list[int]:
        return [0]

    def _legal_actions(self, player: int) -> list[str]:
        return []

    def _open_ended(self, player: int) -> dict[str, str]:
        return {ANSWER: "Your full answer, ending with the $$ block"}

    def _apply(self, actions: dict[int, Action]) -> None:
        assert isinstance(self.game, _ProbeGame)
        self.answer = actions[0].response
        self.correct, self.detail = self.game.score(self.task, self.answer)

    def _is_terminal(self) -> bool:
        return self.correct is not None

    def _scores(self) -> list[float]:
        return [1.0 if self.correct else 0.0]

    def _terminal_reason(self) -> str:
        return "correct" if self.correct else "wrong"


class _ProbeGame(Game):
    variants: tuple[str, ...] = ()

    def __init__(self, variant: str | None = None) -> None:
        if variant is not None and variant not in self.variants:
            raise ValueError(f"unknown {self.info.name} variant {variant!r}; known: {', '.join(self.variants)}")
        self.variant = variant or self.variants[0]

    def role(self, player: int) -> str:
        """Returns ``"solver"``."""
        return "solver"

    def new_initial_state(self, seed: int) -> ProbeState:
        """Returns the unanswered task generated from the variant and ``seed``."""
        return ProbeState(self, self.generate(seed))

    def generate(self, seed: int) -> Any:
        """Returns the task for ``seed``."""
        raise NotImplementedError

    def score(self, task: Any, answer: str | None) -> tuple[bool, dict[str, Any]]:
        """Returns whether the answer is right, and details."""
        raise NotImplementedError

    def _observation(self, state: ProbeState, player: int, prompt: str, data: dict[str, Any]) -> Observation:
        return Observation(
            game=self.info.name, player=player, text=prompt, legal_actions=(), rules=self.rules,
            open_ended=state.open_ended(player), role="solver", turn=state.turn, data=data,
            asking=Asking(prompt=prompt),
        )


class FactualRetrieval(_ProbeGame):
    """Report the state after step k of a spelled-out trajectory."""

    info = _info("factual_retrieval")
    rules = Rules(
        title="Factual retrieval in a planning trajectory (SPIN-Bench)",
        summary="Read a trajectory whose state changes are spelled out, and report the state after a given step.",
    )
    variants = FACTUAL_VARIANTS

    @property
    def difficulty(self) -> int:
        """Returns the number of mutable properties."""
        return int(self.variant.split("-")[0][1:])

    @property
    def length(self) -> int:
        """Returns the trajectory length."""
        return int(self.variant.split("-l")[1])

    def generate(self, seed: int) -> probes.FactualTask:
        """Returns the factual-retrieval task for ``seed``."""
        return probes.factual_task(self.difficulty, self.length, seed)

    def score(self, task: Any, answer: str | None) -> tuple[bool, dict[str, Any]]:
        """Scores 1 only if every mutable property is right; records the share right."""
        correct, share = probes.score_factual(task, answer)
        return correct, {"property_accuracy": share}

    def observe(self, state: State, player: int) -> Observation:
        """Returns the prompt; ``data`` holds the same trajectory, structured (never the answer)."""
        assert isinstance(state, ProbeState)
        task = state.task
        data = {"properties": list(task.properties), "initial": dict(task.initial),
                "steps": [{"action": s["action"], "property": s["property"], "value": s["value"]} for s in task.steps],
                "asked_step": task.asked_step}
        return self._observation(state, player, probes.factual_prompt(task), data)


class SpatialTracking(_ProbeGame):
    """Give the final coordinate after a sequence of relative moves."""

    info = _info("spatial_tracking")
    rules = Rules(
        title="Spatial tracking on a tile grid (SPIN-Bench)",
        summary="Follow a robot's relative moves (up, down, left, right) from a start tile and give its final tile.",
    )
    variants = SPATIAL_VARIANTS

    @property
    def length(self) -> int:
        """Returns the number of moves."""
        return int(self.variant[1:])

    def generate(self, seed: int) -> probes.SpatialTask:
        """Returns the spatial-tracking task for ``seed``."""
        return probes.spatial_task(self.length, seed)

    def score(self, task: Any, answer: str | None) -> tuple[bool, dict[str, Any]]:
        """Scores 1 if the coordinate read is the final one."""
        position = probes.read_position(answer)
        return position == task.answer, {"position": None if position is None else list(position)}

    def observe(self, state: State, player: int) -> Observation:
        """Returns the prompt; ``data`` holds the start, moves and axis convention (never the answer)."""
        assert isinstance(state, ProbeState)
        task = state.task
        data = {"size": task.size, "start": list(task.start), "moves": list(task.moves),
                "directions": {k: list(v) for k, v in probes.DIRECTIONS.items()}}
        return self._observation(state, player, probes.spatial_prompt(task), data)


def factual_variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the factual-retrieval variants."""
    return [Variant(v) for v in FACTUAL_VARIANTS]


def spatial_variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the spatial-tracking variants."""
    return [Variant(v) for v in SPATIAL_VARIANTS]
