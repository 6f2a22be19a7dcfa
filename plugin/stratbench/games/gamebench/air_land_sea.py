"""Air, Land and Sea (GameBench): two players, hidden hands, battles for three theaters.

Each battle deals 6 of the 18 cards (Air, Land and Sea, strengths 1-6) to
each player; players alternate, starting with the 1st Player Supreme
Commander, and each turn Deploys a card face up to its matching theater,
Improvises one facedown (strength 2) to any theater, or Withdraws. A battle
ends on a withdrawal (the opponent scores 2-6 VP by the withdrawing player's
hand size and the winner's commander table) or when both hands are empty (the
player controlling more theaters scores 6 VP; ties go to the 1st Player).
Between battles the deck is reshuffled and redealt, the theater lineup
rotates and the commanders swap; the first player to 12 VP wins. The score is
each player's share of the VP (GameBench), so the two scores sum to 1.

Tactical abilities that need a choice (which card to flip, move, return, or
where the reinforcement goes) are follow-up decisions with their own
predefined actions; the chooser acts again before the turn ends. Instant
abilities revealed while another resolves wait in a queue (first revealed,
first resolved). A match ends within 12 battles (every battle gives someone
at least 2 VP); it is also capped at :data:`DECISION_CAP` decisions and then
scored by VP share as it stands.

Readings where the rules text is silent: Disrupt is an Instant ability (as
printed on the card; its effect is a one-off); Ambush may flip any uncovered
card except itself; Reinforce must place the drawn card; an extra turn from
Redeploy is taken right after the current turn; a player whose hand is empty
while the opponent still holds cards is skipped.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["CARDS", "Card", "INFO", "RULES", "AirLandSea", "AirLandSeaState", "withdrawal_points"]

THEATERS = ("Air", "Land", "Sea")
HAND_SIZE = 6
VP_TO_WIN = 12
BATTLE_VP = 6
DECISION_CAP = 1000
"""Decisions after which the match ends and is scored by VP share (a safety net)."""
NAMES = ("Player A", "Player B")
_WITHDRAW_TABLES = {True: ((5, 2), (3, 3), (2, 4), (0, 6)), False: ((4, 2), (2, 3), (1, 4), (0, 6))}


@dataclass(frozen=True)
class Card:
    """One battle card: its theater type, strength and tactical ability."""

    id: int
    name: str
    theater: str
    strength: int
    kind: str
    """``"instant"``, ``"ongoing"`` or ``""`` (no ability)."""
    text: str

    @property
    def label(self) -> str:
        """Returns the card's unique display name, e.g. ``Maneuver (Air 3)``."""
        return f"{self.name} ({self.theater} {self.strength})"


