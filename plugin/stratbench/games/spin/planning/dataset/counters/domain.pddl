; Counters (SPIN-Bench, resource management).
; Each counter holds a whole number between 0 and (max-value). A counter is
; raised or lowered by one at a time, or one unit is moved from one counter
; to a different one. The goal orders the counters: each named counter must
; end strictly below the next one.
(define (domain counters)
  (:requirements :strips :typing :equality :numeric-fluents)
  (:types counter)
  (:functions
    (value ?c - counter) - number
    (max-value) - number)

  (:action increment
    :parameters (?c - counter)
    :precondition (<= (+ (value ?c) 1) (max-value))
    :effect (increase (value ?c) 1))

  (:action decrement
    :parameters (?c - counter)
    :precondition (>= (value ?c) 1)
    :effect (decrease (value ?c) 1))

  (:action transfer
    :parameters (?from - counter ?to - counter)
    :precondition (and (not (= ?from ?to)) (>= (value ?from) 1) (<= (+ (value ?to) 1) (max-value)))
    :effect (and (decrease (value ?from) 1) (increase (value ?to) 1)))
)
