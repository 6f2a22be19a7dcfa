"""End to end: AdvGameBench suites played by a loopback model, recorded, then replayed offline; the paper protocol.

The fake model answers every strategy request with a valid strategy for the
side the prompt names, seeded by the prompt (so a revision that sees a new
opponent answers differently), and its first initial answer for the defender
is over budget, so the released re-prompt is exercised. A second run, with
the server gone, must reproduce every round.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from pathlib import Path

import pytest
from stratbench.games.advgame import battle_card
from stratbench.games.advgame.baselines import greedy_strategy, random_strategy
from stratbench.games.advgame.prompts import catalogue_text
from stratbench.run.results import read_transcript
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = "suites/advgame/test_battle_card.py"
SIDE = re.compile(r"You (?:play the|are playing as the) (\w+)")
OVER_BUDGET = {"defenders": [{"name": "King", "tier": "Gold"}, {"name": "King", "tier": "Gold"}]}


def _user_texts(body):
    return [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]


def responder(body):
    """A valid strategy for the side the first user turn names; the defender's first try is over budget."""
    texts = _user_texts(body)
    side = SIDE.search(texts[0]).group(1)
    if side == "defender" and len(texts) == 1 and "Last round" not in texts[0]:
        return "```json\n" + json.dumps(OVER_BUDGET) + "\n```"
    seed = int.from_bytes(hashlib.sha256("\n".join(texts).encode()).digest()[:4], "big")
    strategy = random_strategy("battle_card", side, random.Random(seed))
    return "Here is my plan.\n```json\n" + json.dumps(strategy) + "\n```"


def prose_responder(body):
    """A valid strategy after a line of prose, with no fence: readable by the default reader only."""
    side = SIDE.search(_user_texts(body)[0]).group(1)
    return "My plan: " + json.dumps(greedy_strategy("battle_card", side))


