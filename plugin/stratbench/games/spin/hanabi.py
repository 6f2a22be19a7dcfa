"""Hanabi: cooperative, imperfect information, chance (SPIN-Bench §5).

The rules engine is OpenSpiel's ``hanabi`` game (its wrapper of DeepMind's
Hanabi Learning Environment), loaded as SPIN-Bench loads it:
``players=n, hand_size=5 if n < 5 else 4``. OpenSpiel's chance nodes (the
deals) are resolved inside the state with a ``random.Random`` derived from
the match seed only, so a seed fixes the deck order whatever the agents do:
every agent plays the same deals.

Players see every hand but their own. One side holds all players and the
same agent spec plays every seat. The score is the sum of the top card of
each firework (0-25) even when the team loses its last life token (the
paper's wording, and what SPIN-Bench's released numbers count); the
Learning Environment's own score, which is 0 after the third strike, is kept
as the ``hle_score`` metric. Actions are the engine's integer action ids;
observations and the prompt follow SPIN-Bench's Appendix E.2.

Under the ``paper`` protocol (``protocol="paper"``) the game words every
request as SPIN-Bench's released runner did (:mod:`stratbench.games.spin.hanabi_paper`):
the rules primer as each player's first turn (``Observation.asking.primer``), the
released state description and action prompt, its system prompt, its retry
message and its JSON reader (``spin_hanabi_json``); and the score is read as
the released code reads it: the fireworks before the game's last action
(its returns are logged before each action is applied).

``Hanabi(obfuscation=...)`` is a memorisation probe (``--obfuscate``): every
colour letter the model reads (cards, hints, fireworks, the rules and the
action descriptions) becomes a seeded other letter (``deceptive``: another
colour's); the action ids, the engine, the records and the replay table keep
the original colours.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass, replace
from typing import Any

from stratbench.core.game import CHANCE, Game, GameInfo, State
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.relabel import check_protocol
from stratbench.games.spin.planning.prompt import RELEASED_SYSTEM_PROMPT
from stratbench.registry import Variant

PROTOCOLS = ("default", "paper")
PAPER_READER = "spin_hanabi_json"
"""The strict reader of the paper protocol (:data:`stratbench.scaffolds.parsing.PARSERS`)."""

__all__ = [
    "ANSWER_FORMAT", "Card", "Hanabi", "HanabiState", "HanabiView", "INSTALL_HINT", "RULES", "hand_size", "info_for",
    "parse_observation", "pyspiel_available", "render_state", "variants",
]

COLORS = "RYGWB"
RANKS = "12345"
PLAYER_COUNTS = (2, 3, 4, 5)
INSTALL_HINT = "Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'"
_MAX_DECISIONS = 130  # OpenSpiel's max_game_length is at most 128 for 2-5 players.

RULES = Rules(
    title="Hanabi",
    summary=(
        "Hanabi is a cooperative card game. The deck has 5 colours (R, Y, G, W, B) with ranks 1-5 "
        "(three 1s, two each of 2, 3 and 4, one 5 per colour). Players see the other players' cards "
        "but not their own. The team starts with 8 information tokens and 3 life tokens. "
        "On your turn you do exactly one of: (1) give information: point out all cards of one "
        "colour or of one rank in another player's hand, which costs 1 information token; "
        "(2) discard a card, draw a replacement and regain 1 information token (not allowed when "
        "all 8 tokens are available); (3) play a card: it succeeds if it is a 1 of a colour not "
        "started yet or the next rank of a started colour, otherwise it is discarded and the team "
        "loses a life token; completing a colour with its 5 regains 1 information token. You draw "
        "a replacement after playing or discarding. The game ends at once when the last life token "
        "is lost or all five colours are complete, otherwise one full round after the deck runs "
        "out. The score is the sum of the highest card played in each colour, at most 25."
    ),
)

SYSTEM_PROMPT = (
    "You are a master of hanabi game. You are playing a game of Hanabi with your teammates; you "
    "all share the same score. " + RULES.summary
)

_THINK = """Please think step by step based on the current state
# Think step by step
## Evaluate Playable Cards in Hand
Look at each card in your hand.
Cross-reference with the current game state to see if any card can be immediately played to complete or extend a firework stack.
Consider hints you have received about each card (color/rank information) to determine if it might be safe to play.
If a card can be played without risk, prioritize playing it to score a point.
## Consider Teammates' Hands and Hint Opportunities
Analyze the visible cards in your teammates' hands.
Identify if any of their cards can now be played based on the current firework stacks or previous hints.
If you notice a teammate holds a card that can be played but they may not realize it, think about what hints you could give them.
Use hints to communicate critical information, such as color or rank, to help them make the right play.
Choose the hint that maximizes the chance for a correct play while considering the limited hint tokens.
## Assess Discard Options to Gain Info Tokens
Look for cards in your hand that are least likely to be playable or helpful in the near future.
Consider the remaining deck composition and cards already played/discarded to predict the value of each card.
Discard a card that you believe to be least useful to gain an Info token, especially if no immediate playable or hint options are available.
Ensure that discarding this card won't permanently remove a critical card needed to complete any firework stack."""

