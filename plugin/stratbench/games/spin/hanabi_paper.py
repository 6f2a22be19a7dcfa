"""SPIN-Bench's Hanabi wording as its released code sends it (the ``paper`` protocol).

The released runner opens each player's conversation with a rules primer
(:data:`PRIMER`) and keeps the model's reply; every decision then sends one
user turn, the state description (:func:`state_description`, built from the
Learning Environment's observation string) joined by a newline to the action
prompt (:func:`action_prompt`, Appendix E.2's instructions, with the released
text's blank lines). A rejected answer gets :data:`RETRY_PROMPT`. The texts
are SPIN-Bench's (spinbench/spinbench, MIT licence), kept verbatim because the
protocol's purpose is to send exactly what the paper's models received.
"""

from __future__ import annotations

__all__ = ["PRIMER", "RETRY_PROMPT", "action_prompt", "decision_prompt", "state_description"]

RETRY_PROMPT = "Illegal move, try again"
"""The released runner's message after an unreadable or illegal answer."""

PRIMER = """
You are a master of hanabi game. You are playing a game of Hanabi. Hanabi is a cooperative card game where players work together to create a series of fireworks by playing cards in ascending numerical order starting from 1. Each player holds their cards facing outward so that all players can see everyone else's cards but not their own. The objective is to play cards in sequence (1 through 5) for each color without making mistakes. There are 5 different colors and each color has cards numbered 1 to 5.

Key Rules:

On your turn, you have three types of possible actions:

Give a Hint(Reveal): Provide a hint to another player about their cards, specifying either a color or a number present in their hand. Hints must be accurate and can only reveal positions of cards matching the hint.
Discard a Card: Discard one of your own cards to potentially gain an Info token.
Play a Card: Attempt to play a card from your hand. If played correctly in sequence, it adds to the fireworks; if not, it reduces one life token.

Tokens:
Life Tokens: Deducted when a wrong card is played.
Info Tokens: Used to give clues.
Illegal Moves: Playing a card that cannot be placed properly costs a life token. If life tokens reach zero, the game ends in failure.
Game End: The game ends when all fireworks are completed (perfect score of 25), or when the deck is exhausted and each player has taken one final turn, or when the players run out of life tokens.

State Representation: The game state is represented with the following details:

Life tokens: Number of remaining life tokens.
Info tokens: Number of available information tokens.
Fireworks: Current progress on each firework color (e.g., R1, Y0, G1, W0, B0).
Discards: Cards that have been discarded.

Your Role:

You are one of the players, cooperating with others to maximize the total score of the fireworks (the number of cards correctly played in sequence).
Although you cannot see your own cards, you can see the cards in the hands of your teammates.
Use hints, discards, and plays strategically to guide the team towards successful sequences.

Remember, communication is limited to hints about colors or numbers only, and sharing illegal or extraneous information is not allowed. Work together, follow the rules, and aim for the highest cooperative score possible!
"""
"""The rules primer: each player's first user turn; its reply stays in the conversation."""

_ACTION_PROMPT = """

Please think step by step based on the current state
\t
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
Ensure that discarding this card won't permanently remove a critical card needed to complete any firework stack.

Now it's your turn. You can choose from the following legal actions:

The legal actions are provided in a mapping of action identifiers to their descriptions:
{legal}

(Reveal player +N color C): Give a hint about color C to the player who is N positions ahead of you.
(Reveal player +N rank R): Give a hint about rank R to the player who is N positions ahead.
(Play X): Play the card in position X from your hand.
(Discard X): Discard the card in position X from your hand.

Based on the annotated state and the list of legal actions, decide on the most appropriate move to make. Consider factors like current tokens, firework progress, and information available in hands. Then, output one of the legal action descriptions as your chosen action.

Your output should be in this format: \n{{"reason": string, "action": int}} And the action should be one of the legal actions provided above.
You can only use json valid characters. When you write json, all the elements (including all the keys and values) should be enclosed in double quotes!!!

To win, you need to play the cards in the correct sequence and maximize the total score of the fireworks. Good luck!
"""

_COLORS = {"R": "red", "Y": "yellow", "G": "green", "W": "white", "B": "blue"}


def action_prompt(legal: dict[int, str]) -> str:
    """Returns the action prompt for the legal actions ``{id: "(Play 0)", ...}`` (shown as Python writes the dict)."""
    return _ACTION_PROMPT.format(legal=legal)


def decision_prompt(observation: str, legal: dict[int, str]) -> str:
    """Returns a decision's user turn: the state description, a newline, the action prompt."""
    return state_description(observation) + "\n" + action_prompt(legal)


