"""The ``rap`` scaffold: GameBench's RAP, a tree search with the model as world model.

Each decision runs :class:`~stratbench.scaffolds.rap_search.MCTS` (llm-reasoners'
defaults; depth ``--rap-depth``, default 2 as GameBench; iterations
``--rap-iterations``, default llm-reasoners' ``n_iters=10``). The root's
actions are the game's: its predefined actions, then each open-ended action
filled with one model answer (GameBench's conversion). Deeper action lists,
the other players' actions and the next states are model predictions, with
GameBench's prompts (digest A4.1, kept verbatim with their ``<action>`` /
``<actions>`` mismatches). An observation with an image and no text is
described in text first (one call).

Rewards come from next-token probabilities (one call each, ``logprobs`` with
``top_logprobs=min(len(tokens), 5)`` and ``max_tokens=1``):
``intuition`` is the probability of the action's index under the selection
prompt, ``self_eval`` that of "yes" under the self-evaluation prompt and
``win_probability`` that of "yes" under the goal prompt;
``reward = intuition + self_eval + (2·win_probability − 1)`` and
``fast_reward`` is the same with ``win_probability = 0.5``. A token's
probability is its share of the first answer token's top alternatives,
``exp(lp) / Σ_top exp(lp)``, where alternatives are compared after removing
surrounding whitespace (a leading space or "Ġ"-style marker is not part of
the word) and lower-casing, and alternatives that normalise to the same word
(``"Yes"``, ``" yes"``) add up; a word absent from the alternatives gets
``exp(-100)``, as GameBench's code. A provider that does not return
logprobs fails with :class:`~stratbench.llm.client.LLMCapabilityError`
naming scaffold ``rap``.

Approximations, all documented in docs/ARCHITECTURE.md ("RAP"): the
selection prompt's distribution is asked once per state and shared by its
actions (GameBench asks it per action; the request is the same); a predicted
action list keeps its first :data:`MAX_PREDICTED` entries; a decision with a
single option plays it without a search; a decision with no option (a free
answer such as a plan) is asked as ``direct`` does; a retry drops the
rejected action from the root and tells the open-ended conversion why.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.types import Action, Observation
from stratbench.llm.client import Completion, LLMCapabilityError, provider_of
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.base import ConversationScaffold
from stratbench.scaffolds.prompt import message_lines, user_message
from stratbench.scaffolds.rap_search import DEPTH_LIMIT, MCTS, N_ITERS, SearchResult

MAX_PREDICTED = 10
"""Predicted actions kept per state (indexes 0-9, one token each): the project's bound, GameBench has none."""
MAX_TOP_LOGPROBS = 5
"""GameBench asks for ``top_logprobs=min(len(tokens), 5)``."""
ABSENT = math.exp(-100)
"""The probability GameBench gives a token missing from the top alternatives."""
NO_STATE = "no information about current state"
"""GameBench's next state when the prediction has no ``<state>`` block."""
CALLS_PER_ACTION = 6
"""GameBench's cost factor: base cost × depth × actions per state × 6."""

EXAMPLE = (
    "You are playing a game called monty hall. The rules of the game are as follows: there are three doors, behind "
    "one of which there is a prize. Select the door with the prize. Your observation of the state is between "
    "<state> and </state>: <state>All three doors are closed.</state>"
)
RULE_TOPICS = (
    "If you would like to learn more about the rules at any point, use rule(<topic>) where <topic> is one of {topics}."
)
ASK_ACTIONS_EXAMPLE = (
    "To the best of your ability, predict the available actions in this position between <action> and </action>:"
)
ACTIONS_EXAMPLE = "<actions> 0. Choose the left door 1. Choose the middle door 2. Choose the right door</actions>"
ASK_ACTIONS = (
    "To the best of your ability, predict your available actions in this position between <actions> and </actions>:"
)
ASK_ACTIONS_SELECT = (
    "To the best of your ability, predict your available actions in this position between <actions> and </action>:"
)
ASK_SELECT = "Choose an action by writing only the associated number."
WRITE_ACTION = "Write your action below:"
ASK_GOOD = "Is this a good action? yes/no."
ASK_OTHERS = (
    "To the best of your ability, predict what actions other players might take between <others> and </others>:"
)
OTHERS_EXAMPLE = "<others>My opponent is going to reveal one of the two doors I don't choose.</others>"
WRITE_OTHERS_EXAMPLE = "Write other player's actions below:"
WRITE_OTHERS = "Write other players' actions below:"
ASK_STATE = (
    "To the best of your ability, predict your new observation of the game based on your actions and others' "
    "actions between <state> and </state>:"
)
STATE_EXAMPLE = (
    "<state>\nThe left and right doors are closed, and the middle is open. There is no prize behind it.\n</state>"
)
OPEN_ENDED_EXAMPLE_ASK = "This is an openended action. Write a description of what you're going to do."
OPEN_ENDED_ASK = "This is an open-ended action. Write a description of what you're going to do."
ASK_WIN = "Will you eventually win from this position? yes/no"
DESCRIBE_IMAGE = (
    "You are playing a game called {title}. The rules are as follows: {summary}.\n"
    "This image is your observation of the game. Describe what's going on in the image."
)