ANSWER_FORMAT = """Your output should be in this format:
{"reason": string, "action": int} And the action should be one of the legal actions provided above."""
"""E.2's answer format, as its prompt words it (a retry repeats it)."""
_ANSWER = f"""(Reveal player +N color C): Give a hint about color C to the player who is N positions ahead of you.
(Reveal player +N rank R): Give a hint about rank R to the player who is N positions ahead.
(Play X): Play the card in position X from your hand.
(Discard X): Discard the card in position X from your hand.
Based on the annotated state and the list of legal actions, decide on the most appropriate move to make. Consider factors like current tokens, firework progress, and information available in hands. Then, output one of the legal action descriptions as your chosen action.
{ANSWER_FORMAT}
You can only use json valid characters. When you write json, all the elements (including all the keys and values) should be enclosed in double quotes!!!
To win, you need to play the cards in the correct sequence and maximize the total score of the fireworks. Good luck!"""


def hand_size(players: int) -> int:
    """Returns SPIN-Bench's hand size: 5 cards for 2-4 players, 4 for 5."""
    return 5 if players < 5 else 4


def info_for(players: int) -> GameInfo:
    """Returns the static facts of ``players``-player Hanabi."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Hanabi is played by 2-5 players, not {players}")
    return GameInfo(
        name="hanabi",
        num_players=players,
        sides=(tuple(range(players)),),
        max_turns=_MAX_DECISIONS,
        simultaneous=False,
        chance=True,
        hidden_information=True,
        score_range=(0.0, 25.0),
        score_sum=None,
        family="spin",
    )


class HanabiState(State):
    """A Hanabi deal in progress; wraps an OpenSpiel state at a decision node."""

    def __init__(self, game: Hanabi, seed: int) -> None:
        super().__init__(game)
        self._max_turns = game.max_turns
        self._engine = game.engine().new_initial_state()
        self._deck_rng = random.Random(f"{seed}:hanabi-deck")
        self.score_before_last: int | None = None
        self.results: list[tuple[int, str, bool]] = []
        """Each applied action: its player, what it did and whether it cost a life token."""
        self._deal()

    def _deal(self) -> None:
        """Resolves chance nodes (deals and draws) with the seed's generator."""
        while self._engine.is_chance_node():
            outcomes = self._engine.chance_outcomes()
            picked = self._deck_rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            self._engine.apply_action(picked)

    def _current_players(self) -> list[int]:
        return [self._engine.current_player()]

    def _legal_actions(self, player: int) -> list[str]:
        return [str(a) for a in self._engine.legal_actions(player)]

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        before = self.view(0)
        self.score_before_last = before.score
        description = self.describe(action.id)
        self._engine.apply_action(int(action.id))
        self._deal()
        self.results.append((player, *_result(description, before, self.view(0))))

    def outcome(self, player: int) -> tuple[str, bool]:
        """Returns what happened since ``player``'s last action, and whether a life token was lost meanwhile.

        Empty (and not negative) before the player's first action.
        """
        mine = [i for i, (actor, _, _) in enumerate(self.results) if actor == player]
        if not mine:
            return "", False
        since = self.results[mine[-1]:]
        lines = [f"- player {actor} {text}" for actor, text, _ in since]
        return "Since your last decision:\n" + "\n".join(lines), any(bad for _, _, bad in since)

    def _is_terminal(self) -> bool:
        return self._engine.is_terminal() or (self._max_turns is not None and self.turn >= self._max_turns)

    def _scores(self) -> list[float]:
        if getattr(self.game, "protocol", "default") == "paper":
            return [float(self.released_score())]
        return [float(self.view(0).score)]

    def released_score(self) -> int:
        """Returns the score as SPIN-Bench's released code reads it: the fireworks before the last action.

        Its log stores the returns before each action is applied and its score
        is the last entry's, so the game's final action (a last play, or the
        third strike) is not counted; before any action, the fireworks now.
        """
        return self.view(0).score if self.score_before_last is None else self.score_before_last

    def _terminal_reason(self) -> str:
        view = self.view(0)
        if view.life_tokens == 0:
            return "all life tokens lost"
        if view.score == 25:
            return "all fireworks complete"
        if not self._engine.is_terminal():
            return f"turn limit ({self._max_turns} turns): fireworks so far"
        return "deck exhausted"

    def view(self, player: int) -> HanabiView:
        """Returns what ``player`` sees (parsed from the engine's observation string)."""
        return parse_observation(self.observation_string(player))

    def observation_string(self, player: int) -> str:
        """Returns the engine's observation string for ``player`` (the Learning Environment's format)."""
        return self._engine.observation_string(player)

    def hle_score(self) -> int:
        """Returns the Learning Environment's score: 0 once all life tokens are lost."""
        return int(round(self._engine.returns()[0]))

    def describe(self, action: str) -> str:
        """Returns the engine's description of an action id (``"(Play 0)"``)."""
        return self._engine.action_to_string(int(action))

    def __deepcopy__(self, memo: dict[int, Any]) -> HanabiState:
        clone = object.__new__(HanabiState)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            if key == "game":
                clone.game = value
            elif key == "_engine":
                clone._engine = value.clone()
            else:
                setattr(clone, key, copy.deepcopy(value, memo))
        return clone

    def __str__(self) -> str:
        return str(self._engine)


