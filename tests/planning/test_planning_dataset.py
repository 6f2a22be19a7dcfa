"""Datasets: reading failures named by construct, directory scanning, variants."""

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, write_dataset

from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.reading import PDDLReadError, check_readable, read_problem

DOMAIN_T = """(define (domain d) (:requirements :strips :typing) (:types {types})
 (:predicates (at ?x - {kind}) {predicates}) {functions}
 (:action go :parameters (?x - {kind}) :precondition (at ?x) :effect (not (at ?x))))"""
PROBLEM_T = (
    "(define (problem {name}) (:domain d) (:objects {obj} - {kind}) (:init (at {obj})) (:goal (not (at {obj}))){extra})"
)


def domain(types="t", kind="t", predicates="", functions=""):
    return DOMAIN_T.format(types=types, kind=kind, predicates=predicates, functions=functions)


def problem(name="p", obj="o", kind="t", extra=""):
    return PROBLEM_T.format(name=name, obj=obj, kind=kind, extra=extra)


@pytest.mark.parametrize(
    ("domain_text", "problem_text", "construct"),
    [
        (domain("a b - object c - (either a b)", "c"), problem(kind="c"),
         "a type declared as a subtype of an 'either' type ('c - (either a b)')"),
        (domain(), problem(extra=" (:metric minimize (fuel-used))"),
         "an undeclared name in an expression ('fuel-used')"),
        (domain() + ")", problem(), "the domain has text after its closing parenthesis, near ')'"),
        (domain(), problem(extra=" (:goal (preference p1 (at o)))"), "preferences in the problem"),
    ],
)
def test_unreadable_tasks_are_named_by_construct(domain_text, problem_text, construct):
    reason = check_readable(domain_text, problem_text)
    assert reason is not None and construct in reason
    assert "\n" not in reason and len(reason) <= 160
    with pytest.raises(PDDLReadError):
        read_problem(domain_text, problem_text)


@pytest.mark.parametrize(
    ("domain_text", "problem_text"),
    [
        (domain("robot gripper - robot", "robot"), problem(kind="robot")),
        (domain(), problem(name="PG0.5")),
        (domain(predicates="(has ?x - t)", functions="(:functions (has ?x - t))"), problem()),
        (domain("a b - object c", "c", predicates="(p ?x - (either a b))"), problem(kind="c")),
    ],
)
def test_constructs_unified_planning_refused_as_written_are_read(domain_text, problem_text):
    assert check_readable(domain_text, problem_text) is None


def test_a_shared_name_of_different_kinds_is_accepted():
    # SPIN-Bench's floortile has an action and a predicate both named 'up'.
    assert check_readable(domain(predicates="(go ?x - t)"), problem()) is None


def test_scan_lists_every_instance_in_order(toy_dataset):
    instances = dataset.scan_directory(toy_dataset)
    assert [i.name for i in instances] == ["blocksworld/p01", "blocksworld/p02", "counters/p01", "rooms/p01"]
    assert all(i.skip is None for i in instances)
    by_name = {i.name: i for i in instances}
    assert by_name["blocksworld/p01"].category == "sequential"  # SPIN-Bench's scorer taxonomy
    assert by_name["counters/p01"].category == "resource"
    assert by_name["rooms/p01"].category is None  # not a SPIN-Bench domain


def test_each_instance_is_decided_on_its_own_and_empty_domains_are_named(tmp_path):
    root = write_dataset(
        tmp_path / "mixed",
        {
            "assembly": (domain("a b - object c - (either a b)", "c"),
                         {"p1": problem(kind="c"), "p2": problem(kind="c")}),
            "grid": (domain(), {"p01": problem(name="PG0.5")}),
            "good": (BLOCKS_DOMAIN, {"p01": problem(extra=" (:goal (preference p1 (at o)))"), "p02": BLOCKS_P01,
                                     "p03": "(define (problem broken",
                                     "p04": BLOCKS_P01.replace("(clear c)", "(clear d)")}),
            "nodomain": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01}),
            "binary": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01}),
            "noinstances": (BLOCKS_DOMAIN, {}),
        },
    )
    (root / "nodomain" / "domain.pddl").unlink()
    (root / "binary" / "domain.pddl").write_bytes(b"\xff\xfe\x00garbage")
    (root / "noinstances" / "instances").rmdir()
    (root / "noinstances" / "p01.pddl").write_text(BLOCKS_P01)
    (root / "emptyinstances" / "instances").mkdir(parents=True)
    (root / "emptyinstances" / "domain.pddl").write_text(BLOCKS_DOMAIN)
    (root / "notes").mkdir()  # no PDDL at all: not a domain
    (root / "README.md").write_text("not a domain")
    skips = {i.name: i.skip for i in dataset.scan_directory(root)}
    either = "unified-planning cannot read it: a type declared as a subtype of an 'either' type ('c - (either a b)')"
    assert skips["assembly/p1"] == f"assembly/p1.pddl: {either}"
    assert skips["assembly/p2"] == f"assembly/p2.pddl: {either}"
    assert skips["grid/p01"] is None  # a dotted problem name is renamed
    # A broken first instance no longer hides the valid one after it; each names its own fault.
    assert skips["good/p01"] == "good/p01.pddl: unified-planning cannot read it: preferences in the problem"
    assert skips["good/p02"] is None
    assert skips["good/p03"] == "good/p03.pddl: unified-planning cannot read it: the problem has 2 unclosed '('"
    assert skips["good/p04"] == "good/p04.pddl: unified-planning cannot read it: an undeclared object or constant ('d')"
    assert skips["nodomain/p01"] == "nodomain: no domain.pddl"
    assert skips["binary/p01"].startswith("binary: cannot read domain.pddl: 'utf-8' codec can't decode")
    assert skips["noinstances/no-instances"] == (
        "noinstances: no instances/ folder, so no tasks (expected noinstances/instances/*.pddl; "
        "found 1 other .pddl file beside it)"
    )
    assert skips["emptyinstances/no-instances"] == (
        "emptyinstances: instances/ holds no .pddl files, so no tasks (expected emptyinstances/instances/*.pddl)"
    )
    assert not any(name.startswith("notes/") for name in skips)
    assert len(skips) == 11


def test_a_missing_directory_is_one_skipped_item(tmp_path):
    (only,) = dataset.scan_directory(tmp_path / "nowhere")
    assert only.skip and "not a directory" in only.skip


def test_list_variants_remembers_the_listing_for_resolve(toy_dataset):
    variants = dataset.list_variants({"pddl_dir": toy_dataset})
    assert [v.name for v in variants][:2] == ["blocksworld/p01", "blocksworld/p02"]
    assert dataset.resolve("rooms/p01").problem_path == toy_dataset / "rooms" / "instances" / "p01.pddl"
    with pytest.raises(ValueError, match="unknown planning instance"):
        dataset.resolve("rooms/p99")
    dataset.list_variants({"pddl_dir": None})  # back to the default set
    with pytest.raises(ValueError):
        dataset.resolve("rooms/p01")


def test_a_manifest_in_the_directory_gives_reference_lengths(toy_dataset):
    import json

    manifest = {"instances": [{"name": "blocksworld/p01", "domain": "blocksworld", "instance": "p01",
                               "category": "sequential", "tier": "easy", "reference_length": 6}]}
    (toy_dataset / "manifest.json").write_text(json.dumps(manifest))
    by_name = {i.name: i for i in dataset.scan_directory(toy_dataset)}
    assert (by_name["blocksworld/p01"].tier, by_name["blocksworld/p01"].reference_length) == ("easy", 6)
    assert by_name["blocksworld/p02"].reference_length is None