def _hinted(known: str) -> list[str]:
    """Names the colours and ranks a knowledge string (``"RX"``, ``"X2"``) reveals."""
    return [f"{_COLORS[c]} color" if c in _COLORS else f"rank {c}" for c in known if c in _COLORS or c.isdigit()]


def _sections(observation: str) -> dict[str, object]:
    """Splits the observation string into tokens, fireworks, own hand, other hands, deck and discards."""
    found: dict[str, object] = {"life": None, "info": None, "fireworks": [], "mine": [], "others": [],
                                "deck": None, "discards": None}
    mine: list[str] = found["mine"]  # type: ignore[assignment]
    others: list[list[str]] = found["others"]  # type: ignore[assignment]
    current: list[str] = []
    in_mine = in_others = False
    for raw in observation.strip().splitlines():
        line = raw.strip()
        if line.startswith("Life tokens:"):
            found["life"] = line.split(":")[1].strip()
        elif line.startswith("Info tokens:"):
            found["info"] = line.split(":")[1].strip()
        elif line.startswith("Fireworks:"):
            found["fireworks"] = [(part[0], part[1:]) for part in line.split("Fireworks:")[1].split()]
        elif line.startswith("Cur player"):
            in_mine, in_others = True, False
        elif line.startswith("Hands:"):
            continue
        elif line.startswith("Deck size:"):
            found["deck"] = line.split(":")[1].strip()
        elif line.startswith("Discards:"):
            found["discards"] = line.split("Discards:")[1].strip()
        elif line == "-----":
            if in_mine:
                in_mine, in_others = False, True
            else:
                if current:
                    others.append(current)
                current = []
        elif in_mine:
            mine.append(line)
        elif in_others:
            current.append(line)
    if current:
        others.append(current)
    return found


def _own_card(index: int, line: str) -> str | None:
    if line.count("||") != 1 or line.split("||")[1].count("|") != 1:
        return None
    hidden, rest = (part.strip() for part in line.split("||"))
    known, possible = (part.strip() for part in rest.split("|"))
    text = f"Card {index}:\n  - Hidden info: '{hidden}'. This represents what you cannot see about this card. "
    text += ("It means you have no direct knowledge about the card's identity from your perspective.\n" if hidden == "XX"
             else "There are some hints or partial information, but the full identity of this card is not "
                  "completely known to you.\n")
    text += f"  - Known info: '{known}'. "
    if known == "XX":
        text += "No hints about this card's color or rank have been given yet.\n"
    elif _hinted(known):
        text += "Hints suggest that the card might be: " + ", ".join(_hinted(known)) + ".\n"
    else:
        text += "No specific hints have been provided yet.\n"
    return text + (f"  - Possible identities: '{possible}'. This list represents the set of all cards that could "
                   "possibly be in this position, given the hints received and the remaining cards in the deck.\n")


def _other_card(line: str) -> str | None:
    if line.count("||") != 1 or line.split("||")[1].count("|") != 1:
        return None
    card, rest = line.split("||")
    hints, possible = rest.split("|")
    named = _hinted(hints.strip())
    hint = ("This player knows the card might be: " + ", ".join(named) if named
            else "This player has no specific hints about the card's identity")
    could = f"This player knows the card could be one of the following: {possible}."
    return f" - A card: You can see the card: '{card.strip()}', {hint}, {could.strip()}"


def state_description(observation: str) -> str:
    """Returns the released state description of one player's observation string (OpenSpiel/HLE format)."""
    found = _sections(observation)
    stacks = ", ".join(f"{color} stack is at {number}" for color, number in found["fireworks"])  # type: ignore[union-attr]
    lines = [f"There are {found['life']} life tokens and {found['info']} info tokens remaining.",
             f"The fireworks progress: {stacks}.", "\nYour hand contains the following cards:"]
    for index, line in enumerate(found["mine"], start=1):  # type: ignore[arg-type]
        card = _own_card(index, line)
        if card is not None:
            lines.append(card)
    lines.append("\nFrom your perspective, you can see the other players' hands clearly. Here's what you observe:")
    for offset, hand in enumerate(found["others"], start=1):  # type: ignore[arg-type]
        lines.append(f"\nPlayer +{offset}'s hand:")
        lines.extend(card for card in map(_other_card, hand) if card is not None)
    lines.append(f"\nThere are {found['deck']} cards remaining in the deck.")
    lines.append(f"Discard pile: {found['discards']}." if found["discards"] else "The discard pile is currently empty.")
    players = len(observation.split("-----"))
    body = "\n".join(lines)
    return f"\nBelow is the current detailed state information. There are {players} players in the game.\n\nGame State:\n{body}\n\n"