class Hanabi(Game):
    """The Hanabi rules engine for 2-5 players (variants ``2p`` .. ``5p``).

    Args:
        variant: ``"2p"``, ``"3p"``, ``"4p"`` or ``"5p"`` (default ``"2p"``).
        max_turns: Ends the deal after this many turns, scored by the
            fireworks built so far (None: the full game).
        protocol: ``default`` or ``paper`` (SPIN-Bench's released wording, reader and score).
        obfuscation: Renames the colours the model reads and writes (default protocol only); None: the original.
    """

    rules = RULES
    supports_obfuscation = True

    def __init__(self, variant: str | None = None, max_turns: int | None = None, *, protocol: str = "default",
                 obfuscation: Obfuscation | None = None) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown hanabi protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
        check_protocol("hanabi", protocol, obfuscation)
        self.protocol = protocol
        self.obfuscation = obfuscation
        self.colours = Recolour(obfuscation) if obfuscation is not None else None
        name = variant or "2p"
        if name not in {f"{n}p" for n in PLAYER_COUNTS}:
            raise ValueError(f"unknown Hanabi variant {name!r}; known: 2p, 3p, 4p, 5p")
        if max_turns is not None and max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}")
        self.players = int(name[0])
        self.max_turns = max_turns
        self.info = info_for(self.players)
        self._engine: Any = None

    def engine(self) -> Any:
        """Returns the OpenSpiel game, loading OpenSpiel on first use."""
        if self._engine is None:
            pyspiel = _import_pyspiel()
            self._engine = pyspiel.load_game(
                "hanabi", {"players": self.players, "hand_size": hand_size(self.players)}
            )
        return self._engine

    def new_initial_state(self, seed: int) -> HanabiState:
        """Returns a dealt game; the deck order derives from ``seed`` alone."""
        return HanabiState(self, seed)

    def role(self, player: int) -> str:
        """Returns ``"player N"``."""
        return f"player {player}"

    def snapshot(self, state: State) -> dict[str, Any] | None:
        """The table for the replay: every seat's cards with what its holder knows of them, fireworks,
        tokens, deck and discards (a spectator's view; seats see only ``known``/``possible`` of their own)."""
        assert isinstance(state, HanabiState)
        if state.current_players() == [CHANCE]:
            return None  # mid-deal: the table is drawn once the cards are out
        views = [state.view(p) for p in range(self.players)]
        seats = []
        for seat in range(self.players):
            own = views[seat].hands[0]
            seen = views[(seat + 1) % self.players].hands[self.players - 1]  # the next seat sees these cards
            seats.append([{"card": c.card, "known": o.known, "possible": o.possible} for c, o in zip(seen, own)])
        table = views[0]
        text = [f"fireworks {' '.join(f'{c}{table.fireworks[c]}' for c in COLORS)} · life {table.life_tokens} · "
                f"info {table.info_tokens} · deck {table.deck_size}"]
        text += [f"player {seat}: " + " ".join(f"{c['card']}({c['known']})" for c in cards)
                 for seat, cards in enumerate(seats)]
        text.append("discards: " + (" ".join(table.discards) or "none"))
        return {"fireworks": dict(table.fireworks), "life_tokens": table.life_tokens,
                "info_tokens": table.info_tokens, "deck_size": table.deck_size, "discards": list(table.discards),
                "seats": seats, "text": "\n".join(text)}

    def observe(self, state: State, player: int) -> Observation:
        """Returns SPIN-Bench's E.2 view: tokens, fireworks, own-hand knowledge, other hands."""
        assert isinstance(state, HanabiState)
        view = state.view(player)
        legal = tuple(state.legal_actions(player))
        descriptions = {int(a): state.describe(a) for a in legal}
        text = render_state(view, self.players)
        if self.protocol == "paper":
            return self._paper_observation(state, player, text, legal, descriptions, view)
        outcome, negative = state.outcome(player)
        prompt = None
        if legal:
            prompt = (
                f"{text}\n\n{_THINK}\n\nNow it's your turn. You can choose from the following legal actions:\n"
                "The legal actions are provided in a mapping of action identifiers to their descriptions:\n"
                f"{descriptions}\n{_ANSWER}"
            )
        observation = Observation(
            game=self.info.name,
            player=player,
            text=text,
            legal_actions=legal,
            rules=RULES,
            role=self.role(player),
            turn=state.turn,
            data={**view.to_dict(), "legal": {str(a): d for a, d in descriptions.items()}},
            outcome=outcome,
            outcome_negative=negative,
            asking=Asking(
                instructions="Answer with the integer id of one legal action: "
                + ", ".join(f"{a} {d}" for a, d in descriptions.items()),
                answer_format=ANSWER_FORMAT if prompt else "",
                prompt=prompt,
                system_prompt=SYSTEM_PROMPT if prompt else None,
            ),
        )
        return observation if self.colours is None else self.colours.observation(observation)

    def _paper_observation(
        self, state: HanabiState, player: int, text: str, legal: tuple[str, ...], descriptions: dict[int, str],
        view: HanabiView,
    ) -> Observation:
        """Returns the observation worded as SPIN-Bench's released runner words it."""
        from stratbench.games.spin import hanabi_paper  # lean: loads only under the paper protocol

        prompt = hanabi_paper.decision_prompt(state.observation_string(player), descriptions) if legal else None
        outcome, negative = state.outcome(player)
        return Observation(
            game=self.info.name,
            player=player,
            text=text,
            legal_actions=legal,
            rules=RULES,
            role=self.role(player),
            turn=state.turn,
            data={**view.to_dict(), "legal": {str(a): d for a, d in descriptions.items()}},
            outcome=outcome,
            outcome_negative=negative,
            asking=Asking(
                instructions="Answer with the integer id of one legal action: "
                + ", ".join(f"{a} {d}" for a, d in descriptions.items()),
                answer_format=ANSWER_FORMAT if prompt else "",
                retry_prompt=hanabi_paper.RETRY_PROMPT,
                answer_parser=PAPER_READER,
                prompt=prompt,
                system_prompt=RELEASED_SYSTEM_PROMPT if prompt else None,
                primer=hanabi_paper.PRIMER,
            ),
        )

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns ``viewer``'s own hand, in order, as another player sees it (``("R1", "B3", ...)``)."""
        assert isinstance(state, HanabiState)
        other = (viewer + 1) % self.players
        hand = state.view(other).hands[(viewer - other) % self.players]
        return [tuple(card.card for card in hand)]

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Accepts an action id (``"9"``) or its description (``"(Play 4)"``, ``"play 4"``)."""
        assert isinstance(state, HanabiState)
        wanted = text.strip().strip("\"'`").strip()
        legal = state.legal_actions(player)
        if wanted in legal:
            return wanted
        bare = wanted.strip("()").strip().lower()
        for action in legal:
            description = state.describe(action) if self.colours is None else self.colours(state.describe(action))
            if description.strip("()").lower() == bare:
                return action
        return None


class Recolour:
    """A probe's colour letters: rewrites every colour letter of what the model reads (``'B3'``, ``'RX'``,
    ``'RYG12'``, ``color R``, ``R stack``) in one pass; ``XX`` (unknown) and the answer legend's placeholders stay."""

    def __init__(self, obfuscation: Obfuscation) -> None:
        self.letters = obfuscation.rename(list(COLORS), "hanabi:colour", alphabet=_COLOUR_ALPHABET)

    def __call__(self, text: str) -> str:
        """``text`` with the new colour letters."""
        def letters(match: re.Match[str]) -> str:
            return "".join(self.letters.get(char, char) for char in match["colours"]) + match["ranks"]

        return _COLOUR_WORD.sub(letters, text.replace(_RANK_PLACEHOLDER, _NEW_RANK_PLACEHOLDER))

    def observation(self, observation: Observation) -> Observation:
        """The observation as the model reads it; ``data`` (the baselines' view) keeps the engine's letters."""
        asking = observation.asking
        return replace(
            observation,
            text=self(observation.text),
            rules=Rules(title=RULES.title, summary=self(RULES.summary)),
            outcome=self(observation.outcome),
            asking=replace(
                asking,
                instructions=self(asking.instructions),
                prompt=None if asking.prompt is None else self(asking.prompt),
                system_prompt=None if asking.system_prompt is None else self(asking.system_prompt),
            ),
        )