_RULE = re.compile(r"rule\(\s*([^)]+?)\s*\)", re.IGNORECASE)
_ENUMERATED = re.compile(r"(?:^|\s)(\d+)[.)]\s+")


@dataclass(frozen=True)
class RapState:
    """A state of the search: the observation text (given or predicted) and its depth."""

    text: str
    depth: int = 0


@dataclass(frozen=True)
class RapAction:
    """An action as the model reads it, with the game action it stands for at the root."""

    text: str
    index: int
    action: Action | None = None


def normalise_token(token: str) -> str:
    """Returns a token as compared: without surrounding whitespace or a leading "Ġ"/"▁" marker, lower-cased."""
    return token.strip().lstrip("Ġ▁").strip().lower()


def token_probabilities(top: list[tuple[str, float]], words: list[str]) -> dict[str, float]:
    """Returns each word's probability among the first token's top alternatives.

    Examples:
        >>> p = token_probabilities([("Yes", math.log(0.6)), (" no", math.log(0.2))], ["yes", "no"])
        >>> round(p["yes"], 6), round(p["no"], 6)
        (0.75, 0.25)
    """
    total = sum(math.exp(logprob) for _, logprob in top)
    mass: dict[str, float] = {}
    for token, logprob in top:
        key = normalise_token(token)
        mass[key] = mass.get(key, 0.0) + math.exp(logprob)
    result = {}
    for word in words:
        key = normalise_token(word)
        result[word] = mass[key] / total if key in mass and total > 0 else ABSENT
    return result


def reward(intuition: float, self_eval: float, win_probability: float = 0.5) -> float:
    """GameBench's reward: ``intuition + self_eval + (2·win_probability − 1)``; the fast reward has 0.5."""
    return intuition + self_eval + (2 * win_probability - 1)


def gamebench_cost_estimate(base_calls: float, depth: int, actions_per_state: float) -> float:
    """GameBench's RAP cost estimate: base cost × MCTS depth × actions per state × 6.

    In calls, the base cost is one call per decision (``direct``) and the
    actions per state are the root's legal actions. Measured on the loopback
    server (tests/scaffolds/test_rap_cost.py: a Tic-Tac-Toe match, depth 2, 10
    iterations, :func:`~stratbench.testing.rap_responder.rap_responder`'s two
    predicted actions per state), a decision with R legal actions makes R + 11
    calls against the estimate's 12·R: 20 against 108 from the empty board,
    132 against 528 over the match's 8 decisions. The selection prompt is
    asked once per state, and with these rewards the first trace keeps the
    highest UCT value, so iterations 2-10 revisit it without calls; the
    estimate's 6 calls per action assume every action's subtree is explored.
    """
    return base_calls * depth * actions_per_state * CALLS_PER_ACTION


def call_bound(root_actions: int, *, depth: int, iterations: int, predicted: int = MAX_PREDICTED,
               open_ended: int = 0, described: bool = False, lookups: int = 0) -> int:
    """Returns the most calls one searched decision makes.

    Setup: the image description and one call per open-ended action. The
    root's expansion: one selection call and one self-evaluation per action.
    Each iteration predicts at most ``depth`` new states (others, state, win
    probability: 3 calls) and expands at most ``depth − 1`` of them (actions,
    selection, one self-evaluation per predicted action). ``lookups`` rule
    requests may follow each free-text call.
    """
    text_calls = 1 + lookups
    setup = int(described) + open_ended * text_calls
    root = 1 + root_actions
    per_state = 2 * text_calls + 1
    per_expansion = text_calls + 1 + predicted
    return setup + root + iterations * (depth * per_state + (depth - 1) * per_expansion)


def state_text(observation: Observation) -> str:
    """Returns the root state: the observation's text, its messages and its action instructions."""
    parts = [observation.text.strip()]
    if observation.messages:
        parts.append("Messages:\n" + message_lines(observation))
    if observation.asking.instructions:
        parts.append(observation.asking.instructions)
    return "\n".join(part for part in parts if part)


