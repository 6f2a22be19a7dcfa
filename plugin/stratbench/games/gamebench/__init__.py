"""GameBench's games (Costarelli et al. 2024), rules as shown to the models in its Appendix K.

GameBench conventions every game here follows: rules are a summary plus
sub-topics an agent expands with ``Explain(<heading>)`` (``Rules.topics``);
actions are predefined or open-ended; per-match scores lie in [0, 1] and sum
to 1 (draws allowed); in team games the same agent is duplicated per seat
without being told.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from stratbench.core.game import Game, State
from stratbench.core.types import Observation

PROTOCOLS = ("default", "paper")
"""How a GameBench game may be played: the project's prompts, or GameBench's released agent's."""


def check_protocol(protocol: str) -> str:
    """Returns ``protocol`` if a GameBench game can be played in it.

    Raises:
        ValueError: naming the protocol and the known ones.
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}; got {protocol!r}")
    return protocol


def protocol_view(observation: Observation, protocol: str) -> Observation:
    """Returns the observation as ``protocol`` asks for it: under ``paper``, GameBench's prompt and reader."""
    if protocol != "paper":
        return observation
    return observation.with_asking(prompt_style="gamebench", answer_parser="gamebench")


class ProtocolGame(Game):
    """A GameBench game: its own observation, viewed through the protocol it is played in."""

    protocol: str = "default"

    def observe(self, state: State, player: int) -> Observation:
        """Returns :meth:`own_observation` as the game's protocol asks for it (:func:`protocol_view`)."""
        return protocol_view(self.own_observation(state, player), self.protocol)

    @abstractmethod
    def own_observation(self, state: State, player: int) -> Observation:
        """Returns what ``player`` may see of ``state``, with its legal actions (the engine's own view)."""

    def snapshot(self, state: State) -> dict[str, Any] | None:
        """The engine's own text board (its state's ``str``) for the replay viewer, where it has one."""
        if type(state).__str__ is object.__str__:
            return None
        return {"text": str(state)}


GAME_IDS = (
    "air_land_sea", "santorini", "hive", "sea_battle", "codenames", "are_you_the_traitor",
    "pit", "two_rooms_and_a_boom", "arctic_scavengers",
)
"""The GameBench games stratbench implements (GameBench's own ids)."""

REASONING_CATEGORIES = {
    "Abstract Strategy": ("air_land_sea", "arctic_scavengers", "codenames", "hive", "santorini", "sea_battle"),
    "Non-Deterministic": ("arctic_scavengers", "two_rooms_and_a_boom", "sea_battle"),
    "Hidden Information": ("arctic_scavengers", "are_you_the_traitor", "two_rooms_and_a_boom"),
    "Language Communication": ("are_you_the_traitor", "codenames", "pit", "two_rooms_and_a_boom"),
    "Social Deduction": ("are_you_the_traitor", "two_rooms_and_a_boom"),
    "Cooperation": ("are_you_the_traitor", "codenames", "sea_battle", "two_rooms_and_a_boom"),
}
"""GameBench Table 3: the reasoning categories and the games that cover them (all nine), as published."""

EXTRA_GAME_IDS = ("atari_boxing",)
"""GameBench's games outside its data collection (Atari Boxing: in the benchmark, no published data)."""

EXTRA_CATEGORIES = {"Real-time (not in Table 3)": ("atari_boxing",)}
"""What the games outside Table 3 measure: Boxing is GameBench's one real-time game."""
