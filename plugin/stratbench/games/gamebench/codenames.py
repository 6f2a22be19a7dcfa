"""Codenames (GameBench): two teams of two, a spymaster and an operative each.

Players 0 and 1 are Red's spymaster and operative, players 2 and 3 Blue's.
The board holds 21 words (GameBench's reduced grid): 9 Red (Red moves
first), 8 Blue, 3 neutral and 1 assassin, drawn from :data:`WORDS` by the
seed. A team's turn starts with its spymaster's open-ended clue ``submit_clue:
<word>, <number>``; :meth:`Codenames.check_open_ended` enforces the rules'
Forbidden Actions (exactly one word and one number 0-9; not a board word, not
part of one and not containing one) and explains a rejection, which the agent
sees on its retry. The operative then guesses (``guess <WORD>``) up to N+1
times (without limit after a ``0`` clue) and may ``end turn`` after the first
guess; a guess of a word not its team's ends the turn, the assassin ends the
game and its team loses. A team whose words are all revealed wins.

Only spymasters see the key; operatives see the words and the colours of the
revealed ones. Score (GameBench's released code): each team counts its
revealed words, the winner adds 3, a team that revealed the assassin scores
0; the two counts are normalised to sum to 1 (0.5 each when both are 0).
The runner's ``random`` fallback plays GameBench's substitute for an invalid
clue, ``none, 1``.
"""

from __future__ import annotations

import random
import re
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.types import Action, Asking, IllegalActionError, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["Codenames", "CodenamesState", "FALLBACK_CLUE", "INFO", "RULES", "WORDS", "parse_clue", "role_name"]

TEAMS = ("Red", "Blue")
RED, BLUE, NEUTRAL, ASSASSIN = "red", "blue", "neutral", "assassin"
CARD_COUNTS = ((RED, 9), (BLUE, 8), (NEUTRAL, 3), (ASSASSIN, 1))
BOARD_SIZE = sum(n for _, n in CARD_COUNTS)
WIN_BONUS = 3
MAX_NUMBER = 9
CLUE = "submit_clue"
END_TURN = "end turn"
FALLBACK_CLUE = "none, 1"
"""GameBench's substitute for an invalid clue (``"None", 1``)."""

WORDS = (
    "ANCHOR", "APPLE", "ARROW", "BADGE", "BALLOON", "BANK", "BARREL", "BATTERY", "BEACH", "BELL",
    "BLADE", "BOTTLE", "BRIDGE", "BUCKET", "CABIN", "CACTUS", "CAMEL", "CANDLE", "CANYON", "CARPET",
    "CASTLE", "CELLAR", "CHAIR", "CHALK", "CIRCUS", "CLOCK", "CLOUD", "COMET", "COMPASS", "COPPER",
    "CORAL", "COTTON", "CRANE", "CROWN", "CRYSTAL", "DESERT", "DIAMOND", "DRAGON", "DRUM", "EAGLE",
    "ENGINE", "FEATHER", "FENCE", "FIDDLE", "FLUTE", "FOREST", "FOSSIL", "FROST", "GARDEN", "GHOST",
    "GIANT", "GLACIER", "GLOVE", "GRAPE", "HAMMER", "HARBOR", "HELMET", "HONEY", "ISLAND", "JACKET",
    "JUNGLE", "KETTLE", "KNIGHT", "LADDER", "LANTERN", "LEMON", "LIBRARY", "LIZARD", "MAGNET", "MARBLE",
    "MASK", "MEADOW", "MIRROR", "MONKEY", "MUSEUM", "NEEDLE", "OCEAN", "ORCHARD", "OYSTER", "PALACE",
    "PARROT", "PEBBLE", "PENCIL", "PEPPER", "PIANO", "PILOT", "PIRATE", "PLANET", "POCKET", "PRISM",
    "PUMPKIN", "PYRAMID", "QUEEN", "RABBIT", "RADIO", "RIVER", "ROCKET", "SADDLE", "SALMON", "SATURN",
    "SCARF", "SHADOW", "SHIELD", "SILVER", "SKETCH", "SPIDER", "SQUARE", "STAMP", "SUGAR", "SWORD",
    "TEMPLE", "THUNDER", "TICKET", "TIGER", "TORCH", "TOWER", "TRUMPET", "TULIP", "TUNNEL", "UMBRELLA",
    "VALLEY", "VELVET", "VIOLIN", "VOLCANO", "WAGON", "WALRUS", "WHALE", "WHISTLE", "WINDMILL", "ZEBRA",
)
"""The word pool boards are drawn from (no word is part of another, none is part of ``none``)."""

