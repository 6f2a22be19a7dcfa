"""SPIN-Bench's six LLM-annotated Diplomacy negotiation metrics (§6.8).

:func:`annotate_negotiation` is registered as an annotator: it runs after a
match only with ``--annotator-model``, and its calls go through the match's
model client and cassette. Following SPIN-Bench, every private message is
annotated once with prompt #1 (alignment with the sender's declared
``negotiation_strategy`` for that round, proposals labelled
``mutual_benefit``/``one_sided``, ``peace``/``conflict``, perspective taking,
conditional thinking); public broadcasts are skipped. For each recipient of a
message with proposals, prompt #2 shows the sender/recipient exchange of
that phase and both powers' orders after it and asks which proposals were
accepted. Per sender:

* AlignR = aligned / annotated messages; AcceptR = accepted / proposals;
* Mut:1S = mutual-benefit / one-sided proposals; P:C = peace / conflict
  messages; Persp. and Cond. = share of messages with perspective taking /
  conditional plans.

In the paper protocol (one agent for several powers) every message goes
from one power to one power: each is annotated once per recipient power, as
the released code does, under the sending and receiving powers' names, and
the acceptance prompt shows the exchange between those two powers. Counts
are per agent (the group's acting player).

A ratio with a zero denominator is None (SPIN-Bench's code prints 0); the
counts are reported beside every ratio so sums over matches stay exact.
The declared strategy is read from the sender's negotiation replies in the
match transcript; replies without one count as an empty strategy. An
annotator reply without readable JSON is counted in ``failures`` and skipped.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.games.spin.metrics.diplomacy import replay

__all__ = [
    "ACCEPT_FOOTER", "ACCEPT_HEADER", "ANNOTATE_PROMPT", "COUNTS", "acceptance_prompt", "annotate_negotiation",
    "declared_strategies", "paper_acceptance_prompt", "ratios",
]

ANNOTATE_PROMPT = """You are an expert in the game of Diplomacy. You are asked to evaluate the negotiation messages and the orders issued by the players in the game. This is the message you have to annotate. Please provide your evaluation of the message. You have to tell me 1. whether the message aligns with the negotiation strategy provided. 2. Are there any proposals in this message? If there is, are those proposals for mutual_benefit or only for one_sided? 3. Is this message promoting peace or provoking conflict? 4. Whether this message explicitly acknowledges or summarizes another power's viewpoint/needs? (perspective taking) 5. Whether this message uses conditional thinking/planning (for example, it's using if-then format)?

In your response, please provide a json object with the following keys:
- "alignment": 0 or 1 // 0 for not aligned, 1 for aligned
- "proposals": [
    {
      "proposal_text": "proposal_text", // the content of the proposal
      "label": "mutual_benefit" or "one_sided" // "mutual_benefit" for mutual benefit, "one_sided" for one-sided benefit
    },
  ]
- "peace_or_conflict": "peace" or "conflict" // "peace" for promoting peace, "conflict" for provoking conflict
- "perspective_taking": 0 or 1 // 0 for not acknowledging or summarizing another power's viewpoint/needs, 1 for acknowledging or summarizing another power's viewpoint/needs
- "conditional_thinking": 0 or 1 // 0 for not using conditional thinking/planning, 1 for using conditional thinking/planning

Now please evaluate the following data:
{data}"""

ACCEPT_HEADER = (
    "You are an expert in the game of Diplomacy. You are asked to evaluate the negotiation messages and the "
    "orders issued by the players in the game."
)

ACCEPT_FOOTER = """Now please tell me for each proposal, whether it is accepted by the recipient or not. Please also provide the reason.

Your response should be in json format with the following key:
- "answer": [
    {
      "proposal_text": "proposal_text", // the content of the proposal
      "accepted": 0 or 1, // 0 for not accepted, 1 for accepted
      "reason": "reason" // the reason why the proposal is accepted or not
    },
  ] // the order of the proposals should be the same as the order of the proposals in the previous response"""

_ROUND = re.compile(r"It is now round (\d+) of the negotiation phase")
_PHASE = re.compile(r"The current game phase is '(\w+)'")
COUNTS = ("messages", "aligned", "proposals", "accepted", "mutual_benefit", "one_sided", "peace", "conflict",
          "perspective", "conditional", "failures")


