"""Hidden information never leaks: one property test over every registered game.

Seeded matches run through the real runner with probing agents. Before every
decision and every conversation turn, everything a seat is shown (the
observation's text, data, legal and open-ended actions, instructions,
prompts, a retry's feedback, its messages, and the rule topics it may
``Explain``) is cut into units (lines; one record per data dict or list) and
searched for the facts hidden from that seat:

* the game's own facts, ``Game.secrets(state, viewer)`` (declared next to the
  engine: Codenames' key for operatives, the roles in Are You the Traitor?,
  the opponent's hand in Air, Land, and Sea, a Hanabi player's own hand, other
  ships' damage in Sea Battle, other traders' hands in Pit, unshared cards in
  Two Rooms and a Boom, the opponent's hand and the deck orders in Arctic
  Scavengers ...), and
* private messages between other seats: every probing agent sends a private
  message carrying a unique marker wherever private messages are allowed.

These checks are for ``moves`` games. In a ``revision`` game the rules show
each side the opponent's whole strategy after a round; the check there is
that no side sees the opponent's strategy before the round that plays it,
and then exactly the strategy played.

A game with ``GameInfo.hidden_information`` must override ``Game.secrets``.
Adding a game needs no change here: register it and, if it hides anything,
implement ``secrets``; give it cheaper options in :data:`OPTIONS` if its
random matches are long. Engines with a ``secret_state`` also have a mutation
test of their own (changing other seats' secrets leaves an observation alone),
which catches leaks in any wording.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.game import Game
from stratbench.core.messages import Outgoing
from stratbench.core.revision import InitialRequest, RevisionRequest
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.schedule import MatchSpec
from stratbench.core.shapes import MOVES, REVISION
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, Observation, Rules

SEEDS = (0, 1)
MAX_CHECKS = 300
"""Observations checked per match of a game with hidden information; a longer match stops there."""
MAX_CHECKS_OPEN = 60
"""The same for perfect-information games (random chess and Hive run on and on)."""
OPTIONS: dict[str, dict[str, Any]] = {
    "hanabi": {"max_turns": 40},
    "sea_battle": {"max_rounds": 40},
    "are_you_the_traitor": {"max_rounds": 4},
}
"""Cheaper game options for games whose random matches are long."""
VARIANTS = {"diplomacy": "to1901-r1", "diplomacy-nopress": "to1901-r1", "hanabi": "3p"}
HIDDEN_GAMES = {"air_land_sea", "arctic_scavengers", "are_you_the_traitor", "codenames", "diplomacy", "hanabi", "pit",
                "sea_battle", "two_rooms_and_a_boom"}
"""Games known to hide something; each must take part (a guard against shrinking coverage)."""
MARKER = "zqx{sender}to{recipient}n{count}"


class _Enough(Exception):
    """Stops a match once :data:`MAX_CHECKS` observations were checked."""


def _registry():
    from stratbench.families import standalone_registry

    return standalone_registry(("games",))


def _multi_seat_games(shape: str = MOVES) -> list[str]:
    """The registered games of several seats that declare ``shape``."""
    registry = _registry()
    names = []
    for name in sorted(registry.games):
        game = _build(registry, name)
        if game is not None and game.shape == shape and game.info.num_players > 1:
            names.append(name)
    return names


def _build(registry, name: str) -> Game | None:
    variants = registry.variants(name, {"pddl_dir": None})
    variant = VARIANTS.get(name)
    if variant is None and variants:
        variant = next((v.name for v in variants if v.skip is None), None)
        if variant is None:
            return None
    return registry.game(name, variant, **OPTIONS.get(name, {}))


# -- what a seat is shown, and how a fact is found in it -------------------------------------


def _normalise(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def _data_units(value: Any) -> list[str]:
    """One unit per dict (its scalar entries), per list (its scalar items) and per column of a list of dicts."""
    units = []
    if isinstance(value, dict):
        units.append(" ".join(f"{k} {v}" for k, v in value.items() if not isinstance(v, (dict, list))))
        for item in value.values():
            units += _data_units(item)
    elif isinstance(value, list):
        units.append(" ".join(str(v) for v in value if not isinstance(v, (dict, list))))
        records = [v for v in value if isinstance(v, dict)]
        for key in dict.fromkeys(k for record in records for k in record):
            units.append(" ".join(str(r.get(key)) for r in records if not isinstance(r.get(key), (dict, list))))
        for item in value:
            units += _data_units(item)
    return units


def shown_units(observation: Observation) -> list[str]:
    """Returns everything the seat is shown, cut into lines and data records."""
    texts = [observation.text, observation.asking.instructions, observation.feedback or "", observation.asking.prompt or "",
             observation.asking.system_prompt or "", observation.role, observation.rules.summary]
    texts += list(observation.legal_actions)
    texts += [f"{key}: {prompt}" for key, prompt in observation.open_ended.items()]
    texts += [f"{heading}: {body}" for heading, body in observation.rules.topics.items()]
    texts += [json.dumps(message) for message in observation.messages]
    if observation.negotiation is not None:
        texts.append(json.dumps(observation.negotiation.recipients))
    units = [line for text in texts for line in text.splitlines()]
    return [_normalise(u) for u in units + _data_units(observation.data) if u.strip()]


def _pattern(fact: tuple[str, ...]) -> re.Pattern[str]:
    parts = [r"(?<![0-9a-z])" + re.escape(_normalise(p)) + r"(?![0-9a-z])" for p in fact]
    return re.compile(".*".join(parts))


def leaks(units: list[str], facts: list[tuple[str, ...]]) -> list[str]:
    """Returns a description of every fact found in a unit."""
    found = []
    for fact in facts:
        pattern = _pattern(fact)
        found += [f"{fact} in {unit[:160]!r}" for unit in units if pattern.search(unit)]
    return found


# -- the probing agents ------------------------------------------------------------------


class Probe:
    """Plays random legal actions ('pass' for open-ended ones), whispers markers, checks what it is shown."""

    def __init__(self, context: AgentContext, state, log: dict) -> None:
        self.player, self.game, self.state, self.rng, self.log = context.player, context.game, state, context.rng, log

    def _check(self, observation: Observation) -> None:
        facts = list(self.game.secrets(self.state, self.player))
        facts += [(marker,) for marker, (sender, recipients) in self.log["private"].items()
                  if self.player != sender and self.player not in recipients]
        self.log["checked"] += 1
        if self.log["checked"] > (MAX_CHECKS if self.game.info.hidden_information else MAX_CHECKS_OPEN):
            raise _Enough
        self.log["facts"] += len(facts)
        self.log["leaks"] += [f"player {self.player}, turn {self.state.turn}: {leak}"
                              for leak in leaks(shown_units(observation), facts)]

    async def act(self, observation: Observation) -> Action:
        self._check(observation)
        if observation.legal_actions:
            return Action(self.rng.choice(observation.legal_actions))
        return Action(sorted(observation.open_ended)[0], "pass")

    async def negotiate(self, observation: Observation) -> list[Outgoing]:
        self._check(observation)
        turn = observation.negotiation
        others = sorted(turn.recipients)
        if not turn.allow_private or not others:
            return [Outgoing(f"public words from seat {self.player}")]
        recipient = self.rng.choice(others)
        self.log["count"] += 1
        marker = MARKER.format(sender=self.player, recipient=recipient, count=self.log["count"])
        self.log["private"][marker] = (self.player, (recipient,))
        return [Outgoing(f"psst {marker}", (recipient,))]


def probe_match(game: Game, seed: int) -> dict:
    state = game.new_initial_state(seed)
    log: dict[str, Any] = {"private": {}, "count": 0, "checked": 0, "facts": 0, "leaks": []}
    agents = {
        p: Probe(AgentContext(AgentSpec("random"), game, p, game.info.side_of(p), random.Random(seed * 100 + p),
                              Transcript()), state, log)
        for p in range(game.info.num_players)
    }
    try:
        asyncio.run(run_match(game, state, agents, rng=random.Random(seed), rules=MatchRules(2, "random")))
    except _Enough:
        pass
    return log


# -- the tests ---------------------------------------------------------------------------


def test_every_game_that_hides_something_declares_its_secrets():
    registry = _registry()
    names = _multi_seat_games()
    assert HIDDEN_GAMES <= set(names)
    for name in names:
        game = _build(registry, name)
        if game.info.hidden_information:
            assert type(game).secrets is not Game.secrets, f"{name} hides information but does not override secrets"


@pytest.mark.parametrize("name", _multi_seat_games())
def test_no_seat_is_shown_another_seat_s_hidden_state(name):
    game = _build(_registry(), name)
    for seed in SEEDS:
        log = probe_match(game, seed)
        assert log["checked"] > 0
        assert log["leaks"] == [], "\n".join(log["leaks"][:5])
        if name in HIDDEN_GAMES - {"diplomacy", "diplomacy-nopress"}:
            assert log["facts"] > 0, f"{name}: no hidden facts were checked"
        if game.info.hidden_information and name.startswith("diplomacy") and name != "diplomacy-nopress":
            assert log["private"], "no private message was exchanged"


class _Watched:
    """A strategy writer that keeps every request its side is shown."""

    def __init__(self, writer: Any, shown: list[Any]) -> None:
        self.writer, self.shown = writer, shown

    def initial(self, request: InitialRequest) -> Any:
        self.shown.append(request)
        return self.writer.initial(request)

    def revise(self, request: RevisionRequest) -> Any:
        self.shown.append(request)
        return self.writer.revise(request)


@pytest.mark.parametrize("name", _multi_seat_games(REVISION))
def test_a_revision_side_sees_the_opponents_strategy_only_once_played(name):
    from stratbench.match.revision import build_writers, play_revision

    game = _build(_registry(), name)
    kinds = game.baseline_kinds
    spec = MatchSpec(name, (AgentSpec(kinds[0]), AgentSpec(kinds[-1])), 0, 5, "hidden", game.order)
    writers, _ = build_writers(None, spec, game, Transcript(), {})
    shown: dict[str, list[Any]] = {side: [] for side in game.sides}
    watched = {side: _Watched(writer, shown[side]) for side, writer in writers.items()}
    match = asyncio.run(play_revision(game, spec, watched, Transcript(), rounds=4)).extra["advgame"]
    revisions = 0
    for side in game.sides:
        opponent = next(other for other in game.sides if other != side)
        opening = json.dumps(match["rounds"][0]["strategies"][opponent])
        assert isinstance(shown[side][0], InitialRequest)
        for request in shown[side]:
            assert request.side == side
            if isinstance(request, InitialRequest):  # asked before any round: nothing of the opponent's
                assert opening not in request.feedback
                continue
            revisions += 1
            played = match["rounds"][request.round - 1]["strategies"]
            assert request.opponent_strategy == played[opponent] and request.own_strategy == played[side]
    assert revisions == 3


def test_the_search_finds_a_fact_in_a_line_or_a_record_but_not_across_them():
    observation = Observation(
        game="g", player=1, text="APPLE: UNKNOWN, HIDDEN\nPEAR: RED, REVEALED", legal_actions=("guess APPLE",),
        rules=Rules("g", ""),
        data={"cards": [{"word": "APPLE", "type": "assassin"}, {"word": "PEAR", "type": "red"}],
              "hand": [{"card": "R1"}, {"card": "B3"}]},
    )
    units = shown_units(observation)
    assert leaks(units, [("APPLE", "red")]) == [] and leaks(units, [("B3", "R1")]) == []
    assert leaks(units, [("R1", "B3")]) == ["('R1', 'B3') in 'r1 b3'"]
    assert leaks(units, [("APPLE", "assassin")]) == ["('APPLE', 'assassin') in 'word apple type assassin'"]
    assert leaks(units, [("PEAR", "red")]) and leaks(["red 2 damage 7"], [("Red 2", "damage 7")])
    assert leaks(["red 20 damage 7"], [("Red 2", "damage 7")]) == []
