;; Sokoban: the player walks to free neighbouring cells and pushes a stone
;; one cell further in the direction it walks, if that cell is free.
;; Stones cannot be pulled. Every stone has to end on a goal cell.
(define (domain sokoban)
  (:requirements :typing)
  (:types
    thing location direction - object
    player stone - thing)
  (:predicates
    (at ?t - thing ?l - location)
    (clear ?l - location)
    (move-dir ?from - location ?to - location ?d - direction)
    (is-goal ?l - location)
    (is-nongoal ?l - location)
    (at-goal ?s - stone))

  (:action move
    :parameters (?p - player ?from - location ?to - location ?d - direction)
    :precondition (and (at ?p ?from) (clear ?to) (move-dir ?from ?to ?d))
    :effect (and (not (at ?p ?from)) (not (clear ?to)) (at ?p ?to) (clear ?from)))

  (:action push-to-nongoal
    :parameters (?p - player ?s - stone ?ppos - location ?from - location ?to - location ?d - direction)
    :precondition (and (at ?p ?ppos) (at ?s ?from) (clear ?to)
                       (move-dir ?ppos ?from ?d) (move-dir ?from ?to ?d) (is-nongoal ?to))
    :effect (and (not (at ?p ?ppos)) (not (at ?s ?from)) (not (clear ?to))
                 (at ?p ?from) (at ?s ?to) (clear ?ppos) (not (at-goal ?s))))

  (:action push-to-goal
    :parameters (?p - player ?s - stone ?ppos - location ?from - location ?to - location ?d - direction)
    :precondition (and (at ?p ?ppos) (at ?s ?from) (clear ?to)
                       (move-dir ?ppos ?from ?d) (move-dir ?from ?to ?d) (is-goal ?to))
    :effect (and (not (at ?p ?ppos)) (not (at ?s ?from)) (not (clear ?to))
                 (at ?p ?from) (at ?s ?to) (clear ?ppos) (at-goal ?s))))
