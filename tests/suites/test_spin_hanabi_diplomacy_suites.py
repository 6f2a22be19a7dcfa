"""End to end: the Hanabi and Diplomacy suites offline, with a model, and without their engines.

A loopback fake model answers SPIN-Bench's Hanabi prompt (sometimes with an
illegal action first, to exercise retries), the Diplomacy negotiation, order,
retreat and winter prompts, and both annotator prompts. One run records the
cassettes; a second, with the server gone, replays them and must reproduce
every score, metric, order and message.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'")
pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")

from stratbench.run.results import read_transcript
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
SUITES = ["suites/spin/test_hanabi.py", "suites/spin/test_diplomacy.py"]
SELECTION = "(direct and (2p-s0 or 2-agents)) or (hanabi-rules and 3p-s0) or (hold and basic-skill)"


def _user_texts(body):
    texts = []
    for message in body.get("messages", []):
        if message.get("role") == "user":
            content = message.get("content")
            texts.append(content if isinstance(content, str) else " ".join(p.get("text", "") for p in content))
    return texts


def _pick(options, seed_text):
    return options[hashlib.sha256(seed_text.encode()).digest()[0] % len(options)]


def responder(body):
    """Answers the Hanabi, Diplomacy and annotator prompts deterministically."""
    texts = _user_texts(body)
    first, last = texts[0], texts[-1]
    if first.startswith("You are an expert in the game of Diplomacy. You are asked to evaluate"):
        if "Those are the proposals" in first:
            count = len(ast.literal_eval(first.rsplit("negotiation round", 1)[1].split("\n")[1]))
            accepted = hashlib.sha256(first.encode()).digest()[0] % 2
            return json.dumps({"answer": [{"proposal_text": "p", "accepted": accepted, "reason": "r"}] * count})
        proposes = hashlib.sha256(first.encode()).digest()[0] % 2 == 0
        proposals = [{"proposal_text": "hold the line", "label": "mutual_benefit"}] if proposes else []
        return json.dumps({"alignment": 1, "proposals": proposals, "peace_or_conflict": "peace",
                           "perspective_taking": 0, "conditional_thinking": 1})
    if "The legal actions are provided in a mapping" in first:
        legal = ast.literal_eval(first.split("to their descriptions:\n", 1)[1].split("\n", 1)[0])
        if len(texts) == 1 and hashlib.sha256(first.encode()).digest()[1] % 4 == 0:
            return '{"reason": "a guess", "action": "99"}'
        return json.dumps({"reason": "pick", "action": str(_pick(sorted(legal), last))})
    power = re.search(r"playing (?:as )?\['(\w+)'\]", first).group(1)
    if first.startswith("It is now round"):
        others = re.search(r"The other powers are: ([A-Z, ]+)\.", first).group(1).split(", ")
        friend = _pick(others, first)
        return "My analysis.\n" + json.dumps({
            "phase": "negotiation_phase1", "trust_analysis": [], "negotiation_strategy": f"befriend {friend}",
            "messages": [{"to": [friend], "text": f"{power} proposes peace with {friend}"},
                         {"to": "ALL", "text": f"{power} wants peace"}]})
    if "<possible_orders>" in first:
        raw = first.rsplit("<possible_orders>", 1)[1].split("</possible_orders>")[0].strip()
        possible = {loc: o for item in ast.literal_eval(raw)[power] for loc, o in item.items()}
    else:
        raw = first.split("The possible orders you can issue are as follows:\n", 1)[1].split("\n", 1)[0]
        possible = ast.literal_eval(raw)[power]
    orders = [_pick(sorted(options), first + loc) for loc, options in sorted(possible.items())]
    return "Reasoning.\n```json\n" + json.dumps({"reason": "r", "orders": {power: orders}}, indent=2) + "\n```"


def _pytest(tmp_path, name, *extra, env=None):
    report = tmp_path / f"report-{name}"
    args = [*SUITES, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--report-dir", str(report), "--stratbench-reference=off", *extra]
    environment = {**os.environ, "STRATBENCH_DIPLOMACY_END_YEAR": "1901", **(env or {})}
    result = run_pytest(args, cwd=ROOT, env=environment, timeout=300)
    return result, report


def _records(report):
    lines = (report / "results.jsonl").read_text().splitlines()
    return {r["test_id"]: r for r in map(json.loads, lines)}


def _events(report, record, kinds):
    events = read_transcript(report / record["transcript"])["events"]
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["kind"] in kinds]


@pytest.mark.slow
def test_suites_record_and_replay_a_model_identically(tmp_path):
    cassettes = tmp_path / "cassettes"
    model = ["--model", "openai/m", "--annotator-model", "openai/m", "--stratbench-cassette-dir", str(cassettes),
             "-k", SELECTION]
    with FakeLLMServer(responder=responder) as server:
        recorded, first = _pytest(tmp_path, "record", *model, "--api-base", server.api_base, "--record-mode=once")
    assert recorded.returncode == 0, recorded.stdout[-3000:] + recorded.stderr[-3000:]
    records = _records(first)
    assert set(records) == {"openai/m+direct-2p-s0", "openai/m+direct-2-agents-to1901-s0", "hanabi-rules-3p-s0",
                            "hold-basic-skill-to1901-s0"}

    hanabi = records["openai/m+direct-2p-s0"]
    assert hanabi["result"] == "scored" and 0 <= hanabi["scores"][0] <= 25
    assert hanabi["illegal"][0] > 0 and hanabi["rules"] == {"illegal_tolerance": 5, "fallback": "random", "on_truncation": "retry"}
    assert {"hints", "plays", "misplays", "discards", "score", "hle_score"} <= set(hanabi["metrics"]["0"])
    assert records["hanabi-rules-3p-s0"]["scores"][0] >= 5 and records["hanabi-rules-3p-s0"]["cassette"] is None

    game = records["openai/m+direct-2-agents-to1901-s0"]
    assert game["terminal"] == "year limit: the game ended after 1901" and game["subject"] == 4
    assert [s["agent"] for s in game["sides"]] == ["random-orders"] * 4 + ["openai/m+direct"] * 3
    italy = game["metrics"]["4"]
    assert italy["negotiation"]["messages"] > 0 and italy["negotiation"]["align_ratio"] == 1.0
    negotiation = [game["metrics"][str(p)]["negotiation"] for p in (4, 5, 6)]
    assert 0 < sum(n["accepted"] for n in negotiation) < sum(n["proposals"] for n in negotiation)
    assert italy["orders"]["move"]["total"] + italy["hold_orders"] > 0
    assert game["annotator"]["model"] == "openai/m" and game["annotator"]["usage"]["calls"] > 0
    messages = _events(first, game, {"message"})
    assert {m["phase"] for m in messages} == {"S1901M", "F1901M"} and {m["round"] for m in messages} == {1, 2, 3}
    purposes = {e["purpose"] for e in _events(first, game, {"llm_call"})}
    assert purposes == {"negotiate", "act", "annotate"}
    assert "negotiation" not in records["hold-basic-skill-to1901-s0"]["metrics"]["2"]

    replayed, second = _pytest(tmp_path, "replay", *model, "--record-mode=none")
    assert replayed.returncode == 0, replayed.stdout[-3000:] + replayed.stderr[-3000:]
    again = _records(second)
    assert set(again) == set(records)
    for test_id, record in records.items():
        other = again[test_id]
        for key in ("scores", "result", "terminal", "turns", "illegal", "fallbacks", "metrics"):
            assert other[key] == record[key], (test_id, key)
        if record["cassette"] is not None:
            assert other["cassette"]["sha256"] == record["cassette"]["sha256"]
        kinds = {"action", "message", "rejected", "fallback"}
        assert _events(second, other, kinds) == _events(first, record, kinds), test_id


@pytest.mark.slow
def test_suites_skip_with_the_install_hint_without_the_engines(tmp_path):
    blocked = tmp_path / "blocked"
    (blocked / "diplomacy").mkdir(parents=True)
    (blocked / "pyspiel.py").write_text("raise ImportError('blocked for this test')\n")
    (blocked / "diplomacy" / "__init__.py").write_text("raise ImportError('blocked for this test')\n")
    result, report = _pytest(tmp_path, "blocked", "-rs", env={"PYTHONPATH": str(blocked)})
    assert result.returncode == 0, result.stdout[-3000:]
    assert "pytest-stratbench[hanabi]" in result.stdout and "pytest-stratbench[diplomacy]" in result.stdout
    assert re.search(r"\b50 skipped\b", result.stdout), result.stdout[-2000:]
    skipped = [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines()]
    assert len(skipped) == 50 and {r["status"] for r in skipped} == {"skipped"}  # recorded, with their reason
    assert all("pytest-stratbench[hanabi]" in r["reason"] or "pytest-stratbench[diplomacy]" in r["reason"]
               for r in skipped)


@pytest.mark.slow
def test_a_power_that_never_answers_readably_holds_and_the_game_goes_on(tmp_path):
    """France's model answers prose to every order prompt: its sets are dropped, counted, and the others play on."""
    with FakeLLMServer(responder=lambda body: "I would rather not commit to anything.") as server:
        result, report = _pytest(
            tmp_path, "mute", "--model", "openai/m", "--stratbench-cassette-dir", str(tmp_path / "cassettes"),
            "-k", "direct and basic-skill", "--api-base", server.api_base, "--record-mode=once",
            env={"STRATBENCH_DIPLOMACY_END_YEAR": "1902"},
        )
        retries = [m["content"] for r in server.requests for m in r.body["messages"][-1:]
                   if m["content"].startswith("Your answer was rejected")]
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (record,) = _records(report).values()
    france = 2
    assert record["terminal"] == "year limit: the game ended after 1902" and record["subject"] == france
    assert record["rules"] == {"illegal_tolerance": 10, "fallback": "drop", "on_truncation": "retry"}
    # Four movement phases, each asked ten times, then dropped; nobody moves, so nobody adjusts in winter.
    assert record["fallbacks"][france] == 4 and record["illegal"][france] == 40
    assert record["scores"] == [3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 3.0]  # everyone's real centres; sum 22 of 34
    assert record["metrics"][str(france)]["order_sets_dropped"] == 4
    assert record["metrics"][str(france)]["orders_dropped"] == 0
    assert len(retries) == 36 and set(retries) == {
        'Your answer was rejected: No JSON object with an "orders" key was found. Reply with a JSON object such as '
        '{"orders": {"FRANCE": ["A PAR - BUR", "F BRE H"]}}, choosing each order from the possible orders.\n'
        'Reply with the JSON object in the format given above, with your orders as "orders": {"FRANCE": '
        '["A PAR - BUR", ...]}, one order per orderable location, each chosen from the possible orders.'
    }
