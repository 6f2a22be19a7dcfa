"""Diplomacy in SPIN-Bench's paper protocol, end to end through a loopback model.

The subject plays Russia and Turkey in Table 6's 3-agent seating; the two
opponent agents (Austria, England, France; Germany, Italy) are LLMs too, on
``--diplomacy-opponent``'s model. The fake model answers SPIN-Bench's JSON
shapes; its first negotiation round sends the three messages of the paper's
E.3 example, so the subject's second round must be the paper's prompt word
for word. The basic-skill game's first request pins the movement prompt.
The golden files hold the digest's verbatim prompt text (E.3).
"""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")

from stratbench.run.results import read_transcript
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "games" / "golden"
E3_NEGOTIATION = (GOLDEN / "spin_diplomacy_e3_negotiation.txt").read_text().rstrip("\n")
E3_MOVEMENT = (GOLDEN / "spin_diplomacy_e3_movement.txt").read_text().rstrip("\n")
ENSURE = ('Ensure that in your JSON output, the value assigned to the "messages" key must strictly be options '
          "listed in ['RUSSIA', 'TURKEY'].")
FIRST_ROUND = {  # the E.3 example's last-round messages, sent in round 1
    "FRANCE": {"recipients": ["GLOBAL"], "messages": [
        "Attention all powers, I suggest a mutual ceasefire this turn to stabilize our regions and focus on "
        "strategic planning."]},
    "GERMANY": {"recipients": ["RUSSIA"], "messages": [
        "Discuss possible strategies against Austria; would appreciate insight on your intentions towards the "
        "Balkans."]},
    "ITALY": {"recipients": ["TURKEY"], "messages": [
        "Exploring potential cooperation in the Balkans. What are your views on Austria this year?"]},
    "RUSSIA": {"recipients": ["GERMANY", "TURKEY"], "messages": ["Let us share Galicia.", "A note to myself."]},
}
_PLAYING = re.compile(r"playing (?:as )?(\[[^\]]*\])")


def _user_texts(body):
    return [m["content"] for m in body.get("messages", []) if m.get("role") == "user"]


def _powers(text):
    return ast.literal_eval(_PLAYING.search(text).group(1))


def responder(body):
    """Answers the paper's negotiation, order and annotator prompts deterministically."""
    texts = _user_texts(body)
    last = texts[-1]
    if texts[0].startswith("You are an expert in the game of Diplomacy. You are asked to evaluate"):
        if "Those are the proposals" in texts[0]:
            return json.dumps({"answer": [{"proposal_text": "p", "accepted": 1, "reason": "r"}]})
        return json.dumps({"alignment": 1, "proposals": [{"proposal_text": "share", "label": "mutual_benefit"}],
                           "peace_or_conflict": "peace", "perspective_taking": 0, "conditional_thinking": 1})
    powers = _powers(last)
    if last.startswith("It is now round"):
        first_round = last.startswith("It is now round 1 ")
        messages = {p: FIRST_ROUND[p] for p in powers if p in FIRST_ROUND} if first_round else {}
        return "Analysis.\n" + json.dumps({"phase": "negotiation_phase0", "trust_analysis": [],
                                           "negotiation_strategy": f"{'+'.join(powers)} seek peace",
                                           "messages": messages})
    if "<possible_orders>" in last:
        raw = last.rsplit("<possible_orders>", 1)[1].split("</possible_orders>")[0].strip()
        possible = {p: {loc: o for item in items for loc, o in item.items()}
                    for p, items in ast.literal_eval(raw).items()}
    else:
        raw = last.split("The possible orders you can issue are as follows:\n", 1)[1].split("\n", 1)[0]
        possible = ast.literal_eval(raw)
    orders = {p: [sorted(options)[0] for _, options in sorted(locs.items())] for p, locs in possible.items()}
    return json.dumps({"reason": "r", "orders": orders})


