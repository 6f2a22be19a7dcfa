"""Match schedules: ids, seat policies, round robins, variants, seatings, determinism."""

from __future__ import annotations


import pytest

from stratbench.core.agent import AgentSpec
from stratbench.core.obfuscation import Obfuscation, salt_tag
from stratbench.core.schedule import SuiteSpec, build_schedule, with_obfuscations

GPT = AgentSpec("llm", model="gpt-4o", scaffold="cot")
CLAUDE = AgentSpec("llm", model="anthropic/claude", scaffold="direct")
RANDOM = AgentSpec("random")


def test_ids_read_like_the_design():
    suite = SuiteSpec(game="tictactoe", opponents=("minimax",), matches=4)
    ids = [s.id for s in build_schedule(suite, [GPT], num_sides=2)]
    assert ids == [f"gpt-4o+cot-vs-minimax-s{i}" for i in range(4)]


def test_half_policy_gives_the_opponent_the_first_seat_first():
    suite = SuiteSpec(game="tictactoe", opponents=("minimax",), matches=10, seats="half")
    specs = build_schedule(suite, [GPT], num_sides=2)
    assert [s.subject for s in specs] == [1] * 5 + [0] * 5
    assert all(s.sides[s.subject] == GPT and s.sides[1 - s.subject].kind == "minimax" for s in specs)


def test_half_policy_names_the_second_seat_in_the_id():
    suite = SuiteSpec(game="tictactoe", opponents=("minimax",), matches=10, seats="half")
    by_count = {n: {s.id: s.subject for s in build_schedule(suite, [GPT], num_sides=2, matches=n)} for n in (1, 2, 4)}
    assert by_count[1] == {"gpt-4o+cot-vs-minimax-s0": 0}
    assert by_count[2] == {"gpt-4o+cot-vs-minimax-second-s0": 1, "gpt-4o+cot-vs-minimax-s1": 0}
    assert by_count[4] == {"gpt-4o+cot-vs-minimax-second-s0": 1, "gpt-4o+cot-vs-minimax-second-s1": 1,
                           "gpt-4o+cot-vs-minimax-s2": 0, "gpt-4o+cot-vs-minimax-s3": 0}
    # one id, one seating, whatever --matches is
    seatings: dict[str, set[int]] = {}
    for n in range(1, 17):
        for spec in build_schedule(suite, [GPT], num_sides=2, matches=n):
            seatings.setdefault(spec.id, set()).add(spec.subject)
    assert all(len(seats) == 1 for seats in seatings.values())
    assert [s.seed for s in build_schedule(suite, [GPT], num_sides=2, matches=4)] == [0, 1, 2, 3]  # in seed order


def test_alternate_policy_flips_every_seed():
    suite = SuiteSpec(game="g", opponents=("random",), matches=4, seats="alternate")
    assert [s.subject for s in build_schedule(suite, [GPT], num_sides=2)] == [0, 1, 0, 1]


def test_round_robin_between_llm_subjects_only():
    suite = SuiteSpec(game="g", opponents=("minimax",), matches=2)
    ids = {s.id for s in build_schedule(suite, [GPT, CLAUDE, RANDOM], num_sides=2)}
    assert "gpt-4o+cot-vs-anthropic/claude+direct-s0" in ids
    assert not any("random-vs-gpt" in i or "gpt-4o+cot-vs-random" in i for i in ids)
    assert len(ids) == 3 * 2 + 2


def test_schedule_is_deterministic_and_seeded():
    suite = SuiteSpec(game="g", opponents=("minimax",), matches=3)
    first = build_schedule(suite, [GPT, CLAUDE], num_sides=2, base_seed=7)
    second = build_schedule(suite, [GPT, CLAUDE], num_sides=2, base_seed=7)
    assert first == second
    assert {s.seed for s in first} == {7, 8, 9}


def test_variants_and_skips_become_part_of_the_id():
    suite = SuiteSpec(game="pddl", matches=1)
    specs = build_schedule(suite, [RANDOM], num_sides=1, variants=[("bw/p01", None), ("grid/p01", "cannot parse")])
    assert [(s.id, s.skip) for s in specs] == [("random-bw/p01-s0", None), ("random-grid/p01-s0", "cannot parse")]


def test_seatings_for_many_sided_games():
    suite = SuiteSpec.from_marker(
        {"game": "dip", "matches": 1, "seatings": {"two": ["subject", "hold", "subject"]}}
    )
    (spec,) = build_schedule(suite, [GPT], num_sides=3)
    assert spec.id == "gpt-4o+cot-two-s0" and spec.subject == 0
    assert [s.kind for s in spec.sides] == ["llm", "hold", "llm"]
    with pytest.raises(ValueError, match="needs seatings"):
        build_schedule(SuiteSpec(game="dip"), [GPT], num_sides=3)


