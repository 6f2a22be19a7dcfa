"""Reference recordings: profile checks, narrower schedules, record then offline replay with no flags."""

from __future__ import annotations

import json

import pytest

from stratbench.core.agent import AgentSpec
from stratbench.core.schedule import SubjectLimit, SuiteSpec, build_schedule
from stratbench.reference import ReferenceError, choose_profile, load_profile
from stratbench.run.results import read_transcript

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=4, seats="half")
def test_tictactoe(match):
    match.play()
"""
PROFILE = {"models": ["openai/ref"], "scaffolds": ["direct", "constrained"], "matches": 2, "max_tokens": 32}


def test_profile_errors_name_the_file_and_the_field(tmp_path):
    path = tmp_path / "reference.json"
    path.write_text(json.dumps({**PROFILE, "matches": 0}))
    with pytest.raises(ReferenceError, match=r"reference.json: 'matches' must be"):
        load_profile(path)
    path.write_text(json.dumps({**PROFILE, "colour": "red"}))
    with pytest.raises(ReferenceError, match="unknown field.*colour"):
        load_profile(path)
    path.write_text(json.dumps({**PROFILE, "models": []}))
    with pytest.raises(ReferenceError, match="'models' must be a non-empty list"):
        load_profile(path)
    path.write_text(json.dumps({**PROFILE, "games": {"hive": {"max_tokens": 0}}}))
    with pytest.raises(ReferenceError, match=r"'games.hive.max_tokens' must be a whole number"):
        load_profile(path)
    path.write_text(json.dumps({**PROFILE, "games": {"hive": {"max_tokens": 300}}}))
    assert (load_profile(path).max_tokens_for("hive"), load_profile(path).max_tokens_for("chess")) == (300, 32)
    path.write_text("{not json")
    with pytest.raises(ReferenceError, match="cannot read"):
        load_profile(path)


def test_auto_uses_the_profile_only_when_no_subject_is_given(tmp_path):
    (tmp_path / "reference.json").write_text(json.dumps(PROFILE))
    assert choose_profile("auto", tmp_path, subjects_given=False).models == ("openai/ref",)
    assert choose_profile("auto", tmp_path, subjects_given=True) is None
    assert choose_profile("off", tmp_path, subjects_given=False) is None
    assert choose_profile("auto", tmp_path / "elsewhere", subjects_given=False) is None
    with pytest.raises(ReferenceError, match="no reference profile at"):
        choose_profile("replay", tmp_path / "elsewhere", subjects_given=False)


def test_limits_narrow_only_their_subjects():
    suite = SuiteSpec(game="g", opponents=("minimax",), baselines=("random",), matches=4, seats="half")
    ref = AgentSpec(kind="llm", model="openai/ref", scaffold="direct")
    other = AgentSpec(kind="llm", model="openai/new", scaffold="direct")
    subjects = [other, ref, AgentSpec(kind="random")]
    specs = build_schedule(suite, subjects, num_sides=2, limits={ref.label: SubjectLimit(matches=2)})
    by_pairing: dict[str, list] = {}
    for spec in specs:
        by_pairing.setdefault(spec.id.rsplit("-s", 1)[0].removesuffix("-second"), []).append(spec)
    assert len(by_pairing["openai/ref+direct-vs-minimax"]) == 2
    assert [s.subject for s in by_pairing["openai/ref+direct-vs-minimax"]] == [1, 0]  # seats still swap
    assert len(by_pairing["openai/new+direct-vs-minimax"]) == 4
    assert not any("openai/new+direct-vs-openai/ref" in key for key in by_pairing)  # no round robin for it
    seated = SuiteSpec(game="g", baselines=(), matches=3, seatings={"a": ("subject", "x"), "b": ("x", "subject")})
    specs = build_schedule(seated, [ref], num_sides=2,
                           limits={ref.label: SubjectLimit(matches=1, variants=frozenset({"b"}))})
    assert [s.id for s in specs] == ["openai/ref+direct-b-s0"]


def _records(pytester):
    path = pytester.path / "reports/latest/results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.slow
def test_recorded_reference_replays_offline_with_no_flags(pytester, fake_llm):
    pytester.makepyfile(test_ttt=SUITE)
    cassettes = pytester.path / "cassettes"
    cassettes.mkdir()
    (cassettes / "reference.json").write_text(json.dumps(PROFILE))
    recorded = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--stratbench-reference=record", "--api-base", fake_llm.api_base
    )
    assert recorded.ret == 0, recorded.stdout.str()
    live = {r["match_id"]: (r["scores"], r["turns"]) for r in _records(pytester) if r["cassette"]}
    assert len(live) == 4  # 2 scaffolds x 2 matches vs minimax; baselines play their 4 each
    assert all(body.body.get("max_tokens") == 32 for body in fake_llm.requests)
    fake_llm.stop()

    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert replayed.ret == 0, replayed.stdout.str()
    records = _records(pytester)
    assert {r["match_id"]: (r["scores"], r["turns"]) for r in records if r["cassette"]} == live
    assert {r["cassette"]["record_mode"] for r in records if r["cassette"]} == {"none"}
    assert len(records) == 4 + 4  # the baseline's 4 matches and the 4 replayed ones
    replayed.stdout.fnmatch_lines(["*openai/ref+constrained*", "*openai/ref+direct*"])

    with_model = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-agent", "random",
                                               "--collect-only", "-q")
    assert "openai/ref" not in with_model.stdout.str()

    victim = next(cassettes.rglob("*ref+direct*-s0.yaml"))
    victim.unlink()
    missing = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert missing.ret == pytest.ExitCode.TESTS_FAILED
    missing.stdout.fnmatch_lines([f"*{victim.name}*"])


def test_a_game_can_be_left_to_some_scaffolds(tmp_path):
    path = tmp_path / "reference.json"
    path.write_text(json.dumps({**PROFILE, "games": {"hive": {"scaffolds": ["constrained"]}}}))
    profile = load_profile(path)
    limits = profile.limits("hive")
    assert limits["openai/ref+direct"].matches == 0 and limits["openai/ref+constrained"].matches == 2
    assert all(limit.matches == 2 for limit in profile.limits("santorini").values())
    suite = SuiteSpec(game="hive", opponents=("random",), baselines=(), matches=4)
    specs = build_schedule(suite, profile.subjects(), num_sides=2, limits=limits)
    assert {s.id.split("-vs-")[0] for s in specs} == {"openai/ref+constrained"} and len(specs) == 2
    path.write_text(json.dumps({**PROFILE, "games": {"hive": {"scaffolds": ["tree"]}}}))
    with pytest.raises(ReferenceError, match="games.hive.scaffolds names tree"):
        load_profile(path)


HIVE_SUITE = """
import pytest