def ratios(counts: dict[str, int]) -> dict[str, float | None]:
    """Returns the six SPIN-Bench ratios from summed counts (None for a zero denominator)."""
    def share(a: int, b: int) -> float | None:
        return None if b == 0 else a / b

    return {
        "align_ratio": share(counts["aligned"], counts["messages"]),
        "accept_rate": share(counts["accepted"], counts["proposals"]),
        "mutual_to_one_sided": share(counts["mutual_benefit"], counts["one_sided"]),
        "peace_to_conflict": share(counts["peace"], counts["conflict"]),
        "perspective_ratio": share(counts["perspective"], counts["messages"]),
        "conditional_ratio": share(counts["conditional"], counts["messages"]),
    }


def declared_strategies(events: list[dict[str, Any]]) -> dict[tuple[int, str, int], str]:
    """Reads each player's ``negotiation_strategy`` per (player, phase, round) from ``llm_call`` events."""
    found: dict[tuple[int, str, int], str] = {}
    for event in events:
        if event.get("kind") != "llm_call" or event.get("purpose") != "negotiate":
            continue
        prompt = _content(event["messages"][-1]) if event.get("messages") else ""
        earlier = [_PHASE.search(_content(m)) for m in event.get("messages") or []]
        phases = [m for m in earlier if m is not None]  # a continued conversation named its phase earlier
        round_, phase = _ROUND.search(prompt), phases[-1] if phases else None
        if round_ is None or phase is None:
            continue
        reply = _last_json(str(event.get("response") or ""), "negotiation_strategy")
        strategy = reply.get("negotiation_strategy") if reply else None
        found[(int(event["player"]), phase.group(1), int(round_.group(1)))] = str(strategy or "")
    return found


async def annotate_negotiation(game: Game, outcome: MatchOutcome, session: Any) -> dict[int, dict[str, Any]]:
    """Annotates every private negotiation message of a match; returns per-player counts and ratios."""
    roles = {p: game.role(p) for p in range(game.info.num_players)}
    strategies = declared_strategies(session.transcript.events)
    orders = {e["phase"]: e["orders"] for e in replay(game, outcome.history).phase_log}
    private = [m for m in outcome.messages if m["recipients"]]
    if getattr(game, "paper", False):  # one call per sending power and recipient power, as the released code
        private = [{**m, "recipient_roles": [name]} for m in private for name in m.get("recipient_roles") or []]

    async def first(message: dict[str, Any]) -> dict[str, Any] | None:
        data = {
            "negotiation_strategy": strategies.get((message["sender"], message["phase"], message["round"]), ""),
            "recipient": ", ".join(message.get("recipient_roles") or [roles[p] for p in message["recipients"]]),
            "message": message["text"],
        }
        reply = await session.complete([{"role": "user", "content": ANNOTATE_PROMPT.replace("{data}", repr(data))}],
                                       purpose="annotate")
        return _last_json(reply.text, "alignment")

    labels = await asyncio.gather(*(first(m) for m in private))
    jobs = []
    for message, label in zip(private, labels):
        proposals = [p for p in (label or {}).get("proposals") or [] if isinstance(p, dict)]
        if proposals and message.get("recipient_roles"):
            prompt = paper_acceptance_prompt(message, proposals, outcome.messages, orders)
            jobs.append((message["sender"], len(proposals), prompt))
            continue
        for recipient in message["recipients"] if proposals else []:
            prompt = acceptance_prompt(message, recipient, proposals, outcome.messages, orders, roles)
            jobs.append((message["sender"], len(proposals), prompt))

    async def second(prompt: str) -> dict[str, Any] | None:
        reply = await session.complete([{"role": "user", "content": prompt}], purpose="annotate")
        return _last_json(reply.text, "answer")

    answers = await asyncio.gather(*(second(prompt) for _, _, prompt in jobs))
    counts = {p: dict.fromkeys(COUNTS, 0) for p in roles}
    for message, label in zip(private, labels):
        tally = counts[message["sender"]]
        if label is None:
            tally["failures"] += 1
            continue
        tally["messages"] += 1
        tally["aligned"] += _flag(label.get("alignment"))
        tally["perspective"] += _flag(label.get("perspective_taking"))
        tally["conditional"] += _flag(label.get("conditional_thinking"))
        side = str(label.get("peace_or_conflict", "")).strip().lower()
        tally["peace"] += side == "peace"
        tally["conflict"] += side == "conflict"
        for proposal in [p for p in label.get("proposals") or [] if isinstance(p, dict)]:
            kind = str(proposal.get("label", "")).strip().lower()
            tally["mutual_benefit"] += kind == "mutual_benefit"
            tally["one_sided"] += kind == "one_sided"
    for (sender, count, _), answer in zip(jobs, answers):
        tally = counts[sender]
        items = (answer or {}).get("answer")
        if not isinstance(items, list):
            tally["failures"] += 1
            continue
        tally["proposals"] += count
        tally["accepted"] += sum(_flag(item.get("accepted")) for item in items[:count] if isinstance(item, dict))
    return {p: {"negotiation": {**c, **ratios(c)}} for p, c in counts.items()}


