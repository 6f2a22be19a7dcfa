"""The Scaffold contract and the conversation loop most scaffolds share.

A scaffold turns an observation into LLM calls and one action. It is built
per agent (so it may keep state) by a factory registered under a name; the
factory's keyword arguments are recorded with the match.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, HarnessError, Observation
from stratbench.llm.client import STABLE_CHARS
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.parsing import parse_answer, parse_messages, strict_parser
from stratbench.scaffolds.prompt import (
    SYSTEM_PROMPT,
    answer_format,
    game_prompt,
    prompt_style,
    replace_answer_format,
    retry_prompt,
    stable_chars,
    swap_answer_format,
    topic_keys,
    user_message,
)
from stratbench.scaffolds.tool_answer import (
    TOOL_INSTRUCTION,
    answer_text,
    assistant_turn,
    close_calls,
    follow_up,
    tool_request,
)

_EXPLAIN = re.compile(r"Explain\(\s*([^)]+?)\s*\)", re.IGNORECASE)


@runtime_checkable
class Scaffold(Protocol):
    """Decides one action with a model."""

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Returns the action for ``observation``; retries carry ``observation.feedback``."""
        ...


class ConversationScaffold:
    """Keeps one conversation per decision, with retries and rule expansion.

    A new decision opens a conversation (:meth:`open`); a retry appends the
    rejection reason to it. A reply ``Explain(H2)`` is answered with that rule
    topic's text, up to ``max_explains`` times per decision. An observation
    whose ``conversation`` key is the previous request's continues that
    conversation (negotiation rounds and the decision after them) with its
    prompt as a new user turn. An observation's ``primer`` is sent once per
    player, as its own request, and that turn and the model's reply open
    every later conversation of the player.
    """

    purpose = "act"

    def __init__(self, max_explains: int = 3, **settings: Any) -> None:
        self.max_explains = max_explains
        self.settings = settings
        self._turn: int | None = None
        self._messages: list[dict[str, Any]] = []
        self._conversation = ""
        self._primers: dict[tuple[int, str], list[dict[str, Any]]] = {}
        self.last_reply: str | None = None
        self.last_reply_cut = False
        """Whether the output-token limit cut :attr:`last_reply` (a reply read as it was cut)."""
        """The text of the latest reply read for an action."""

    async def open(self, observation: Observation, session: ModelSession) -> list[dict[str, Any]]:
        """Returns the conversation that asks for this decision (after the primer turn, if any)."""
        # A negotiation round keeps the project's talk prompt under every protocol.
        style = prompt_style(observation) if observation.negotiation is None else None
        if style is not None:
            released = style.released_prompt(observation)
            return [
                {"role": "system", "content": released.system},
                user_message(released.body + released.summary, observation, vision=session.vision),
            ]
        asking = observation.asking
        if asking.prompt is not None:
            system = [{"role": "system", "content": asking.system_prompt}] if asking.system_prompt else []
            text = asking.prompt
            preamble = [dict(message) for message in asking.preamble]
        else:
            system, text = [{"role": "system", "content": SYSTEM_PROMPT}], game_prompt(observation)
            preamble = []
        primer = await self.primer_turn(observation, session, system)
        asked = user_message(text, observation, vision=session.vision)
        stable = stable_chars(text) if asking.prompt is None and isinstance(asked["content"], str) else 0
        if stable:  # the rules before the position: a prefix the provider may cache (never sent as a key)
            asked[STABLE_CHARS] = stable
        return [*system, *preamble, *primer, asked]

    async def primer_turn(
        self, observation: Observation, session: ModelSession, system: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Returns the player's primer turn and the model's reply, asking once per player; empty without a primer."""
        if not observation.asking.primer:
            return []
        key = (observation.player, observation.asking.primer)
        if key not in self._primers:
            turn = {"role": "user", "content": observation.asking.primer}
            completion = await session.complete([*system, turn], purpose="primer", **self.settings)
            self._primers[key] = [turn, {"role": "assistant", "content": completion.text}]
        return [dict(message) for message in self._primers[key]]

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Asks the model and parses its action (from its ``make_move`` call under ``--answer-format tools``).

        Raises:
            TruncatedAnswer: when the output-token limit cut the answer and the brief re-ask for it.
        """
        tools = self.answers_with_tools(observation, session)
        if observation.feedback is None or observation.turn != self._turn:
            self._turn = observation.turn
            if self._continues(observation):
                self._messages += close_calls(self._messages)
                self._messages.append(user_message(observation.asking.prompt or "", observation, vision=session.vision))
            else:
                self._messages = await self.open(observation, session)
            self._conversation = observation.asking.conversation
            if tools:
                replace_answer_format(self._messages[-1], answer_format(observation), TOOL_INSTRUCTION)
        else:
            retry = self.retry_message(observation)
            if retry is not None:
                if tools:
                    retry = swap_answer_format(retry, answer_format(observation), TOOL_INSTRUCTION)
                self._messages += follow_up(self._messages, retry)
        options = {**self.request_options(observation), **(tool_request(observation) if tools else {})}
        completion = await self._answer(session, self.purpose, options)
        # A paper prompt style reads Explain requests itself, as its answers (one attempt each).
        explains = 0 if observation.asking.prompt_style else self.max_explains
        for _ in range(explains):
            topic = None if completion.tool_calls else _explained_topic(completion.text, observation)
            if topic is None:
                break
            self._messages.append({"role": "user", "content": topic})
            completion = await self._answer(session, "explain", tool_request(observation) if tools else {})
        reply = answer_text(completion) if tools else completion.text
        self.last_reply = reply  # kept for the runner's rejection reason
        self.last_reply_cut = bool(getattr(completion, "truncated", False))  # the token limit cut it
        return self.parse(reply, observation)

    async def _answer(self, session: ModelSession, purpose: str, options: dict[str, Any]) -> Any:
        """Asks for the answer to the conversation so far and keeps the exchange (a truncation re-ask too)."""
        completion, added = await session.answer(self._messages, purpose=purpose, **options, **self.settings)
        self._messages += [*added, assistant_turn(completion)]
        return completion

    answers_by_tool = True
    """Whether the scaffold can answer with a ``make_move`` tool call (``--answer-format tools``)."""

    def answers_with_tools(self, observation: Observation, session: ModelSession) -> bool:
        """Tells whether this decision is answered with a tool call: the agent's answer format, outside
        negotiation.

        Raises:
            HarnessError: under a paper protocol's prompt style, whose released prompt prescribes its own
                answer format.
        """
        if getattr(session, "answer_format", "text") != "tools" or observation.negotiation is not None:
            return False
        if not self.answers_by_tool:
            raise HarnessError(f"--answer-format tools: scaffold {type(self).__name__} chooses its answers itself")
        if observation.asking.prompt_style:
            raise HarnessError(f"--answer-format tools: this protocol's released prompt "
                               f"({observation.asking.prompt_style}) prescribes its own answer format; "
                               f"play it with --answer-format text")
        return True

    def retry_message(self, observation: Observation) -> str | None:
        """Returns the user message that explains a rejection and asks again.

        A paper prompt style words it as its released code did; None there
        re-asks with no new message (GameBench after unreadable JSON).
        """
        style = prompt_style(observation)
        if style is not None:
            return style.retry_message(observation)
        return retry_prompt(observation)

    def request_options(self, observation: Observation) -> dict[str, Any]:
        """Returns extra request settings for the decision's call (``response_format``...)."""
        style = prompt_style(observation)
        return dict(style.REQUEST_OPTIONS) if style is not None else {}

    def parse(self, reply: str, observation: Observation) -> Action:
        """Reads the action from the model's reply."""
        return parse_answer(reply, observation)


    def _continues(self, observation: Observation) -> bool:
        """Tells whether ``observation`` continues the conversation of the previous request."""
        conversation = observation.asking.conversation
        return bool(conversation) and conversation == self._conversation and bool(self._messages)

    async def negotiate(self, observation: Observation, session: ModelSession) -> list[Outgoing]:
        """Asks the model for this negotiation round's messages.

        A fresh conversation, unless the observation continues the previous
        one (its ``conversation`` key). A game's strict reader
        (``answer_parser``) reads the messages when it names one.
        """
        if self._continues(observation):
            prompt = observation.asking.prompt or ""
            messages = [*self._messages, *close_calls(self._messages),
                        user_message(prompt, observation, vision=session.vision)]
        else:
            messages = await ConversationScaffold.open(self, observation, session)
        completion = await session.complete(messages, purpose="negotiate", **self.settings)
        if observation.asking.conversation:
            self._messages = [*messages, {"role": "assistant", "content": completion.text}]
            self._conversation = observation.asking.conversation
            self._turn = None
        turn = observation.negotiation
        assert turn is not None
        if observation.asking.answer_parser:
            return list(strict_parser(observation.asking.answer_parser)(completion.text, observation))
        return parse_messages(completion.text, turn.recipients)


def _explained_topic(reply: str, observation: Observation) -> str | None:
    """Returns the rule text an ``Explain(...)`` reply asks for, or None."""
    match = _EXPLAIN.search(reply)
    if match is None or not observation.rules.topics:
        return None
    wanted = match.group(1).strip().strip("\"'<>")
    keys = topic_keys(observation)
    heading = keys.get(wanted.upper()) or next((h for h in keys.values() if h.lower() == wanted.lower()), None)
    if heading is None:
        return f"There is no rule heading {wanted!r}. Headings: {', '.join(keys)}."
    return f"{heading}: {observation.rules.topics[heading]}"
