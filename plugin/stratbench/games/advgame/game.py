"""The AdvGameBench games as registered games: what the session needs to schedule, play and record them.

A match of these games is not played move by move: :class:`AdvGame` is a
``core.revision.RevisionGame`` (the ``revision`` match shape), which the
session plays with ``core.revision.play_revision_match``
(``stratbench.match.revision``). It carries the facts the rest of the
harness reads from any game (``GameInfo``: two sides, scores in [0, 1]
summing to 1, family ``advgame``; each seat's role, the side's name) and
what the revision shape asks of it: the simulator seen through the
catalogue, the writers (a model through the protocol's prompt wording, or a
baseline), the move order and the rounds.

Variants are move orders, named from the subject's side: ``first`` (the
subject revises after round 1) and ``second``. With ``seats="alternate"``
and two matches per pairing, a pairing plays both roles in both move orders
(the paper's adversarial matrix).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any

from stratbench.core.game import GameInfo
from stratbench.core.revision import RevisionGame, read_strategy_json
from stratbench.core.types import Rules
from stratbench.games.advgame import GAME_IDS, simulator
from stratbench.games.advgame.baselines import BASELINE_KINDS, BaselineWriter
from stratbench.registry import Variant
from stratbench.games.advgame.writers import ModelStrategyWriter

MOVE_ORDERS = ("first", "second")
"""The variants: the subject's move order (which side revises after round 1)."""

PROTOCOLS = ("default", "paper")
"""Prompt wordings: the project's own, or the released code's."""

TITLES = {"tower_defense": "Tower Defense", "battle_card": "Battle Card", "turn_based": "Turn-based Attribute"}
"""Display names (the paper's TDG, BCG, TAG)."""

_SUMMARIES = {
    "tower_defense": "The human side places soldiers on a 5 x 11 battlefield within 2000; the demon side sends "
                     "demons from the right within 1500. A demon reaching the left edge wins for the demons.",
    "battle_card": "Each side buys at most 7 minions within 20 (Gold: 3x cost, 2x stats); the lines attack in "
                   "turn until one is empty; a mutual wipe-out goes to the invader.",
    "turn_based": "Each side picks three characters' skills within 20; front characters duel with elemental "
                  "multipliers until one side has no character left.",
}


def variants(options) -> list[Variant]:
    """Lists the move orders (one match form each)."""
    return [Variant(order) for order in MOVE_ORDERS]


class CataloguedRules:
    """A simulator module seen through one catalogue (the ``StrategyRules`` ``play_revision_match`` plays)."""

    def __init__(self, module: ModuleType, catalogue: str) -> None:
        self.module, self.catalogue = module, catalogue
        self.SIDES, self.BUDGETS, self.INIT_TRIES = module.SIDES, module.BUDGETS, module.INIT_TRIES

    def strategy_cost(self, strategy: dict, side: str) -> float:
        return self.module.strategy_cost(strategy, side, catalogue=self.catalogue)

    def validate(self, strategy: dict, side: str) -> list:
        return self.module.validate(strategy, side, catalogue=self.catalogue)

    def simulate(self, strategies: dict) -> Any:
        return self.module.simulate(strategies, catalogue=self.catalogue)


class AdvGame(RevisionGame):
    """One AdvGameBench game, played by the strategy-and-revision match.

    Args:
        game_id: ``tower_defense``, ``battle_card`` or ``turn_based``.
        variant: The subject's move order (``first`` or ``second``); None means ``first``.
        protocol: ``default`` (the project's prompts) or ``paper`` (the released prompts' wording).
        catalogue: ``released`` (default) or ``paper`` unit tables.
        rounds: Rounds per match when ``--advgame-rounds`` is not given (the paper's 10).
    """

    baseline_kinds = BASELINE_KINDS
    rounds_option = "advgame_rounds"  # the family's setting (--advgame-rounds)

    def __init__(self, game_id: str, variant: str | None = None, *, protocol: str = "default",
                 catalogue: str = "released", rounds: int = 10) -> None:
        self.strategy_game = simulator(game_id)
        """The simulator module (its rules, through the catalogue: :meth:`strategy_rules`)."""
        if variant not in (None, *MOVE_ORDERS):
            raise ValueError(f"unknown move order {variant!r}; known: {', '.join(MOVE_ORDERS)}")
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown prompt protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
        if catalogue not in ("released", "paper"):
            raise ValueError(f"unknown catalogue {catalogue!r}; known: released, paper")
        if not isinstance(rounds, int) or rounds < 1:
            raise ValueError(f"rounds must be a whole number of at least 1, got {rounds!r}")
        self.game_id, self.order = game_id, variant or "first"
        self.protocol, self.catalogue, self.rounds = protocol, catalogue, rounds
        self.info = GameInfo(name=game_id, num_players=2, sides=((0,), (1,)), max_turns=1000, family="advgame")
        self.rules = Rules(TITLES[game_id], _SUMMARIES[game_id])

    @property
    def sides(self) -> tuple[str, str]:
        """The side names in seat order (``human``, ``demon``; ``invader``, ``defender``)."""
        return tuple(self.strategy_game.SIDES)

    def first_reviser(self, subject: int) -> str:
        """Returns the side that revises after round 1, given the subject's seat and the move order."""
        if self.order == "first":
            return self.sides[subject]
        return self.sides[1 - subject]

    def strategy_rules(self) -> CataloguedRules:
        """Returns the simulator seen through this game's catalogue."""
        return CataloguedRules(self.strategy_game, self.catalogue)

    def model_writer(self, session: Any, side: str) -> Any:
        """Returns a model's writer for ``side``, worded by this game's prompt protocol."""
        return ModelStrategyWriter(session, self.game_id, side, catalogue=self.catalogue, protocol=self.protocol)

    def baseline_writer(self, kind: str, side: str, rng: random.Random) -> BaselineWriter:
        """Returns the ``random``, ``greedy`` or ``climber`` baseline's writer for ``side``."""
        return BaselineWriter(kind, self.game_id, side, rng, catalogue=self.catalogue)

    def reader(self) -> Callable[[str], dict]:
        """Returns the answer reader: the paper protocol reads with the released reader only (no prose dropped)."""
        return partial(read_strategy_json, released_only=self.protocol == "paper")


def factory(game_id: str):
    """Returns the registry factory of one game (``factory(variant=..., **options)``)."""
    if game_id not in GAME_IDS:
        raise ValueError(f"unknown AdvGameBench game {game_id!r}; known: {', '.join(GAME_IDS)}")

    def build(variant: str | None = None, **options) -> AdvGame:
        return AdvGame(game_id, variant, **options)

    build.__doc__ = f"Builds the {TITLES[game_id]} game."
    return build