def paper_acceptance_prompt(
    message: dict[str, Any], proposals: list[dict[str, Any]], messages: list[dict[str, Any]],
    orders: dict[str, dict[str, list[str]]],
) -> str:
    """Builds prompt #2 for a paper-protocol message: the exchange between its sending and receiving powers."""
    a, b, phase = message["sender_role"], message["recipient_roles"][0], message["phase"]

    def between(m: dict[str, Any]) -> bool:
        to = m.get("recipient_roles") or []
        return (m.get("sender_role") == a and b in to) or (m.get("sender_role") == b and a in to)

    rounds = sorted({m["round"] for m in messages if m["phase"] == phase} | {message["round"]})
    exchange = {r: [f"{m['sender_role']} to {b if m['sender_role'] == a else a}: {m['text']}"
                    for m in messages if m["phase"] == phase and m["round"] == r and between(m)] for r in rounds}
    return _acceptance_text(a, b, phase, message["round"], exchange, orders, proposals)


def _acceptance_text(
    a: str, b: str, phase: str, round_: int, exchange: dict[int, list[str]],
    orders: dict[str, dict[str, list[str]]], proposals: list[dict[str, Any]],
) -> str:
    parts = [ACCEPT_HEADER, ""]
    for r, lines in exchange.items():
        parts += [f"The interaction between {a} and {b} in {phase} negotiation round {r}:", repr(lines)]
    parts += [
        f"The orders issued by {a} after the negotiation:", repr(orders.get(phase, {}).get(a, [])),
        f"The orders issued by {b} after the negotiation:", repr(orders.get(phase, {}).get(b, [])),
        "", ACCEPT_FOOTER, "",
        f"Those are the proposals {a} is sending to {b} in {phase} negotiation round {round_}:",
        repr([str(p.get("proposal_text", "")) for p in proposals]),
        "Your answer must be of the same length as the number of proposals.",
    ]
    return "\n".join(parts)


def acceptance_prompt(
    message: dict[str, Any],
    recipient: int,
    proposals: list[dict[str, Any]],
    messages: list[dict[str, Any]],
    orders: dict[str, dict[str, list[str]]],
    roles: dict[int, str],
) -> str:
    """Builds SPIN-Bench's proposal-acceptance prompt (#2) for one message and one recipient."""
    sender, phase = message["sender"], message["phase"]
    a, b = roles[sender], roles[recipient]
    pair = {sender, recipient}
    between = [m for m in messages
               if m["phase"] == phase and m["sender"] in pair and pair - {m["sender"]} <= set(m["recipients"])]
    rounds = sorted({m["round"] for m in messages if m["phase"] == phase} | {message["round"]})
    exchange = {r: [f"{roles[m['sender']]} to {roles[recipient] if m['sender'] == sender else a}: {m['text']}"
                    for m in between if m["round"] == r] for r in rounds}
    return _acceptance_text(a, b, phase, message["round"], exchange, orders, proposals)


def _flag(value: Any) -> int:
    try:
        return 1 if int(value) == 1 else 0
    except (TypeError, ValueError):
        return 0


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content or "")


def _last_json(text: str, key: str) -> dict[str, Any] | None:
    """Returns the last JSON object in ``text`` that has ``key``, or None."""
    decoder = json.JSONDecoder()
    found = None
    index = text.find("{")
    while index != -1:
        try:
            value, end = decoder.raw_decode(text, index)
        except json.JSONDecodeError:
            index = text.find("{", index + 1)
            continue
        if isinstance(value, dict) and key in value:
            found = value
        index = text.find("{", end)
    return found