def _pytest(tmp_path, name, *extra):
    report = tmp_path / f"report-{name}"
    args = [SUITE, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--report-dir", str(report), "--stratbench-reference=off", *extra]
    result = run_pytest(args, cwd=ROOT, env=dict(os.environ), timeout=300)
    return result, report


def _records(report):
    lines = (report / "results.jsonl").read_text().splitlines()
    return {r["test_id"]: r for r in map(json.loads, lines)}


def _events(report, record):
    events = read_transcript(report / record["transcript"])["events"]
    return [{k: v for k, v in e.items() if k not in ("t", "latency_s", "duration_s")} for e in events
            if e["kind"] in ("initial_strategy", "revision_round")]


@pytest.mark.slow
def test_a_model_plays_full_ten_round_matches_in_the_suite_and_they_replay_identically(tmp_path):
    ids = ["openai/m+direct-vs-greedy-first-s0", "openai/m+direct-vs-random-second-s1"]
    model = ["--model", "openai/m", "--stratbench-cassette-dir", str(tmp_path / "cassettes"), "-k", " or ".join(ids)]
    with FakeLLMServer(responder=responder) as server:
        recorded, first = _pytest(tmp_path, "record", *model, "--api-base", server.api_base, "--record-mode=once")
        requests = list(server.requests)
    assert recorded.returncode == 0, recorded.stdout[-3000:] + recorded.stderr[-3000:]
    records = _records(first)
    assert sorted(records) == sorted(ids)

    ahead = records[ids[0]]  # the model on seat 0 (invader), revising first, against greedy
    assert ahead["subject"] == 0 and ahead["sides"][0]["roles"] == ["invader"] and ahead["variant"] == "first"
    match = ahead["advgame"]
    assert match["first_reviser"] == "invader" and len(match["rounds"]) == 10
    assert [r["reviser"] for r in match["rounds"]] == ["invader", "defender"] * 4 + ["invader", None]
    greedy = greedy_strategy("battle_card", "defender")
    assert all(r["strategies"]["defender"] == greedy for r in match["rounds"])  # greedy never revises
    assert match["initial_attempts"]["defender"] == [{"cost": 20, "violations": []}]
    model_strategies = [r["strategies"]["invader"] for r in match["rounds"]]
    assert all(battle_card.strategy_cost(s, "invader") <= 20 for s in model_strategies)
    assert all(not r["violations"]["invader"] for r in match["rounds"])
    wins = sum(r["winner"] == "invader" for r in match["rounds"])
    assert ahead["scores"] == [wins / 10, 1 - wins / 10] and sum(ahead["scores"]) == 1.0
    assert ahead["metrics"]["0"]["win_rate"] == wins / 10 and ahead["metrics"]["0"]["order"] == "first"
    assert ahead["usage"][0]["calls"] == 1 + 5 and ahead["usage"][1]["calls"] == 0  # initial + its 5 revisions

    behind = records[ids[1]]  # the model on seat 1 (defender), revising second, against random
    assert behind["subject"] == 1 and behind["advgame"]["first_reviser"] == "invader"
    attempts = behind["advgame"]["initial_attempts"]["defender"]
    assert attempts[0] == {"cost": 24, "violations": ["cost 24 exceeds budget 20"]} and len(attempts) == 2
    assert not attempts[1]["violations"]
    assert behind["usage"][1]["calls"] == 2 + 4  # two initial attempts + its 4 revisions
    retry = next(r.body for r in requests if len(_user_texts(r.body)) == 2)
    assert retry["messages"][1]["role"] == "assistant"
    assert _user_texts(retry)[1] == ("[Attempt 1] cost 24 exceeds budget 20. Please adjust layout. Previous output: "
                                     + json.dumps(OVER_BUDGET))
    revision = next(r.body for r in requests if "Last round" in _user_texts(r.body)[0])
    assert "The opponent's strategy: " + json.dumps(greedy) in _user_texts(revision)[0]

    replayed, second = _pytest(tmp_path, "replay", *model, "--record-mode=none")
    assert replayed.returncode == 0, replayed.stdout[-3000:] + replayed.stderr[-3000:]
    again = _records(second)
    for test_id, record in records.items():
        other = again[test_id]
        for key in ("advgame", "scores", "result", "terminal", "turns", "illegal", "decisions", "metrics"):
            assert other[key] == record[key], (test_id, key)
        assert other["cassette"]["sha256"] == record["cassette"]["sha256"]
        assert _events(second, other) == _events(first, record), test_id


# The released code's initial prompt (digest B2.3) with the paper's Appendix A.2.1 rules and the released prompt's
# tier sentences, as published; the catalogue lines are the simulator's own.
PAPER_BCG_RULES = (
    "1. At the start of the game, players can purchase all desired characters at once, up to a maximum of 7 "
    "characters. Gold characters cost three times as much as bronze characters, but their stats (attack, health, "
    "numerical skill effects, etc.) are twice as high. Non-numerical skills are not affected by this multiplier. "
    "In JSON use property tier with value Gold. If a character's 'tier' property is absent, default its tier to "
    '"Bronze".\n'
    "2. Initiative Determination: The side with more characters attacks first. If both sides have the same number "
    "of characters, the invader attacks first.\n"
    "3. Elemental Advantage: Certain elements have an advantage over others, granting a bonus in combat "
    "(Fire > Nature, Nature > Water, Water > Earth, Earth > Fire).\n"
    "4. Battle Process: Both sides will attack based on their respective target_priority (target priority). "
    "However, if there are Taunt minions on the opponent's side, attackers must prioritize attacking them. The "
    "attack order follows a left-to-right sequence. The first minion in the invaders or defenders list (as defined "
    "in the JSON file) will attack first, depending on which side has the initiative. After that, the first minion "
    "from the opposing side attacks. Then, the second minion from the attacking side follows, then the second "
    "minion from the opposing side, and so on in an alternating pattern. If a minion's health reaches zero, it is "
    "eliminated. The battle continues with both sides attacking in turns until one side is completely wiped out, "
    "resulting in victory for the other side.\n"
    "5. If all characters on one side are eliminated, the other side wins.\n"
    "6. If both sides are eliminated simultaneously in the same attack resolution, the Invader wins."
)


@pytest.mark.slow
def test_the_paper_protocol_sends_the_released_prompts_at_temperature_0_3(tmp_path):
    test_id = "paper-openai/m+direct-vs-greedy-first-s0"
    args = ["--model", "openai/m", "--protocol", "paper", "--advgame-rounds", "3",
            "--stratbench-cassette-dir", str(tmp_path / "cassettes"), "-k", test_id]
    with FakeLLMServer(responder=prose_responder) as server:
        played, report = _pytest(tmp_path, "paper", *args, "--api-base", server.api_base)
        requests = [r.body for r in server.requests]
    assert played.returncode == 0, played.stdout[-3000:] + played.stderr[-3000:]
    first = requests[0]
    assert first["messages"] == [{"role": "user", "content": (
        "You are playing as the invader in this game. Your budget is 20.\n"
        f"Game Rules: {PAPER_BCG_RULES}\n"
        f"Your unit catalogue: {catalogue_text('battle_card', 'invader')}\n"
        'Example JSON: {"invaders": [{"name": "FireLizard", "tier": "Bronze"}], '
        '"target_priority_for_invaders": ["RockBeetle"]}\n'
        'Important: your output must be a single JSON object with the key "invaders" and must not include any '
        "other text or explanation."
    )}]
    assert all(body["temperature"] == 0.3 for body in requests)
    record = _records(report)[test_id]
    assert record["protocol"] == "paper" and len(record["advgame"]["rounds"]) == 3
    assert record["game_options"] == {"protocol": "paper", "rounds": 10}
    # The released reader takes no prose around the object: every answer here was unreadable.
    assert all(r["violations"]["invader"][0].startswith("unreadable answer: strategy is not valid JSON")
               for r in record["advgame"]["rounds"])
    revision = requests[1]["messages"][0]["content"]
    round_1 = record["advgame"]["rounds"][0]
    assert revision.startswith(
        "You are playing as the invader in this game.\n"
        "Last round result: defender won the game.\n"
        "Your previous json cost was 0, budget is 20.\n"
        "if you exceed your budget, you will lose the match\n"
        f"Game Rules: {PAPER_BCG_RULES}\n")
    assert revision.endswith(
        "Your previous invader JSON: null\n"
        f"Opponent JSON: {json.dumps(round_1['strategies']['defender'])}\n"
        "Goal:\n"
        'Regenerate and return a single JSON object with the key "invaders"\n'
        "so that you maximize the chance of winning. Do not include any other text.")


@pytest.mark.slow
def test_each_suite_schedules_both_roles_and_both_move_orders_per_pairing():
    args = ["suites/advgame", "--collect-only", "-q", "-p", "no:cacheprovider",
            "--stratbench-reference=off", "--model", "openai/m", "--model", "openai/n"]
    result = run_pytest(args, cwd=ROOT, env=dict(os.environ), timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
    ids = {line.split("suites/advgame/", 1)[-1] for line in result.stdout.splitlines() if "::" in line}
    pairings = {"climber-vs-greedy", "climber-vs-random", "greedy-vs-greedy", "greedy-vs-random",
                "random-vs-greedy", "random-vs-random", "openai/m+direct-vs-greedy", "openai/m+direct-vs-random",
                "openai/n+direct-vs-greedy", "openai/n+direct-vs-random", "openai/m+direct-vs-openai/n+direct"}
    for game in ("tower_defense", "battle_card", "turn_based"):
        expected = {f"test_{game}.py::test_{game}[{p}-{order}-s{seed}]" for p in pairings
                    for order in ("first", "second") for seed in (0, 1)}
        assert {i for i in ids if i.startswith(f"test_{game}.py::")} == expected