def prefix(observation: Observation, state: str) -> str:
    """Returns GameBench's !PREFIX for ``state``."""
    rules = observation.rules
    topics = RULE_TOPICS.format(topics=list(rules.topics)) + " " if rules.topics else ""
    return (
        f"You are now playing a game called {rules.title}. The rules are as follows {rules.summary}. {topics}"
        f"Your observation of the game is between <state> and </state>: <state>{state}</state>"
    )


def between(text: str, tag: str) -> str | None:
    """Returns the text between ``<tag>`` and ``</tag>`` (or ``</tag-without-s>``), or None."""
    match = re.search(rf"<{tag}>(.*?)</{tag}>", text, re.DOTALL) or re.search(
        rf"<{tag}>(.*?)</{tag.rstrip('s')}>", text, re.DOTALL
    )
    return match.group(1).strip() if match else None


def parse_actions(text: str) -> list[str]:
    """Reads a predicted action list: the ``<actions>`` block, one per line or enumerated ``0. ... 1. ...``."""
    block = between(text, "actions")
    if block is None:
        return []
    if _ENUMERATED.search(block):
        items = _ENUMERATED.split(block)
        # split() alternates text and captured indexes: keep the text after each index
        found = [items[i + 1].strip() for i in range(1, len(items) - 1, 2)]
    else:
        found = [line.strip(" -*\t") for line in block.splitlines()]
    unique = list(dict.fromkeys(item for item in found if item))
    return unique[:MAX_PREDICTED]


def enumerate_actions(actions: list[RapAction]) -> str:
    """Lists actions as the selection prompt shows them: ``0. first`` one per line."""
    return "\n".join(f"{action.index}. {action.text}" for action in actions)