@pytest.mark.stratbench(game="hive", opponents=["random"], baselines=[], matches=2, illegal_tolerance=1,
                        fallback="random")
def test_hive(match):
    match.play()
"""


@pytest.mark.slow
def test_game_options_shorten_only_the_reference_matches_and_are_recorded(pytester, fake_llm):
    pytester.makepyfile(test_hive=HIVE_SUITE)
    cassettes = pytester.path / "cassettes"
    cassettes.mkdir()
    profile = {**PROFILE, "scaffolds": ["direct"], "matches": 1,
               "games": {"hive": {"options": {"max_turns_per_player": 2}, "max_tokens": 40}}}
    (cassettes / "reference.json").write_text(json.dumps(profile))
    recorded = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--stratbench-reference=record", "--api-base", fake_llm.api_base
    )
    assert recorded.ret == 0, recorded.stdout.str()
    (record,) = _records(pytester)
    assert record["game_options"] == {"max_turns_per_player": 2}
    assert record["turns"] == 4 and record["terminal"] == "turn limit (2 turns per player): draw"
    assert any("Turn 2 of 2 for you." in str(r.body) for r in fake_llm.requests)
    assert {r.body.get("max_tokens") for r in fake_llm.requests} == {40}  # the game's, not the profile's 32
    fake_llm.stop()
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert replayed.ret == 0, replayed.stdout.str()
    assert _records(pytester)[0]["turns"] == 4

    profile["games"]["hive"]["options"] = {"max_turns": 2}
    (cassettes / "reference.json").write_text(json.dumps(profile))
    wrong = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert wrong.ret != 0
    wrong.stdout.fnmatch_lines(["*reference.json: games.hive.options:*max_turns*"])


def test_a_model_can_be_recorded_under_fewer_scaffolds_than_the_others(tmp_path):
    path = tmp_path / "reference.json"
    per_model = {"openai/small": {"note": "recorded later", "scaffolds": ["direct"], "games": {"tictactoe": {"scaffolds": ["direct", "constrained"]},
                                                                    "chess": {"scaffolds": []}}}}
    games = {"hive": {"scaffolds": ["constrained"]}}
    path.write_text(json.dumps({**PROFILE, "models": ["openai/ref", "openai/small"], "games": games,
                                "per_model": per_model}))
    profile = load_profile(path)
    played = {game: sorted(label for label, limit in profile.limits(game).items() if limit.matches)
              for game in ("tictactoe", "santorini", "hive", "chess")}
    assert played == {
        "tictactoe": ["openai/ref+constrained", "openai/ref+direct", "openai/small+constrained", "openai/small+direct"],
        "santorini": ["openai/ref+constrained", "openai/ref+direct", "openai/small+direct"],
        "hive": ["openai/ref+constrained"],  # the game's list and the model's list leave small nothing
        "chess": ["openai/ref+constrained", "openai/ref+direct"],
    }


@pytest.mark.parametrize("per_model, message", [
    ({"openai/other": {"scaffolds": ["direct"]}}, "per_model.openai/other names a model not in 'models'"),
    ({"openai/ref": {"scaffolds": ["tree"]}}, "per_model.openai/ref.scaffolds names tree, not in 'scaffolds'"),
    ({"openai/ref": {"games": {"hive": {"variants": ["x"]}}}},
     "per_model.openai/ref.games.hive must be an object with 'scaffolds' only"),
    ({"openai/ref": {"colour": 1}},
     "per_model.openai/ref must be an object with 'scaffolds' and/or 'games' (and a 'note')"),
    ({"openai/ref": {"note": "only a note"}},
     "per_model.openai/ref must be an object with 'scaffolds' and/or 'games' (and a 'note')"),
    (["openai/ref"], "'per_model' must be an object keyed by model"),
])
def test_per_model_errors_name_the_file_and_the_field(tmp_path, per_model, message):
    path = tmp_path / "reference.json"
    path.write_text(json.dumps({**PROFILE, "per_model": per_model}))
    with pytest.raises(ReferenceError) as error:
        load_profile(path)
    assert str(error.value) == f"{path}: {message}"


@pytest.mark.slow
def test_profile_scaffold_settings_shape_the_reference_rap_matches_and_their_replay(pytester, fake_llm):
    from stratbench.testing.rap_responder import rap_responder

    fake_llm.responder = rap_responder()
    pytester.makepyfile(test_ttt=SUITE)
    cassettes = pytester.path / "cassettes"
    cassettes.mkdir()
    profile = {**PROFILE, "scaffolds": ["rap"], "matches": 1, "scaffold_settings": {"rap": {"iterations": 2}}}
    (cassettes / "reference.json").write_text(json.dumps(profile))
    recorded = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--stratbench-reference=record", "--api-base", fake_llm.api_base, "-k", "ref"
    )
    assert recorded.ret == 0, recorded.stdout.str()[-3000:]
    (record,) = [r for r in _records(pytester) if r["cassette"]]
    assert _searches(pytester, record) == {(2, 2)}  # --rap-iterations is left at 10
    fake_llm.stop()

    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "ref")  # still 10 on the command line
    assert replayed.ret == 0, replayed.stdout.str()[-3000:]
    (again,) = [r for r in _records(pytester) if r["cassette"]]
    assert again["settings_hash"] == record["settings_hash"] and again["scores"] == record["scores"]
    assert _searches(pytester, again) == {(2, 2)}

    profile["scaffold_settings"] = {"tree": {"depth": 1}}
    (cassettes / "reference.json").write_text(json.dumps(profile))
    with pytest.raises(ReferenceError, match="scaffold_settings names tree"):
        load_profile(cassettes / "reference.json")


def _searches(pytester, record):
    """The (depth, iterations) of the match's searches, from its transcript."""
    events = read_transcript(pytester.path / "reports/latest" / record["transcript"])["events"]
    return {(e["depth"], e["iterations"]) for e in events if e.get("kind") == "rap_search" and e["searched"]}
