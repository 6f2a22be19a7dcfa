"""Prompt conformance: every legal action, written as the prompt asks, reads back as that action.

A forfeit must be the model's failure, never a disagreement between the
prompt and the answer reader. For a registered ``moves`` game in one protocol,
:func:`check_game` plays seeded random playouts and, at sampled decisions:

- reads the actions the prompt lists (the prompt the ``direct`` scaffold
  sends: a paper's prompt style, the game's own prompt, else
  :func:`~stratbench.scaffolds.prompt.game_prompt`) and compares them, mapped
  to the engine's ids (``observation.data["answer_ids"]``, or the prompt
  style's ``released_actions``), with the engine's legal actions;
- has an oracle answer each listed action exactly as the prompt instructs (the
  JSON object its answer format names, else ``Action: <action>``; every other
  notation the instructions name, such as chess's UCI), reads the answer with
  the agent's own path (:func:`~stratbench.scaffolds.parsing.parse_answer`,
  then ``Game.canonical_action`` as the runner does) and requires the same
  engine action back;
- under the default protocol, does the same for a ``make_move`` tool call
  (``--answer-format tools``): its enum must list the legal actions, and each
  call must read back as its action.

Decisions whose only answers are open-ended (a plan, orders, a clue) are
counted as unchecked. :func:`games_to_check` lists every registered ``moves``
game, variant and protocol, so a new family is checked once it registers its
games.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.game import CHANCE, Game, State
from stratbench.core.protocol_names import DEFAULT
from stratbench.core.shapes import MOVES
from stratbench.core.types import (
    Action,
    ActionParseError,
    IllegalActionError,
    Observation,
)
from stratbench.llm.client import Completion
from stratbench.llm.reply import ToolCall
from stratbench.registry import Registry
from stratbench.scaffolds import family_parts
from stratbench.scaffolds.parsing import parse_answer
from stratbench.scaffolds.prompt import game_prompt, prompt_style
from stratbench.scaffolds.tool_answer import MOVE_TOOL, answer_text, move_tool

__all__ = ["cases_played", 
    "HARNESS_ERROR",
    "LEGAL_NOT_LISTED",
    "LISTED_NOT_LEGAL",
    "MISREAD",
    "NO_LISTING",
    "REJECTED",
    "UNREADABLE",
    "Checked",
    "GameCase",
    "Problem",
    "check_game",
    "conformance",
    "games_to_check",
]

LISTED_NOT_LEGAL = "listed-not-legal"
"""The prompt (or the tool's enum) lists an action the engine does not allow."""
LEGAL_NOT_LISTED = "legal-not-listed"
"""The engine allows an action the prompt (or the tool's enum) does not list."""
NO_LISTING = "no-listing"
"""The engine has legal actions, but no list of them could be read from the prompt."""
UNREADABLE = "unreadable"
"""The reader refused an answer written as the prompt asks."""
REJECTED = "rejected"
"""The reader read the answer, but the game refused it as no legal action."""
MISREAD = "misread"
"""The answer was read as another action than the one the oracle chose."""
HARNESS_ERROR = "harness-error"
"""Building the observation, its prompt or its listing raised."""

TEXT, TOOLS = "text", "tools"
"""The ways of answering checked: the reply's text, a ``make_move`` tool call (default protocol only)."""

MAX_ANSWERS = 64
"""Listed actions answered per decision at most (a random sample of longer lists)."""


@dataclass(frozen=True)
class Problem:
    """One disagreement between a prompt and its reader.

    Attributes:
        kind: What went wrong (:data:`MISREAD`, :data:`LISTED_NOT_LEGAL`...).
        game: The game's name.
        variant: Its variant, or None.
        protocol: The protocol it was played in.
        way: How the oracle answered (:data:`TEXT` or :data:`TOOLS`).
        seed: The playout's seed.
        turn: The decision's turn in that playout.
        player: The deciding player.
        detail: The answer, what it was read as, or the actions concerned.
    """

    kind: str
    game: str
    variant: str | None
    protocol: str
    way: str
    seed: int
    turn: int
    player: int
    detail: str

    def __str__(self) -> str:
        variant = f"[{self.variant}]" if self.variant else ""
        return (f"{self.kind}: {self.game}{variant} {self.protocol}/{self.way} seed {self.seed} turn {self.turn} "
                f"player {self.player}: {self.detail}")


@dataclass
class Checked:
    """What one game/variant/protocol check found.

    Attributes:
        problems: Every disagreement found (empty: the prompts conform).
        states: Decisions checked.
        answers: Oracle answers read back.
        unchecked: Sampled decisions with open-ended answers only (not checked).
    """

    problems: list[Problem] = field(default_factory=list)
    states: int = 0
    answers: int = 0
    unchecked: int = 0


@dataclass(frozen=True)
class GameCase:
    """One registered game, in one variant (None: its only form), played in one protocol."""

    name: str
    variant: str | None
    protocol: str

    @property
    def label(self) -> str:
        """``name[variant]/protocol``, for test ids and reports."""
        return f"{self.name}{f'[{self.variant}]' if self.variant else ''}/{self.protocol}"


def games_to_check(registry: Registry, *, every_variant: bool = False) -> list[GameCase]:
    """Lists every registered ``moves`` game in each protocol it has (default first).

    Args:
        registry: A registry filled with the ``games`` and ``protocols`` parts.
        every_variant: Every variant that runs here; else each game's first one (as the game conformance test).
    """
    cases = []
    for name in sorted(registry.games):
        variants = registry.variants(name, {"pddl_dir": None})
        if variants is None:
            chosen: list[str | None] = [None]
        else:
            runnable = [v.name for v in variants if v.skip is None]
            chosen = list(runnable if every_variant else runnable[:1])
        if not chosen or registry.game(name, chosen[0]).shape != MOVES:
            continue
        protocols = [DEFAULT, *sorted(registry.protocols.get(name, {}))]
        cases.extend(GameCase(name, variant, protocol) for variant in chosen for protocol in protocols)
    return cases


def cases_played(registry: Registry, records: list[dict[str, Any]]) -> list[GameCase]:
    """The registered ``moves`` games, variants and protocols a run's scored records played (what ``stratbench
    audit`` checks the prompts of)."""
    found: dict[GameCase, None] = {}
    for record in records:
        name = record.get("game")
        if record.get("status", "scored") != "scored" or name not in registry.games:
            continue
        protocol = record.get("protocol") or DEFAULT
        if protocol != DEFAULT and protocol not in registry.protocols.get(name, {}):
            continue
        try:
            if registry.game(name, record.get("variant")).shape != MOVES:
                continue
        except Exception:  # a variant this machine cannot build (a dataset not here): nothing to check
            continue
        found[GameCase(name, record.get("variant"), protocol)] = None
    return list(found)


def check_game(registry: Registry, name: str, variant: str | None, protocol: str, *, samples: int = 3,
               seed: int = 0) -> list[Problem]:
    """Returns the problems :func:`conformance` finds (empty: every sampled prompt is answerable)."""
    return conformance(registry, name, variant, protocol, samples=samples, seed=seed).problems


def conformance(registry: Registry, name: str, variant: str | None, protocol: str, *, samples: int = 3,
                seed: int = 0) -> Checked:
    """Checks ``samples`` decisions of seeded random playouts of a game in one protocol.

    The registry is installed for the readers' look-ups (:func:`~stratbench.scaffolds.family_parts.use_registry`)
    while the check runs, and the one installed before is put back after.
    """
    game = registry.game(name, variant, **registry.protocol(name, protocol).game_options)
    checked = Checked()
    previous = _installed_registry()
    family_parts.use_registry(registry)
    try:
        for playout_seed, state, player in _sampled_decisions(game, samples, seed):
            where = (name, variant, protocol, playout_seed, state.turn, player)
            found = _reporter(checked, *where)
            _check_decision(game, state, player, protocol, random.Random(f"{playout_seed}-{state.turn}-{player}"), checked, found)
    finally:
        family_parts.use_registry(previous)
    return checked


def _reporter(checked: Checked, name: str, variant: str | None, protocol: str, seed: int, turn: int,
              player: int) -> Callable[..., None]:
    """Returns ``found(kind, detail, way=TEXT)``, which records a problem of this decision in ``checked``."""
    def found(kind: str, detail: str, way: str = TEXT) -> None:
        checked.problems.append(Problem(kind, name, variant, protocol, way, seed, turn, player, detail))
    return found


def _installed_registry() -> Any:
    """The registry the scaffolds look names up in now, or None."""
    try:
        return family_parts.current_registry()
    except family_parts.NoRegistryError:
        return None


# -- the sampled decisions ------------------------------------------------------------------------

GAP = 6
"""Decisions skipped between two sampled ones, at most (chosen at random)."""
STEPS_PER_SAMPLE = 60
"""Playout steps allowed per sample asked (open-ended-only games would otherwise play on to the end)."""


def _sampled_decisions(game: Game, samples: int, seed: int) -> Iterator[tuple[int, State, int]]:
    """Yields ``(playout seed, state, player)`` at randomly spaced decisions of seeded random playouts.

    The state is the playout's own: the caller reads it before asking for the next decision.
    """
    given, steps = 0, 0
    for playout_seed in range(seed, seed + max(samples, 1)):
        state = game.new_initial_state(playout_seed)
        moves, spacing = random.Random(playout_seed), random.Random(f"spacing-{playout_seed}")
        decision, next_sampled = 0, 0
        while not state.is_terminal() and state.turn < game.info.max_turns:
            players = state.current_players()
            if players == [CHANCE]:
                outcomes = state.chance_outcomes()
                state.apply({CHANCE: Action(moves.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])})
                continue
            for player in players:
                if decision == next_sampled:
                    yield playout_seed, state, player
                    given += 1
                    if given >= samples:
                        return
                    next_sampled += 1 + spacing.randrange(GAP)
                decision += 1
            state.apply({player: _random_action(state, player, moves) for player in players})
            steps += 1
            if steps >= samples * STEPS_PER_SAMPLE:
                return


