;; Briefcase world: a briefcase moves between locations and carries along
;; every object inside it. Objects are put in where the briefcase is and
;; taken out wherever it is; an object left inside keeps travelling.
(define (domain briefcaseworld)
  (:requirements :adl)
  (:types location portable)
  (:predicates
    (briefcase-at ?l - location)
    (at ?o - portable ?l - location)
    (in ?o - portable))

  (:action move
    :parameters (?from - location ?to - location)
    :precondition (and (briefcase-at ?from) (not (= ?from ?to)))
    :effect (and
      (not (briefcase-at ?from))
      (briefcase-at ?to)
      (forall (?o - portable)
        (when (in ?o) (and (not (at ?o ?from)) (at ?o ?to))))))

  (:action put-in
    :parameters (?o - portable ?l - location)
    :precondition (and (not (in ?o)) (at ?o ?l) (briefcase-at ?l))
    :effect (in ?o))

  (:action take-out
    :parameters (?o - portable)
    :precondition (in ?o)
    :effect (not (in ?o))))
