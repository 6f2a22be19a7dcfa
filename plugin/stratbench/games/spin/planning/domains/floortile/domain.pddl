;; Floortile: robots stand on tiles of a grid and paint the tile directly
;; above or below them with the colour they hold. A painted tile can no
;; longer be stepped on, and a robot can only move to a clear tile.
;; Moving up is dearer than the other moves; changing colour is dearest.
(define (domain floortile)
  (:requirements :typing :action-costs)
  (:types robot tile color)
  (:predicates
    (robot-at ?r - robot ?t - tile)
    (above ?upper - tile ?lower - tile)
    (right-of ?right - tile ?left - tile)
    (clear ?t - tile)
    (painted ?t - tile ?c - color)
    (robot-has ?r - robot ?c - color)
    (available-color ?c - color))
  (:functions (total-cost) - number)

  (:action change-color
    :parameters (?r - robot ?old - color ?new - color)
    :precondition (and (robot-has ?r ?old) (available-color ?new))
    :effect (and (not (robot-has ?r ?old)) (robot-has ?r ?new) (increase (total-cost) 5)))

  (:action paint-up
    :parameters (?r - robot ?target - tile ?pos - tile ?c - color)
    :precondition (and (robot-has ?r ?c) (robot-at ?r ?pos) (above ?target ?pos) (clear ?target))
    :effect (and (not (clear ?target)) (painted ?target ?c) (increase (total-cost) 2)))

  (:action paint-down
    :parameters (?r - robot ?target - tile ?pos - tile ?c - color)
    :precondition (and (robot-has ?r ?c) (robot-at ?r ?pos) (above ?pos ?target) (clear ?target))
    :effect (and (not (clear ?target)) (painted ?target ?c) (increase (total-cost) 2)))

  (:action move-up
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (above ?to ?from) (clear ?to))
    :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from)) (clear ?from) (not (clear ?to))
                 (increase (total-cost) 3)))

  (:action move-down
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (above ?from ?to) (clear ?to))
    :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from)) (clear ?from) (not (clear ?to))
                 (increase (total-cost) 1)))

  (:action move-right
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (right-of ?to ?from) (clear ?to))
    :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from)) (clear ?from) (not (clear ?to))
                 (increase (total-cost) 1)))

  (:action move-left
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (right-of ?from ?to) (clear ?to))
    :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from)) (clear ?from) (not (clear ?to))
                 (increase (total-cost) 1))))