def _random_action(state: State, player: int, rng: random.Random) -> Action:
    """A random legal action, else a pass or the state's fallback for an open-ended decision."""
    legal = state.legal_actions(player)
    if legal:
        return Action(rng.choice(legal))
    action = Action(min(state.open_ended(player)), "pass")
    if not state.is_legal(player, action):  # an answer with rules (a Codenames clue)
        action = state.fallback_action(player, rng) or action
    return action


# -- one decision ------------------------------------------------------------------------------------


def _check_decision(game: Game, state: State, player: int, protocol: str, rng: random.Random, checked: Checked,
                    found: Callable[..., None]) -> None:
    """Checks one decision's listing and its oracle's answers, text and (default protocol) tool calls."""
    legal = list(state.legal_actions(player))
    if not legal:
        checked.unchecked += 1
        return
    try:
        observation = game.observe(state, player)
        prompt = asked_prompt(observation)
        listed = listed_answers(prompt)
        meaning = answer_meanings(observation)
    except Exception as error:  # noqa: BLE001 - any failure to build the prompt is the harness's
        found(HARNESS_ERROR, f"{type(error).__name__}: {error}")
        return
    checked.states += 1
    if listed is None:
        found(NO_LISTING, f"the engine has {len(legal)} legal actions; the prompt lists none readably")
        return
    _compare_listing([meaning.get(a, a) for a in listed], legal, found, TEXT)
    for answer in _some(listed, rng):
        expected = meaning.get(answer, answer)
        if expected not in legal:
            continue  # already reported as listed but not legal
        for written in [answer, *other_notations(observation, expected)]:
            checked.answers += 1
            _read_back(game, state, player, observation, written_reply(observation, written), expected, found, TEXT)
    if protocol == DEFAULT and not observation.asking.prompt_style:
        _check_tool_answers(game, state, player, observation, legal, rng, checked, found)


