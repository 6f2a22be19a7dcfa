"""The paper protocol of the gamebench family: GameBench's released agent, prompt to fallback.

GameBench's released code (``agents/gpt.py`` of Joshuaclymer/GameBench at
2968355, digest Part A3) asks one chat completion per attempt with
``response_format={"type": "json_object"}`` and no temperature (the API's
default), reads the reply as a Python literal holding ``{"action": ...,
"openended_response": ...}``, answers ``Explain(H<n>)`` with that rule topic and
``Explain(<action>)`` with the action's description (each one attempt), re-asks
after unreadable JSON with no message, and after 3 attempts lets the game play a
random action. This module builds that prompt (a prompt style of
:data:`stratbench.scaffolds.prompt.PROMPT_STYLES`), reads its answers (the
``gamebench`` reader of :data:`stratbench.scaffolds.parsing.PARSERS`), maps the
released action ids to the games' own, and registers the protocol of every game.
``docs/PROTOCOLS.md`` lists every difference from the default.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.protocols import Protocol
from stratbench.registry import Registry
from stratbench.scaffolds.prompt import COT_INSTRUCTION, SYSTEM_PROMPT
from stratbench.games.gamebench import EXTRA_GAME_IDS, GAME_IDS

SOURCE = (
    "GameBench (Costarelli et al. 2024), released code Joshuaclymer/GameBench@2968355: agents/gpt.py "
    "(prompt, JSON answers, Explain, 3 attempts, no temperature), each game's action ids and random fallback"
)

STYLE = "gamebench"
"""The prompt style and answer reader names this module registers."""

MAX_ATTEMPTS = 3
"""The released agent's ``max_retries``: answers, Explain requests included, before the random fallback."""

REQUEST_OPTIONS: dict[str, Any] = {"response_format": {"type": "json_object"}}
"""What the released agent sets on each answer's call (no temperature, no token limit)."""

HEADINGS_INTRO = (
    "The following are headings with additional information about the rules that you can expand by taking "
    "the action Explain(<heading key>).\n"
)
FORMAT_NO_OPENENDED = 'Return actions in json with the following keys.\n{\n    "action": str,\n}\n'
FORMAT_WITH_OPENENDED = (
    'Return actions in json with the following keys.\n{\n    "action": str,\n    "openended_response": '
    "Optional[str],\n}\nInclude the openended response only if you have chosen an openended action.\n"
)
EXPLAIN_ACTIONS = (
    "Return the action Explain(<action>) to receive additional info about what any of the above actions do.\n"
)
MISSING_RESPONSE = "You chose an openended action, and so your json must have an 'openended_response' key."
INVALID_EXPLAIN = "This is an invalid Explain action."
NOT_JSON = "The reply is not a literal with an 'action' key; GameBench re-asks with no message."
"""The rejection reason of an unreadable reply (logged; the retry sends nothing, as the released agent)."""


@dataclass(frozen=True)
class ReleasedActions:
    """A decision's actions as GameBench's released code lists them.

    Attributes:
        instructions: The ``# Actions`` section's instructions.
        predefined: Released id -> (the game's own action id, description or None).
        openended: Released id -> (the game's own open-ended id, the prompt for its text).
    """

    instructions: str
    predefined: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    openended: dict[str, tuple[str, str]] = field(default_factory=dict)

    def valid(self) -> list[str]:
        """The released agent's valid actions: open-ended ids first, then predefined ones."""
        return [*self.openended, *self.predefined]


@dataclass(frozen=True)
class ReleasedPrompt:
    """GameBench's agent prompt for one decision.

    Attributes:
        system: The system message.
        body: Rules, rule headings, observation and actions (the first user message's text).
        cot: What chain of thought appends to the body for its reasoning call.
        summary: The closing request for the JSON answer (appended to the body, or CoT's second message).
    """

    system: str
    body: str
    cot: str
    summary: str


# -- the prompt -------------------------------------------------------------------------------


