"""Small tasks written the way externally written datasets write them: PDDL VAL accepts and unified-planning's
reader, as is, does not. One task per construct, each with a valid plan in its original names."""

from __future__ import annotations

# Names with dots (objects, the problem, the domain) and a slash.
DOTTED_DOMAIN = """(define (domain grid-3-3-PG0.5)
  (:requirements :strips :typing)
  (:types cell)
  (:predicates (at ?c - cell) (adjacent ?a - cell ?b - cell) (visited ?c - cell))
  (:action move :parameters (?from - cell ?to - cell)
    :precondition (and (at ?from) (adjacent ?from ?to))
    :effect (and (not (at ?from)) (at ?to) (visited ?to))))
"""
DOTTED_PROBLEM = """(define (problem grid-3-3-S1-K2-L2-PG0.5-typedFalse-seed1) (:domain grid-3-3-PG0.5)
  (:objects c0.0 c0.1 c1/1 - cell)
  (:init (at c0.0) (adjacent c0.0 c0.1) (adjacent c0.1 c1/1))
  (:goal (visited c1/1)))
"""
DOTTED_PLAN = "(move c0.0 c0.1)\n(move c0.1 c1/1)"

# (either ...) in a parameter (not exact: 'vehicle' also has bikes), in a predicate and in a quantifier.
EITHER_DOMAIN = """(define (domain transport)
  (:requirements :strips :typing :universal-preconditions)
  (:types truck plane bike - vehicle place)
  (:predicates (at ?v - (either truck plane) ?p - place) (fuelled ?v - vehicle) (done))
  (:action refuel :parameters (?v - (either truck plane) ?p - place)
    :precondition (at ?v ?p)
    :effect (fuelled ?v))
  (:action finish :parameters ()
    :precondition (forall (?v - (either truck plane)) (fuelled ?v))
    :effect (done)))
"""
EITHER_PROBLEM = """(define (problem transport-1) (:domain transport)
  (:objects t1 - truck p1 - plane b1 - bike depot - place)
  (:init (at t1 depot) (at p1 depot))
  (:goal (done)))
"""
EITHER_PLAN = "(refuel t1 depot)\n(refuel p1 depot)\n(finish)"

# One name in two roles: 'fuel' a predicate and a function; 'spare' an object and a predicate; 'crate' a type
# and an object.
TWICE_DOMAIN = """(define (domain depot-twice)
  (:requirements :strips :typing :numeric-fluents)
  (:types crate place)
  (:predicates (fuel ?p - place) (spare) (stored ?c - crate ?p - place))
  (:functions (fuel ?p - place))
  (:action store :parameters (?c - crate ?p - place)
    :precondition (and (fuel ?p) (>= (fuel ?p) 1))
    :effect (and (stored ?c ?p) (decrease (fuel ?p) 1))))
"""
TWICE_PROBLEM = """(define (problem depot-twice-1) (:domain depot-twice)
  (:objects crate spare - crate home - place)
  (:init (fuel home) (= (fuel home) 1))
  (:goal (stored crate home)))
"""
TWICE_PLAN = "(store crate home)"

# A type declared a subtype of itself; an initial value of a function the domain never declares.
SELF_DOMAIN = """(define (domain robots)
  (:requirements :strips :typing)
  (:types robot gripper - robot room)
  (:predicates (in ?r - robot ?x - room) (free ?g - gripper))
  (:action go :parameters (?r - robot ?a - room ?b - room)
    :precondition (in ?r ?a)
    :effect (and (not (in ?r ?a)) (in ?r ?b))))
"""
SELF_PROBLEM = """(define (problem robots-1) (:domain robots)
  (:objects r1 - robot g1 - gripper kitchen hall - room)
  (:init (in r1 kitchen) (free g1) (= (battery r1) 10) (= (total-cost) 0))
  (:goal (in r1 hall)))
"""
SELF_PLAN = "(go r1 kitchen hall)"