INFO = GameInfo(
    name="codenames",
    num_players=4,
    sides=((0, 1), (2, 3)),
    max_turns=3 * BOARD_SIZE,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Codenames",
    summary=(
        "A strategic game of guessing and deduction where two teams, Red and Blue, compete to identify their "
        "team's words on a grid based on one-word clues given by their Spymasters. The game ends when all words "
        "of one team are guessed, or the assassin word is chosen."
    ),
    topics={
        "Roles": (
            "Spymaster: Knows which words correspond to which team / the assassin. Gives one-word clues that "
            "relate to any number of their team's words on the board. Operative: Guesses words belonging to their "
            "team based on the Spymaster's clues. Aims to avoid words not belonging to their team and the assassin "
            "word."
        ),
        "Turn Structure": (
            "Spymaster's Turn: Give a clue to their operative and a number indicating how many words relate to "
            "that clue. Operative's Turn: Guess words, aiming to find all their team's words. After each guess, if "
            "the word is not their team's, the turn ends. If the word is their team's, they can guess again. If the "
            "word is the assassin word, the game ends and their team loses. An operative can make up to N+1 "
            "guesses, where N is the number of cards given by the Spymaster."
        ),
        "Winning Conditions": (
            "A team wins by correctly guessing out all their words. Game ends immediately if the assassin word is "
            "guessed and the team who guessed it loses."
        ),
        "Forbidden Actions": (
            "Spymasters cannot use part or any form of the words on the board in their clues. Spymasters cannot "
            "use words that sound like words on the board in their clues. Clues must be exactly one word and one "
            "number."
        ),
        "Scoring": (
            "Points are awarded based on the number of correct guesses by each team. If a team guesses the "
            "assassin word, they receive a score of 0."
        ),
        "Special Rules": (
            "If zero words are related to the clue, the Spymaster can give a clue of '0' and the Operative can "
            "guess an unlimited number of words."
        ),
    },
)

_SPYMASTER_INSTRUCTIONS = (
    f"Give your operative a clue: answer '{CLUE}: <word>, <number>' with exactly one word (letters only) that is "
    f"not a board word, not part of one and does not contain one, and a number from 0 to {MAX_NUMBER}: how many "
    "of your team's words it relates to (0: none, and your operative may then guess without limit)."
)
_OPERATIVE_INSTRUCTIONS = (
    "Guess a hidden word with 'guess <WORD>'. A guess of your team's word lets you guess again (up to the "
    f"clue's number plus one); any other word ends your turn. After your first guess you may '{END_TURN}'."
)


def role_name(player: int) -> str:
    """Returns a seat's name: ``Red spymaster`` (0), ``Red operative`` (1), ``Blue ...`` (2, 3)."""
    return f"{TEAMS[player // 2]} {'spymaster' if player % 2 == 0 else 'operative'}"


def parse_clue(text: str) -> tuple[str, int]:
    """Reads ``"word, number"`` (or ``"word number"``) into an upper-case word and the number.

    Raises:
        IllegalActionError: when the text is not exactly one word and one number 0-9, with the reason.
    """
    parts = [p for p in re.split(r"[\s,;:]+", text.strip().strip("\"'`()[]")) if p]
    if len(parts) != 2 or not parts[1].isdigit():
        raise IllegalActionError(
            f"a clue must be exactly one word and one number, like 'river, 2'; got {text.strip()!r}"
        )
    word, number = parts[0].strip("\"'`"), int(parts[1])
    if not word.isalpha():
        raise IllegalActionError(f"the clue word must be one word of letters only; got {word!r}")
    if number > MAX_NUMBER:
        raise IllegalActionError(f"the clue number must be from 0 to {MAX_NUMBER}; got {number}")
    return word.upper(), number


