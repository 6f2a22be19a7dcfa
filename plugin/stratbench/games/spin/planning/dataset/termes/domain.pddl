;; Termes: a robot moves over a grid of stacks of blocks. It may step to a
;; neighbouring stack of the same height, one block higher or one lower. It
;; gets and returns blocks at the depot, and places (or removes) a block on a
;; neighbouring stack whose height equals the height it stands on. No block
;; may be placed on the depot.
(define (domain termes)
  (:requirements :typing :negative-preconditions)
  (:types numb position)
  (:predicates
    (height ?p - position ?h - numb)
    (at ?p - position)
    (has-block)
    (succ ?n1 - numb ?n2 - numb)
    (neighbor ?p1 - position ?p2 - position)
    (is-depot ?p - position))

  (:action move
    :parameters (?from - position ?to - position ?h - numb)
    :precondition (and (at ?from) (neighbor ?from ?to) (height ?from ?h) (height ?to ?h))
    :effect (and (not (at ?from)) (at ?to)))

  (:action move-up
    :parameters (?from - position ?hfrom - numb ?to - position ?hto - numb)
    :precondition (and (at ?from) (neighbor ?from ?to) (height ?from ?hfrom) (height ?to ?hto)
                       (succ ?hfrom ?hto))
    :effect (and (not (at ?from)) (at ?to)))

  (:action move-down
    :parameters (?from - position ?hfrom - numb ?to - position ?hto - numb)
    :precondition (and (at ?from) (neighbor ?from ?to) (height ?from ?hfrom) (height ?to ?hto)
                       (succ ?hto ?hfrom))
    :effect (and (not (at ?from)) (at ?to)))

  (:action place-block
    :parameters (?rpos - position ?bpos - position ?hbefore - numb ?hafter - numb)
    :precondition (and (at ?rpos) (neighbor ?rpos ?bpos) (height ?rpos ?hbefore)
                       (height ?bpos ?hbefore) (succ ?hbefore ?hafter) (has-block)
                       (not (is-depot ?bpos)))
    :effect (and (not (height ?bpos ?hbefore)) (height ?bpos ?hafter) (not (has-block))))

  (:action remove-block
    :parameters (?rpos - position ?bpos - position ?hbefore - numb ?hafter - numb)
    :precondition (and (at ?rpos) (neighbor ?rpos ?bpos) (height ?rpos ?hafter)
                       (height ?bpos ?hbefore) (succ ?hafter ?hbefore) (not (has-block)))
    :effect (and (not (height ?bpos ?hbefore)) (height ?bpos ?hafter) (has-block)))

  (:action create-block
    :parameters (?p - position)
    :precondition (and (at ?p) (is-depot ?p) (not (has-block)))
    :effect (has-block))

  (:action destroy-block
    :parameters (?p - position)
    :precondition (and (at ?p) (is-depot ?p) (has-block))
    :effect (not (has-block))))
