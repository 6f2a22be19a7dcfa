;; Drone: a drone flies one cell at a time in x, y or z inside the bounds of
;; the map. Every move costs one unit of battery; the battery is recharged to
;; capacity at the base, (0, 0, 0). A location is visited by being at its
;; coordinates. Numeric fluents hold the position and the battery.
(define (domain drone)
  (:requirements :typing :numeric-fluents)
  (:types location)
  (:predicates
    (visited ?l - location))
  (:functions
    (x) (y) (z)
    (min-x) (max-x) (min-y) (max-y) (min-z) (max-z)
    (loc-x ?l - location) (loc-y ?l - location) (loc-z ?l - location)
    (battery-level) (battery-capacity))

  (:action increase-x
    :parameters ()
    :precondition (and (< (x) (max-x)) (>= (battery-level) 1))
    :effect (and (increase (x) 1) (decrease (battery-level) 1)))

  (:action decrease-x
    :parameters ()
    :precondition (and (> (x) (min-x)) (>= (battery-level) 1))
    :effect (and (decrease (x) 1) (decrease (battery-level) 1)))

  (:action increase-y
    :parameters ()
    :precondition (and (< (y) (max-y)) (>= (battery-level) 1))
    :effect (and (increase (y) 1) (decrease (battery-level) 1)))

  (:action decrease-y
    :parameters ()
    :precondition (and (> (y) (min-y)) (>= (battery-level) 1))
    :effect (and (decrease (y) 1) (decrease (battery-level) 1)))

  (:action increase-z
    :parameters ()
    :precondition (and (< (z) (max-z)) (>= (battery-level) 1))
    :effect (and (increase (z) 1) (decrease (battery-level) 1)))

  (:action decrease-z
    :parameters ()
    :precondition (and (> (z) (min-z)) (>= (battery-level) 1))
    :effect (and (decrease (z) 1) (decrease (battery-level) 1)))

  (:action visit
    :parameters (?l - location)
    :precondition (and (= (x) (loc-x ?l)) (= (y) (loc-y ?l)) (= (z) (loc-z ?l)))
    :effect (visited ?l))

  (:action recharge
    :parameters ()
    :precondition (and (= (x) 0) (= (y) 0) (= (z) 0))
    :effect (assign (battery-level) (battery-capacity))))