@dataclass
class RapProblem:
    """GameBench's world model and search configuration for one decision."""

    observation: Observation
    session: ModelSession
    root_actions: list[RapAction]
    settings: dict[str, Any] = field(default_factory=dict)
    max_lookups: int = 3
    _select: dict[RapState, dict[str, float]] = field(default_factory=dict)
    _predicted: dict[RapState, list[RapAction]] = field(default_factory=dict)

    # -- the search's calls --------------------------------------------------------

    async def actions(self, state: RapState) -> list[RapAction]:
        """The root's real actions; a predicted state's predicted actions."""
        if state.depth == 0:
            return list(self.root_actions)
        if state not in self._predicted:
            messages = [
                {"role": "user", "content": EXAMPLE + "\n\n" + ASK_ACTIONS_EXAMPLE},
                {"role": "assistant", "content": ACTIONS_EXAMPLE},
                {"role": "user", "content": prefix(self.observation, state.text) + "\n\n" + ASK_ACTIONS},
            ]
            reply = await self.ask(messages, "rap_actions")
            self._predicted[state] = [RapAction(text, i) for i, text in enumerate(parse_actions(reply))]
        return list(self._predicted[state])

    async def fast_reward(self, state: RapState, action: RapAction) -> tuple[float, dict[str, Any]]:
        """``intuition + self_eval`` (win probability 0.5)."""
        intuition = (await self.selection(state))[str(action.index)]
        self_eval = await self.probability_of_yes(
            [
                {"role": "user", "content": prefix(self.observation, state.text) + "\n\n" + WRITE_ACTION},
                {"role": "assistant", "content": action.text},
                {"role": "user", "content": ASK_GOOD},
            ],
            "rap_self_eval",
        )
        return reward(intuition, self_eval), {"intuition": intuition, "self_eval": self_eval}

    async def step(self, state: RapState, action: RapAction, depth: int) -> tuple[RapState, dict[str, Any]]:
        """Predicts the other players' actions, then the next observation."""
        asked = prefix(self.observation, state.text) + "\n\n" + ASK_OTHERS
        others_reply = await self.ask(
            [
                {"role": "user", "content": EXAMPLE + "\n\n" + ASK_OTHERS},
                {"role": "assistant", "content": OTHERS_EXAMPLE},
                {"role": "user", "content": asked},
            ],
            "rap_others",
        )
        others = between(others_reply, "others") or others_reply.strip()
        state_reply = await self.ask(
            [
                {"role": "user", "content": EXAMPLE + "\n\n" + WRITE_ACTION},
                {"role": "assistant", "content": "I will choose the left door"},
                {"role": "user", "content": WRITE_OTHERS_EXAMPLE},
                {"role": "assistant", "content": "My opponent will reveal the middle door"},
                {"role": "user", "content": ASK_STATE},
                {"role": "assistant", "content": STATE_EXAMPLE},
                {"role": "user", "content": prefix(self.observation, state.text) + "\n\n" + WRITE_ACTION},
                {"role": "assistant", "content": action.text},
                {"role": "user", "content": WRITE_OTHERS},
                {"role": "assistant", "content": others},
                {"role": "user", "content": ASK_STATE},
            ],
            "rap_state",
        )
        return RapState(between(state_reply, "state") or NO_STATE, depth), {"others": others}

    async def reward(self, state: RapState, action: RapAction, next_state: RapState,
                     **details: Any) -> tuple[float, dict[str, Any]]:
        """``intuition + self_eval + (2·win_probability − 1)``, the win probability asked of the next state."""
        win = await self.probability_of_yes(
            [{"role": "user", "content": prefix(self.observation, next_state.text) + "\n\n" + ASK_WIN}],
            "rap_win",
        )
        parts = {"intuition": details["intuition"], "self_eval": details["self_eval"], "win_probability": win}
        return reward(parts["intuition"], parts["self_eval"], win), parts

    # -- the model calls -----------------------------------------------------------

    async def selection(self, state: RapState) -> dict[str, float]:
        """The index distribution under the selection prompt, asked once per state."""
        if state not in self._select:
            actions = await self.actions(state)
            messages = [
                {"role": "user", "content": prefix(self.observation, state.text) + "\n\n" + ASK_ACTIONS_SELECT},
                {"role": "assistant", "content": f"<actions>{enumerate_actions(actions)}</actions>"},
                {"role": "user", "content": ASK_SELECT},
            ]
            indexes = [str(action.index) for action in actions]
            self._select[state] = await self.probabilities(messages, indexes, "rap_select")
        return self._select[state]

    async def probability_of_yes(self, messages: list[dict[str, Any]], purpose: str) -> float:
        """P("yes") of the first answer token."""
        return (await self.probabilities(messages, ["yes", "no"], purpose))["yes"]

    async def probabilities(self, messages: list[dict[str, Any]], words: list[str], purpose: str) -> dict[str, float]:
        """One call with logprobs; the words' probabilities (:func:`token_probabilities`)."""
        completion = await self.session.complete(
            messages, purpose=purpose, **{**self.settings, "logprobs": True,
                                          "top_logprobs": min(len(words), MAX_TOP_LOGPROBS), "max_tokens": 1}
        )
        return token_probabilities(first_token_alternatives(completion, self.session.model), words)

    async def ask(self, messages: list[dict[str, Any]], purpose: str) -> str:
        """A free-text call; a ``rule(<topic>)`` request gets the topic's text and the model is asked again."""
        messages = list(messages)
        completion = await self.session.complete(messages, purpose=purpose, **self.settings)
        for _ in range(self.max_lookups):
            topic = rule_topic(completion.text, self.observation)
            if topic is None:
                break
            messages += [{"role": "assistant", "content": completion.text}, {"role": "user", "content": topic}]
            completion = await self.session.complete(messages, purpose="rule", **self.settings)
        return completion.text


def first_token_alternatives(completion: Completion, model: str) -> list[tuple[str, float]]:
    """Returns the first answer token's top alternatives (the token itself when none are listed).

    Raises:
        LLMCapabilityError: naming scaffold ``rap``, when the reply carries no logprobs.
    """
    if not completion.logprobs:
        raise LLMCapabilityError(model, provider_of(model) or "model's", ["logprobs"], needed_by="scaffold rap",
                                 detail="its reply carried no token log-probabilities")
    first = completion.logprobs[0]
    return [tuple(item) for item in first["top"]] or [(first["token"], first["logprob"])]  # type: ignore[misc]


def rule_topic(reply: str, observation: Observation) -> str | None:
    """Returns the rule text a ``rule(<topic>)`` reply asks for, or None when it asks for none or an unknown one."""
    match = _RULE.search(reply)
    if match is None:
        return None
    wanted = match.group(1).strip().strip("\"'<>").lower().replace("_", " ")
    for heading, text in observation.rules.topics.items():
        if heading.lower() == wanted:
            return f"{heading}: {text}"
    return None


