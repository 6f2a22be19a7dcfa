"""The replay viewer's data: a match's transcript events grouped into steps, with the board after each.

A *step* is one model (or engine) decision: it opens at an ``observation``
event and gathers what followed it (the prompt and the reply of every
``llm_call``, rejections and retries, the action or fallback, messages and
chance outcomes). ``board`` events (``Game.snapshot``) are drawn by the
game's board renderer (``Registry.add_board_renderer``) or shown as text; a
step shows the latest board known when it ends. Games without snapshots show
the observation text as their board. Revision matches (AdvGameBench) open a
step per strategy and per round. A model call shows its prompt, its visible
reasoning folded (``fold``), its reply (tool calls as ``name(arguments)``
when it had no text; a reply cut by the token limit says so), and its
tokens: prompt (cached), reasoning and answer. Everything is built from the transcript's
events alone, so ``stratbench report DIR`` rebuilds the replay of any run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from stratbench.llm.reply import TRUNCATED_FINISH_REASONS

__all__ = ["CUT_OFF", "finish_note", "pack_replay", "replay_steps", "reply_text", "token_split", "unpack_replay"]

Renderer = Callable[[dict[str, Any]], "str | None"]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1, default=str)


def _draw(snapshot: Any, renderer: Renderer | None) -> dict[str, str]:
    """Draws one snapshot: the renderer's SVG, else the snapshot's text, else its JSON."""
    if renderer is not None and isinstance(snapshot, dict):
        try:
            svg = renderer(snapshot)
        except Exception as error:  # noqa: BLE001 - a picture is optional; say why it is missing
            return {"text": _board_text(snapshot), "note": f"board renderer failed: {type(error).__name__}: {error}"}
        if svg:
            return {"svg": svg}
    return {"text": _board_text(snapshot)}


def _board_text(snapshot: Any) -> str:
    if isinstance(snapshot, dict) and isinstance(snapshot.get("text"), str):
        return snapshot["text"]
    return _text(snapshot)


def _new_prompt(messages: list[dict[str, Any]]) -> str:
    """The messages sent since the model's last reply (the whole request on a first call)."""
    last_reply = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
    fresh = messages[last_reply + 1:] or messages[-1:]
    return "\n\n".join(f"[{m.get('role', '?')}]\n{_text(m.get('content'))}" for m in fresh)


CUT_OFF = TRUNCATED_FINISH_REASONS
"""Finish reasons of a reply cut by the output-token limit (litellm's, and providers' it did not normalise)."""


def token_split(event: dict[str, Any]) -> str:
    """An ``llm_call``'s tokens: prompt (cached, written to the cache), then reasoning and answer when the
    provider reported reasoning, else completion.

    Examples:
        >>> token_split({"prompt_tokens": 1200, "cached_tokens": 800, "completion_tokens": 340,
        ...              "reasoning_tokens": 300})
        'prompt 1200 (800 cached) · reasoning 300 · answer 40'
        >>> token_split({"prompt_tokens": 10, "completion_tokens": 5})
        'prompt 10 · completion 5'
    """
    prompt = f"prompt {event.get('prompt_tokens', '?')}"
    cache = [f"{event['cached_tokens']} cached" if event.get("cached_tokens") is not None else "",
             f"{event['cache_write_tokens']} written to the cache" if event.get("cache_write_tokens") else ""]
    if any(cache):
        prompt += f" ({', '.join(c for c in cache if c)})"
    completion, reasoning = event.get("completion_tokens"), event.get("reasoning_tokens")
    if reasoning is None or not isinstance(completion, int):
        return f"{prompt} · completion {completion if completion is not None else '?'}"
    return f"{prompt} · reasoning {reasoning} · answer {completion - reasoning}"


def reply_text(event: dict[str, Any]) -> str:
    """An ``llm_call``'s reply: its text, or its tool calls as ``name(arguments)`` when it had none."""
    text = _text(event.get("response", ""))
    calls = event.get("tool_calls") or []
    if text or not calls:
        return text
    return "\n".join(f"{call.get('name', '?')}({call.get('arguments', '')})" for call in calls)


