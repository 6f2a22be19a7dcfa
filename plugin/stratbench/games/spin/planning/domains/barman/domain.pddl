; Barman (SPIN-Bench, sequential).
; A robot barman with two hands serves drinks into shot glasses. Ingredients
; come from dispensers; a cocktail is made by pouring its two ingredients into
; a shaker and shaking it. Filling, cleaning and shaking need the other hand
; free. A shot must be clean to be filled with a new drink (refilling with the
; same drink is allowed), and a glass must be empty before it is cleaned. The
; shaker's level counts the portions in it; after shaking, each pour into a
; shot takes one portion, and pouring the last portion leaves it empty. Every
; action costs 1, except cleaning, which costs 2.
(define (domain barman)
  (:requirements :strips :typing :action-costs)
  (:types
    hand level dispenser container beverage - object
    shot shaker - container
    ingredient cocktail - beverage)
  (:predicates
    (on-table ?c - container)
    (holding ?h - hand ?c - container)
    (hand-empty ?h - hand)
    (empty ?c - container)
    (contains ?c - container ?b - beverage)
    (clean ?c - container)
    (used ?c - container ?b - beverage)
    (dispenses ?d - dispenser ?i - ingredient)
    (shaker-level ?s - shaker ?l - level)
    (next-level ?l1 - level ?l2 - level)
    (bottom-level ?l - level)
    (filled-level ?l - level)
    (unshaken ?s - shaker)
    (shaken ?s - shaker)
    (first-part ?c - cocktail ?i - ingredient)
    (second-part ?c - cocktail ?i - ingredient))
  (:functions
    (total-cost) - number)

  (:action grasp
    :parameters (?h - hand ?c - container)
    :precondition (and (on-table ?c) (hand-empty ?h))
    :effect (and (not (on-table ?c)) (not (hand-empty ?h)) (holding ?h ?c) (increase (total-cost) 1)))

  (:action leave
    :parameters (?h - hand ?c - container)
    :precondition (holding ?h ?c)
    :effect (and (not (holding ?h ?c)) (hand-empty ?h) (on-table ?c) (increase (total-cost) 1)))

  (:action fill-shot
    :parameters (?s - shot ?i - ingredient ?h1 - hand ?h2 - hand ?d - dispenser)
    :precondition (and (holding ?h1 ?s) (hand-empty ?h2) (dispenses ?d ?i) (empty ?s) (clean ?s))
    :effect (and (not (empty ?s)) (not (clean ?s)) (contains ?s ?i) (used ?s ?i)
                 (increase (total-cost) 1)))

  (:action refill-shot
    :parameters (?s - shot ?i - ingredient ?h1 - hand ?h2 - hand ?d - dispenser)
    :precondition (and (holding ?h1 ?s) (hand-empty ?h2) (dispenses ?d ?i) (empty ?s) (used ?s ?i))
    :effect (and (not (empty ?s)) (contains ?s ?i) (increase (total-cost) 1)))

  (:action empty-shot
    :parameters (?h - hand ?s - shot ?b - beverage)
    :precondition (and (holding ?h ?s) (contains ?s ?b))
    :effect (and (not (contains ?s ?b)) (empty ?s) (increase (total-cost) 1)))

  (:action clean-shot
    :parameters (?s - shot ?b - beverage ?h1 - hand ?h2 - hand)
    :precondition (and (holding ?h1 ?s) (hand-empty ?h2) (empty ?s) (used ?s ?b))
    :effect (and (not (used ?s ?b)) (clean ?s) (increase (total-cost) 2)))

  (:action pour-shot-to-clean-shaker
    :parameters (?s - shot ?i - ingredient ?sh - shaker ?h - hand ?l1 - level ?l2 - level)
    :precondition (and (holding ?h ?s) (contains ?s ?i) (empty ?sh) (clean ?sh)
                       (shaker-level ?sh ?l1) (next-level ?l1 ?l2))
    :effect (and (not (contains ?s ?i)) (empty ?s)
                 (not (empty ?sh)) (not (clean ?sh)) (contains ?sh ?i) (unshaken ?sh)
                 (not (shaker-level ?sh ?l1)) (shaker-level ?sh ?l2) (increase (total-cost) 1)))

  (:action pour-shot-to-used-shaker
    :parameters (?s - shot ?i - ingredient ?sh - shaker ?h - hand ?l1 - level ?l2 - level)
    :precondition (and (holding ?h ?s) (contains ?s ?i) (unshaken ?sh)
                       (shaker-level ?sh ?l1) (next-level ?l1 ?l2))
    :effect (and (not (contains ?s ?i)) (empty ?s) (contains ?sh ?i)
                 (not (shaker-level ?sh ?l1)) (shaker-level ?sh ?l2) (increase (total-cost) 1)))

  (:action shake
    :parameters (?c - cocktail ?i1 - ingredient ?i2 - ingredient ?sh - shaker ?h1 - hand ?h2 - hand)
    :precondition (and (holding ?h1 ?sh) (hand-empty ?h2) (unshaken ?sh)
                       (contains ?sh ?i1) (contains ?sh ?i2) (first-part ?c ?i1) (second-part ?c ?i2))
    :effect (and (not (unshaken ?sh)) (shaken ?sh) (not (contains ?sh ?i1)) (not (contains ?sh ?i2))
                 (contains ?sh ?c) (increase (total-cost) 1)))

  (:action pour-shaker-to-shot
    :parameters (?c - cocktail ?s - shot ?h - hand ?sh - shaker ?l1 - level ?l2 - level)
    :precondition (and (holding ?h ?sh) (shaken ?sh) (contains ?sh ?c) (empty ?s) (clean ?s)
                       (shaker-level ?sh ?l1) (next-level ?l2 ?l1) (filled-level ?l2))
    :effect (and (not (empty ?s)) (not (clean ?s)) (contains ?s ?c) (used ?s ?c)
                 (not (shaker-level ?sh ?l1)) (shaker-level ?sh ?l2) (increase (total-cost) 1)))

  (:action pour-last-shaker-to-shot
    :parameters (?c - cocktail ?s - shot ?h - hand ?sh - shaker ?l1 - level ?l0 - level)
    :precondition (and (holding ?h ?sh) (shaken ?sh) (contains ?sh ?c) (empty ?s) (clean ?s)
                       (shaker-level ?sh ?l1) (next-level ?l0 ?l1) (bottom-level ?l0))
    :effect (and (not (empty ?s)) (not (clean ?s)) (contains ?s ?c) (used ?s ?c)
                 (not (shaker-level ?sh ?l1)) (shaker-level ?sh ?l0)
                 (not (contains ?sh ?c)) (not (shaken ?sh)) (empty ?sh) (increase (total-cost) 1)))

  (:action empty-shaker
    :parameters (?h - hand ?sh - shaker ?c - cocktail ?l - level ?l0 - level)
    :precondition (and (holding ?h ?sh) (shaken ?sh) (contains ?sh ?c)
                       (shaker-level ?sh ?l) (filled-level ?l) (bottom-level ?l0))
    :effect (and (not (contains ?sh ?c)) (not (shaken ?sh)) (empty ?sh)
                 (not (shaker-level ?sh ?l)) (shaker-level ?sh ?l0) (increase (total-cost) 1)))

  (:action clean-shaker
    :parameters (?h1 - hand ?h2 - hand ?sh - shaker)
    :precondition (and (holding ?h1 ?sh) (hand-empty ?h2) (empty ?sh))
    :effect (and (clean ?sh) (increase (total-cost) 2)))
)