def _check_tool_answers(game: Game, state: State, player: int, observation: Observation, legal: list[str],
                        rng: random.Random, checked: Checked, found: Callable[..., None]) -> None:
    """Checks the ``make_move`` tool's enum against the engine and reads back a call per listed action."""
    parameter = move_tool(observation)["function"]["parameters"]["properties"]["action"]
    offered = list(parameter.get("enum") or observation.legal_actions)
    if "enum" in parameter:
        _compare_listing(offered, legal, found, TOOLS)
    for answer in _some(offered, rng):
        if answer not in legal:
            continue
        checked.answers += 1
        _read_back(game, state, player, observation, answer_text(_tool_call(answer)), answer, found, TOOLS)


def _compare_listing(listed: list[str], legal: list[str], found: Callable[..., None], way: str) -> None:
    """Reports the listed actions the engine refuses and the legal ones not listed."""
    extra = [a for a in listed if a not in legal]
    missing = [a for a in legal if a not in listed]
    if extra:
        found(LISTED_NOT_LEGAL, ", ".join(map(repr, extra[:10])), way)
    if missing:
        found(LEGAL_NOT_LISTED, ", ".join(map(repr, missing[:10])), way)


def _read_back(game: Game, state: State, player: int, observation: Observation, reply: str, expected: str,
               found: Callable[..., None], way: str) -> None:
    """Reads ``reply`` as the agent and the runner do and reports unless it is ``expected``."""
    try:
        action = parse_answer(reply, observation)
    except ActionParseError as error:
        found(UNREADABLE, f"{reply!r} (meant {expected!r}): {error}", way)
        return
    try:
        canonical = game.canonical_action(state, player, action.id)
    except (ActionParseError, IllegalActionError) as error:
        found(REJECTED, f"{reply!r} read as {action.id!r} (meant {expected!r}): {error}", way)
        return
    if canonical is None:
        found(REJECTED, f"{reply!r} read as {action.id!r}, no legal action (meant {expected!r})", way)
    elif canonical != expected:
        found(MISREAD, f"{reply!r} read as {canonical!r}, meant {expected!r}", way)


