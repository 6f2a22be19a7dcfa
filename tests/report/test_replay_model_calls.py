"""The match page's model calls: reasoning folded, the token split, a cut-off reply, tool calls, and the
fallback after an answer cut twice, in the replay's steps and in the page's event list."""

from __future__ import annotations

import re

from page_data import inflated, replay_data
from stratbench.report.render import render_transcript
from stratbench.report.replay import replay_steps

REASONING = "Square 4 is the centre <b>and</b> it blocks two lines."
MOVE_CALL = {"id": "call-1", "name": "make_move", "arguments": '{"action": "4"}'}

EVENTS = [
    {"kind": "observation", "t": 0, "turn": 0, "player": 0, "text": "your move", "legal": ["0", "4"]},
    {"kind": "llm_call", "t": 0.1, "player": 0, "purpose": "decide", "model": "openai/o", "messages":
        [{"role": "user", "content": "your move"}], "response": "I will play squ", "prompt_tokens": 1200,
     "cached_tokens": 800, "completion_tokens": 340, "reasoning_tokens": 300, "reasoning": REASONING,
     "finish_reason": "length", "duration_s": 1.5},
    {"kind": "llm_call", "t": 0.2, "player": 0, "purpose": "truncation_retry", "model": "openai/o", "messages":
        [{"role": "user", "content": "your move"}, {"role": "assistant", "content": "I will play squ"},
         {"role": "user", "content": "Your answer was cut off. Answer with the action only."}],
     "response": "", "tool_calls": [MOVE_CALL], "prompt_tokens": 1300, "completion_tokens": 12,
     "finish_reason": "tool_calls", "duration_s": 0.4},
    {"kind": "fallback", "t": 0.3, "turn": 0, "player": 0, "policy": "forfeit", "reason": "truncated"},
    {"kind": "observation", "t": 1, "turn": 1, "player": 0, "text": "again", "legal": ["0"]},
    {"kind": "llm_call", "t": 1.1, "player": 0, "model": "openai/o", "messages": [{"role": "user", "content": "x"}],
     "response": "0", "prompt_tokens": 10, "completion_tokens": 5, "duration_s": 0.1},
    {"kind": "action", "t": 1.2, "turn": 1, "player": 0, "action": "0"},
]
MATCH = {"test_id": "openai/o+direct-vs-minimax-s0", "game": "tictactoe", "agents": ["openai/o+direct", "minimax"],
         "scores": [0, 1], "seed": 0, "subject": 0, "result": "lost"}


def page() -> str:
    """The match page of :data:`EVENTS`."""
    return render_transcript(MATCH, EVENTS)


def test_the_replay_folds_reasoning_and_shows_the_token_split_the_cut_and_the_tool_call():
    first, second = replay_steps(EVENTS)["steps"]
    labels = [item["label"] for item in first["items"]]
    assert labels == [
        "observation", "legal actions", "prompt", "reasoning (300 tokens)", "reply (openai/o) · cut off: length",
        "tokens", "prompt (re-ask: the last reply was cut off)", "reply (openai/o) · tool call · finish reason: "
        "tool_calls", "tokens", "fallback (forfeit) — answer truncated twice",
    ]
    items = {item["label"]: item for item in first["items"]}
    assert items["reasoning (300 tokens)"] == {"label": "reasoning (300 tokens)", "text": REASONING, "fold": True}
    assert items["reply (openai/o) · cut off: length"]["tone"] == "bad"
    assert first["items"][5]["text"] == "prompt 1200 (800 cached) · reasoning 300 · answer 40"
    assert first["items"][7]["text"] == 'make_move({"action": "4"})' and "tone" not in first["items"][7]
    assert first["items"][8]["text"] == "prompt 1300 · completion 12"
    assert first["items"][9]["tone"] == "bad"
    # a call from before these fields: no reasoning, no finish note
    assert [item["label"] for item in second["items"]][2:] == ["prompt", "reply (openai/o)", "tokens", "action"]


def test_the_page_lists_reasoning_closed_with_its_token_count_and_escapes_it():
    html = inflated(page())
    assert replay_data(html)["steps"][0]["items"][3]["fold"] is True
    folded = re.findall(r'<details class="reasoning"><summary>(.*?)</summary><pre>(.*?)</pre></details>', html)
    assert folded == [("reasoning (300 tokens)", "Square 4 is the centre &lt;b&gt;and&lt;/b&gt; it blocks two lines.")]
    assert "response (prompt 1200 (800 cached) · reasoning 300 · answer 40 tokens, 1.5 s) · " \
           '<span class="bad">cut off: length</span>' in html
    assert "· tool call · <span>finish reason: tool_calls</span></div><pre>make_move({&#34;action&#34;: " \
           "&#34;4&#34;})</pre>" in html
    assert '<div class="bad">forfeit — answer truncated twice</div>' in html
    assert '<div class="muted">re-ask: the last reply was cut off</div>' in html
    assert "response (prompt 10 · completion 5 tokens, 0.1 s)</div><pre>0</pre>" in html