_COLOUR_ALPHABET = "ADEFHJKLMPQSTUZ"
"""New colour letters: none of R Y G W B, nor X (unknown), nor the answer legend's N, C and V."""
_COLOUR_WORD = re.compile(r"\b(?=[A-Z]*[RYGWB])(?P<colours>[RYGWBX]+)(?P<ranks>[1-5X]*)\b")
"""A word of colour letters (and X), then ranks: a card, a hint's knowledge, a set of possible cards, a colour."""
_RANK_PLACEHOLDER, _NEW_RANK_PLACEHOLDER = "(Reveal player +N rank R)", "(Reveal player +N rank V)"


# -- observation -------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One card as a player sees it.

    Attributes:
        card: The card (``"B3"``), or ``"XX"`` when the viewer cannot see it.
        known: What its holder was told (``"RX"``: red, rank unknown).
        possible: The colours and ranks still possible for its holder (``"RYG12"``).
    """

    card: str
    known: str
    possible: str


@dataclass(frozen=True)
class HanabiView:
    """One player's view of the table, hands in seat order starting with the viewer."""

    life_tokens: int
    info_tokens: int
    fireworks: dict[str, int]
    hands: tuple[tuple[Card, ...], ...]
    deck_size: int
    discards: tuple[str, ...]

    @property
    def score(self) -> int:
        """Returns the sum of the fireworks' top cards."""
        return sum(self.fireworks.values())

    def to_dict(self) -> dict[str, Any]:
        """Returns the view as builtins (``my_hand`` holds knowledge only)."""
        def cards(hand: tuple[Card, ...], visible: bool) -> list[dict[str, str]]:
            return [
                {"card": c.card, "known": c.known, "possible": c.possible} if visible
                else {"known": c.known, "possible": c.possible}
                for c in hand
            ]

        return {
            "life_tokens": self.life_tokens,
            "info_tokens": self.info_tokens,
            "fireworks": dict(self.fireworks),
            "my_hand": cards(self.hands[0], False),
            "other_hands": [cards(h, True) for h in self.hands[1:]],
            "deck_size": self.deck_size,
            "discards": list(self.discards),
            "score": self.score,
        }


