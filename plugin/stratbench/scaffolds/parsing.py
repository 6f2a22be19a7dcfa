"""One robust reader for actions in model replies.

It accepts the common shapes, in this order of trust:

1. JSON with an ``action`` (or ``move``) key, bare or in a fenced block; an
   open-ended answer goes in ``response`` (or GameBench's ``openended_response``);
2. a line ``Action: <action>`` (also ``Move:``, ``Answer:``, ``Final answer:``);
3. a fenced code block holding one line;
4. a reply that is just the action, possibly quoted;
5. free text naming exactly one legal action.

When the only thing to do is one open-ended action (a plan, a message), a
reply without an explicit ``Action:`` or JSON form is taken whole as its text.

A reply naming several legal actions with no explicit choice is rejected as
ambiguous, with an explanation the agent sees on its retry. An explicit choice
that is not legal is returned as is: the runner reports it as illegal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from stratbench.core.messages import Outgoing
from stratbench.core.rejection import EMPTY, NO_ACTION, SEVERAL
from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.scaffolds.family_parts import current_registry

Parser = Callable[[str, Observation], Action]
"""A strict answer reader: ``parser(reply, observation) -> Action`` or :class:`ActionParseError`."""


def parse_answer(reply: str, observation: Observation) -> Action:
    """Reads a reply with the observation's reader: its named strict one, else :func:`parse_action`.

    Raises:
        ActionParseError: when the reply cannot be read.
        KeyError: naming an ``answer_parser`` no reader is registered for (a harness fault).
    """
    if observation.asking.answer_parser:
        return strict_parser(observation.asking.answer_parser)(reply, observation)
    return parse_action(reply, observation.legal_actions, observation.open_ended)


def strict_parser(name: str) -> Parser:
    """Returns the strict reader a family registered as ``name`` (``Registry.add_answer_reader``).

    Raises:
        KeyError: naming the unknown reader and the known ones.
    """
    try:
        return current_registry().answer_reader(name)
    except ValueError as error:
        raise KeyError(f"no answer parser {name!r}: {error}") from None


_LABELLED = re.compile(
    r"^[\s>*_#-]*(?:final\s+)?(?:action|move|answer|choice)\s*[*_]*\s*[:=]\s*(.+?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_FENCE = re.compile(r"```[\w-]*\s*\n?(.*?)```", re.DOTALL)
_STRIP = " \t\r\n\"'`*_.[]()<>"
_ACTION_KEYS = ("action", "move", "action_id")
_RESPONSE_KEYS = ("response", "openended_response", "open_ended_response")


def parse_action(
    reply: str,
    legal_actions: tuple[str, ...] | list[str],
    open_ended: dict[str, str] | None = None,
) -> Action:
    """Reads the action a reply chose.

    Args:
        reply: The model's text.
        legal_actions: The predefined legal actions.
        open_ended: Open-ended action ids (their free text follows the id).

    Returns:
        The chosen action, not yet checked for legality.

    Raises:
        ActionParseError: when no action, or more than one, can be read.

    Examples:
        >>> parse_action('```json\\n{"action": "e2e4"}\\n```', ["e2e4", "d2d4"])
        Action('e2e4')
        >>> parse_action("Action: 4", [str(i) for i in range(9)])
        Action('4')
    """
    open_ended = open_ended or {}
    if not reply or not reply.strip():
        raise ActionParseError(_hint("The reply was empty.", legal_actions, open_ended), kind=EMPTY)
    found = _from_json(reply, open_ended)
    if found is not None:
        return found
    if not legal_actions and len(open_ended) == 1:
        (only,) = open_ended
        prefixed = _LABELLED.findall(reply)
        if prefixed and prefixed[-1].strip().startswith(only):
            return _from_text(prefixed[-1], open_ended)
        return Action(only, reply.strip())
    labelled = _LABELLED.findall(reply)
    if labelled:
        return _from_text(labelled[-1], open_ended)
    fences = [f.strip() for f in _FENCE.findall(reply) if f.strip()]
    if fences and "\n" not in fences[-1]:
        return _from_text(fences[-1], open_ended)
    bare = reply.strip().strip(_STRIP)
    if bare in legal_actions:  # exactly a legal action, however long (a tool call's value, a long action name)
        return Action(bare)
    if bare and "\n" not in bare and len(bare) <= 40 and not _looks_like_sentence(bare, legal_actions):
        return _from_text(bare, open_ended)
    mentioned = _mentioned(reply, legal_actions)
    if len(mentioned) == 1:
        return Action(mentioned[0])
    if len(mentioned) > 1:
        shown = ", ".join(mentioned[:8])
        raise ActionParseError(
            _hint(f"The reply names several actions ({shown}) without saying which one you choose.", legal_actions, open_ended),
            kind=SEVERAL,
        )
    raise ActionParseError(_hint("No action could be read from the reply.", legal_actions, open_ended), kind=NO_ACTION)


def _hint(problem: str, legal: tuple[str, ...] | list[str], open_ended: dict[str, str]) -> str:
    shown = ", ".join(legal[:60]) + (", ..." if len(legal) > 60 else "")
    text = f"{problem} Answer with exactly one legal action on its own line as 'Action: <action>'."
    if legal:
        text += f" Legal actions: {shown}"
    if open_ended:
        text += f". Open-ended actions (write 'Action: <id>: <your text>'): {', '.join(open_ended)}"
    return text


def _looks_like_sentence(text: str, legal: tuple[str, ...] | list[str]) -> bool:
    """Tells whether a short line is prose rather than an action ("I pick 4")."""
    words = text.split()
    return len(words) > 3 and text not in legal


def _clean(text: str) -> str:
    return text.strip().strip(_STRIP).strip()


def _from_text(text: str, open_ended: dict[str, str]) -> Action:
    text = text.strip()
    for action_id in open_ended:
        prefix = re.match(rf"^[\"'`*]*{re.escape(action_id)}[\"'`*]*\s*[:\-]\s*(.+)$", text, re.DOTALL)
        if prefix:
            return Action(action_id, prefix.group(1).strip().strip("\"'`"))
    cleaned = _clean(text)
    if not cleaned:
        raise ActionParseError("The action was empty.", kind=EMPTY)
    return Action(cleaned)


def _from_json(reply: str, open_ended: dict[str, str]) -> Action | None:
    for candidate in reversed(_json_objects(reply)):
        keys = {k.lower(): k for k in candidate}
        action_key = next((keys[k] for k in _ACTION_KEYS if k in keys), None)
        if action_key is None:
            continue
        value = candidate[action_key]
        if isinstance(value, (list, dict)):
            value = json.dumps(value)
        action_id = _clean(str(value))
        response_key = next((keys[k] for k in _RESPONSE_KEYS if k in keys), None)
        response = candidate.get(response_key) if response_key else None
        if action_id in open_ended:
            return Action(action_id, str(response).strip() if response not in (None, "") else None)
        if not action_id:
            raise ActionParseError("The JSON answer's action was empty.", kind=EMPTY)
        return Action(action_id)
    return None


def json_objects(text: str, *, strict: bool = True) -> list[object]:
    """Returns every top-level ``{...}`` in ``text`` that parses as JSON, in order.

    Args:
        text: Free text that may contain JSON objects.
        strict: False allows control characters (raw newlines) inside strings.
    """
    found: list[object] = []
    depth, start, in_string, escaped = 0, -1, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"' and depth > 0:
            in_string = True
        elif char == "{":
            if depth == 0:
                start = index
            depth += 1
        elif char == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                try:
                    found.append(json.loads(text[start : index + 1], strict=strict))
                except json.JSONDecodeError:
                    continue
    return found


def _json_objects(text: str) -> list[dict]:
    """Returns the JSON objects (dicts) found in ``text``."""
    return [value for value in json_objects(text) if isinstance(value, dict)]


def _mentioned(reply: str, legal: tuple[str, ...] | list[str]) -> list[str]:
    found = []
    for action in legal:
        pattern = rf"(?<![\w-]){re.escape(action)}(?![\w-])"
        if re.search(pattern, reply, re.IGNORECASE):
            found.append(action)
    return found


def parse_messages(reply: str, recipients: dict[int, str]) -> list[Outgoing]:
    """Reads ``{"messages": [{"to": "ALL" | [roles], "text": ...}]}`` from a reply.

    Recipients are matched to roles case-insensitively; an unknown recipient
    becomes player -1, so the runner rejects and logs that message. A reply
    with no such JSON sends nothing.
    """
    by_role = {role.lower(): player for player, role in recipients.items()}
    for candidate in reversed(_json_objects(reply)):
        items = candidate.get("messages")
        if not isinstance(items, list):
            continue
        outgoing = []
        for item in items:
            if not isinstance(item, dict) or not str(item.get("text", "")).strip():
                continue
            to = item.get("to", "ALL")
            names = [to] if isinstance(to, str) else list(to) if isinstance(to, list) else []
            if any(str(n).strip().upper() in ("ALL", "EVERYONE", "PUBLIC") for n in names) or not names:
                targets: tuple[int, ...] = ()
            else:
                targets = tuple(by_role.get(str(n).strip().lower(), -1) for n in names)
            outgoing.append(Outgoing(str(item["text"]).strip(), targets))
        return outgoing
    return []
