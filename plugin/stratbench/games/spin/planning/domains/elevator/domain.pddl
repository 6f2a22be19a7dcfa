; Elevators (SPIN-Bench, sequential).
; Lifts carry passengers between floors. Each lift stops only at the floors it
; serves and holds a limited number of passengers; its load is counted with
; count objects n0, n1, ... linked by (next-count ?n ?n+1). A passenger whose
; origin and destination share no lift changes lifts at a floor both serve.
; A lift goes straight from any floor it serves to any other. Slow lifts serve
; a block of neighbouring floors; fast lifts serve floors spread over the
; building. A trip costs 2 with a slow lift and 3 with a fast one, whatever
; its length; boarding and leaving cost 1.
(define (domain elevator)
  (:requirements :typing :action-costs)
  (:types
    slow-lift fast-lift - lift
    lift passenger floor count - object)
  (:predicates
    (lift-at ?l - lift ?f - floor)
    (passenger-at ?p - passenger ?f - floor)
    (inside ?p - passenger ?l - lift)
    (above ?high - floor ?low - floor)
    (serves ?l - lift ?f - floor)
    (load ?l - lift ?n - count)
    (next-count ?n1 - count ?n2 - count)
    (room-for ?l - lift ?n - count))
  (:functions
    (total-cost) - number)

  (:action move-up-slow
    :parameters (?l - slow-lift ?from - floor ?to - floor)
    :precondition (and (lift-at ?l ?from) (above ?to ?from) (serves ?l ?to))
    :effect (and (not (lift-at ?l ?from)) (lift-at ?l ?to) (increase (total-cost) 2)))

  (:action move-down-slow
    :parameters (?l - slow-lift ?from - floor ?to - floor)
    :precondition (and (lift-at ?l ?from) (above ?from ?to) (serves ?l ?to))
    :effect (and (not (lift-at ?l ?from)) (lift-at ?l ?to) (increase (total-cost) 2)))

  (:action move-up-fast
    :parameters (?l - fast-lift ?from - floor ?to - floor)
    :precondition (and (lift-at ?l ?from) (above ?to ?from) (serves ?l ?to))
    :effect (and (not (lift-at ?l ?from)) (lift-at ?l ?to) (increase (total-cost) 3)))

  (:action move-down-fast
    :parameters (?l - fast-lift ?from - floor ?to - floor)
    :precondition (and (lift-at ?l ?from) (above ?from ?to) (serves ?l ?to))
    :effect (and (not (lift-at ?l ?from)) (lift-at ?l ?to) (increase (total-cost) 3)))

  (:action board
    :parameters (?p - passenger ?l - lift ?f - floor ?n1 - count ?n2 - count)
    :precondition (and (passenger-at ?p ?f) (lift-at ?l ?f) (load ?l ?n1) (next-count ?n1 ?n2)
                       (room-for ?l ?n2))
    :effect (and (not (passenger-at ?p ?f)) (inside ?p ?l) (not (load ?l ?n1)) (load ?l ?n2)
                 (increase (total-cost) 1)))

  (:action leave
    :parameters (?p - passenger ?l - lift ?f - floor ?n1 - count ?n2 - count)
    :precondition (and (inside ?p ?l) (lift-at ?l ?f) (load ?l ?n1) (next-count ?n2 ?n1))
    :effect (and (not (inside ?p ?l)) (passenger-at ?p ?f) (not (load ?l ?n1)) (load ?l ?n2)
                 (increase (total-cost) 1)))
)
