"""Arctic Scavengers (GameBench): a two-player deck builder with hidden hands and a skirmish each round.

Each player starts with 10 cards (4 Refugee, 3 Scavenger, Brawler, Spear,
Shovel), shuffled from the seed. A round:

1. **Draw**: both draw 5 cards (the discard pile is reshuffled when the deck
   runs out).
2. **Resource gathering**: the round's initiator (alternating, player 0 first)
   takes actions, then the other player. Each of DRAW, DIG, HUNT, HIRE and
   TRASH may be used once a round; ``STOP`` ends one's gathering. An action
   plays cards from the hand (they go to the discard pile): ``DRAW with
   Scout`` draws the cards' DRAW value from the deck; ``DIG with Brawler +
   Shovel`` looks at that many cards from the top of the junkyard, keeps one
   (``keep Net``) and returns the rest to its bottom; ``HUNT with Hunter +
   Spear`` gains FOOD for this round; ``HIRE Scout paying Pills`` takes the
   top card of a mercenary pile into the discard pile, paying its FOOD cost
   from the round's food and its MEDICINE cost with medicine cards;
   ``TRASH Junk + Refugee`` puts cards on the bottom of the junkyard for good.
   A tool (a MODIFIER card without people) and Group Leaders each enhance
   one tribe member (a STANDARD card) of the same action.
3. **Skirmish**: what is left in both hands is shown to both players. From
   the initiator, they take turns using each Sniper Team in their hand once
   to discard an opposing tribe member (``SNIPE Thug``) and each Saboteur to
   discard an opposing tool (``SABOTAGE Spear``), or ``STOP``. The higher FIGHT
   total takes the top contested resource (Wolf Pack, Grenade, Sled Team,
   Field Crew, Tribe Family, in seeded order) into its discard pile; a tie
   goes to the larger tribe in the skirmish, else the card goes to the
   junkyard.

The game ends when the contested pile is empty (GameBench plays five rounds
though the rules text says six) and the larger tribe (people on all one's
cards) wins; equal tribes draw. GameBench counts only the last hand and gives
ties to its second player. A player's secret state is its hand, the order of
its deck and the junkyard cards it looks at
(:meth:`ArcticState.secret_state`); opponents see counts, public plays and the
skirmish hand. :meth:`ArcticScavengers.secrets` words the opponent's hand and
both deck orders for the hidden-information test.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.types import (
    Action,
    ActionParseError,
    Asking,
    IllegalActionError,
    Observation,
    Rules,
)
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["CARDS", "INFO", "RULES", "ArcticScavengers", "ArcticState", "Card", "fight_strength"]


@dataclass(frozen=True)
class Card:
    """One card title: people, STANDARD and MODIFIER values by action, hiring cost."""

    people: int = 0
    standard: dict[str, int] = field(default_factory=dict)
    modifier: dict[str, int] = field(default_factory=dict)
    food: int = 0
    medicine: int = 0
    note: str = ""

    @property
    def tool(self) -> bool:
        """Tells whether the card is a tool: a MODIFIER card without people."""
        return bool(self.modifier) and not self.people


def _c(people=0, food=0, medicine=0, note="", **values):
    standard = {k: v for k, v in values.items() if not k.startswith("m_")}
    modifier = {k[2:]: v for k, v in values.items() if k.startswith("m_")}
    return Card(people, standard, modifier, food, medicine, note)


CARDS = {
    "Refugee": _c(1, DIG=0, HUNT=0),
    "Scavenger": _c(1, food=1, DRAW=1, DIG=1, HUNT=1, FIGHT=1),
    "Brawler": _c(1, food=2, DIG=1, FIGHT=2),
    "Hunter": _c(1, medicine=1, HUNT=2, FIGHT=1),
    "Saboteur": _c(1, food=1, medicine=1, note="in the skirmish, disarms one opposing tool", DIG=1, FIGHT=1),
    "Scout": _c(1, food=2, medicine=1, DRAW=2, FIGHT=2),
    "Group Leaders": _c(2, food=2, medicine=2, m_DRAW=2, m_DIG=2, m_HUNT=2, m_FIGHT=2),
    "Sniper Team": _c(2, food=2, medicine=2, note="in the skirmish, snipes one opposing tribe member"),
    "Thug": _c(3, food=6, DIG=1, FIGHT=3),
    "Tribe Family": _c(5, HUNT=0, FIGHT=0),
    "Wolf Pack": _c(m_HUNT=3, m_FIGHT=2),
    "Grenade": _c(m_FIGHT=3),
    "Sled Team": _c(2, DRAW=2, FIGHT=1),
    "Field Crew": _c(4, DIG=2, HUNT=2, FIGHT=2),
    "Junk": _c(),
    "Multitool": _c(m_DIG=1, m_HUNT=1, m_FIGHT=1),
    "Net": _c(m_HUNT=2, m_FIGHT=1),
    "Spear": _c(m_HUNT=1, m_FIGHT=2),
    "Pickaxe": _c(m_DIG=1, m_FIGHT=2),
    "Shovel": _c(m_DIG=2, m_FIGHT=1),
    "Medkit": _c(MEDICINE=2),
    "Pills": _c(MEDICINE=1),
}
"""Every card title (GameBench's card set)."""
START_DECK = ("Refugee",) * 4 + ("Scavenger",) * 3 + ("Brawler", "Spear", "Shovel")
CONTESTED = ("Wolf Pack", "Grenade", "Sled Team", "Field Crew", "Tribe Family")
JUNKYARD = {"Junk": 7, "Multitool": 4, "Net": 4, "Spear": 4, "Pickaxe": 4, "Shovel": 4, "Medkit": 6, "Pills": 9}
MERCENARIES = {"Brawler": 8, "Hunter": 8, "Saboteur": 8, "Scout": 8, "Group Leaders": 5, "Sniper Team": 5,
               "Thug": 5, "Scavenger": 14}
HAND_SIZE = 5
GATHER_ACTIONS = ("DRAW", "DIG", "HUNT", "HIRE", "TRASH")
MAX_TRASH = 3
"""Cards one TRASH may remove (a bound on the legal-action list; the card game has none)."""

INFO = GameInfo(
    name="arctic_scavengers",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=400,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Arctic Scavengers",
    summary=(
        "The game is played in 6 rounds, with each round consisting of a resource gathering phase and a skirmish "
        "phase. In the resource gathering phase, players draw cards from their deck and take actions to gather "
        "resources from the mercenary piles and the junkyard pile. In the skirmish phase, players compare the "
        "strength of their tribes and the winner of the skirmish gains a contested resource card. The game ends "
        "when all contested resource cards have been won, and the player with the largest tribe is the winner."
    ),
)

_INSTRUCTIONS = (
    "Gathering: each of DRAW, DIG, HUNT, HIRE and TRASH once per round, then STOP; the cards you play go to your "
    "discard pile and what stays in your hand fights in the skirmish. '<ACTION> with <card> + <card>' plays cards with a "
    "STANDARD value for that action, each of which may be enhanced by one tool and by Group Leaders (MODIFIER "
    "cards). DRAW draws cards from your deck; DIG shows you cards from the junkyard and you keep one ('keep "
    "<card>'); HUNT gives FOOD for this round. 'HIRE <mercenary> paying <medicine cards>' buys the top card of a "
    "mercenary pile with FOOD and MEDICINE. 'TRASH <card> + <card>' removes up to 3 cards from your hand for good. "
    "Skirmish: 'SNIPE <card>' (needs a Sniper Team) and 'SABOTAGE <card>' (needs a Saboteur) discard an opposing "
    "tribe member or tool; STOP when done. Higher FIGHT wins the contested card, then more people. At the end "
    "the larger tribe (people on all your cards) wins."
)


class ArcticState(State):
    """Decks, hands, discard piles, the supply piles and the step of the round."""

    def __init__(self, game: ArcticScavengers, seed: int) -> None:
        super().__init__(game)
        self.rng = random.Random(f"arctic_scavengers:{seed}")
        self.decks = [self._shuffled(START_DECK) for _ in range(2)]
        """Draw piles; the top card is the last."""
        self.discards: list[list[str]] = [[], []]
        self.hands: list[list[str]] = [[], []]
        self.junkyard = self._shuffled([t for t, n in JUNKYARD.items() for _ in range(n)])
        """The junkyard; the top card is the first."""
        self.contested = self._shuffled(CONTESTED)
        self.mercenaries = dict(MERCENARIES)
        self.round = 0
        self.step = "gather"
        self.actor = 0
        self.used: list[set[str]] = [set(), set()]
        self.food = [0, 0]
        self.dug: list[str] = []
        self.stopped: set[int] = set()
        self.specials_used: list[list[str]] = [[], []]
        self.log: list[str] = []
        self.private: list[list[str]] = [[], []]
        self._start_round()

    def _shuffled(self, cards) -> list[str]:
        cards = list(cards)
        self.rng.shuffle(cards)
        return cards

    def _draw(self, player: int, count: int) -> None:
        for _ in range(count):
            if not self.decks[player]:
                if not self.discards[player]:
                    return
                self.decks[player] = self._shuffled(self.discards[player])
                self.discards[player] = []
            self.hands[player].append(self.decks[player].pop())
        self.hands[player].sort()

    def _start_round(self) -> None:
        self.round += 1
        for p in range(2):
            self.discards[p] += self.hands[p]
            self.hands[p] = []
            self._draw(p, HAND_SIZE)
            self.used[p], self.food[p], self.specials_used[p] = set(), 0, []
        self.step, self.actor, self.stopped = "gather", self.initiator, set()
        self.log.append(f"Round {self.round} begins; {self.contested[0]} is contested.")

    @property
    def initiator(self) -> int:
        """Returns the player who gathers and acts first in the skirmish this round."""
        return (self.round - 1) % 2

    # -- the State contract ---------------------------------------------------

    def _current_players(self) -> list[int]:
        return [self.actor]

    def _legal_actions(self, player: int) -> list[str]:
        hand = self.hands[player]
        if self.step == "dig":
            return sorted({f"keep {t}" for t in self.dug})
        if self.step == "skirmish":
            return sorted(["STOP", *self._specials(player)])
        actions = ["STOP"]
        for action in ("DRAW", "DIG", "HUNT"):
            if action not in self.used[player]:
                actions += [f"{action} with {_joined(c)}" for c in _action_sets(hand, action) if _value(c, action) > 0]
        if "HIRE" not in self.used[player]:
            for title, left in self.mercenaries.items():
                card = CARDS[title]
                if left and card.food <= self.food[player]:
                    actions += [f"HIRE {title}" + (f" paying {_joined(m)}" if m else "")
                                for m in _medicine_sets(hand, card.medicine)]
        if "TRASH" not in self.used[player]:
            actions += [f"TRASH {_joined(c)}" for c in _sub_multisets(hand, MAX_TRASH) if c]
        return sorted(set(actions))

    def _specials(self, player: int) -> list[str]:
        hand, other = self.hands[player], self.hands[1 - player]
        out = []
        if hand.count("Sniper Team") > self.specials_used[player].count("Sniper Team"):
            out += [f"SNIPE {t}" for t in set(other) if CARDS[t].people]
        if hand.count("Saboteur") > self.specials_used[player].count("Saboteur"):
            out += [f"SABOTAGE {t}" for t in set(other) if CARDS[t].tool]
        return out

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        text = action.id
        if self.step == "dig":
            self._keep(player, text[len("keep ") :])
        elif self.step == "skirmish":
            self._skirmish_action(player, text)
        elif text == "STOP":
            self.log.append(f"Round {self.round}: player {player + 1} stops gathering.")
            self._next_gatherer(player)
        else:
            self._gather(player, text)

    def _gather(self, player: int, text: str) -> None:
        verb, _, rest = text.partition(" ")
        self.used[player].add(verb)
        who = f"Round {self.round}: player {player + 1}"
        if verb == "HIRE":
            title, _, paying = rest.partition(" paying ")
            self._play(player, _split(paying))
            self.food[player] -= CARDS[title].food
            self.mercenaries[title] -= 1
            self.discards[player].append(title)
            self.log.append(f"{who} hires a {title}" + (f", paying {paying}." if paying else "."))
            return
        if verb == "TRASH":
            cards = _split(rest)
            for t in cards:
                self.hands[player].remove(t)
            self.junkyard += cards
            self.log.append(f"{who} trashes {rest} to the junkyard.")
            return
        cards = _split(rest[len("with ") :])
        value = _value(cards, verb)
        self._play(player, cards)
        if verb == "DRAW":
            before = list(self.hands[player])
            self._draw(player, value)
            drawn = list(self.hands[player])
            for t in before:
                drawn.remove(t)
            self.log.append(f"{who} plays {_names(cards)} to DRAW {value} cards.")
            self.private[player].append(f"Round {self.round}: you drew {_names(drawn) or 'nothing (no cards left)'}.")
        elif verb == "HUNT":
            self.food[player] += value
            self.log.append(f"{who} plays {_names(cards)} to HUNT {value} FOOD.")
        else:
            self.dug = self.junkyard[:value]
            del self.junkyard[:value]
            self.log.append(f"{who} plays {_names(cards)} to DIG {len(self.dug)} cards from the junkyard.")
            if self.dug:
                self.step = "dig"
                self.private[player].append(f"Round {self.round}: you dug up {_names(self.dug)}.")

    def _keep(self, player: int, title: str) -> None:
        self.dug.remove(title)
        self.discards[player].append(title)
        self.junkyard += self.dug
        self.dug = []
        self.step = "gather"
        self.private[player].append(f"Round {self.round}: you kept {title}.")
        self.log.append(f"Round {self.round}: player {player + 1} keeps one dug card and returns the rest.")

    def _play(self, player: int, cards: list[str]) -> None:
        for t in cards:
            self.hands[player].remove(t)
        self.discards[player] += cards

    def _next_gatherer(self, player: int) -> None:
        self.stopped.add(player)
        if len(self.stopped) < 2:
            self.actor = 1 - player
            return
        self.step, self.stopped = "skirmish", set()
        self.log.append(
            f"Round {self.round} skirmish: player 1 shows {_names(self.hands[0]) or 'nothing'}; player 2 shows "
            f"{_names(self.hands[1]) or 'nothing'}."
        )
        self.actor = self.initiator
        self._next_skirmisher(self.initiator)

    def _skirmish_action(self, player: int, text: str) -> None:
        if text == "STOP":
            self.stopped.add(player)
        else:
            verb, _, target = text.partition(" ")
            self.specials_used[player].append("Sniper Team" if verb == "SNIPE" else "Saboteur")
            other = 1 - player
            self.hands[other].remove(target)
            self.discards[other].append(target)
            self.log.append(f"Round {self.round}: player {player + 1} uses {verb} on player {other + 1}'s {target}.")
        self._next_skirmisher(1 - player)

    def _next_skirmisher(self, candidate: int) -> None:
        """Passes the turn to ``candidate`` or the other player, skipping those with nothing to do."""
        for p in (candidate, 1 - candidate):
            if p not in self.stopped and self._specials(p):
                self.actor = p
                return
        self._resolve_skirmish()

    def _resolve_skirmish(self) -> None:
        fight = [fight_strength(h) for h in self.hands]
        people = [sum(CARDS[t].people for t in h) for h in self.hands]
        prize = self.contested.pop(0)
        if fight[0] != fight[1] or people[0] != people[1]:
            winner = 0 if (fight[0], people[0]) > (fight[1], people[1]) else 1
            self.discards[winner].append(prize)
            self.log.append(f"Round {self.round}: FIGHT {fight[0]} to {fight[1]}, people {people[0]} to "
                            f"{people[1]}: player {winner + 1} wins the {prize}.")
        else:
            self.junkyard.append(prize)
            self.log.append(f"Round {self.round}: FIGHT {fight[0]} to {fight[1]}, people {people[0]} to "
                            f"{people[1]}: a tie, the {prize} goes to the junkyard.")
        if self.contested:
            self._start_round()
        else:
            self.step = "over"

    def _is_terminal(self) -> bool:
        return self.step == "over" or self.turn >= self.game.info.max_turns

    def tribe(self, player: int) -> int:
        """Returns the people on all of ``player``'s cards."""
        cards = self.decks[player] + self.discards[player] + self.hands[player]
        return sum(CARDS[t].people for t in cards)

    def _scores(self) -> list[float]:
        tribes = [self.tribe(0), self.tribe(1)]
        return [0.5, 0.5] if tribes[0] == tribes[1] else [1.0, 0.0] if tribes[0] > tribes[1] else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        tribes = [self.tribe(0), self.tribe(1)]
        if tribes[0] == tribes[1]:
            return f"draw: both tribes have {tribes[0]} people"
        winner = 0 if tribes[0] > tribes[1] else 1
        return f"player {winner + 1} wins with the larger tribe ({tribes[winner]} to {tribes[1 - winner]} people)"

    # -- hidden information -------------------------------------------------------

    def secret_state(self, player: int) -> dict[str, Any]:
        """Returns what only ``player`` may know: its hand (until the skirmish shows it), deck order and dug cards."""
        return {
            "hand": [] if self.step in ("skirmish", "over") else sorted(self.hands[player]),
            "deck": list(self.decks[player]),
            "dug": list(self.dug) if self.step == "dig" and self.actor == player else [],
        }


class ArcticScavengers(ProtocolGame):
    """The Arctic Scavengers rules engine."""

    info = INFO
    rules = RULES

    def __init__(self, protocol: str = "default") -> None:
        """Plays in ``protocol``: ``default``, or ``paper`` (GameBench's released agent's prompt and reader)."""
        self.protocol = check_protocol(protocol)

    def new_initial_state(self, seed: int) -> ArcticState:
        """Returns the first round's draw, every pile shuffled from ``seed``."""
        return ArcticState(self, seed)

    def role(self, player: int) -> str:
        """Returns ``player 1`` or ``player 2``."""
        return f"player {player + 1}"

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns the opponent's hand until the skirmish shows it, and the order of both decks.

        The hand reads as the skirmish line words it (``("opponent", "Brawler,
        Refugee, Scout")``). A deck's order is one phrase, top card first and
        bottom card first (``("Scout, Refugee, Brawler",)``), given only when
        it is not alphabetical: every list the observation shows is sorted, so
        an alphabetical deck would read like a hand or a discard pile. The dug
        cards are left to the engine's own test, which changes them.
        """
        assert isinstance(state, ArcticState)
        hand = state.secret_state(1 - viewer)["hand"]
        facts = [("opponent", _names(hand))] if hand else []
        for player in range(2):
            deck = state.secret_state(player)["deck"]
            facts += [(", ".join(order),) for order in (deck[::-1], deck) if list(order) != sorted(order)]
        return facts

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Maps an answer to a legal action: card lists in any order, or GameBench's ``["DIG", ["Brawler"]]`` form.

        Raises:
            IllegalActionError: naming why a gathering action with cards is not possible.
        """
        assert isinstance(state, ArcticState)
        wanted = _normalise(text)
        legal = {a.lower(): a for a in state.legal_actions(player)}
        if wanted.lower() in legal:
            return legal[wanted.lower()]
        verb = wanted.split(" ")[0].upper()
        if state.step == "gather" and verb in GATHER_ACTIONS:
            raise IllegalActionError(_why_not(state, player, wanted, verb))
        return None

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the player's hand, piles and food, the public plays and, in the skirmish, both hands."""
        assert isinstance(state, ArcticState)
        return Observation(
            game=self.info.name,
            player=player,
            text=render(state, player),
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS),
            role=self.role(player),
            turn=state.turn,
            data=view(state, player),
        )


# -- observation ------------------------------------------------------------------


def view(state: ArcticState, player: int) -> dict[str, Any]:
    """Returns what ``player`` may see, as builtins."""
    other = 1 - player
    owned = sorted(state.decks[player] + state.discards[player] + state.hands[player])
    return {
        "you": f"player {player + 1}",
        "round": state.round,
        "step": state.step,
        "initiator": f"player {state.initiator + 1}",
        "hand": sorted(state.hands[player]),
        "food": state.food[player],
        "used_actions": sorted(state.used[player]),
        "dug": sorted(state.dug) if state.step == "dig" and state.actor == player else [],
        "deck_size": len(state.decks[player]),
        "discard_pile": sorted(state.discards[player]),
        "your_cards": owned,
        "your_tribe": state.tribe(player),
        "opponent_hand": sorted(state.hands[other]) if state.step == "skirmish" else None,
        "opponent_hand_size": len(state.hands[other]),
        "opponent_deck_size": len(state.decks[other]),
        "opponent_discard_size": len(state.discards[other]),
        "contested": len(state.contested),
        "next_contested": state.contested[0] if state.contested else None,
        "junkyard_size": len(state.junkyard),
        "mercenaries": {t: n for t, n in state.mercenaries.items() if n},
        "log": state.log[-12:],
        "your_log": state.private[player][-6:],
    }


def render(state: ArcticState, player: int) -> str:
    """Renders :func:`view` as text, with the values of the cards in sight."""
    v = view(state, player)
    lines = [
        f"You are {v['you']}. Round {v['round']}, {v['step']} step; {v['initiator']} acts first this round.",
        f"Your hand: {_names(v['hand']) or 'empty'}. FOOD this round: {v['food']}. Actions used this round: "
        f"{', '.join(v['used_actions']) or 'none'}.",
    ]
    if v["dug"]:
        lines.append(f"You dug up: {_names(v['dug'])}. Keep one of them.")
    if v["opponent_hand"] is not None:
        lines.append(f"Skirmish: your FIGHT {fight_strength(v['hand'])}; the opponent's hand "
                     f"{_names(v['opponent_hand']) or 'empty'} (FIGHT {fight_strength(v['opponent_hand'])}).")
    lines += [
        f"Your deck: {v['deck_size']} cards; discard pile: {_names(v['discard_pile']) or 'empty'}. Your tribe: "
        f"{v['your_tribe']} people.",
        f"Opponent: {v['opponent_hand_size']} cards in hand, {v['opponent_deck_size']} in deck, "
        f"{v['opponent_discard_size']} discarded.",
        f"Contested resources left: {v['contested']} (next: {v['next_contested']}). Junkyard: {v['junkyard_size']} "
        "cards.",
        "Mercenary piles: " + ", ".join(f"{t} {n}" for t, n in v["mercenaries"].items()),
        "Cards: " + "; ".join(_card_text(t) for t in sorted(set(v["your_cards"]) | set(v["mercenaries"])
                                                            | set(v["opponent_hand"] or []) | set(v["dug"]))),
        "Recent events: " + " ".join(v["log"]),
        "Your private notes: " + (" ".join(v["your_log"]) or "none"),
    ]
    return "\n".join(lines)


def fight_strength(hand: list[str]) -> int:
    """Returns a hand's FIGHT: its tribe members' values, each enhanced by at most one tool and one Group Leaders."""
    members = [CARDS[t].standard["FIGHT"] for t in hand if "FIGHT" in CARDS[t].standard]
    tools = sorted((CARDS[t].modifier["FIGHT"] for t in hand if CARDS[t].tool and "FIGHT" in CARDS[t].modifier),
                   reverse=True)
    leaders = [CARDS[t].modifier["FIGHT"] for t in hand if t == "Group Leaders"]
    return sum(members) + sum(tools[: len(members)]) + sum(leaders[: len(members)])


# -- helpers ------------------------------------------------------------------------


def _card_text(title: str) -> str:
    card = CARDS[title]
    parts = [f"{title}:"]
    if card.people:
        parts.append(f"{card.people} people")
    parts += [f"{a} {v}" for a, v in card.standard.items()]
    parts += [f"+{v} {a} (modifier)" for a, v in card.modifier.items()]
    if card.food or card.medicine:
        parts.append(f"costs {card.food} FOOD {card.medicine} MEDICINE")
    if card.note:
        parts.append(card.note)
    return " ".join(parts)


def _names(cards) -> str:
    return ", ".join(sorted(cards))


def _joined(cards) -> str:
    """Writes a card list inside an action id (no commas: legal actions are listed comma-separated)."""
    return " + ".join(sorted(cards))


def _split(text: str) -> list[str]:
    return [t.strip() for t in re.split(r"[,+]", text) if t.strip()]


def _sub_multisets(hand: list[str], limit: int) -> list[tuple[str, ...]]:
    counts = sorted({t: hand.count(t) for t in hand}.items())
    out = []
    for picks in itertools.product(*(range(n + 1) for _, n in counts)):
        if sum(picks) <= limit:
            out.append(tuple(t for (t, _), k in zip(counts, picks) for _ in range(k)))
    return out


def _action_sets(hand: list[str], action: str) -> list[tuple[str, ...]]:
    """Returns the card sets that may take ``action``: members with tools and Group Leaders, at most one each."""
    useful = [t for t in hand if action in CARDS[t].standard or action in CARDS[t].modifier]
    return [c for c in _sub_multisets(useful, len(useful)) if c and _valid_set(c, action)]


def _valid_set(cards, action: str) -> bool:
    members = sum(1 for t in cards if action in CARDS[t].standard)
    tools = sum(1 for t in cards if CARDS[t].tool and action in CARDS[t].modifier)
    leaders = sum(1 for t in cards if t == "Group Leaders")
    usable = all(action in CARDS[t].standard or action in CARDS[t].modifier for t in cards)
    return usable and members >= 1 and tools <= members and leaders <= members


def _value(cards, action: str) -> int:
    return sum(CARDS[t].standard.get(action, 0) + CARDS[t].modifier.get(action, 0) for t in cards)


def _medicine_sets(hand: list[str], cost: int) -> list[tuple[str, ...]]:
    """Returns the smallest-sufficient sets of medicine cards paying ``cost`` (the empty set when free)."""
    if cost == 0:
        return [()]
    medicine = [t for t in hand if "MEDICINE" in CARDS[t].standard]
    out = []
    for c in _sub_multisets(medicine, len(medicine)):
        paid = _value(c, "MEDICINE")
        if paid >= cost and all(paid - CARDS[t].standard["MEDICINE"] < cost for t in c):
            out.append(c)
    return out


def _normalise(text: str) -> str:
    """Sorts the card list of an answer and reads GameBench's list form (``["HUNT", ["Hunter"]]``)."""
    text = " ".join(text.strip().split())
    if text.startswith("["):
        try:
            parts = json.loads(text)
        except ValueError:
            raise ActionParseError(f"{text!r} is not a JSON list such as [\"DIG\", [\"Brawler\", \"Shovel\"]]") from None
        if not isinstance(parts, list) or not parts:
            raise ActionParseError(f"{text!r} is not a non-empty JSON list")
        verb = str(parts[0]).upper()
        cards = [str(t) for t in parts[1]] if len(parts) > 1 and isinstance(parts[1], list) else []
        if verb == "HIRE" and len(parts) > 2:
            return f"HIRE {parts[2]}" + (f" paying {_joined(cards)}" if cards else "")
        if verb in ("DRAW", "DIG", "HUNT"):
            return f"{verb} with {_joined(cards)}"
        return f"{verb} {_joined(cards)}".strip()
    verb, _, rest = text.partition(" ")
    if verb.upper() in ("DRAW", "DIG", "HUNT") and rest.lower().startswith("with "):
        return f"{verb.upper()} with {_joined(_split(rest[5:]))}"
    if verb.upper() == "TRASH":
        return f"TRASH {_joined(_split(rest))}"
    if verb.upper() == "HIRE" and " paying " in rest:
        title, _, paying = rest.partition(" paying ")
        return f"HIRE {title} paying {_joined(_split(paying))}"
    return text


def _why_not(state: ArcticState, player: int, text: str, verb: str) -> str:
    hand = state.hands[player]
    if verb in state.used[player]:
        return f"you have already used {verb} this round"
    if verb == "HIRE":
        title, _, paying = text[len("HIRE ") :].partition(" paying ")
        card = CARDS.get(title.strip())
        if card is None or not state.mercenaries.get(title.strip()):
            return f"{title.strip()!r} is not a mercenary pile with cards left"
        if card.food > state.food[player]:
            return f"a {title.strip()} costs {card.food} FOOD and you have {state.food[player]} this round (HUNT first)"
        cards = _split(paying)
    else:
        cards = _split(text.split(" ", 1)[1][len("with ") :] if verb != "TRASH" else text.split(" ", 1)[-1])
    missing = [t for t in set(cards) if cards.count(t) > hand.count(t)]
    if missing:
        return f"you do not hold {', '.join(sorted(missing))} in that number; your hand: {_names(hand)}"
    if verb == "HIRE":
        return (f"{_names(cards) or 'no medicine'} does not pay the {CARDS[title.strip()].medicine} MEDICINE a "
                f"{title.strip()} costs with no card to spare")
    if verb == "TRASH":
        return f"TRASH removes 1 to {MAX_TRASH} cards"
    unusable = [t for t in cards if t not in CARDS or not (verb in CARDS[t].standard or verb in CARDS[t].modifier)]
    if unusable:
        return f"{', '.join(unusable)} cannot {verb}"
    return (f"{verb} needs at least one tribe member with a {verb} value, each enhanced by at most one tool and one "
            "Group Leaders, and a total above 0")