_SPECS = (
    ("Support", "Air", 1, "ongoing", "You gain +3 strength in each adjacent theater."),
    ("Air Drop", "Air", 2, "instant", "On your next turn, you may play a card face up to a non-matching theater."),
    ("Maneuver", "Air", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    ("Aerodrome", "Air", 4, "ongoing", "You may play cards of strength 3 or less face up to non-matching theaters."),
    ("Containment", "Air", 5, "ongoing", "If either player plays a card facedown, destroy that card."),
    ("Heavy Bombers", "Air", 6, "", ""),
    ("Reinforce", "Land", 1, "instant", "Draw the top card of the deck and play it facedown to an adjacent theater."),
    ("Ambush", "Land", 2, "instant", "Flip an uncovered card in any theater."),
    ("Maneuver", "Land", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    ("Cover Fire", "Land", 4, "ongoing", "All cards covered by this card have strength 4."),
    ("Disrupt", "Land", 5, "instant", "Starting with you, both players choose and flip 1 of their uncovered cards."),
    ("Heavy Tanks", "Land", 6, "", ""),
    ("Transport", "Sea", 1, "instant", "You may move 1 of your cards to a different theater."),
    ("Escalation", "Sea", 2, "ongoing", "All of your facedown cards have strength 4."),
    ("Maneuver", "Sea", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    (
        "Redeploy", "Sea", 4, "instant",
        "You may return 1 of your facedown cards to your hand. If you do, take an extra turn.",
    ),
    (
        "Blockade", "Sea", 5, "ongoing",
        "If a card is played to an adjacent theater that already holds 3 or more cards, destroy that card.",
    ),
    ("Super Battleship", "Sea", 6, "", ""),
)
CARDS = tuple(Card(i, *spec) for i, spec in enumerate(_SPECS))
"""The 18-card deck (GameBench's cards and abilities)."""

INFO = GameInfo(
    name="air_land_sea",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=DECISION_CAP,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

_COMMANDERS = (
    "The 1st Player Supreme Commander wins tied Theaters and gains the following number of VPs based on the "
    "number of cards left in their opponent's hand if their opponent withdraws: 5+ cards = 2 VPs, 3-4 cards = "
    "3 VPs, 2 cards = 4 VPs, 0-1 cards = 6 VPs. The 2nd Player Supreme Commander loses tied Theaters and gains "
    "the following number of VPs based on the number of cards left in their opponent's hand if their opponent "
    "withdraws: 4+ cards = 2 VPs, 2-3 cards = 3 VPs, 1 card = 4 VPs, 0 cards = 6 VPs."
)
RULES = Rules(
    title="Air, Land and Sea",
    summary=(
        "A strategic card game where two players compete over a series of battles to control different "
        "Theaters of war: Air, Land, and Sea. Each player is dealt 6 cards representing various military units "
        "and tactics. Players win a battle by controlling more Theaters than their opponent or convincing their "
        "opponent to withdraw. Victory Points (VPs) are earned by winning battles, and the first player to reach "
        "12 VPs wins the game. Players must carefully manage their hand and strategically deploy cards to "
        "outmaneuver their opponent."
    ),
    topics={
        "Battle Structure": (
            "During a Battle, the players take turns playing one card at a time, trying to control more Theaters "
            "than their opponent. You don't draw cards during a Battle, so be sure to plan carefully and make the "
            "most of the 6 cards you are dealt!"
        ),
        "Theaters": (
            "Each of the three Theater boards creates a 'column' between the players: one for Air, one for Land, "
            "and one for Sea. These columns are called Theaters. Cards are always played into these three "
            "Theaters. If a card is in a particular Theater's column, we say that the card is 'in that Theater.' "
            "Theaters that are next to each other are called 'adjacent Theaters.' A player owns all of the cards "
            "on their side of the Theater boards. During your turn, you will play cards only on your side of the "
            "Theaters."
        ),
        "Battle Cards": (
            "Cards are played to advance your war effort and how they are played will ultimately determine who "
            "wins the war (the game). Strength: Each card has a Strength value. If the total Strength of all the "
            "cards on your side of the Theater is higher than the total Strength of all the cards on your "
            "opponent's side of that Theater, you 'control' that Theater. Tactical Abilities: Most cards have a "
            "Tactical Ability along with Strength, which takes effect as soon as the card is played 'face up' to "
            "a Theater. These abilities are either 'Instant' or 'Ongoing.'"
        ),
        "Type of Battle Cards": (
            "There are three types of cards: 'Air,' 'Land,' and 'Sea' cards, which relate to the three Theaters. "
            "Normally, you may only play a card 'face up' to its matching Theater: Air cards in the Air Theater, "
            "and so on."
        ),
        "Facedown Cards": (
            "Cards can also be played 'facedown' as a 'wild card' in any Theater. Facedown cards always have a "
            "Strength of 2. 'Facedown' cards do not have any Tactical Abilities. You may see your own facedown "
            "cards at any time, but you may not see your opponent's 'facedown' cards."
        ),
        "Covered Cards": (
            "When a card is played to a Theater that already contains cards, the newly played card is placed so "
            "that it overlaps the previously played card, while still showing the top portion of it. Any card "
            "overlapped by another is called a 'covered card.' Similarly, any card that is not overlapped by "
            "another card is referred to as 'uncovered.'"
        ),
        "Resolving Battle": (
            "During a Battle, players take turns starting with the player who has the 1st Player Supreme "
            "Commander card. On your turn, you must take only one of these three actions: Deploy, Improvise, "
            "Withdraw. Once you have finished your action, your opponent begins their turn. The players continue "
            "to alternate taking turns until one of them withdraws or both players have played all of their cards."
        ),
        "Possible Actions": (
            "Deploy: Play one card from your hand, 'face up.' When you play a card, you must follow these "
            "deployment restrictions: You can only play cards on your side of the Theater boards. The card must be "
            "the same type as the Theater you play it to. If you have other cards in that Theater already, you "
            "must place the new card so that it covers (partially overlaps) those cards. Improvise: Play one card "
            "from your hand, 'facedown', to any Theater. 'Facedown' cards are treated as 'wild cards' and can be "
            "played to any Theater regardless of which type they are. Withdraw: If you think your chances of "
            "winning the current Battle are low, you may withdraw. If you do, your opponent wins the Battle and "
            "gains VPs depending on how many cards are left in your hand. See the Supreme Commander Cards for more "
            "specific information."
        ),
        "Supreme Commander Cards": _COMMANDERS,
        "Tactical Abilities": (
            "Most cards have Tactical Abilities described on the card. When you play a card face up from your "
            "hand, or if a facedown card is flipped over, its Tactical Ability takes effect immediately. There are "
            "two kinds of Tactical Abilities: 'Instant' and 'Ongoing', indicated on the card. You must carry out "
            "the effects of a Tactical Ability unless they contain the word 'may'. If a Tactical Ability is "
            "impossible to perform, that ability is ignored and has no effect."
        ),
        "Instant Abilities": (
            "Instant Abilities take effect immediately after the card is played or if the card is revealed by "
            "being flipped face up. Once the Instant Ability is resolved, it has no further effect (unless somehow "
            "that card is played or revealed again). Note: Because instant abilities take effect when flipped face "
            "up, it is possible for multiple instant abilities to take effect around the same time. In these "
            "situations, always resolve the instant abilities in the order they happened and fully resolve each "
            "ability before moving on to the next. Once an instant ability begins taking effect, it always "
            "resolves fully, even if it gets flipped facedown before completing."
        ),
        "Ongoing Abilities": (
            "These are always in effect as long as the card is face up. If a card with an Ongoing Ability is "
            "flipped 'facedown', the ability no longer has any effect (unless that card is revealed again). "
            "Example: The Escalation Tactical Ability increases the Strength of all of your facedown cards to 4 as "
            "long as the Escalation card remains 'face up'. If that card were flipped over by another Tactical "
            "Ability, your 'facedown' cards would go back to being Strength 2."
        ),
        "Tactical Ability Key Terms": (
            "Flip: Many Tactical Abilities allow you to flip a card. Flipping a card means either turning it "
            "'face up' if it is 'facedown' or turning a 'face up' card so it is 'facedown.' Unless the ability "
            "states otherwise, you may flip any card; yours or your opponent's. Uncovered/Covered: Many Tactical "
            "Abilities only affect uncovered or covered cards. If an ability does not specify uncovered or "
            "covered, such as Transport or Redeploy, assume the ability can affect any card. Play: Some Tactical "
            "Abilities instruct you to play a card, or only take effect in response to a card being played. The "
            "word 'play' describes any time a player takes a card from their hand and places it in a Theater. "
            "Non-Matching Theaters: Means that a card is not in the Theater of its type. The card does not suffer "
            "any penalty for being in the 'wrong' Theater. Destroy: Some Tactical Abilities instruct you to "
            "destroy a card. Destroyed cards are always placed facedown on the bottom of the deck. If a card is "
            "destroyed immediately after it is played, such as by Blockade, then that card does not get to use "
            "its Tactical Ability. Occupied: When counting the number of cards that occupy a Theater, always count "
            "both players' cards towards that total. Move: When a card is moved to a different Theater. It stays "
            "on the same side of the Theaters it was already on and remains owned by the same player. Moved cards "
            "are placed on top of any cards already in the Theater it was moved to. It covers those cards."
        ),
        "Ending Battles": (
            "There are two ways a Battle can end: If a player withdraws, their opponent wins the Battle. Or if "
            "both players have played all of the cards in their hand. At this point, the player who controls the "
            "most Theaters wins the Battle. In order to control a Theater, you must have a higher total Strength "
            "there than your opponent has in that Theater. If your Strengths are tied, the 1st Player wins the tie "
            "and controls that Theater. If there are no cards on either side of the Theater, the 1st player "
            "controls that Theater."
        ),
        "Scoring Victory Points": (
            "If neither player withdraws, the winner of the Battle scores 6 VPs. If one of the players withdraws, "
            "the other player scores VPs based on the number of cards left in the withdrawing player's hand (see "
            "the Supreme Commander Cards for details). After scoring VPs, check if the victor has enough VPs to "
            "win the game (12 VPs). If they don't, fight another Battle."
        ),
        "Setting up Battles": (
            "All cards are collected and shuffled together to create a new deck. Deal each player a new hand of 6 "
            "cards. Next, the Theater cards are rotated clockwise so that the rightmost Theater is moved to the far "
            "left of the Theater lineup. Lastly, players swap Supreme Commander cards. The player who was 1st in "
            "the last battle is now 2nd."
        ),
    },
)

_INSTRUCTIONS = (
    "Choose one action. 'deploy <card> to <theater>' plays a card face up (normally only to its own theater); "
    "'improvise <card> to <theater>' plays it facedown (strength 2) to any theater; 'withdraw' gives up the "
    "battle. When one of your tactical abilities asks for a choice, the actions name that choice."
)


def withdrawal_points(winner_is_first: bool, cards_left: int) -> int:
    """Returns the VP the non-withdrawing player gains, by commander and cards left.

    Examples:
        >>> withdrawal_points(True, 5), withdrawal_points(False, 1)
        (2, 4)
    """
    for minimum, points in _WITHDRAW_TABLES[winner_is_first]:
        if cards_left >= minimum:
            return points
    return BATTLE_VP


class AirLandSeaState(State):
    """A match: the VP, the battle in progress and any pending ability choice.

    ``board[theater][player]`` is that player's stack in the theater, bottom to
    top, of ``[card id, face up]`` pairs.
    """

    def __init__(self, game: AirLandSea, seed: int) -> None:
        super().__init__(game)
        self.rng = random.Random(f"air_land_sea:{seed}")
        self.vp = [0, 0]
        self.first = self.rng.randrange(2)
        self.lineup = list(THEATERS)
        self.rng.shuffle(self.lineup)
        self.battle = 0
        self.over = False
        self.end_reason = ""
        self.log: list[tuple[int | None, str, str]] = []
        """Events as ``(owner, owner's text, everyone else's text)``; owner None = public."""
        self._new_battle()

    def _new_battle(self) -> None:
        self.battle += 1
        deck = list(range(len(CARDS)))
        self.rng.shuffle(deck)
        self.hands = [[], []]
        for i in range(2 * HAND_SIZE):
            self.hands[(self.first + i) % 2].append(deck[i])
        self.deck = deck[2 * HAND_SIZE :]
        self.board: dict[str, list[list[list[Any]]]] = {t: [[], []] for t in THEATERS}
        self.queue: deque[tuple[str, int, int, str]] = deque()
        self.decision: dict[str, Any] | None = None
        self.extra: list[int] = []
        self.airdrop: list[int | None] = [None, None]
        self.main_turn = 0
        self.to_move = self.regular = self.first
        self._note(None, f"Battle {self.battle} begins: {NAMES[self.first]} is the 1st Player; theaters "
                   f"{' | '.join(self.lineup)}.")

    # -- the State contract ---------------------------------------------------

    def _current_players(self) -> list[int]:
        return [self.decision["player"] if self.decision else self.to_move]

    def _legal_actions(self, player: int) -> list[str]:
        return sorted(self._options())

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        payload = self._options()[action.id]
        if self.decision is not None:
            source = self.decision["card"]
            self.decision = None
            self._resolve_choice(player, payload, source)
        elif payload[0] == "withdraw":
            winner = 1 - player
            points = withdrawal_points(winner == self.first, len(self.hands[player]))
            self._note(None, f"{NAMES[player]} withdraws with {len(self.hands[player])} cards in hand.")
            self._end_battle(winner, points)
            return
        else:
            kind, card, theater = payload
            self.hands[player].remove(card)
            self._play(player, card, theater, face_up=kind == "deploy")
        self._finish_turn()

    def _is_terminal(self) -> bool:
        return self.over or self.turn >= DECISION_CAP

    def _scores(self) -> list[float]:
        total = sum(self.vp)
        return [0.5, 0.5] if total == 0 else [v / total for v in self.vp]

    def _terminal_reason(self) -> str:
        return self.end_reason if self.over else f"decision cap ({DECISION_CAP}) reached"

    # -- options --------------------------------------------------------------

    def _options(self) -> dict[str, tuple[Any, ...]]:
        if self.decision is not None:
            return self.decision["options"]
        player = self.to_move
        options: dict[str, tuple[Any, ...]] = {"withdraw": ("withdraw",)}
        airdrop = self.airdrop[player] is not None and self.main_turn > self.airdrop[player]
        aerodrome = self._face_up(player, "Aerodrome")
        for card in self.hands[player]:
            info = CARDS[card]
            anywhere = airdrop or (aerodrome and info.strength <= 3)
            for theater in THEATERS:
                if anywhere or theater == info.theater:
                    options[f"deploy {info.label} to {theater}"] = ("deploy", card, theater)
                options[f"improvise {info.label} to {theater}"] = ("improvise", card, theater)
        return options

    # -- playing cards and resolving abilities -------------------------------

    def _play(self, player: int, card: int, theater: str, *, face_up: bool, verb: str = "") -> None:
        """Plays a card from hand (or the deck, for Reinforce), destroying it if an ability says so."""
        label = CARDS[card].label
        verb = verb or ("deploys" if face_up else "improvises")
        hidden = label if face_up else "a card"
        occupied = sum(len(stack) for stack in self.board[theater])
        blockade = occupied >= 3 and any(self._face_up(p, "Blockade", self.adjacent(theater)) for p in (0, 1))
        if blockade or (not face_up and any(self._face_up(p, "Containment") for p in (0, 1))):
            cause = "Blockade" if blockade else "Containment"
            self.deck.append(card)
            self._note(player, f"{NAMES[player]} {verb} {label} to {theater}; {cause} destroys it.",
                       f"{NAMES[player]} {verb} {hidden} to {theater}; {cause} destroys it.")
            return
        self.board[theater][player].append([card, face_up])
        self._note(player, f"{NAMES[player]} {verb} {label} to {theater}.",
                   f"{NAMES[player]} {verb} {hidden} to {theater}.")
        if face_up and CARDS[card].kind == "instant":
            self.queue.append((CARDS[card].name, player, card, theater))

    def _flip(self, owner: int, theater: str, source: int) -> None:
        entry = self.board[theater][owner][-1]
        entry[1] = not entry[1]
        info = CARDS[entry[0]]
        state = "face up" if entry[1] else "facedown"
        self._note(None, f"{CARDS[source].label} flips {NAMES[owner]}'s {info.label} in {theater} {state}.")
        if entry[1] and info.kind == "instant":
            self.queue.append((info.name, owner, entry[0], theater))

    def _finish_turn(self) -> None:
        """Resolves queued abilities until one needs a choice; then ends the turn."""
        while self.decision is None and self.queue and not self.over:
            self._start_effect(*self.queue.popleft())
        if self.decision is not None or self.over:
            return
        mover = self.to_move
        if self.airdrop[mover] is not None and self.main_turn > self.airdrop[mover]:
            self.airdrop[mover] = None
        self.main_turn += 1
        if not self.hands[0] and not self.hands[1]:
            controlled = [0, 0]
            for theater in THEATERS:
                controlled[self.controller(theater)] += 1
            winner = 0 if controlled[0] > controlled[1] else 1
            self._note(None, f"Both hands are empty: {NAMES[winner]} controls {controlled[winner]} theaters.")
            self._end_battle(winner, BATTLE_VP)
            return
        if self.extra:
            self.to_move = self.extra.pop(0)
        else:
            self.regular = self.to_move = 1 - self.regular
        if not self.hands[self.to_move]:
            self.regular = self.to_move = 1 - self.to_move

    def _start_effect(self, name: str, owner: int, card: int, theater: str) -> None:
        where = self.location(card)
        theater = where[1] if where else theater
        mine = {"you": owner, "opponent": 1 - owner}
        options: dict[str, tuple[Any, ...]] = {}
        chooser = owner
        if name == "Air Drop":
            self.airdrop[owner] = self.main_turn
        elif name in ("Maneuver", "Ambush"):
            theaters = self.adjacent(theater) if name == "Maneuver" else THEATERS
            for t in theaters:
                for who, p in mine.items():
                    stack = self.board[t][p]
                    if stack and stack[-1][0] != card:
                        options[f"flip {'your' if who == 'you' else 'opponent'} card in {t}"] = ("flip", p, t)
        elif name == "Disrupt":
            self.queue.appendleft(("Disrupt flip", 1 - owner, card, theater))
            self.queue.appendleft(("Disrupt flip", owner, card, theater))
        elif name == "Disrupt flip":
            options = {f"flip your card in {t}": ("flip", owner, t) for t in THEATERS if self.board[t][owner]}
        elif name == "Reinforce" and self.deck:
            drawn = self.deck.pop(0)
            options = {f"play drawn card facedown to {t}": ("reinforce", drawn, t) for t in self.adjacent(theater)}
        elif name == "Transport":
            options = {"do not move": ("skip",)}
            for t in THEATERS:
                for c, up in self.board[t][owner]:
                    for to in THEATERS:
                        if to != t:
                            label = CARDS[c].label if up else f"facedown {CARDS[c].label}"
                            options[f"move {label} from {t} to {to}"] = ("move", c, t, to)
        elif name == "Redeploy":
            for t in THEATERS:
                for c, up in self.board[t][owner]:
                    if not up:
                        options[f"return {CARDS[c].label} from {t} to hand"] = ("return", c, t)
            if options:
                options["do not return"] = ("skip",)
        if options:
            prompt = f"{CARDS[card].label} ({CARDS[card].kind}): {CARDS[card].text}"
            self.decision = {"player": chooser, "options": options, "prompt": prompt, "card": card}

    def _resolve_choice(self, player: int, payload: tuple[Any, ...], source: int) -> None:
        kind = payload[0]
        if kind == "flip":
            self._flip(payload[1], payload[2], source)
        elif kind == "reinforce":
            self._play(player, payload[1], payload[2], face_up=False, verb="reinforces facedown with")
        elif kind == "move":
            _, card, source, target = payload
            stack = self.board[source][player]
            entry = next(e for e in stack if e[0] == card)
            stack.remove(entry)
            self.board[target][player].append(entry)
            hidden = CARDS[card].label if entry[1] else "a facedown card"
            self._note(player, f"{NAMES[player]} moves {CARDS[card].label} from {source} to {target}.",
                       f"{NAMES[player]} moves {hidden} from {source} to {target}.")
        elif kind == "return":
            _, card, source = payload
            stack = self.board[source][player]
            stack.remove(next(e for e in stack if e[0] == card))
            self.hands[player].append(card)
            self.extra.append(player)
            self._note(player, f"{NAMES[player]} returns {CARDS[card].label} from {source} to hand and takes an "
                       "extra turn.", f"{NAMES[player]} returns a facedown card from {source} to hand and takes "
                       "an extra turn.")

    def _end_battle(self, winner: int, points: int) -> None:
        self.vp[winner] += points
        self._note(None, f"{NAMES[winner]} wins battle {self.battle} and scores {points} VP "
                   f"(VP: {NAMES[0]} {self.vp[0]}, {NAMES[1]} {self.vp[1]}).")
        if self.vp[winner] >= VP_TO_WIN:
            self.over = True
            self.decision = None
            self.end_reason = f"{NAMES[winner]} reaches {self.vp[winner]} VP"
            return
        self.lineup = [self.lineup[-1], *self.lineup[:-1]]
        self.first = 1 - self.first
        self._new_battle()

    # -- board queries ----------------------------------------------------------

    def adjacent(self, theater: str) -> tuple[str, ...]:
        """Returns the theaters next to ``theater`` in the current lineup."""
        i = self.lineup.index(theater)
        return tuple(self.lineup[j] for j in (i - 1, i + 1) if 0 <= j < len(self.lineup))

    def location(self, card: int) -> tuple[int, str, int] | None:
        """Returns ``(owner, theater, height)`` of a card on the board, or None."""
        for theater in THEATERS:
            for player in (0, 1):
                for height, (c, _) in enumerate(self.board[theater][player]):
                    if c == card:
                        return player, theater, height
        return None

    def _face_up(self, player: int, name: str, theaters: tuple[str, ...] = THEATERS) -> bool:
        return any(CARDS[c].name == name and up for t in theaters for c, up in self.board[t][player])

    def card_strengths(self, player: int, theater: str) -> list[int]:
        """Returns the strength of each of ``player``'s cards in ``theater``, bottom to top."""
        stack = self.board[theater][player]
        escalation = self._face_up(player, "Escalation")
        strengths = []
        for i, (card, up) in enumerate(stack):
            if any(CARDS[c].name == "Cover Fire" and u for c, u in stack[i + 1 :]):
                strengths.append(4)
            elif up:
                strengths.append(CARDS[card].strength)
            else:
                strengths.append(4 if escalation else 2)
        return strengths

    def strength(self, player: int, theater: str) -> int:
        """Returns ``player``'s total strength in ``theater``, Support included."""
        support = 3 if self._face_up(player, "Support", self.adjacent(theater)) else 0
        return sum(self.card_strengths(player, theater)) + support

    def controller(self, theater: str) -> int:
        """Returns who controls ``theater`` now (the 1st Player wins ties)."""
        first, second = self.first, 1 - self.first
        return second if self.strength(second, theater) > self.strength(first, theater) else first

    def _note(self, owner: int | None, own_text: str, public_text: str | None = None) -> None:
        self.log.append((owner, own_text, own_text if public_text is None else public_text))

    def __str__(self) -> str:
        return render(self, 0, full=True)


class AirLandSea(ProtocolGame):
    """The Air, Land and Sea rules engine."""

    info = INFO
    rules = RULES

    def __init__(self, protocol: str = "default") -> None:
        """Plays in ``protocol``: ``default``, or ``paper`` (GameBench's released agent's prompt and reader)."""
        self.protocol = check_protocol(protocol)

    def new_initial_state(self, seed: int) -> AirLandSeaState:
        """Returns the first battle, dealt and seated from ``seed``."""
        return AirLandSeaState(self, seed)

    def role(self, player: int) -> str:
        """Returns ``"Player A"`` or ``"Player B"``."""
        return NAMES[player]

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns the opponent's hand and facedown cards that no event shown to ``viewer`` has named."""
        assert isinstance(state, AirLandSeaState)
        other = 1 - viewer
        named = " ".join(own if owner == viewer else public for owner, own, public in state.log)
        hidden = list(state.hands[other])
        hidden += [entry[0] for theater in state.lineup for entry in state.board[theater][other] if not entry[1]]
        return [(CARDS[card].label,) for card in hidden if CARDS[card].label not in named]

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the player's hand, both sides of the board (opponent's facedown cards hidden) and the VP."""
        assert isinstance(state, AirLandSeaState)
        legal = tuple(state.legal_actions(player))
        instructions = _INSTRUCTIONS
        if state.decision is not None and state.decision["player"] == player:
            instructions = f"Resolve the ability of {state.decision['prompt']} Choose one of the actions."
        return Observation(
            game=INFO.name,
            player=player,
            text=render(state, player),
            legal_actions=legal,
            rules=RULES,
            asking=Asking(instructions=instructions),
            role=NAMES[player],
            turn=state.turn,
            data=view(state, player),
        )


# -- observation ------------------------------------------------------------------


def view(state: AirLandSeaState, player: int, *, full: bool = False) -> dict[str, Any]:
    """Returns what ``player`` may see as builtins (everything when ``full``, for debugging)."""
    other = 1 - player

    def card(owner: int, entry: list[Any], strength: int) -> dict[str, Any]:
        visible = entry[1] or owner == player or full
        return {"card": CARDS[entry[0]].label if visible else None, "face_up": entry[1], "strength": strength}

    theaters = {}
    for theater in state.lineup:
        sides = {}
        for who, p in (("you", player), ("opponent", other)):
            stack = state.board[theater][p]
            sides[who] = [card(p, e, s) for e, s in zip(stack, state.card_strengths(p, theater))]
        theaters[theater] = {
            **sides,
            "strength": {"you": state.strength(player, theater), "opponent": state.strength(other, theater)},
            "controller": "you" if state.controller(theater) == player else "opponent",
        }
    decision = state.decision if state.decision is not None and state.decision["player"] == player else None
    drawn = None
    if decision is not None:
        drawn = next((CARDS[p[1]].label for p in decision["options"].values() if p[0] == "reinforce"), None)
    return {
        "battle": state.battle,
        "you": NAMES[player],
        "commander": "1st" if state.first == player else "2nd",
        "vp": {"you": state.vp[player], "opponent": state.vp[other]},
        "lineup": list(state.lineup),
        "hand": sorted(CARDS[c].label for c in state.hands[player]),
        "opponent_hand": sorted(CARDS[c].label for c in state.hands[other]) if full else len(state.hands[other]),
        "deck_size": len(state.deck),
        "theaters": theaters,
        "to_act": NAMES[state._current_players()[0]] if not state.is_terminal() else None,
        "ability": decision["prompt"] if decision else None,
        "drawn_card": drawn,
        "air_drop_ready": state.airdrop[player] is not None and state.main_turn > state.airdrop[player],
        "log": [own if owner == player or full else public for owner, own, public in state.log[-8:]],
    }


def render(state: AirLandSeaState, player: int, *, full: bool = False) -> str:
    """Renders :func:`view` as text for language models and the terminal."""
    v = view(state, player, full=full)
    tie = "you win tied theaters" if v["commander"] == "1st" else "you lose tied theaters"
    lines = [
        f"Battle {v['battle']}. You are {v['you']}, the {v['commander']} Player Supreme Commander ({tie}).",
        f"Victory points: you {v['vp']['you']}, opponent {v['vp']['opponent']} ({VP_TO_WIN} to win).",
        f"Theaters, left to right: {' | '.join(v['lineup'])} (adjacent theaters are next to each other).",
    ]
    for theater, t in v["theaters"].items():
        lines.append(f"[{theater}] you {t['strength']['you']} vs opponent {t['strength']['opponent']}: "
                     f"{t['controller']} control{'s' if t['controller'] == 'opponent' else ''} it.")
        for who in ("you", "opponent"):
            cards = [(c["card"] or "unknown card") + ("" if c["face_up"] else " facedown") + f" [{c['strength']}]"
                     for c in t[who]]
            owner = "your" if who == "you" else "opponent"
            lines.append(f"  {owner} cards, bottom to top: {'; '.join(cards) or 'none'}")
    lines.append("Your hand:")
    for label in v["hand"]:
        info = next(c for c in CARDS if c.label == label)
        lines.append(f"  {label}" + (f" - {info.kind.capitalize()}: {info.text}" if info.kind else " - no ability"))
    opponent = v["opponent_hand"]
    lines.append(f"Opponent's hand: {opponent if isinstance(opponent, int) else ', '.join(opponent)} cards. "
                 f"Deck: {v['deck_size']} cards.")
    if v["air_drop_ready"]:
        lines.append("Air Drop: this turn you may deploy a card face up to any theater.")
    if v["drawn_card"]:
        lines.append(f"Reinforce drew {v['drawn_card']}; it will be played facedown.")
    if v["ability"]:
        lines.append(f"You must resolve {v['ability']}")
    lines.append("Recent events:")
    lines.extend(f"  {event}" for event in v["log"])
    return "\n".join(lines)
