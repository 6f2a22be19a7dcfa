"""Pit (GameBench): four traders swap commodity cards semi-blindly to corner a market.

The deck holds 9 cards of each of four commodities (Wheat 100, Barley 85,
Corn 75, Soybeans 55 points) plus the Bull and the Bear, dealt round-robin to
four traders (two hold 10 cards). Every trading round all traders act at
once: ``offer`` a set of 1-4 cards of one commodity (the Bull or the Bear may
ride along as one of them), ``accept`` another trader's standing offer by
giving a set of the same size, ``withdraw`` their own offer, or ``pass``.
Only the *number* of cards in an offer is public; what changes hands is seen
by the two traders alone. Accepts are resolved in a seeded random order
against the offers standing at the start of the round; a trader trades at
most once a round, and a trade whose cards are gone by then fails. A trader holding ``corner_size`` cards of one
commodity (GameBench: 6 of the 9), or one fewer plus the Bull, corners that
market and scores its value, doubled for a full corner with the Bull, minus
20 while holding the Bear; the cards are then reshuffled and dealt again.
The match ends when a trader reaches ``target_score`` points (GameBench: 500)
or after ``max_rounds`` trading rounds.

GameBench gives each of its two agents two virtual traders; here players 0
and 2 form one side and 1 and 3 the other, the agent duplicated on both seats
without being told. A side scores its traders' share of all points (0.5 each
when nobody has scored), as GameBench normalises points by their sum.
A trader's secret state is its hand and the cards behind its standing offer
(:meth:`PitState.secret_state`); :meth:`Pit.secrets` words it for the others.

``Pit(obfuscation=...)`` is a memorisation probe (``--obfuscate``): the four
commodities, the Bull and the Bear, and the four actions (``offer``,
``accept``, ``withdraw``, ``pass``) are renamed as whole words in everything
the model reads, and an answer is read back to the original names; the
engine, the logs, the records and the replay board keep the original names.
Pit is the GameBench game whose names carry the most known meaning (a
famous card game's commodities, Bull and Bear) in a small closed vocabulary
that no other word of its text shares, so a whole-word renaming is exact.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.types import (
    Action,
    Asking,
    ActionParseError,
    IllegalActionError,
    Observation,
    Rules,
)
from stratbench.games import relabel
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["COMMODITIES", "INFO", "RULES", "Pit", "PitState", "TradeSet", "trader_name"]

COMMODITIES = {"Wheat": 100, "Barley": 85, "Corn": 75, "Soybeans": 55}
"""The commodities and their corner values (GameBench's point values)."""
CARDS_PER_COMMODITY = 9
BULL, BEAR = "Bull", "Bear"
BEAR_PENALTY = 20
MAX_OFFER = 4
NUM_TRADERS = 4
CORNER_SIZE = 6
"""Cards of one commodity that corner its market (GameBench's ``max_possible``; the card game uses 9)."""
TARGET_SCORE = 500
MAX_ROUNDS = 200
"""Trading rounds after which the match ends on the points so far (GameBench has no limit)."""

INFO = GameInfo(
    name="pit",
    num_players=NUM_TRADERS,
    sides=((0, 2), (1, 3)),
    max_turns=MAX_ROUNDS,
    simultaneous=True,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Pit",
    summary=(
        "Pit is a commodity trading game where players engage in trading to accumulate points and emerge as the "
        "winner. The game involves commodity cards representing various goods, with each card holding a specific "
        "point value. Players shout out their trade offers, attempting to negotiate deals with others to acquire "
        "valuable commodities. Additionally, Bull and Bear cards periodically influence the market conditions, "
        "either boosting or decreasing commodity values. The game continues with trading phases, market "
        "fluctuations, and scoring until a player or team reaches the agreed-upon point total, declaring them "
        "the victor in the spirited world of commodity trading."
    ),
)

_INSTRUCTIONS = (
    "All traders act at the same time each trading round. 'offer <set>' puts a set of 1-{max} of your cards up "
    "for trade, all of one commodity, optionally with the Bull or the Bear as one of them (e.g. 'offer 2 Wheat', "
    "'offer 2 Corn + Bear' is a set of 3); the others only learn how many cards you offer, and your new offer "
    "replaces your old one. 'accept <trader> with <set>' takes that trader's standing offer and gives them your set, "
    "which must have the same number of cards. 'withdraw' takes back your standing offer; 'pass' keeps it. "
    "Holding {corner} cards of one commodity, or {corner_minus} plus the Bull, corners that market: you score its "
    "value ({values}), double with the Bull on top of {corner} cards, minus {bear} while you hold the Bear. Then "
    "the cards are dealt again. The game ends when a trader reaches {target} points."
)


@dataclass(frozen=True, order=True)
class TradeSet:
    """A set of cards offered or given: ``count`` cards of ``commodity`` plus an optional Bull or Bear."""

    commodity: str
    count: int
    extra: str = ""

    @property
    def size(self) -> int:
        """Returns the number of cards in the set."""
        return self.count + (1 if self.extra else 0)

    def cards(self) -> dict[str, int]:
        """Returns the cards as ``{card: count}``."""
        out = {self.commodity: self.count}
        if self.extra:
            out[self.extra] = 1
        return out

    def to_text(self) -> str:
        """Renders the set as ``2 Wheat`` or ``2 Wheat + Bear``."""
        return f"{self.count} {self.commodity}" + (f" + {self.extra}" if self.extra else "")

    @classmethod
    def from_text(cls, text: str) -> TradeSet:
        """Parses ``2 Wheat`` or ``2 wheat + bear``.

        Raises:
            ActionParseError: if the text is not such a set.
        """
        match = re.fullmatch(r"\s*(\d+)\s+([A-Za-z]+)\s*(?:\+\s*([A-Za-z]+)\s*)?", text)
        names = {n.lower(): n for n in COMMODITIES}
        if match is None or match.group(2).lower() not in names:
            raise ActionParseError(
                f"{text.strip()!r} is not a set of cards: write '<number> <commodity>' with a commodity among "
                f"{', '.join(COMMODITIES)}, optionally followed by '+ Bull' or '+ Bear'"
            )
        extra = (match.group(3) or "").capitalize()
        if extra and extra not in (BULL, BEAR):
            raise ActionParseError(f"only the Bull or the Bear may join a set, not {match.group(3)!r}")
        return cls(names[match.group(2).lower()], int(match.group(1)), extra)


def trader_name(player: int) -> str:
    """Returns a trader's name: ``Trader 1`` .. ``Trader 4``."""
    return f"Trader {player + 1}"


class PitState(State):
    """Hands, standing offers, points and the round's public and private logs."""

    def __init__(self, game: Pit, seed: int) -> None:
        super().__init__(game)
        self.rng = random.Random(f"pit:{seed}")
        self.hands: list[dict[str, int]] = []
        self.offers: dict[int, TradeSet] = {}
        """Standing offers; the cards stay in the hand until traded."""
        self.points = [0] * NUM_TRADERS
        self.deals = 0
        self.public_log: list[str] = []
        self.private_log: list[list[str]] = [[] for _ in range(NUM_TRADERS)]
        self._deal()

    def _deal(self) -> None:
        deck = [c for c in COMMODITIES for _ in range(CARDS_PER_COMMODITY)] + [BULL, BEAR]
        self.rng.shuffle(deck)
        self.hands = [{} for _ in range(NUM_TRADERS)]
        first = self.deals % NUM_TRADERS
        for index, card in enumerate(deck):
            hand = self.hands[(first + index) % NUM_TRADERS]
            hand[card] = hand.get(card, 0) + 1
        self.offers = {}
        self.deals += 1

    # -- the State contract ---------------------------------------------------

    def _current_players(self) -> list[int]:
        return list(range(NUM_TRADERS))

    def _legal_actions(self, player: int) -> list[str]:
        sets = _set_texts(tuple(sorted(self.hands[player].items())))
        actions = ["pass"]
        if player in self.offers:
            actions.append("withdraw")
        actions += [f"offer {text}" for _, text in sets]
        for other, offer in sorted(self.offers.items()):
            if other != player:
                actions += [f"accept {trader_name(other)} with {text}" for size, text in sets if size == offer.size]
        return sorted(actions)

    def _apply(self, actions: dict[int, Action]) -> None:
        standing = dict(self.offers)
        accepts = [(p, a.id) for p, a in sorted(actions.items()) if a.id.startswith("accept ")]
        self.rng.shuffle(accepts)
        traded: set[int] = set()
        for player, text in accepts:
            target, given = _parse_accept(text)
            self._trade(target, standing[target], player, given, traded)
        for player, action in sorted(actions.items()):
            if action.id.startswith("offer "):
                offer = TradeSet.from_text(action.id[len("offer ") :])
                if _holds(self.hands[player], offer):
                    self.offers[player] = offer
                else:
                    self.private_log[player].append(
                        f"Your offer of {offer.to_text()} was dropped: you traded those cards away this round."
                    )
            elif action.id == "withdraw":
                self.offers.pop(player, None)
        for player in list(self.offers):
            if not _holds(self.hands[player], self.offers[player]):
                del self.offers[player]
        self._score_corners()

    def _trade(self, target: int, offer: TradeSet, player: int, given: TradeSet, traded: set[int]) -> None:
        name, other = trader_name(player), trader_name(target)
        if player in traded:
            self.private_log[player].append(f"Your accept of {other}'s offer failed: you had already traded this round.")
            return
        if target in traded or self.offers.get(target) != offer or not _holds(self.hands[target], offer):
            self.private_log[player].append(f"Your accept of {other}'s offer failed: it was no longer standing.")
            return
        if not _holds(self.hands[player], given):
            self.private_log[player].append(f"Your accept of {other}'s offer failed: your cards were gone.")
            return
        _move(self.hands[target], self.hands[player], offer)
        _move(self.hands[player], self.hands[target], given)
        del self.offers[target]
        traded.update((player, target))
        self.public_log.append(f"Round {self.turn + 1}: {name} and {other} traded {offer.size} card{'s' if offer.size > 1 else ''}.")
        self.private_log[player].append(f"You gave {given.to_text()} to {other} and received {offer.to_text()}.")
        self.private_log[target].append(f"{name} took your offer: you gave {offer.to_text()} and received {given.to_text()}.")

    def _score_corners(self) -> None:
        cornered = False
        for player, hand in enumerate(self.hands):
            for commodity, value in COMMODITIES.items():
                count, bull = hand.get(commodity, 0), hand.get(BULL, 0)
                if count >= self.game.corner_size or (bull and count >= self.game.corner_size - 1):
                    score = value * (2 if bull and count >= self.game.corner_size else 1)
                    score -= BEAR_PENALTY * hand.get(BEAR, 0)
                    self.points[player] += score
                    cornered = True
                    self.public_log.append(
                        f"Round {self.turn + 1}: {trader_name(player)} cornered {commodity} for {score} points."
                    )
                    break
        if cornered and not self._is_terminal():
            self._deal()
            self.public_log.append(f"The cards were shuffled and dealt again (deal {self.deals}).")

    def _is_terminal(self) -> bool:
        return max(self.points) >= self.game.target_score or self.turn >= self.game.info.max_turns

    def _scores(self) -> list[float]:
        sides = [sum(self.points[p] for p in side) for side in self.game.info.sides]
        total = sum(sides)
        return [0.5, 0.5] if total == 0 else [s / total for s in sides]

    def _terminal_reason(self) -> str:
        leader = max(range(NUM_TRADERS), key=lambda p: self.points[p])
        if self.points[leader] >= self.game.target_score:
            return f"{trader_name(leader)} reached {self.points[leader]} points"
        return f"round cap ({self.game.info.max_turns}) reached"

    # -- hidden information -------------------------------------------------------

    def secret_state(self, player: int) -> dict[str, Any]:
        """Returns what only ``player`` knows: its hand and the cards behind its standing offer."""
        offer = self.offers.get(player)
        return {"hand": dict(sorted(self.hands[player].items())), "offer": offer.to_text() if offer else None}

    def __str__(self) -> str:
        return "\n".join(f"{trader_name(p)}: {_hand_text(h)} ({self.points[p]} pts)" for p, h in enumerate(self.hands))


class Pit(ProtocolGame):
    """The Pit rules engine.

    Args:
        corner_size: Cards of one commodity that corner its market (2-9).
        target_score: Points that end the match.
        max_rounds: Trading rounds after which the match ends on the points so far.
    """

    info = INFO
    rules = RULES
    supports_obfuscation = True

    def __init__(self, corner_size: int = CORNER_SIZE, target_score: int = TARGET_SCORE, max_rounds: int = MAX_ROUNDS,
                 protocol: str = "default", obfuscation: Obfuscation | None = None) -> None:
        self.protocol = check_protocol(protocol)
        relabel.check_protocol(INFO.name, self.protocol, obfuscation)
        self.obfuscation = obfuscation
        self.words = _renaming(obfuscation) if obfuscation is not None else None
        if not 2 <= corner_size <= CARDS_PER_COMMODITY:
            raise ValueError(f"corner_size must be between 2 and {CARDS_PER_COMMODITY}, got {corner_size}")
        if target_score < 1 or max_rounds < 1:
            raise ValueError(f"target_score and max_rounds must be positive, got {target_score} and {max_rounds}")
        self.corner_size = corner_size
        self.target_score = target_score
        if max_rounds != INFO.max_turns:
            self.info = replace(INFO, max_turns=max_rounds)

    def new_initial_state(self, seed: int) -> PitState:
        """Returns the first deal, shuffled from ``seed``."""
        return PitState(self, seed)

    def role(self, player: int) -> str:
        """Returns the trader's name."""
        return trader_name(player)

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns every other trader's hand and standing offer as the observation words them.

        A hand is one phrase (``("Trader 2", "1 Barley, 2 Corn, 6 Wheat")``): a
        whole hand of 9-10 cards never reads like a set of at most 4 in the
        legal actions or trade logs, where a single count (``2 Corn``) would.
        An offer reads ``("Trader 2 offers", "2 Wheat + Bull")``, where the
        observation states only its size.
        """
        assert isinstance(state, PitState)
        facts = []
        for other in range(NUM_TRADERS):
            if other == viewer:
                continue
            secret, name = state.secret_state(other), trader_name(other)
            facts.append((name, _hand_text(secret["hand"])))
            if secret["offer"]:
                facts.append((f"{name} offers", secret["offer"]))
        return facts

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Maps an answer to a legal action, explaining why an offer or accept is not possible.

        Raises:
            IllegalActionError: for a set the trader does not hold, an accept of
                no standing offer or of a different size; renamed, also for an
                answer that names no legal action (listed in the new names).
            ActionParseError: for an offer or accept that names no set of cards.
        """
        assert isinstance(state, PitState)
        if self.words is not None:  # read the answer in the original names; word a refusal in the new ones
            try:
                found = self._canonical(state, player, self.words.back(text))
            except (ActionParseError, IllegalActionError) as error:
                raise type(error)(self.words.forward(str(error))) from None
            if found is None:
                raise IllegalActionError(relabel.not_legal(text, [self.words.forward(action)
                                                                  for action in state.legal_actions(player)]))
            return found
        return self._canonical(state, player, text)

    def _canonical(self, state: PitState, player: int, text: str) -> str | None:
        """The original names' reading of an answer (:meth:`canonical_action` without a renaming)."""
        found = super().canonical_action(state, player, " ".join(text.split()))
        if found is not None:
            return found
        words = text.strip().lower()
        if words.startswith("offer "):
            offer = TradeSet.from_text(text.strip()[len("offer ") :])
            _check_set(state.hands[player], offer)
        elif words.startswith("accept "):
            target, given = _parse_accept(text.strip())
            if target == player:
                raise IllegalActionError("you cannot accept your own offer")
            if target not in state.offers:
                raise IllegalActionError(f"{trader_name(target)} has no standing offer")
            _check_set(state.hands[player], given)
            if given.size != state.offers[target].size:
                raise IllegalActionError(
                    f"{trader_name(target)} offers {state.offers[target].size} cards; give exactly that many, "
                    f"not {given.size}"
                )
        return None

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the trader's hand, its own offer, the others' offer sizes, points and the logs."""
        assert isinstance(state, PitState)
        return Observation(
            game=self.info.name,
            player=player,
            text=render(state, player),
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS.format(
                max=MAX_OFFER, corner=self.corner_size, corner_minus=self.corner_size - 1, bear=BEAR_PENALTY,
                values=", ".join(f"{c} {v}" for c, v in COMMODITIES.items()), target=self.target_score,
            )),
            role=trader_name(player),
            turn=state.turn,
            data=view(state, player),
        )

    def observe(self, state: State, player: int) -> Observation:
        """The protocol's observation; with an obfuscation, its text, rules and legal actions in the new names
        (``data``, for baselines, keeps the original ones)."""
        observation = super().observe(state, player)
        if self.words is None:
            return observation
        forward = self.words.forward
        return replace(
            observation,
            text=forward(observation.text),
            legal_actions=tuple(forward(action) for action in observation.legal_actions),
            rules=Rules(title=RULES.title, summary=forward(RULES.summary)),
            asking=replace(observation.asking, instructions=forward(observation.asking.instructions)),
        )


ACTION_WORDS = ("offer", "accept", "withdraw", "pass")
"""The words that start Pit's actions (renamed by an obfuscation)."""


def _renaming(obfuscation: Obfuscation) -> relabel.WordSwap:
    """The probe's names: cards (capitalised) and action words, renamed apart."""
    cards = {card: new.capitalize()
             for card, new in obfuscation.rename([*COMMODITIES, BULL, BEAR], "pit:card").items()}
    actions = obfuscation.rename(ACTION_WORDS, "pit:action", taken=cards.values())
    return relabel.WordSwap({**cards, **actions})


# -- observation ------------------------------------------------------------------


def view(state: PitState, player: int) -> dict[str, Any]:
    """Returns what ``player`` may see, as builtins."""
    own = state.offers.get(player)
    return {
        "you": trader_name(player),
        "round": state.turn + 1,
        "max_rounds": state.game.info.max_turns,
        "deal": state.deals,
        "hand": dict(sorted(state.hands[player].items())),
        "your_offer": own.to_text() if own else None,
        "offers": {trader_name(p): o.size for p, o in sorted(state.offers.items()) if p != player},
        "hand_sizes": {trader_name(p): sum(h.values()) for p, h in enumerate(state.hands)},
        "points": {trader_name(p): s for p, s in enumerate(state.points)},
        "target_score": state.game.target_score,
        "public_log": state.public_log[-8:],
        "your_log": state.private_log[player][-8:],
    }


def render(state: PitState, player: int) -> str:
    """Renders :func:`view` as text."""
    v = view(state, player)
    offers = "; ".join(f"{t} offers {n} card{'s' if n > 1 else ''}" for t, n in v["offers"].items()) or "none"
    lines = [
        f"You are {v['you']}. Trading round {v['round']} (the game ends after {v['max_rounds']} rounds or when a "
        f"trader reaches {v['target_score']} points); deal {v['deal']}.",
        "Your hand: " + _hand_text(v["hand"]),
        "Your standing offer: " + (v["your_offer"] or "none"),
        "Other traders' standing offers: " + offers,
        "Cards held: " + ", ".join(f"{t} {n}" for t, n in v["hand_sizes"].items()),
        "Points: " + ", ".join(f"{t} {s}" for t, s in v["points"].items()),
        "Recent market news: " + (" ".join(v["public_log"]) or "none"),
        "Your recent trades: " + (" ".join(v["your_log"]) or "none"),
    ]
    return "\n".join(lines)


# -- helpers ------------------------------------------------------------------------


def _hand_text(hand: dict[str, int]) -> str:
    return ", ".join(f"{n} {card}" for card, n in sorted(hand.items()) if n) or "no cards"


@lru_cache(maxsize=4096)
def _set_texts(hand: tuple[tuple[str, int], ...]) -> tuple[tuple[int, str], ...]:
    """Returns ``(size, text)`` of every set a hand (as sorted items) can offer or give."""
    return tuple((s.size, s.to_text()) for s in _sets(dict(hand)))


def _sets(hand: dict[str, int]) -> list[TradeSet]:
    """Returns every set of 1-4 cards the hand can offer or give."""
    out = []
    for commodity in COMMODITIES:
        held = hand.get(commodity, 0)
        for count in range(1, min(held, MAX_OFFER) + 1):
            out.append(TradeSet(commodity, count))
            for extra in (BULL, BEAR):
                if hand.get(extra, 0) and count < MAX_OFFER:
                    out.append(TradeSet(commodity, count, extra))
    return out


def _holds(hand: dict[str, int], cards: TradeSet) -> bool:
    return all(hand.get(card, 0) >= n for card, n in cards.cards().items())


def _check_set(hand: dict[str, int], cards: TradeSet) -> None:
    if not 1 <= cards.count or cards.size > MAX_OFFER:
        raise IllegalActionError(f"a set has 1 to {MAX_OFFER} cards with at least one commodity card, not {cards.to_text()}")
    for card, n in cards.cards().items():
        if hand.get(card, 0) < n:
            raise IllegalActionError(
                f"you cannot trade {cards.to_text()}: you hold {hand.get(card, 0)} {card}. Your hand: {_hand_text(hand)}"
            )


def _move(source: dict[str, int], target: dict[str, int], cards: TradeSet) -> None:
    for card, n in cards.cards().items():
        source[card] -= n
        if not source[card]:
            del source[card]
        target[card] = target.get(card, 0) + n


def _parse_accept(text: str) -> tuple[int, TradeSet]:
    match = re.fullmatch(r"\s*accept\s+trader\s*(\d)\s*(?:with\s|:)\s*(.+)", text, re.IGNORECASE)
    if match is None or not 1 <= int(match.group(1)) <= NUM_TRADERS:
        raise ActionParseError(f"{text.strip()!r}: write 'accept Trader <1-{NUM_TRADERS}> with <set of your cards>'")
    return int(match.group(1)) - 1, TradeSet.from_text(match.group(2))