def _result(description: str, before: HanabiView, after: HanabiView) -> tuple[str, bool]:
    """Describes an applied action's effect from the table before and after it; True when a life token was lost."""
    discarded = after.discards[len(before.discards):]
    card = discarded[-1] if discarded else ""
    if after.life_tokens < before.life_tokens:
        return f"{description}: misplayed {card}; the team lost a life token ({after.life_tokens} left)", True
    if after.score > before.score:
        colour = next(c for c in after.fireworks if after.fireworks[c] > before.fireworks.get(c, 0))
        played = f"{colour}{after.fireworks[colour]}"
        return f"{description}: played {played} onto the fireworks (score {after.score})", False
    if discarded:
        return f"{description}: discarded {card} ({after.info_tokens} information tokens)", False
    return f"{description}: a hint ({after.info_tokens} information tokens left)", False


def parse_observation(text: str) -> HanabiView:
    """Parses the Learning Environment's observation string.

    Raises:
        ValueError: if a section is missing.
    """
    lines = [line.rstrip() for line in text.splitlines()]
    pairs = [line.split(":", 1) for line in lines if ":" in line and "||" not in line]
    fields = {key: value.strip() for key, value in pairs}
    try:
        start, end = lines.index("Hands:"), next(i for i, l in enumerate(lines) if l.startswith("Deck size:"))
        fireworks = {item[0]: int(item[1]) for item in fields["Fireworks"].split()}
        hands: list[list[Card]] = [[]]
        for line in lines[start + 1 : end]:
            if line == "-----":
                hands.append([])
            elif "||" in line:
                card, knowledge = (part.strip() for part in line.split("||"))
                known, possible = knowledge.split("|")
                hands[-1].append(Card(card, known, possible))
        return HanabiView(
            life_tokens=int(fields["Life tokens"]),
            info_tokens=int(fields["Info tokens"]),
            fireworks=fireworks,
            hands=tuple(tuple(h) for h in hands),
            deck_size=int(fields["Deck size"]),
            discards=tuple(fields.get("Discards", "").split()),
        )
    except (KeyError, StopIteration, ValueError, IndexError) as error:
        raise ValueError(f"unreadable Hanabi observation: {error}\n{text}") from None