def released_prompt(observation: Observation) -> ReleasedPrompt:
    """Builds the released agent's prompt for ``observation``, with the released action ids."""
    actions = released_actions(observation)
    rules = observation.rules
    body = f"You are playing a game called {rules.title}. The rules are as follows:\n{rules.summary}\n"
    if rules.topics:
        headings = {f"H{i}": topic for i, topic in enumerate(rules.topics, start=1)}
        body += HEADINGS_INTRO + json.dumps(headings, indent=4)
    body += f"\n# Observation\nThe following describes the current state of the game:\n{observation.text}\n"
    body += f"\n# Actions\n{actions.instructions}\n"
    if actions.openended:
        body += FORMAT_WITH_OPENENDED
        body += "The following are openended actions you can take\n" + str(list(actions.openended)) + "\n"
    else:
        body += FORMAT_NO_OPENENDED
    if actions.predefined:
        body += "The following are predefined actions you can take:\n" + str(list(actions.predefined)) + "\n"
    described = any(d is not None for _, d in actions.predefined.values()) or any(
        p for _, p in actions.openended.values()
    )
    if described:
        body += EXPLAIN_ACTIONS
    summary = (
        "\nTo summarize, if you choose a predefined action, you must return json with an 'action' key which "
        "contains one of the following valid actions:\n"
        + str(list(actions.predefined))
        + "\nOr if you choose an openended action, you must return json with an 'action' key which contains one "
        "of the following valid actions and an 'openended_response' key which contains your response to the "
        "prompt:\n"
        + str(list(actions.openended))
    )
    return ReleasedPrompt(system=SYSTEM_PROMPT, body=body, cot=COT_INSTRUCTION, summary=summary)


def retry_message(observation: Observation) -> str | None:
    """Returns the next user message after a rejection: the released text, or None after unreadable JSON."""
    if observation.feedback == NOT_JSON:
        return None
    return observation.feedback or ""


# -- the answer reader ------------------------------------------------------------------------


def read_answer(reply: str, observation: Observation) -> Action:
    """Reads a reply as the released agent does and maps its action to the game's own id.

    The reply must be a Python literal (JSON without ``true``/``false``/``null``)
    with an ``action`` key. ``Explain(H<n>)`` and ``Explain(<action>)`` are answered
    through the rejection (its message is the text the released agent sends).

    Raises:
        ActionParseError: with the exact next user message of the released agent
            (:data:`NOT_JSON` for an unreadable reply: no message).
    """
    actions = released_actions(observation)
    try:
        answer = ast.literal_eval(reply.strip())
        chosen = answer["action"]
    except Exception:
        raise ActionParseError(NOT_JSON) from None
    if _hashable(chosen) and chosen in actions.openended and "openended_response" not in answer:
        raise ActionParseError(MISSING_RESPONSE)
    explained = _explain(chosen, observation, actions)
    if explained is not None:
        raise ActionParseError(explained)
    if _hashable(chosen) and chosen in actions.openended:
        own_id, _ = actions.openended[chosen]
        response = answer["openended_response"]
        return Action(own_id, response if isinstance(response, str) else str(response))
    if _hashable(chosen) and chosen in actions.predefined:
        return Action(actions.predefined[chosen][0])
    raise ActionParseError(
        f"{chosen} is not one of the valid actions. As a reminder, the valid actions are as follows:\n"
        f"{actions.valid()}\nPlease return a json with the key 'action' with the action you choose and "
        "(optionally) the key 'openended_response' if you select openended response action."
    )


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool, tuple))


def _explain(chosen: Any, observation: Observation, actions: ReleasedActions) -> str | None:
    """Returns the text an ``Explain(...)`` answer gets, or None when the answer asks no explanation."""
    if not isinstance(chosen, str):
        return INVALID_EXPLAIN  # the released regex fails on a non-string action
    heading = re.findall(r"Explain\((H\d+)\)", chosen)
    if heading:
        keys = {f"H{i}": topic for i, topic in enumerate(observation.rules.topics, start=1)}
        if heading[0] not in keys:
            return INVALID_EXPLAIN
        return observation.rules.topics[keys[heading[0]]]
    named = re.findall(r"Explain\((.+)\)", chosen)
    if named:
        predefined = actions.predefined.get(named[0], ("", ""))[1] or ""
        openended = actions.openended.get(named[0], ("", ""))[1] or ""
        return predefined + openended
    return None


# -- the released action ids ------------------------------------------------------------------


def released_actions(observation: Observation) -> ReleasedActions:
    """Returns the decision's actions under the released code's ids (the game's own where it has no other)."""
    view = _VIEWS.get(observation.game, _own_ids)
    return view(observation)


def _own_ids(observation: Observation) -> ReleasedActions:
    """Games whose decisions differ from the released engine's keep their own ids and instructions."""
    return ReleasedActions(
        instructions=observation.asking.instructions,
        predefined={a: (a, None) for a in observation.legal_actions},
        openended={k: (k, prompt) for k, prompt in observation.open_ended.items()},
    )