def test_bad_suite_declarations_are_explained():
    with pytest.raises(ValueError, match="unknown stratbench marker arguments"):
        SuiteSpec.from_marker({"game": "g", "oponents": ["x"]})
    with pytest.raises(ValueError, match="needs game"):
        SuiteSpec.from_marker({})
    with pytest.raises(ValueError, match="seats must be one of"):
        SuiteSpec.from_marker({"game": "g", "seats": "random"})
    with pytest.raises(ValueError, match="at least 1"):
        build_schedule(SuiteSpec(game="g", opponents=("x",)), [GPT], num_sides=2, matches=0)
    with pytest.raises(ValueError, match="given twice"):
        build_schedule(SuiteSpec(game="g", opponents=("x",)), [GPT, GPT], num_sides=2)


def test_alternate_policy_seats_by_the_seed_whatever_the_first_seed():
    suite = SuiteSpec(game="g", opponents=("random",), matches=4, seats="alternate")
    for base in (0, 1, 7):
        specs = build_schedule(suite, [GPT], num_sides=2, base_seed=base)
        assert [(s.seed, s.subject) for s in specs] == [(seed, seed % 2) for seed in range(base, base + 4)]


@pytest.mark.parametrize("policy", ["alternate", "half"])
def test_pairs_play_each_seed_in_both_seatings_and_an_id_names_one_seating(policy):
    suite = SuiteSpec(game="g", opponents=("minimax",), matches=3, seats=policy)
    specs = build_schedule(suite, [GPT], num_sides=2, pairs=True)
    assert [(s.seed, s.subject) for s in specs] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert all(s.sides[s.subject] == GPT and s.sides[1 - s.subject].kind == "minimax" for s in specs)
    assert len({s.id for s in specs}) == 6
    # the seating a policy gives a seed keeps its id, with or without pairs, for any --matches and --seed
    seatings: dict[str, set[int]] = {}
    for pairs in (False, True):
        for n in (1, 2, 3, 4):
            for base in (0, 1):
                for spec in build_schedule(suite, [GPT], num_sides=2, matches=n, base_seed=base, pairs=pairs):
                    seatings.setdefault(spec.id, set()).add(spec.subject)
    assert all(len(seats) == 1 for seats in seatings.values()), seatings
    ids = {s.seed: [x.id for x in specs if x.seed == s.seed] for s in specs}
    if policy == "alternate":
        assert ids[1] == ["gpt-4o+cot-vs-minimax-first-s1", "gpt-4o+cot-vs-minimax-s1"]
        assert ids[0] == ["gpt-4o+cot-vs-minimax-s0", "gpt-4o+cot-vs-minimax-second-s0"]
    else:
        assert ids[1] == ["gpt-4o+cot-vs-minimax-s1", "gpt-4o+cot-vs-minimax-second-s1"]


def test_pairs_leave_solo_games_and_named_seatings_alone():
    solo = SuiteSpec(game="pddl", matches=2)
    assert build_schedule(solo, [RANDOM], num_sides=1, pairs=True) == build_schedule(solo, [RANDOM], num_sides=1)
    seated = SuiteSpec(game="d", matches=2, seatings={"vs-hold": ("subject", "hold", "hold")})
    assert build_schedule(seated, [GPT], num_sides=3, pairs=True) == build_schedule(seated, [GPT], num_sides=3)


def test_each_renaming_puts_a_probe_beside_each_match_with_the_same_sides_seed_variant_and_seating():
    suite = SuiteSpec(game="g", opponents=("random",), baselines=(), matches=2, seats="half")
    specs = build_schedule(suite, [AgentSpec(kind="llm", model="openai/m", scaffold="direct")], num_sides=2,
                           variants=[("v1", None)])
    renamings = [Obfuscation("mystery", 7), Obfuscation("random", 0, salt="ours")]
    expanded = with_obfuscations(specs, renamings)
    salted = f"obf-random-s0-k{salt_tag('ours')}"
    assert [s.id for s in expanded] == [
        "openai/m+direct-vs-random-v1-second-s0", "openai/m+direct-vs-random-v1-second-s0-obf-mystery-s7",
        f"openai/m+direct-vs-random-v1-second-s0-{salted}",
        "openai/m+direct-vs-random-v1-s1", "openai/m+direct-vs-random-v1-s1-obf-mystery-s7",
        f"openai/m+direct-vs-random-v1-s1-{salted}",
    ]
    for original, *probes in (expanded[0:3], expanded[3:6]):
        assert original.obfuscation is None
        assert [p.obfuscation for p in probes] == ["mystery:7", "random:0"]  # the salt stays out of the spec
        for probe in probes:
            assert (probe.sides, probe.subject, probe.seed, probe.variant, probe.seating) == (
                original.sides, original.subject, original.seed, original.variant, original.seating)
    assert with_obfuscations(specs, []) == specs
