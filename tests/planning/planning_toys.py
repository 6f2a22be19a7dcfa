"""Small PDDL tasks written for the planning tests (not part of the dataset)."""

from __future__ import annotations

from pathlib import Path

BLOCKS_DOMAIN = """; A tiny typed blocksworld for the tests.
(define (domain toy-blocks)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (clear ?x - block)
               (handempty) (holding ?x - block))
  (:action pick-up :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))
"""

# a on b, b and c on the table; goal: the tower a-b-c.
BLOCKS_P01 = """(define (problem toy-p01) (:domain toy-blocks)
  (:objects a b c - block)
  (:init (clear a) (on a b) (ontable b) (clear c) (ontable c) (handempty))
  (:goal (and (on b c) (on a b))))
"""
BLOCKS_P01_PLAN = "(unstack a b)\n(put-down a)\n(pick-up b)\n(stack b c)\n(pick-up a)\n(stack a b)"

# Three blocks on the table; goal: c on b on a.
BLOCKS_P02 = """(define (problem toy-p02) (:domain toy-blocks)
  (:objects a b c - block)
  (:init (clear a) (clear b) (clear c) (ontable a) (ontable b) (ontable c) (handempty))
  (:goal (and (on b a) (on c b))))
"""
BLOCKS_P02_PLAN = "(pick-up b)\n(stack b a)\n(pick-up c)\n(stack c b)"

COUNTERS_DOMAIN = """(define (domain toy-counters)
  (:requirements :strips :typing :numeric-fluents)
  (:types counter)
  (:functions (value ?c - counter) (max-value))
  (:action increment :parameters (?c - counter)
    :precondition (<= (+ (value ?c) 1) (max-value))
    :effect (increase (value ?c) 1))
  (:action decrement :parameters (?c - counter)
    :precondition (>= (value ?c) 1)
    :effect (decrease (value ?c) 1)))
"""
COUNTERS_P01 = """(define (problem toy-counters-p01) (:domain toy-counters)
  (:objects c0 c1 - counter)
  (:init (= (max-value) 3) (= (value c0) 2) (= (value c1) 0))
  (:goal (and (<= (+ (value c0) 1) (value c1)))))
"""

# Typed objects of two kinds, a negative precondition and a conditional effect.
ROOMS_DOMAIN = """(define (domain toy-rooms)
  (:requirements :typing :negative-preconditions :conditional-effects)
  (:types room robot box)
  (:predicates (at ?r - robot ?x - room) (in ?b - box ?x - room) (holding ?r - robot ?b - box)
               (busy ?r - robot) (connected ?x - room ?y - room))
  (:action move :parameters (?r - robot ?from - room ?to - room)
    :precondition (and (at ?r ?from) (connected ?from ?to))
    :effect (and (not (at ?r ?from)) (at ?r ?to)
                 (forall (?b - box) (when (holding ?r ?b) (and (not (in ?b ?from)) (in ?b ?to))))))
  (:action grab :parameters (?r - robot ?b - box ?x - room)
    :precondition (and (at ?r ?x) (in ?b ?x) (not (busy ?r)))
    :effect (and (holding ?r ?b) (busy ?r)))
  (:action drop :parameters (?r - robot ?b - box)
    :precondition (holding ?r ?b)
    :effect (and (not (holding ?r ?b)) (not (busy ?r)))))
"""
ROOMS_P01 = """(define (problem toy-rooms-p01) (:domain toy-rooms)
  (:objects r1 r2 - room bot - robot crate - box)
  (:init (at bot r1) (in crate r1) (connected r1 r2) (connected r2 r1))
  (:goal (and (in crate r2) (not (busy bot)))))
"""
ROOMS_P01_PLAN = "(grab bot crate r1)\n(move bot r1 r2)\n(drop bot crate)"


def write_dataset(root: Path, domains: dict[str, tuple[str, dict[str, str]]]) -> Path:
    """Writes ``{domain: (domain text, {instance: problem text})}`` in SPIN-Bench's layout."""
    for name, (domain, problems) in domains.items():
        folder = root / name
        (folder / "instances").mkdir(parents=True, exist_ok=True)
        (folder / "domain.pddl").write_text(domain)
        for instance, text in problems.items():
            (folder / "instances" / f"{instance}.pddl").write_text(text)
    return root