def finish_note(event: dict[str, Any]) -> str | None:
    """Says how a reply ended when not by itself: ``cut off: length``, ``finish reason: tool_calls``."""
    finish = event.get("finish_reason")
    if not finish or finish == "stop":
        return None
    return f"cut off: {finish}" if finish in CUT_OFF else f"finish reason: {finish}"


def _llm_call(event: dict[str, Any]) -> list[dict[str, Any]]:
    prompt = "prompt (re-ask: the last reply was cut off)" if event.get("purpose") == "truncation_retry" else "prompt"
    items: list[dict[str, Any]] = [{"label": prompt, "text": _new_prompt(event.get("messages") or [])}]
    if event.get("reasoning"):
        n = event.get("reasoning_tokens")
        items.append({"label": "reasoning" if n is None else f"reasoning ({n} tokens)",
                      "text": _text(event["reasoning"]), "fold": True})
    reply: dict[str, Any] = {"label": f"reply ({event.get('model', 'model')})", "text": reply_text(event)}
    if not event.get("response") and event.get("tool_calls"):
        reply["label"] += " · tool call"
    note = finish_note(event)
    if note:
        reply["label"] += f" · {note}"
        if event.get("finish_reason") in CUT_OFF:
            reply["tone"] = "bad"
    items.append(reply)
    if event.get("prompt_tokens") is not None:
        items.append({"label": "tokens", "text": token_split(event)})
    return items


def _fallback_label(event: dict[str, Any]) -> str:
    label = f"fallback ({event.get('policy')})"
    return f"{label} — answer truncated twice" if event.get("reason") == "truncated" else label