class CodenamesState(State):
    """The board, the key, what is revealed and whose turn it is.

    Attributes:
        words: The 21 board words, in grid order.
        key: Each word's card type (``red``, ``blue``, ``neutral``, ``assassin``).
        revealed: Which words have been guessed, and by which team (index), else None.
        team: The team to act (0 Red, 1 Blue).
        clue: The current clue ``(word, number)`` once given this turn, else None.
        guesses: Guesses made on the current clue.
        log: Public events: clues and guesses, in order.
    """

    def __init__(self, game: Codenames, seed: int) -> None:
        super().__init__(game)
        rng = random.Random(f"codenames:{seed}")
        self.words = rng.sample(WORDS, BOARD_SIZE)
        types = [kind for kind, count in CARD_COUNTS for _ in range(count)]
        rng.shuffle(types)
        self.key = dict(zip(self.words, types))
        self.revealed: dict[str, int | None] = {word: None for word in self.words}
        self.team = 0
        self.clue: tuple[str, int] | None = None
        self.guesses = 0
        self.assassin_by: int | None = None
        self.log: list[str] = []

    # -- the State contract ---------------------------------------------------

    def _current_players(self) -> list[int]:
        return [2 * self.team + (0 if self.clue is None else 1)]

    def _legal_actions(self, player: int) -> list[str]:
        if self.clue is None:
            return []
        actions = [f"guess {word}" for word in self.words if self.revealed[word] is None]
        if self.guesses > 0:
            actions.append(END_TURN)
        return sorted(actions)

    def _open_ended(self, player: int) -> dict[str, str]:
        if self.clue is not None:
            return {}
        return {CLUE: "your clue as '<word>, <number>': one word not on the board and a number from 0 to 9"}

    def is_legal(self, player: int, action: Action) -> bool:
        """Also rejects a clue that breaks the rules (see :meth:`Codenames.check_open_ended`)."""
        if not super().is_legal(player, action):
            return False
        if action.id != CLUE:
            return True
        try:
            self.check_clue(action.response or "")
        except IllegalActionError:
            return False
        return True

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        team = TEAMS[self.team]
        if action.id == CLUE:
            self.clue = parse_clue(action.response or "")
            self.guesses = 0
            self.log.append(f"{team} spymaster's clue: {self.clue[0]}, {self.clue[1]}")
            return
        if action.id == END_TURN:
            self.log.append(f"{team} operative ended the turn")
            self._next_team()
            return
        word = action.id.removeprefix("guess ")
        kind = self.key[word]
        self.revealed[word] = self.team
        self.guesses += 1
        self.log.append(f"{team} operative guessed {word}: {kind}")
        if kind == ASSASSIN:
            self.assassin_by = self.team
            return
        own = RED if self.team == 0 else BLUE
        number = self.clue[1] if self.clue else 0
        out_of_guesses = number != 0 and self.guesses >= number + 1
        if kind != own or out_of_guesses:
            self._next_team()

    def _next_team(self) -> None:
        self.team = 1 - self.team
        self.clue = None
        self.guesses = 0

    def _is_terminal(self) -> bool:
        return self.assassin_by is not None or any(self.left(kind) == 0 for kind in (RED, BLUE))

    def _scores(self) -> list[float]:
        points = self.points()
        total = sum(points)
        return [0.5, 0.5] if total == 0 else [p / total for p in points]

    def _terminal_reason(self) -> str:
        winner = self.winner()
        if self.assassin_by is not None:
            return f"{TEAMS[winner]} wins: {TEAMS[self.assassin_by]} guessed the assassin"
        return f"{TEAMS[winner]} wins: all its words revealed"

    def fallback_action(self, player: int, rng: random.Random) -> Action | None:
        """Returns GameBench's substitute clue ``none, 1`` for a spymaster out of attempts."""
        return Action(CLUE, FALLBACK_CLUE) if self.clue is None else None

    # -- rules ---------------------------------------------------------------------

    def check_clue(self, text: str) -> tuple[str, int]:
        """Returns the clue read from ``text`` if the rules allow it.

        Raises:
            IllegalActionError: naming the rule the clue breaks.
        """
        word, number = parse_clue(text)
        for board_word in self.words:
            if word == board_word:
                raise IllegalActionError(f"{word} is a word on the board; clues cannot use board words")
            if board_word in word:
                raise IllegalActionError(f"{word} contains the board word {board_word}; clues cannot use part "
                                         "or any form of a board word")
            if word in board_word:
                raise IllegalActionError(f"{word} is part of the board word {board_word}; clues cannot use part "
                                         "or any form of a board word")
        return word, number

    def left(self, kind: str) -> int:
        """Returns how many words of ``kind`` are still hidden."""
        return sum(1 for word, k in self.key.items() if k == kind and self.revealed[word] is None)

    def winner(self) -> int:
        """Returns the winning team of a finished game."""
        if self.assassin_by is not None:
            return 1 - self.assassin_by
        return 0 if self.left(RED) == 0 else 1

    def points(self) -> list[int]:
        """Returns each team's points: its revealed words, +3 for the winner, 0 for the assassin's guesser."""
        points = [sum(1 for w, k in self.key.items() if k == kind and self.revealed[w] is not None)
                  for kind in (RED, BLUE)]
        if self._is_terminal():
            points[self.winner()] += WIN_BONUS
            if self.assassin_by is not None:
                points[self.assassin_by] = 0
        return points