def _some(answers: list[str], rng: random.Random) -> list[str]:
    """All the answers, or :data:`MAX_ANSWERS` of them at random."""
    return answers if len(answers) <= MAX_ANSWERS else rng.sample(answers, MAX_ANSWERS)


def _tool_call(answer: str) -> Completion:
    """A reply that only calls ``make_move(action=answer)``."""
    call = ToolCall("call_0", MOVE_TOOL, json.dumps({"action": answer}))
    return Completion("", "oracle", 0, 0, 0.0, True, 0.0, 1, tool_calls=(call,))


# -- what the prompt asks ----------------------------------------------------------------------------


def asked_prompt(observation: Observation) -> str:
    """The text the ``direct`` scaffold asks with: a prompt style's, the game's own prompt, else :func:`game_prompt`."""
    style = prompt_style(observation)
    if style is not None:
        released = style.released_prompt(observation)
        return released.body + released.summary
    if observation.asking.prompt is not None:
        return observation.asking.prompt
    return game_prompt(observation)


def _whitespace_list(text: str) -> list[str]:
    return text.split()


def _literal_list(text: str) -> list[str]:
    return [str(item) for item in ast.literal_eval(text)]


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(", ")]


LISTINGS: tuple[tuple[re.Pattern[str], Callable[[str], list[str]]], ...] = (
    (re.compile(r"<legal_moves>(.*?)</legal_moves>", re.DOTALL), _whitespace_list),
    (re.compile(r"Legal moves: (\[.*?\])"), _literal_list),
    (re.compile(r"mapping of action identifiers to their descriptions:\n(\{.*?\})\n"), _literal_list),
    (re.compile(r"The following are predefined actions you can take:\n(\[.*?\])\n"), _literal_list),
    (re.compile(r"^Legal actions: (.*)$", re.MULTILINE), _comma_list),
)
"""How the prompts list their actions, each with its reader (the last match in a prompt counts)."""


def listed_answers(prompt: str) -> list[str] | None:
    """The answers the prompt lists (as the prompt writes them), or None when it lists none readably."""
    for pattern, read in LISTINGS:
        matches = pattern.findall(prompt)
        if matches:
            return read(matches[-1])
    return None


def answer_meanings(observation: Observation) -> dict[str, str]:
    """Maps the answers a protocol renumbers to the engine's action ids (empty: answers are the ids).

    ``observation.data["answer_ids"]`` (SPIN-Bench's by-column Tic-Tac-Toe cells, chess's UCI moves), or a
    prompt style's ``released_actions(observation)`` (GameBench's released ids).
    """
    meanings = dict(observation.data.get("answer_ids") or {})
    style = prompt_style(observation)
    released = getattr(style, "released_actions", None)
    if released is not None:
        meanings.update({answer: own for answer, (own, _) in released(observation).predefined.items()})
    return meanings


def other_notations(observation: Observation, action: str) -> list[str]:
    """The same action in every other notation the instructions name (chess's UCI), where the prompt lists ids."""
    if observation.data.get("answer_ids"):
        return []
    board = observation.data.get("board")
    if "UCI" in observation.asking.instructions and hasattr(board, "parse_san"):
        return [board.parse_san(action).uci()]
    return []


def written_reply(observation: Observation, answer: str) -> str:
    """The reply an oracle writes for ``answer``: the JSON object the answer format names, else ``Action: <answer>``."""
    style = prompt_style(observation)
    form = asked_prompt(observation) if style is not None else observation.asking.answer_format
    if '"action"' not in form:
        return f"Action: {answer}"
    value: Any = int(answer) if re.search(r'"action":\s*int', form) and re.fullmatch(r"-?\d+", answer) else answer
    reply = {"reason": "oracle", "action": value} if '"reason"' in form else {"action": value}
    return json.dumps(reply)
