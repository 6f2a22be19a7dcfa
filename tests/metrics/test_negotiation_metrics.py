"""The six LLM-annotated negotiation metrics, with a scripted annotator."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

import pytest

from stratbench.core.runner import MatchOutcome
from stratbench.core.transcript import Transcript
from stratbench.games.spin.metrics.negotiation import COUNTS, acceptance_prompt, declared_strategies, ratios


def test_ratios_use_none_for_zero_denominators():
    counts = dict.fromkeys(COUNTS, 0)
    assert set(ratios(counts).values()) == {None}
    counts.update(messages=4, aligned=3, proposals=2, accepted=1, mutual_benefit=3, one_sided=0, peace=2,
                  conflict=1, perspective=1, conditional=2)
    assert ratios(counts) == {"align_ratio": 0.75, "accept_rate": 0.5, "mutual_to_one_sided": None,
                              "peace_to_conflict": 2.0, "perspective_ratio": 0.25, "conditional_ratio": 0.5}


def _negotiate_event(player, phase, round_, strategy):
    prompt = f"It is now round {round_} of the negotiation phase.\nPhase Name: The current game phase is '{phase}'."
    return {"kind": "llm_call", "purpose": "negotiate", "player": player,
            "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": prompt}],
            "response": "thinking...\n" + json.dumps({"negotiation_strategy": strategy, "messages": []})}


def test_declared_strategies_come_from_negotiation_replies():
    events = [_negotiate_event(2, "S1901M", 1, "ally with England"), _negotiate_event(2, "S1901M", 2, "stay calm"),
              {"kind": "llm_call", "purpose": "act", "player": 2, "messages": [], "response": "{}"}]
    assert declared_strategies(events) == {(2, "S1901M", 1): "ally with England", (2, "S1901M", 2): "stay calm"}


MESSAGES = [
    {"sender": 2, "recipients": [1], "text": "If you take NTH, I support you. Let us DMZ the channel.",
     "phase": "S1901M", "round": 1},
    {"sender": 1, "recipients": [2], "text": "Agreed, no fleet in ENG.", "phase": "S1901M", "round": 1},
    {"sender": 2, "recipients": [], "text": "Peace to all.", "phase": "S1901M", "round": 2},
    {"sender": 3, "recipients": [2], "text": "You will regret this.", "phase": "S1901M", "round": 2},
]


def test_acceptance_prompt_shows_the_exchange_and_the_orders():
    roles = {1: "ENGLAND", 2: "FRANCE", 3: "GERMANY"}
    orders = {"S1901M": {"FRANCE": ["A PAR H"], "ENGLAND": ["F LON - NTH"]}}
    prompt = acceptance_prompt(MESSAGES[0], 1, [{"proposal_text": "DMZ the channel"}], MESSAGES, orders, roles)
    assert "The interaction between FRANCE and ENGLAND in S1901M negotiation round 1:" in prompt
    assert "['FRANCE to ENGLAND: If you take NTH, I support you. Let us DMZ the channel.', " \
           "'ENGLAND to FRANCE: Agreed, no fleet in ENG.']" in prompt
    assert "The interaction between FRANCE and ENGLAND in S1901M negotiation round 2:\n[]" in prompt
    assert "The orders issued by ENGLAND after the negotiation:\n['F LON - NTH']" in prompt
    assert prompt.endswith("['DMZ the channel']\nYour answer must be of the same length as the number of proposals.")


@dataclass
class _Reply:
    text: str


@dataclass
class _Judge:
    """A scripted annotator session: answers by message text, records prompts."""

    transcript: Transcript
    prompts: list[str] = field(default_factory=list)

    async def complete(self, messages, purpose="act", **_):
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        if "Those are the proposals" in prompt:
            return _Reply(json.dumps({"answer": [{"proposal_text": "a", "accepted": 1, "reason": "r"},
                                                 {"proposal_text": "b", "accepted": 0, "reason": "r"}]}))
        if "You will regret this." in prompt:
            return _Reply("not json at all")
        if "Agreed, no fleet" in prompt:
            return _Reply(json.dumps({"alignment": 0, "proposals": [], "peace_or_conflict": "peace",
                                      "perspective_taking": 1, "conditional_thinking": 0}))
        return _Reply("```json\n" + json.dumps({
            "alignment": 1, "proposals": [{"proposal_text": "a", "label": "mutual_benefit"},
                                          {"proposal_text": "b", "label": "one_sided"}],
            "peace_or_conflict": "peace", "perspective_taking": 0, "conditional_thinking": 1}) + "\n```")


def test_annotate_negotiation_counts_per_sender():
    pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")
    from stratbench.games.spin.diplomacy import Diplomacy
    from stratbench.games.spin.metrics.negotiation import annotate_negotiation

    transcript = Transcript()
    transcript.events.append(_negotiate_event(2, "S1901M", 1, "befriend England"))
    judge = _Judge(transcript)
    outcome = MatchOutcome([], "", 0, {}, {}, {}, None, [], 0.0, messages=MESSAGES)
    result = asyncio.run(annotate_negotiation(Diplomacy("to1901"), outcome, judge))
    france, england, germany = (result[p]["negotiation"] for p in (2, 1, 3))
    assert len(judge.prompts) == 4  # three private messages, one acceptance check; the broadcast is skipped
    assert "'negotiation_strategy': 'befriend England', 'recipient': 'ENGLAND'" in judge.prompts[0]
    assert (france["messages"], france["aligned"], france["proposals"], france["accepted"]) == (1, 1, 2, 1)
    assert (france["mutual_benefit"], france["one_sided"], france["conditional"]) == (1, 1, 1)
    assert france["accept_rate"] == 0.5 and france["mutual_to_one_sided"] == 1.0 and france["peace_to_conflict"] is None
    assert (england["messages"], england["aligned"], england["perspective"], england["proposals"]) == (1, 0, 1, 0)
    assert england["accept_rate"] is None and england["perspective_ratio"] == 1.0
    assert germany["failures"] == 1 and germany["messages"] == 0
    assert result[0]["negotiation"]["messages"] == 0
