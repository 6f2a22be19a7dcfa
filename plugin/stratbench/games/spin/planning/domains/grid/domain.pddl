;; Grid: a robot walks between connected places. Locked places must be
;; unlocked from a neighbouring place with a key of the lock's shape.
;; The robot holds at most one key; keys are never used up.
(define (domain grid)
  (:requirements :strips)
  (:predicates
    (place ?p) (key ?k) (shape ?s)
    (conn ?from ?to)
    (key-shape ?k ?s) (lock-shape ?p ?s)
    (locked ?p) (open ?p)
    (at-robot ?p) (at ?k ?p)
    (holding ?k) (arm-empty))

  (:action move
    :parameters (?from ?to)
    :precondition (and (place ?from) (place ?to) (at-robot ?from) (conn ?from ?to) (open ?to))
    :effect (and (not (at-robot ?from)) (at-robot ?to)))

  (:action unlock
    :parameters (?pos ?lockpos ?k ?s)
    :precondition (and (place ?pos) (place ?lockpos) (key ?k) (shape ?s)
                       (at-robot ?pos) (conn ?pos ?lockpos) (locked ?lockpos)
                       (lock-shape ?lockpos ?s) (key-shape ?k ?s) (holding ?k))
    :effect (and (not (locked ?lockpos)) (open ?lockpos)))

  (:action pickup
    :parameters (?pos ?k)
    :precondition (and (place ?pos) (key ?k) (at-robot ?pos) (at ?k ?pos) (arm-empty))
    :effect (and (not (at ?k ?pos)) (not (arm-empty)) (holding ?k)))

  (:action pickup-and-lose
    :parameters (?pos ?new ?old)
    :precondition (and (place ?pos) (key ?new) (key ?old)
                       (at-robot ?pos) (at ?new ?pos) (holding ?old))
    :effect (and (not (at ?new ?pos)) (holding ?new) (not (holding ?old)) (at ?old ?pos)))

  (:action putdown
    :parameters (?pos ?k)
    :precondition (and (place ?pos) (key ?k) (at-robot ?pos) (holding ?k))
    :effect (and (not (holding ?k)) (arm-empty) (at ?k ?pos))))