class Codenames(ProtocolGame):
    """The Codenames rules engine (GameBench's 21-card board)."""

    info = INFO
    rules = RULES

    def __init__(self, protocol: str = "default") -> None:
        """Plays in ``protocol``: ``default``, or ``paper`` (GameBench's released agent's prompt and reader)."""
        self.protocol = check_protocol(protocol)

    def new_initial_state(self, seed: int) -> CodenamesState:
        """Returns a board and key drawn from ``seed``; Red's spymaster gives the first clue."""
        return CodenamesState(self, seed)

    def role(self, player: int) -> str:
        """Returns ``Red spymaster``, ``Red operative``, ``Blue spymaster`` or ``Blue operative``."""
        return role_name(player)

    def check_open_ended(self, state: State, player: int, action: Action) -> Action:
        """Accepts a clue that follows the Forbidden Actions rules, normalised to ``WORD, N``."""
        assert isinstance(state, CodenamesState)
        word, number = state.check_clue(action.response or "")
        return Action(CLUE, f"{word}, {number}")

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the board (with the key for spymasters only), the current clue and the log."""
        assert isinstance(state, CodenamesState)
        spymaster = player % 2 == 0
        return Observation(
            game=self.info.name,
            player=player,
            text=render(state, player),
            legal_actions=tuple(state.legal_actions(player)),
            open_ended=state.open_ended(player),
            rules=RULES,
            asking=Asking(instructions=_SPYMASTER_INSTRUCTIONS if spymaster else _OPERATIVE_INSTRUCTIONS),
            role=self.role(player),
            turn=state.turn,
            data=view(state, player),
        )

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns the key of every hidden word, for an operative; nothing for a spymaster."""
        assert isinstance(state, CodenamesState)
        if viewer % 2 == 0:
            return []
        hidden = [(w, state.key[w]) for w in state.words if state.revealed[w] is None]
        return [pair for w, k in hidden for pair in ((w, k), (k, w))]


# -- observation ------------------------------------------------------------------


def view(state: CodenamesState, player: int) -> dict[str, Any]:
    """Returns what ``player`` may see as builtins: the key only for a spymaster."""
    spymaster = player % 2 == 0
    cards = []
    for word in state.words:
        shown = spymaster or state.revealed[word] is not None
        cards.append({"word": word, "type": state.key[word] if shown else None,
                      "revealed": state.revealed[word] is not None})
    return {
        "you": role_name(player),
        "team": TEAMS[player // 2],
        "spymaster": spymaster,
        "to_act": TEAMS[state.team],
        "cards": cards,
        "clue": list(state.clue) if state.clue else None,
        "guesses_this_turn": state.guesses,
        "hidden_left": {"red": state.left(RED), "blue": state.left(BLUE)},
        "log": list(state.log),
    }


def render(state: CodenamesState, player: int) -> str:
    """Renders :func:`view` as text, one card per line."""
    v = view(state, player)
    role = "Spymaster" if v["spymaster"] else "Operative"
    lines = [
        f"You are the {role} of the {v['team']} team. Red has 9 words, Blue 8; there are 3 neutral words and "
        "1 assassin.",
        f"Words still hidden: Red {v['hidden_left']['red']}, Blue {v['hidden_left']['blue']}.",
        "Board (word: card type, if you may see it; REVEALED or HIDDEN):",
    ]
    for card in v["cards"]:
        status = "REVEALED" if card["revealed"] else "HIDDEN"
        kind = card["type"].upper() if card["type"] else "UNKNOWN"
        lines.append(f"  {card['word']}: {kind}, {status}")
    if v["clue"]:
        number = v["clue"][1]
        allowed = "no limit" if number == 0 else str(number + 1)
        lines.append(f"{v['to_act']} team's clue: {v['clue'][0]}, {number} (guesses made: "
                     f"{v['guesses_this_turn']}, allowed: {allowed}).")
    else:
        lines.append(f"The {v['to_act']} spymaster is to give a clue.")
    lines.append("Moves so far: " + ("; ".join(v["log"][-12:]) or "none"))
    return "\n".join(lines)
