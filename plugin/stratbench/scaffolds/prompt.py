"""Prompt text shared by the scaffolds (GameBench's agent prompt structure)."""

from __future__ import annotations

import base64
import importlib
import json
from types import ModuleType
from typing import Any

from stratbench.core.types import Observation
from stratbench.scaffolds.family_parts import current_registry

SYSTEM_PROMPT = "You are an agent playing a game. Select the action that maximizes your probability of winning."
COT_INSTRUCTION = (
    "First, let's reason out loud about which action you should take to maximize your probability of winning."
)
ANSWER_FORMAT = "Reply with your chosen action on its own line as: Action: <action>"

def prompt_style(observation: Observation) -> ModuleType | None:
    """Returns the module of the observation's prompt style, or None for the project's own prompt.

    A paper's prompt structure (``Observation.asking.prompt_style``) is registered by
    its family (``Registry.add_prompt_style``): a module providing
    ``released_prompt(observation) -> ReleasedPrompt`` (system prompt, body,
    chain-of-thought request, summary request), ``retry_message(observation)
    -> str | None`` (None: re-ask with no message) and ``REQUEST_OPTIONS`` for
    the answer's calls.

    Raises:
        KeyError: naming a style no module is registered for (a harness fault).
    """
    if not observation.asking.prompt_style:
        return None
    registry = current_registry()
    try:
        module_name = registry.prompt_styles[observation.asking.prompt_style]
    except KeyError:
        raise KeyError(
            f"no prompt style {observation.asking.prompt_style!r}; known: {sorted(registry.prompt_styles)}") from None
    # a style's module loads when its game first plays
    return importlib.import_module(module_name)


def answer_format(observation: Observation) -> str:
    """Returns how to answer this decision: the game's own format, else :data:`ANSWER_FORMAT`."""
    return observation.asking.answer_format or ANSWER_FORMAT


def replace_answer_format(message: dict[str, Any], free_format: str, new_format: str) -> None:
    """Puts ``new_format`` in place of the free answer format that ends a user message (else after it)."""
    content = message["content"]
    if isinstance(content, str):
        message["content"] = swap_answer_format(content, free_format, new_format)
    else:
        content[0]["text"] = swap_answer_format(content[0]["text"], free_format, new_format)


def swap_answer_format(text: str, free_format: str, new_format: str) -> str:
    """Returns ``text`` with ``new_format`` in place of the free answer format it ends with (else after it)."""
    if text.endswith(free_format):
        return text[: -len(free_format)] + new_format
    return text + "\n" + new_format


def topic_keys(observation: Observation) -> dict[str, str]:
    """Maps ``H1..Hn`` to the rules' expandable topic headings."""
    return {f"H{i}": heading for i, heading in enumerate(observation.rules.topics, start=1)}


def action_lines(observation: Observation) -> str:
    """Lists the legal actions and how to answer."""
    lines = []
    if observation.asking.instructions:
        lines.append(observation.asking.instructions)
    if observation.legal_actions:
        lines.append("Legal actions: " + ", ".join(observation.legal_actions))
    if observation.open_ended:
        # A game with its own answer format says how to answer below; the generic form would contradict it.
        how = "" if observation.asking.answer_format else " (answer as 'Action: <id>: <your text>')"
        lines.append(f"Open-ended actions{how}:")
        lines.extend(f"- {action_id}: {prompt}" for action_id, prompt in observation.open_ended.items())
    lines.append(answer_format(observation))
    return "\n".join(lines)


OBSERVATION_HEADING = "# Observation\n"


def stable_chars(prompt: str) -> int:
    """The length of a :func:`game_prompt`'s part before the position (the rules, the same at every decision)."""
    index = prompt.find(OBSERVATION_HEADING)
    return max(index, 0)


def game_prompt(observation: Observation) -> str:
    """Builds the user prompt: rules, rule topics, the observation and the actions."""
    rules = observation.rules
    parts = [f"You are playing a game called {rules.title}. The rules are as follows:\n{rules.summary}"]
    keys = topic_keys(observation)
    if keys:
        parts.append(
            "The following are headings with additional information about the rules that you can "
            "expand by taking the action Explain(<heading key>).\n" + json.dumps(keys, indent=1)
        )
    parts.append(f"{OBSERVATION_HEADING}The following describes the current state of the game:\n{observation.text}")
    if observation.messages:
        parts.append("# Messages\n" + message_lines(observation))
    if observation.negotiation is not None:
        parts.append("# Negotiation\n" + negotiation_lines(observation))
    else:
        parts.append("# Actions\n" + action_lines(observation))
    return "\n\n".join(parts)


def _role(observation: Observation, player: int) -> str:
    if player == observation.player:
        return "you"
    if observation.negotiation is not None and player in observation.negotiation.recipients:
        return observation.negotiation.recipients[player]
    return f"player {player}"


def message_lines(observation: Observation) -> str:
    """Lists the messages the player sent or received, oldest first."""
    lines = []
    for message in observation.messages:
        to = "everyone" if not message["recipients"] else ", ".join(_role(observation, p) for p in message["recipients"])
        lines.append(f"[{message['phase']} round {message['round']}] {_role(observation, message['sender'])} -> {to}: {message['text']}")
    return "\n".join(lines)


def negotiation_lines(observation: Observation) -> str:
    """Explains the negotiation round and the answer format."""
    turn = observation.negotiation
    assert turn is not None
    targets = ", ".join(turn.recipients.values())
    kinds = []
    if turn.allow_public:
        kinds.append('"ALL" for a public message')
    if turn.allow_private:
        kinds.append("a list of recipients for a private message")
    return (
        f"This is negotiation round {turn.round} of {turn.rounds} ({turn.phase}). You may send up to "
        f"{turn.max_messages} messages of at most {turn.max_chars} characters each. Recipients: {targets}.\n"
        f"Reply with JSON: {{\"messages\": [{{\"to\": ..., \"text\": \"...\"}}]}} where \"to\" is "
        f"{' or '.join(kinds)}. Reply {{\"messages\": []}} to stay silent."
    )


def user_message(text: str, observation: Observation, *, vision: bool = False) -> dict:
    """Builds a user message, attaching the observation's image for a vision model.

    Text-only models get the observation's text rendering alone.
    """
    if observation.image_png is None or not vision:
        return {"role": "user", "content": text}

    data = base64.b64encode(observation.image_png).decode("ascii")
    return {
        "role": "user",
        "content": [
            {"type": "text", "text": text},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}},
        ],
    }


def retry_prompt(observation: Observation) -> str:
    """Explains why the last answer was rejected and asks again, in the first prompt's answer format.

    A game that prescribes its own retry message (a paper protocol) gets exactly that.
    """
    if observation.asking.retry_prompt:
        return observation.asking.retry_prompt.replace("{feedback}", observation.feedback or "")
    return f"Your answer was rejected: {observation.feedback}\n{answer_format(observation)}"


def summarize_prompt(observation: Observation) -> str:
    """Asks for the final action after free reasoning (CoT's second call).

    A game that prescribes its reader (a paper protocol) is asked in its own
    answer format, which then carries its legal moves as the game numbers them.
    """
    if observation.asking.answer_parser and observation.asking.answer_format:
        return "To summarize, give the one action you choose.\n" + observation.asking.answer_format
    return "To summarize, give the one action you choose.\n" + action_lines(observation)