class Rap(ConversationScaffold):
    """GameBench's RAP: MCTS over model-predicted actions and states (see the module docstring).

    Negotiation rounds are answered as ``direct`` does.
    """

    purpose = "act"
    answers_by_tool = False

    def __init__(self, depth: int = DEPTH_LIMIT, iterations: int = N_ITERS, max_explains: int = 3,
                 **settings: Any) -> None:
        super().__init__(max_explains=max_explains, **settings)
        if depth < 1 or iterations < 1:
            raise ValueError(f"rap: depth and iterations must be at least 1, got {depth} and {iterations}")
        self.depth, self.iterations = depth, iterations
        self._rejected: set[str] = set()
        self._decision: int | None = None
        self.last_search: SearchResult[RapState, RapAction] | None = None

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Searches, then plays the first action of the best trace."""
        if observation.feedback is None or observation.turn != self._decision:
            self._rejected = set()
        self._decision = observation.turn
        if not observation.legal_actions and not observation.open_ended:
            return await super().decide(observation, session)
        if observation.text.strip() or observation.image_png is None:
            root_text = state_text(observation)
        else:
            root_text = "\n".join(filter(None, [await self.describe(observation, session), state_text(observation)]))
        problem = RapProblem(observation, session, [], dict(self.settings), self.max_explains)
        actions = [action for action in observation.legal_actions if action not in self._rejected]
        if not actions and not observation.open_ended:
            actions = list(observation.legal_actions)
        root = [Action(action) for action in actions]
        for action_id, prompt in observation.open_ended.items():
            root.append(Action(action_id, await self.fill(problem, root_text, action_id, prompt, observation)))
        problem.root_actions = [RapAction(action.to_text(), i, action) for i, action in enumerate(root)]
        if len(root) == 1:
            chosen = root[0]
            session.transcript.add("rap_search", player=observation.player, turn=observation.turn, searched=False,
                                   chosen=chosen.to_text())
        else:
            search = MCTS(problem, depth=self.depth, iterations=self.iterations)
            result = await search.search(RapState(root_text, 0))
            self.last_search = result
            picked = result.action if result.action is not None else _best_root(result)
            assert picked.action is not None
            chosen = picked.action
            session.transcript.add("rap_search", player=observation.player, turn=observation.turn, searched=True,
                                   chosen=chosen.to_text(), depth=self.depth, iterations=self.iterations,
                                   root=_root_summary(result), cum_reward=result.cum_reward)
        self._rejected.add(chosen.id)
        return chosen

    async def describe(self, observation: Observation, session: ModelSession) -> str:
        """Describes an image-only observation in text (GameBench's description prompt, one call)."""
        text = DESCRIBE_IMAGE.format(title=observation.rules.title, summary=observation.rules.summary)
        completion = await session.complete([user_message(text, observation, vision=True)], purpose="rap_describe",
                                            **self.settings)
        return completion.text.strip()

    async def fill(self, problem: RapProblem, state: str, action_id: str, prompt: str,
                   observation: Observation) -> str:
        """Converts an open-ended action into an option: the model's description of what it does."""
        shown = f"{action_id}: {prompt}" if prompt else action_id
        ask = OPEN_ENDED_ASK
        if observation.feedback is not None:
            ask += f"\nYour previous answer was rejected: {observation.feedback}"
        reply = await problem.ask(
            [
                {"role": "user", "content": EXAMPLE + "\n\n" + WRITE_ACTION},
                {"role": "assistant", "content": "Ask my opponent a question."},
                {"role": "user", "content": OPEN_ENDED_EXAMPLE_ASK},
                {"role": "assistant", "content": "I will pretty-please ask them to tell me which door has the prize."},
                {"role": "user", "content": prefix(observation, state) + "\n\n" + WRITE_ACTION},
                {"role": "assistant", "content": shown},
                {"role": "user", "content": ask},
            ],
            "rap_open_ended",
        )
        return reply.strip()


def _best_root(result: SearchResult[RapState, RapAction]) -> RapAction:
    """The root child with the highest Q (the first on ties) when no trace scored."""
    children = result.root.children or []
    best = max(children, key=lambda node: node.q)
    assert best.action is not None
    return best.action


def _root_summary(result: SearchResult[RapState, RapAction]) -> list[dict[str, Any]]:
    """The root's children for the transcript: action, visits, Q, fast reward and reward parts."""
    summary = []
    for node in result.root.children or []:
        assert node.action is not None
        parts = {**node.fast_details, **node.reward_details}
        summary.append({
            "action": node.action.text,
            "visits": len(node.cum_rewards),
            "q": round(node.q, 6),
            "fast_reward": round(node.fast_reward, 6),
            **{name: round(float(value), 6) for name, value in parts.items()},
        })
    return summary


def rap(**settings: Any) -> Rap:
    """Builds GameBench's RAP scaffold (``depth``, ``iterations``; the rest are request settings)."""
    return Rap(**settings)