# Numeric fluents without an initial value: 'charge' is assigned before it is read.
UNDEFINED_DOMAIN = """(define (domain charging)
  (:requirements :strips :typing :numeric-fluents)
  (:types drone)
  (:predicates (docked ?d - drone) (flown ?d - drone))
  (:functions (charge ?d - drone) (capacity))
  (:action charge :parameters (?d - drone)
    :precondition (docked ?d)
    :effect (assign (charge ?d) (capacity)))
  (:action fly :parameters (?d - drone)
    :precondition (>= (charge ?d) 2)
    :effect (and (flown ?d) (decrease (charge ?d) 2)))
  (:action top-up :parameters (?d - drone)
    :precondition (docked ?d)
    :effect (increase (charge ?d) 1)))
"""
UNDEFINED_PROBLEM = """(define (problem charging-1) (:domain charging)
  (:objects d1 - drone)
  (:init (docked d1) (= (capacity) 3))
  (:goal (and (flown d1) (>= (charge d1) 1))))
"""
UNDEFINED_PLAN = "(charge d1)\n(fly d1)"

# Derived predicates: 'clear' and 'handempty' derived from on and holding; 'low' by two rules (a disjunction);
# 'tower-of-two' through 'low' and 'clear'. The goal names a derived predicate; 'clear' quantifies ?y, the name of
# stack's second parameter.
DERIVED_DOMAIN = """(define (domain blocks-derived)
  (:requirements :strips :typing :derived-predicates :negative-preconditions :existential-preconditions)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (holding ?x - block)
               (clear ?x - block) (handempty) (low ?x - block) (tower-of-two ?x - block))
  (:derived (clear ?x - block) (and (not (holding ?x)) (not (exists (?y - block) (on ?y ?x)))))
  (:derived (handempty) (not (exists (?b - block) (holding ?b))))
  (:derived (low ?x - block) (ontable ?x))
  (:derived (low ?x - block) (exists (?y - block) (and (on ?x ?y) (ontable ?y))))
  (:derived (tower-of-two ?x - block) (and (low ?x) (not (ontable ?x)) (clear ?x)))
  (:action pick-up :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (holding ?x)))
  (:action put-down :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and (not (holding ?x)) (ontable ?x)))
  (:action stack :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (on ?x ?y)))
  (:action unstack :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (not (on ?x ?y)))))
"""
DERIVED_PROBLEM = """(define (problem blocks-derived-1) (:domain blocks-derived)
  (:objects a b c - block)
  (:init (on c a) (ontable a) (ontable b))
  (:goal (tower-of-two a)))
"""
DERIVED_PLAN = "(unstack c a)\n(put-down c)\n(pick-up a)\n(stack a b)"

# A predicate declared with one parameter name twice, (in ?obj ?obj).
REPEATED_DOMAIN = """(define (domain boxes)
  (:requirements :strips)
  (:predicates (in ?obj ?obj) (free ?obj) (unlocked ?obj))
  (:action unlock :parameters (?b)
    :precondition (not (unlocked ?b))
    :effect (unlocked ?b))
  (:action put :parameters (?a ?b)
    :precondition (and (free ?a) (unlocked ?b))
    :effect (and (in ?a ?b) (not (free ?a)))))
"""
REPEATED_PROBLEM = """(define (problem boxes-1) (:domain boxes)
  (:objects toy box)
  (:init (free toy))
  (:goal (in toy box)))
"""
REPEATED_PLAN = "(unlock box)\n(put toy box)"

WILD_TASKS = {
    "dotted": (DOTTED_DOMAIN, DOTTED_PROBLEM, DOTTED_PLAN),
    "either": (EITHER_DOMAIN, EITHER_PROBLEM, EITHER_PLAN),
    "twice": (TWICE_DOMAIN, TWICE_PROBLEM, TWICE_PLAN),
    "self-subtype": (SELF_DOMAIN, SELF_PROBLEM, SELF_PLAN),
    "undefined-numeric": (UNDEFINED_DOMAIN, UNDEFINED_PROBLEM, UNDEFINED_PLAN),
    "derived": (DERIVED_DOMAIN, DERIVED_PROBLEM, DERIVED_PLAN),
    "repeated-parameter": (REPEATED_DOMAIN, REPEATED_PROBLEM, REPEATED_PLAN),
}
"""Each construct's task: ``{name: (domain, problem, valid plan)}``."""
