"""End to end: Codenames and Are You the Traitor? played by a loopback model, recorded, then replayed offline.

The fake model gives a clue that names a board word first (rejected with the
reason, then a valid clue), talks in every conversation turn (one message
over the length cap and one too many, both rejected and logged), asks and
answers questions, and otherwise names a legal action. A second run, with the
server gone, must reproduce every score, action, message and rejection.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from stratbench.games.gamebench.are_you_the_traitor import MAX_CHARS
from stratbench.run.results import read_transcript
from stratbench.testing.fake_llm import FakeLLMServer, first_legal_responder
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
SUITES = ["suites/gamebench/test_codenames.py", "suites/gamebench/test_are_you_the_traitor.py"]
SELECTION = "openai/m+direct-vs-random-s0 or openai/m+direct-vs-random-s1"


def _user_texts(body):
    return [m["content"] if isinstance(m["content"], str) else " ".join(p.get("text", "") for p in m["content"])
            for m in body.get("messages", []) if m.get("role") == "user"]


def responder(body):
    """Answers the two games' prompts deterministically."""
    texts = _user_texts(body)
    first, retry = texts[0], len(texts) > 1
    if 'Reply with JSON: {"messages"' in first:
        if hashlib.sha256(first.encode()).digest()[0] % 3 == 0:
            return json.dumps({"messages": [{"to": "ALL", "text": "z" * (MAX_CHARS + 1)}]})
        return json.dumps({"messages": [{"to": "ALL", "text": "I am loyal to the key."},
                                        {"to": "ALL", "text": "And so are you."}]})
    if "- submit_clue:" in first:
        if not retry:
            board_word = re.search(r"^  ([A-Z]+): ", first, re.M).group(1)
            return f"Action: submit_clue: {board_word.lower()}, 2"
        return "Action: submit_clue: zephyr, 2"
    if "- ask:" in first:
        return "Action: ask: Which wizard do you trust?"
    if "- answer:" in first:
        return "Action: answer: The quiet one."
    return first_legal_responder({"messages": [{"role": "user", "content": first}]})


def _pytest(tmp_path, name, *extra):
    report = tmp_path / f"report-{name}"
    args = [*SUITES, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--report-dir", str(report), "--stratbench-reference=off", *extra]
    result = run_pytest(args, cwd=ROOT, env=dict(os.environ), timeout=300)
    return result, report


def _records(report):
    lines = (report / "results.jsonl").read_text().splitlines()
    return {f"{r['game']}[{r['test_id']}]": r for r in map(json.loads, lines)}


def _events(report, record, kinds):
    events = read_transcript(report / record["transcript"])["events"]
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["kind"] in kinds]


@pytest.mark.slow
def test_a_model_plays_codenames_and_the_traitor_with_conversation_and_replays_identically(tmp_path):
    model = ["--model", "openai/m", "--scaffold", "direct", "--stratbench-cassette-dir", str(tmp_path / "cassettes"),
             "-k", SELECTION]
    with FakeLLMServer(responder=responder) as server:
        recorded, first = _pytest(tmp_path, "record", *model, "--api-base", server.api_base, "--record-mode=once")
    assert recorded.returncode == 0, recorded.stdout[-3000:] + recorded.stderr[-3000:]
    records = _records(first)
    assert set(records) == {
        "codenames[openai/m+direct-vs-random-s0]", "codenames[openai/m+direct-vs-random-s1]",
        "are_you_the_traitor[openai/m+direct-vs-random-s0]", "are_you_the_traitor[openai/m+direct-vs-random-s1]",
    }
    for test_id, record in records.items():
        assert record["result"] in ("won", "lost", "draw") and sum(record["scores"]) == 1.0, test_id
        assert record["cassette"] is not None

    codenames = records["codenames[openai/m+direct-vs-random-s0]"]
    assert [s["players"] for s in codenames["sides"]] == [[0, 1], [2, 3]]
    rejected = [e["error"] for e in _events(first, codenames, {"rejected"}) if e["player"] == 0]
    assert rejected and all(e.endswith("is a word on the board; clues cannot use board words") for e in rejected)
    actions = [e["action"] for e in _events(first, codenames, {"action"}) if e["player"] == 0]
    assert actions and set(actions) == {"submit_clue: ZEPHYR, 2"}

    traitor = records["are_you_the_traitor[openai/m+direct-vs-random-s1]"]
    assert [s["players"] for s in traitor["sides"]] == [[0, 1], [2, 3, 4]] and traitor["subject"] == 1
    messages = _events(first, traitor, {"message"})
    assert messages and {m["sender"] for m in messages} == {2, 3, 4}
    assert {m["text"] for m in messages} == {"I am loyal to the key."} and all(m["recipients"] == [] for m in messages)
    refused = [e["error"] for e in _events(first, traitor, {"message_rejected"})]
    assert refused.count("only 1 messages per round") == len(messages)
    assert set(refused) == {"only 1 messages per round", f"the message is longer than {MAX_CHARS} characters"}
    conversation = traitor["metrics"]["2"]["conversation"]
    assert conversation["cap"]["max_chars"] == MAX_CHARS and conversation["messages"] > 0

    replayed, second = _pytest(tmp_path, "replay", *model, "--record-mode=none")
    assert replayed.returncode == 0, replayed.stdout[-3000:] + replayed.stderr[-3000:]
    again = _records(second)
    assert set(again) == set(records)
    for test_id, record in records.items():
        other = again[test_id]
        for key in ("scores", "result", "terminal", "turns", "illegal", "fallbacks", "metrics"):
            assert other[key] == record[key], (test_id, key)
        assert other["cassette"]["sha256"] == record["cassette"]["sha256"]
        kinds = {"action", "message", "message_rejected", "rejected", "fallback"}
        assert _events(second, other, kinds) == _events(first, record, kinds), test_id