def _sea_battle(observation: Observation) -> ReleasedActions:
    """``don't move then shoot left``...: the released ids, ``stay`` spelt ``don't move``."""
    sail = {
        "move forward": "Sail one square ahead",
        "move left": "Sail one square ahead, turn to your left and sail one more square",
        "move right": "Sail one square ahead, turn to your right and sail one more square",
        "stay": "Stay where you are",
    }
    predefined = {}
    for action in observation.legal_actions:
        move, _, shot = action.partition(" then ")
        released = action.replace("stay then", "don't move then", 1)
        predefined[released] = (action, f"{sail.get(move, move)}, then fire to your {shot.removeprefix('shoot ')}.")
    return ReleasedActions("Choose how you sail and where you fire this turn.", predefined)


def _codenames(observation: Observation) -> ReleasedActions:
    """Spymaster: open-ended ``submit_clue`` (``word,number``); operative: ``guess_<index>`` and ``end_turn``."""
    if observation.open_ended:
        openended = {
            own: (own, "Submit a clue for your operative, formatted as word,number_of_cards")
            for own in observation.open_ended
        }
        return ReleasedActions(
            "Give a one-word clue and how many of your team's cards it relates to, formatted like: word,3",
            openended=openended,
        )
    index = {card["word"]: i for i, card in enumerate(observation.data.get("cards", []))}
    guesses: dict[int, str] = {}
    others: dict[str, tuple[str, str | None]] = {}
    for action in observation.legal_actions:
        if action.startswith("guess "):
            guesses[index[action.removeprefix("guess ")]] = action
        elif action == "end turn":
            others["end_turn"] = (action, "End your turn.")
        else:
            others[action] = (action, None)
    # The released order: guesses by board position, then ending the turn.
    predefined = {f"guess_{i}": (guesses[i], f"Guess the word: {guesses[i].removeprefix('guess ')}")
                  for i in sorted(guesses)}
    return ReleasedActions("Guess a card that fits the clue.", {**predefined, **others})


_COMPASS = {
    "N": "north", "NE": "northeast", "E": "east", "SE": "southeast",
    "S": "south", "SW": "southwest", "W": "west", "NW": "northwest",
}


def _square(name: str) -> str:
    """``c3`` (column a-e, row 1-5 from the bottom) as the released ``(row, column)`` counted from the top left."""
    column, row = ord(name[0]) - ord("a"), int(name[1:])
    return str((5 - row, column))


def _santorini(observation: Observation) -> ReleasedActions:
    """Placement ``(row, column)``; a turn ``Move <direction>, build <direction>``."""
    predefined: dict[str, tuple[str, str | None]] = {}
    pawn = ""
    for action in observation.legal_actions:
        words = action.split()
        if words[0] == "place":
            pawn = words[1]
            released = _square(words[2])
            predefined[released] = (action, f"Place pawn {pawn} at {released}.")
        elif words[0] == "move" and len(words) == 5:
            pawn, move, build = words[1], _COMPASS[words[2]], _COMPASS[words[4]]
            predefined[f"Move {move}, build {build}"] = (
                action, f"Move pawn {pawn} {move}, then build a block {build} of its new square.",
            )
        elif words[0] == "move" and len(words) == 3:
            pawn, move = words[1], _COMPASS[words[2]]
            predefined[f"Move {move}"] = (action, f"Move pawn {pawn} {move} (onto level 3: no build follows).")
        else:
            predefined[action] = (action, None)
    if any(a.startswith("place") for a in observation.legal_actions):
        instructions = (
            f"Initial pawn placement: choose the square for pawn {pawn}. Squares are (row, column), "
            "counted from 0 at the top left."
        )
    else:
        instructions = (
            f"This turn you play pawn {pawn}: choose the direction it moves, then the direction it builds in, "
            "counted from its new square."
        )
    return ReleasedActions(instructions, predefined)


_BUGS = {"Q": "Queen", "S": "Spider", "G": "Hopper", "A": "Ant"}


def _cell(name: str) -> str:
    """``-3:3`` as the released ``(-3,3)``."""
    q, r = name.split(":")
    return f"({q},{r})"


def _hive(observation: Observation) -> ReleasedActions:
    """``place_<cell>_<Bug>`` and ``move_<from>_<to>`` (the released second-step ids), ``pass``."""
    predefined: dict[str, tuple[str, str | None]] = {}
    for action in observation.legal_actions:
        words = action.split()
        if words[0] == "place" and len(words) == 4:
            predefined[f"place_{_cell(words[3])}_{_BUGS.get(words[1], words[1])}"] = (action, "")
        elif words[0] == "move" and len(words) == 5:
            bug = _BUGS.get(words[1], words[1])
            predefined[f"move_{_cell(words[2])}_{_cell(words[4])}"] = (
                action, f"Move the {bug} at {_cell(words[2])} to {_cell(words[4])}.",
            )
        else:
            predefined[action] = (action, "Pass the turn." if action == "pass" else None)
    return ReleasedActions("Choose a move. Cells are axial coordinates (q,r).", predefined)