def _item(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The labelled texts a step shows for one event."""
    kind = event.get("kind")
    if kind == "observation":
        legal = event.get("legal") or []
        items = [{"label": "observation", "text": _text(event.get("text", ""))}]
        if legal:
            items.append({"label": "legal actions", "text": ", ".join(map(str, legal))})
        return items
    if kind == "llm_call":
        return _llm_call(event)
    if kind == "action":
        return [{"label": "action", "text": _text(event.get("action", "")), "tone": "good"}]
    if kind in ("rejected", "message_rejected"):
        return [{"label": f"{kind} (attempt {event.get('attempt', '?')})", "text": _text(event.get("error", "")),
                 "tone": "bad"}]
    if kind == "fallback":
        return [{"label": _fallback_label(event), "text": _text(event.get("action", "")), "tone": "bad"}]
    if kind == "llm_attempt_failed":
        return [{"label": "request failed", "text": f"{event.get('failure')}: {event.get('error', '')}", "tone": "bad"}]
    if kind == "message":
        recipients = event.get("recipients") or ["all"]
        return [{"label": "message",
                 "text": f"{event.get('sender')} → {', '.join(map(str, recipients))}: {event.get('text', '')}"}]
    if kind == "chance":
        return [{"label": "chance", "text": _text(event.get("outcome"))}]
    fields = {k: v for k, v in event.items() if k not in ("kind", "t")}
    return [{"label": str(kind), "text": _text(fields)}]


def _title(event: dict[str, Any], seats: Mapping[str, str] | None = None) -> str:
    kind = event.get("kind")
    if kind == "observation":
        player = event.get("player")
        who = (seats or {}).get(str(player)) or (f"player {player}" if player is not None else None)
        parts = [f"turn {event['turn']}" if event.get("turn") is not None else None, who]
        return " · ".join(p for p in parts if p) or "decision"
    if kind == "revision_round":
        return f"round {event.get('round', '?')}"
    return kind.replace("_", " ") if isinstance(kind, str) else "step"


_STEP_OPENERS = ("observation", "initial_strategy", "revision_round")


def replay_steps(events: list[dict[str, Any]], renderer: Renderer | None = None,
                 seats: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Groups a transcript's events into replay steps.

    Args:
        events: The transcript's events, in order.
        renderer: The game's board renderer, if it has one.
        seats: Player (as text) → ``agent (role)``, naming whose decision a step is (None: ``player N``).

    Returns:
        ``{"boards": [...], "steps": [...]}``: each board is ``{"svg"}`` or
        ``{"text"}``, each distinct one stored once; each step is ``{"title", "items", "board"}``
        where ``board`` indexes ``boards`` (the position after the step) or is
        None, and ``items`` are ``{"label", "text", "tone"?, "fold"?}`` (``fold``: shown closed, the label
        as its summary).
    """
    boards: list[dict[str, str]] = []
    board_index: dict[tuple[tuple[str, str], ...], int] = {}  # a drawn board's index, so each is stored once
    drawn_for: dict[str, int] = {}  # a snapshot's board, so a repeated position is drawn once
    steps: list[dict[str, Any]] = []
    current: dict[str, Any] = {"title": "start", "items": [], "board": None}
    latest: int | None = None

    def board_of(snapshot: Any) -> int:
        key = json.dumps(snapshot, sort_keys=True, default=str)
        if key not in drawn_for:
            drawn = _draw(snapshot, renderer)
            drawn_for[key] = board_index.setdefault(tuple(sorted(drawn.items())), len(boards))
            if drawn_for[key] == len(boards):
                boards.append(drawn)
        return drawn_for[key]

    def close() -> None:
        if current["items"] or current["board"] is not None:
            if current["board"] is None:
                current["board"] = latest
            steps.append(current)

    for event in events:
        kind = event.get("kind")
        if kind == "board":
            latest = board_of(event.get("board"))
            current["board"] = latest
            continue
        if kind in _STEP_OPENERS or kind == "end":
            close()
            current = {"title": "end" if kind == "end" else _title(event, seats), "items": [], "board": None}
            if kind == "observation" and latest is None:
                current["text_board"] = True  # no snapshots: the observation is the board
        if kind == "end":
            scores = " / ".join(str(s) for s in event.get("scores") or [])
            current["items"].append({"label": "result", "text": f"scores {scores}; {event.get('terminal', '')}"})
            continue
        current["items"].extend(_item(event))
    close()
    return {"boards": boards, "steps": steps}


_PIECE = re.compile(r"<[^<>]*>\n?|[^<\n]+\n?|\n|<")


def _pieces(text: str) -> list[str]:
    """Cuts a board into markup tags and text lines: the parts boards of one match share."""
    return [piece for piece in _PIECE.findall(text) if piece]


def pack_replay(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay as a page embeds it: every distinct tag or line of the boards stored once.

    Consecutive boards of a match differ in a few pieces (a moved unit, a new
    stone) while the map around them stays, so each board becomes a list of
    indexes into ``pieces``: ``{"pieces": [...], "boards": [{"svg"|"text": [i, ...], "note"?}], "steps"}``.
    :func:`unpack_replay` (and the page's script) joins them back.
    """
    index: dict[str, int] = {}
    boards = []
    for board in replay["boards"]:
        packed: dict[str, Any] = {k: v for k, v in board.items() if k not in ("svg", "text")}
        for kind in ("svg", "text"):
            if kind in board:
                packed[kind] = [index.setdefault(piece, len(index)) for piece in _pieces(board[kind])]
        boards.append(packed)
    pieces = sorted(index, key=index.__getitem__)
    return {"pieces": pieces, "boards": boards, "steps": replay["steps"]}


def unpack_replay(packed: dict[str, Any]) -> dict[str, Any]:
    """The replay :func:`pack_replay` packed, its boards whole again."""
    pieces = packed["pieces"]
    boards = [{k: ("".join(pieces[i] for i in v) if k in ("svg", "text") else v) for k, v in board.items()}
              for board in packed["boards"]]
    return {"boards": boards, "steps": packed["steps"]}


def renderer_for(game: str, renderers: Mapping[str, Renderer] | None) -> Renderer | None:
    """The board renderer registered for ``game``, if any."""
    return (renderers or {}).get(game)