def render_state(view: HanabiView, players: int) -> str:
    """Renders a view as SPIN-Bench's E.2 state description."""
    stacks = ", ".join(f"{c} stack is at {view.fireworks[c]}" for c in COLORS)
    lines = [
        f"Below is the current detailed state information. There are {players} players in the game.",
        "Game State:",
        f"There are {view.life_tokens} life tokens and {view.info_tokens} info tokens remaining.",
        f"The fireworks progress: {stacks}.",
        "Your hand contains the following cards:",
    ]
    for index, card in enumerate(view.hands[0], start=1):
        lines += [
            f"Card {index}:",
            "- Hidden info: 'XX'. This represents what you cannot see about this card. It means you have no "
            "direct knowledge about the card's identity from your perspective.",
            f"- Known info: '{card.known}'. {_known_phrase(card.known)}",
            f"- Possible identities: '{card.possible}'. This list represents the set of all cards that could "
            "possibly be in this position, given the hints received and the remaining cards in the deck.",
        ]
    lines += ["From your perspective, you can see the other players' hands clearly.", "Here's what you observe:"]
    for offset, hand in enumerate(view.hands[1:], start=1):
        lines.append(f"Player +{offset}'s hand:")
        for card in hand:
            hint = (
                "This player has no specific hints about the card's identity"
                if card.known == "XX"
                else f"This player knows the card's hinted info is '{card.known}'"
            )
            lines.append(
                f"- A card: You can see the card: '{card.card}', {hint}, This player knows the card could be "
                f"one of the following: {card.possible}."
            )
    pile = ", ".join(view.discards) if view.discards else ""
    lines.append(
        f"There are {view.deck_size} cards remaining in the deck. "
        + (f"The discard pile contains: {pile}." if pile else "The discard pile is currently empty.")
    )
    return "\n".join(lines)


def _known_phrase(known: str) -> str:
    color, rank = known[0], known[1]
    if color == "X" and rank == "X":
        return "No hints about this card's color or rank have been given yet."
    parts = []
    if color != "X":
        parts.append(f"its color is {color}")
    if rank != "X":
        parts.append(f"its rank is {rank}")
    return "Hints have revealed that " + " and ".join(parts) + "."


def _import_pyspiel() -> Any:
    try:
        import pyspiel  # optional: open_spiel is an extra, loaded at the first match
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    return pyspiel


def pyspiel_available() -> bool:
    """Tells whether OpenSpiel can be imported here."""
    try:
        _import_pyspiel()
    except ImportError:
        return False
    return True


def variants(options: dict[str, Any]) -> list[Variant]:
    """Lists the player counts ``2p``..``5p``; each is skipped when OpenSpiel is missing."""
    skip = None if pyspiel_available() else INSTALL_HINT
    return [Variant(f"{n}p", skip) for n in PLAYER_COUNTS]