_THEATERS = ("Air", "Land", "Sea")
_PLAY = re.compile(r"^(deploy|improvise) (.+ \((Air|Land|Sea) \d\)) to (Air|Land|Sea)$")


def _air_land_sea(observation: Observation) -> ReleasedActions:
    """Numbered ids: ``i`` deploys hand card i, ``h+i``/``2h+i``/``3h+i`` improvise it to Air/Land/Sea, ``4h`` quits.

    Choices the released numbering has no place for (a deploy to a non-matching
    theater, a tactical ability's choice) are numbered on from ``4h+1``; the
    description of every id is the game's own action text.
    """
    hand = list(observation.data.get("hand", []))
    size = len(hand)
    numbered: dict[int, str] = {}
    extra: list[str] = []
    for action in observation.legal_actions:
        match = _PLAY.match(action)
        if action == "withdraw" and size:
            numbered[4 * size] = action
        elif match and match.group(2) in hand:
            i = hand.index(match.group(2))
            kind, own_theater, theater = match.group(1), match.group(3), match.group(4)
            if kind == "deploy" and theater == own_theater:
                numbered[i] = action
            elif kind == "improvise":
                numbered[size * (1 + _THEATERS.index(theater)) + i] = action
            else:
                extra.append(action)
        else:
            extra.append(action)
    start = 4 * size + 1 if size else 0
    for offset, action in enumerate(extra):
        numbered[start + offset] = action
    predefined = {str(k): (numbered[k], numbered[k]) for k in sorted(numbered)}
    playing = any(_PLAY.match(a) for a in observation.legal_actions)
    instructions = (
        f"Pick a card from your hand and the theater to play it in. With h = {size} cards in hand, counted from 0 "
        "in the order shown: i plays card i face up to its own theater; h+i, 2h+i and 3h+i play it facedown to "
        "Air, Land and Sea; 4h withdraws."
        if playing
        else observation.asking.instructions
    )
    return ReleasedActions(instructions, predefined)


_OFFER = re.compile(r"^offer (\d) (\w+)$")
_ACCEPT = re.compile(r"^accept Trader (\d+) with (\d) (\w+)$")


def _pit(observation: Observation) -> ReleasedActions:
    """``Offer_<Commodity>_<n>`` and ``Accept_<trader>_<Commodity>_<n>`` (Soybeans spelt ``Soyabeans``).

    Offers with the Bull or the Bear, ``withdraw`` and ``pass`` have no released
    id (the released engine has no such plays) and keep the project's.
    """
    predefined: dict[str, tuple[str, str | None]] = {}
    for action in observation.legal_actions:
        offer, accept = _OFFER.match(action), _ACCEPT.match(action)
        if offer:
            n, commodity = offer.group(1), offer.group(2).replace("Soybeans", "Soyabeans")
            predefined[f"Offer_{commodity}_{n}"] = (action, f"Offer {n} {commodity}")
        elif accept:
            trader, n, commodity = accept.group(1), accept.group(2), accept.group(3).replace("Soybeans", "Soyabeans")
            predefined[f"Accept_{trader}_{commodity}_{n}"] = (
                action, f"Accept trader {trader}'s standing offer, giving {n} {commodity}",
            )
        else:
            predefined[action] = (action, action)
    return ReleasedActions(observation.asking.instructions, predefined)


_VIEWS = {
    "pit": _pit,
    "sea_battle": _sea_battle,
    "codenames": _codenames,
    "santorini": _santorini,
    "hive": _hive,
    "air_land_sea": _air_land_sea,
}
"""Games whose decisions match the released engine's: the released ids. The others keep their own."""


# -- registration -----------------------------------------------------------------------------


def paper_protocol() -> Protocol:
    """GameBench's protocol: the released prompt and reader, no temperature, 3 attempts, a random fallback."""
    return Protocol(
        "paper",
        source=SOURCE,
        game_options={"protocol": "paper"},
        agent_options={"temperature": None},
        suite={"illegal_tolerance": MAX_ATTEMPTS, "fallback": "random"},
    )


def register(registry: Registry) -> None:
    """Registers the paper protocol of each game of the family (Atari Boxing included)."""
    for game in (*GAME_IDS, *EXTRA_GAME_IDS):
        registry.add_protocol(game, paper_protocol())