def _pytest(tmp_path, name, *extra, end_year="1901"):
    report = tmp_path / f"report-{name}"
    args = ["suites/spin/test_diplomacy.py", "-q", "-p", "no:cacheprovider",
            "-p", "no:randomly", "--report-dir", str(report), "--stratbench-reference=off", "--protocol", "paper",
            "--stratbench-cassette-dir", str(tmp_path / "cassettes"), *extra]
    environment = {k: v for k, v in os.environ.items() if k != "STRATBENCH_DIPLOMACY_END_YEAR"}
    if end_year:
        environment["STRATBENCH_DIPLOMACY_END_YEAR"] = end_year
    result = run_pytest(args, cwd=ROOT, env=environment, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    lines = (report / "results.jsonl").read_text().splitlines()
    return {r["test_id"]: {**r, "events": _events(report, r)} for r in map(json.loads, lines)}


def _events(report, record):
    return read_transcript(report / record["transcript"])["events"]


def _assert_possible_scores(record):
    assert all(0 <= s <= 34 for s in record["scores"]) and sum(record["scores"]) <= 34
    assert record["score_range"] == [0.0, 34.0]


@pytest.fixture(scope="module")
def three_agents(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("paper")
    with FakeLLMServer(responder=responder) as server:
        records = _pytest(tmp_path, "3-agents", *THREE_AGENTS, "--api-base", server.api_base)
        requests = [r.body for r in server.requests]
    return records, requests, tmp_path


THREE_AGENTS = ("--model", "openai/subject", "--diplomacy-opponent", "openai/opp", "--annotator-model",
                "openai/judge", "-k", "subject and 3-agents")


@pytest.mark.slow
def test_the_paper_game_replays_from_its_cassette_identically(three_agents):
    records, _, tmp_path = three_agents
    again = _pytest(tmp_path, "replay", *THREE_AGENTS, "--record-mode=none")
    assert set(again) == set(records)
    for test_id, record in records.items():
        for key in ("scores", "terminal", "turns", "illegal", "fallbacks", "metrics"):
            assert again[test_id][key] == record[key], key
        kinds = {"action", "message", "message_rejected"}
        assert ([{k: v for k, v in e.items() if k != "t"} for e in again[test_id]["events"] if e["kind"] in kinds]
                == [{k: v for k, v in e.items() if k != "t"} for e in record["events"] if e["kind"] in kinds])


@pytest.mark.slow
def test_the_subjects_second_round_is_the_papers_negotiation_prompt_word_for_word(three_agents):
    _, requests, _ = three_agents
    subject = [b for b in requests if b["model"] == "subject"]
    second = next(b for b in subject if _user_texts(b)[-1].startswith("It is now round 2 "))
    assert _user_texts(second)[-1] == E3_NEGOTIATION + "\n\n" + ENSURE
    # The phase's conversation continues: round 1's prompt and reply come first, as in the released code.
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "user"]


@pytest.mark.slow
def test_the_first_negotiation_request_carries_the_state_and_the_papers_instructions(three_agents):
    _, requests, _ = three_agents
    first = next(b for b in requests if b["model"] == "subject")
    assert [m["role"] for m in first["messages"]] == ["user"]  # no system prompt in the paper protocol
    text = first["messages"][0]["content"]
    head = E3_NEGOTIATION.split("\n\nThe last round's messages are:")[0].replace("round 2 ", "round 1 ")
    assert text.startswith(head + "\n\nThe current state of the game is as follows:\nNote: No notes are provided")
    steps = E3_NEGOTIATION[E3_NEGOTIATION.index("Now you must analyze"):].replace("negotiation_phase1",
                                                                                  "negotiation_phase0")
    assert text.endswith("</possible_orders>\n\n" + steps + "\n\n" + ENSURE)
    assert "RUSSIA: A WAR, A MOS, F SEV, F STP/SC\n" in text and "\nThere are no neutral powers in this game.\n" in text
    possible = ast.literal_eval(text.split("<possible_orders>\n")[1].split("\n</possible_orders>")[0])
    assert sorted(possible) == ["RUSSIA", "TURKEY"] and len(possible["RUSSIA"]) == 4 and len(possible["TURKEY"]) == 3


@pytest.mark.slow
def test_opponents_are_llm_agents_and_each_power_sees_only_its_own_messages(three_agents):
    records, requests, _ = three_agents
    (record,) = records.values()
    assert record["protocol"] == "paper" and record["subject"] == 5
    assert [s["agent"] for s in record["sides"]] == (
        ["diplomacy-opponent-2=openai/opp+direct"] * 3 + ["diplomacy-opponent-1=openai/opp+direct"] * 2
        + ["openai/subject+direct"] * 2)
    _assert_possible_scores(record)
    agents = {}
    for body in requests:
        if body["model"] in ("subject", "opp"):
            agents.setdefault(tuple(_powers(_user_texts(body)[0])), set()).add(body["model"])
    assert agents == {("AUSTRIA", "ENGLAND", "FRANCE"): {"opp"}, ("GERMANY", "ITALY"): {"opp"},
                      ("RUSSIA", "TURKEY"): {"subject"}}
    for body in requests:
        if body["model"] not in ("subject", "opp"):
            continue
        mine = set(_powers(_user_texts(body)[0]))
        for text in _user_texts(body):
            for sender, target in re.findall(r"^([A-Z]+) to ([A-Z ,a-z]+?): ", text, re.MULTILINE):
                assert sender not in mine and (target == "all players" or target in mine), (mine, sender, target)
    england = [b for b in requests if b["model"] == "opp" and "ENGLAND" in _powers(_user_texts(b)[0])]
    assert england and not any("GERMANY to RUSSIA" in t for b in england for t in _user_texts(b))
    delivered = [(e["sender_role"], e["recipient_roles"]) for e in record["events"] if e["kind"] == "message"]
    rejected = [e for e in record["events"] if e["kind"] == "message_rejected"]
    assert sorted(delivered) == sorted([("FRANCE", ["GLOBAL"]), ("GERMANY", ["RUSSIA"]), ("ITALY", ["TURKEY"]),
                                        ("RUSSIA", ["GERMANY"])] * 2)  # S1901M and F1901M, round 1
    assert [(e["text"], e["error"]) for e in rejected] == [("A note to myself.", "recipients [5] are not other "
                                                            "participants")] * 2  # to its own power: not sent


@pytest.mark.slow
def test_annotation_is_one_call_per_recipient_power_under_the_powers_names(three_agents):
    records, requests, _ = three_agents
    (record,) = records.values()
    judged = [_user_texts(b)[0] for b in requests if b["model"] == "judge" and "Those are the proposals" not in
              _user_texts(b)[0]]
    data = [ast.literal_eval(t.rsplit("Now please evaluate the following data:\n", 1)[1]) for t in judged]
    # Round 1 of S1901M and F1901M: GERMANY->RUSSIA, ITALY->TURKEY, RUSSIA->GERMANY (GLOBAL skipped).
    assert sorted(d["recipient"] for d in data) == sorted(["RUSSIA", "TURKEY", "GERMANY"] * 2)
    assert {d["negotiation_strategy"] for d in data} == {"GERMANY+ITALY seek peace", "RUSSIA+TURKEY seek peace"}
    accept = [_user_texts(b)[0] for b in requests if b["model"] == "judge" and "Those are the proposals" in
              _user_texts(b)[0]]
    assert len(accept) == 6
    assert any("The interaction between RUSSIA and GERMANY in S1901M negotiation round 1:\n"
               "['GERMANY to RUSSIA: Discuss possible" in t and "RUSSIA to GERMANY: Let us share Galicia." in t
               for t in accept)
    subject = record["metrics"]["5"]["negotiation"]
    assert subject["messages"] == 2 and subject["proposals"] == 2 and subject["accepted"] == 2
    assert record["metrics"]["3"]["negotiation"]["messages"] == 4  # GERMANY and ITALY, one agent


@pytest.mark.slow
def test_the_basic_skill_games_first_request_is_the_papers_movement_prompt(tmp_path):
    with FakeLLMServer(responder=responder) as server:
        records = _pytest(tmp_path, "basic", "--model", "openai/subject", "--api-base", server.api_base,
                          "-k", "subject and basic-skill")
        first = server.requests[0].body
    (record,) = records.values()
    assert record["subject"] == 2 and record["terminal"] == "year limit: the game ended after 1901"
    _assert_possible_scores(record)
    text = first["messages"][0]["content"]
    assert [m["role"] for m in first["messages"]] == ["user"]
    state = text.split("\n\nThe adjacent regions")[0].split("\n", 1)[1]
    assert state.endswith("\nThe neutral powers in this game are: AUSTRIA, ENGLAND, GERMANY, ITALY, RUSSIA, "
                          "TURKEY. They hold and only disband when they must.")
    adjacency = text.split("<adjacent_regions>\n")[1].split("\n</adjacent_regions>")[0]
    expected = (E3_MOVEMENT.replace("['RUSSIA', 'TURKEY']", "['FRANCE']")
                .replace("The current state of the game is as follows:\n[GAME STATE]", state)
                .replace("[ADJACENT INFORMATION]", adjacency))
    assert text.startswith(expected + "\n\n### Instructions for the JSON object:\n")
    regions = {loc: near for item in ast.literal_eval(adjacency) for loc, near in item.items()}
    assert sorted(regions) == ["BRE", "MAR", "PAR"] and regions["BRE"] == ["ENG", "GAS", "MAO", "PAR", "PIC"]
    assert text.endswith(
        "### **Your Objective:** Your ultimate goal is absolute domination, seize every supply center and crush "
        "your opposition to win! Build and expand relentlessly, taking control of regions by launching bold, "
        "decisive attacks, control as many supply center as you can. Strike hard, strike fast, and let nothing "
        "stand in your way. Victory belongs to the bold, go conquer it!\n\nNow please think step by step in your "
        "response, and provide the JSON object with your strategic reasoning and orders.")


@pytest.mark.runs_first
@pytest.mark.slow
def test_offline_the_baselines_play_every_paper_seat_to_1920(tmp_path):
    """No model: the baselines are the subjects and the LLM-opponent seats play random orders, to 1920."""
    records = _pytest(tmp_path, "offline", end_year=None)
    assert len(records) == 10 and all(test_id.startswith("paper-") for test_id in records)
    seatings = ("basic-skill", "2-agents", "3-agents", "4-agents", "5-agents")
    assert {test_id.split("-", 1)[1].rsplit("-to1920-s0", 1)[0] for test_id in records} == {
        f"{agent}-{seating}" for agent in ("hold", "random-orders") for seating in seatings}
    for record in records.values():
        assert record["protocol"] == "paper" and record["status"] == "scored"
        _assert_possible_scores(record)
        phases = [e["turn"] for e in record["events"] if e["kind"] == "action"]
        assert phases and record["cassette"] is None
        ended = record["terminal"]
        assert ended == "year limit: the game ended after 1920" or ended.startswith("threshold reached: ")
    two = records["paper-hold-2-agents-to1920-s0"]
    assert [s["agent"] for s in two["sides"]] == ["diplomacy-opponent-1"] * 4 + ["hold"] * 3
