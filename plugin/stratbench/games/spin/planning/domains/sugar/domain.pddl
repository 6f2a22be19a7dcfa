; Sugar (SPIN-Bench, resource management).
; Sugar passes through several states on its way to the depots. Standing cane
; is harvested at a farm; trucks haul cut cane to a mill; the mill crushes
; each unit of cane into a unit of raw sugar and refines each unit of raw
; sugar into a unit of white sugar; trucks haul white sugar to depots, where it
; is stored. A truck carries at most (truck-capacity) units of cane and sugar
; together and drives directly between any two different places. Every action
; adds one to (labour).
(define (domain sugar)
  (:requirements :typing :fluents :equality)
  (:types
    place truck - object
    farm mill depot - place)
  (:predicates
    (truck-at ?t - truck ?p - place))
  (:functions
    (standing-cane ?f - farm) - number
    (cut-cane ?p - place) - number
    (raw-sugar ?m - mill) - number
    (white-sugar ?p - place) - number
    (carried-cane ?t - truck) - number
    (carried-sugar ?t - truck) - number
    (truck-capacity ?t - truck) - number
    (stored ?d - depot) - number
    (labour) - number)

  (:action harvest
    :parameters (?f - farm)
    :precondition (>= (standing-cane ?f) 1)
    :effect (and (decrease (standing-cane ?f) 1) (increase (cut-cane ?f) 1) (increase (labour) 1)))

  (:action drive
    :parameters (?t - truck ?from - place ?to - place)
    :precondition (and (truck-at ?t ?from) (not (= ?from ?to)))
    :effect (and (not (truck-at ?t ?from)) (truck-at ?t ?to) (increase (labour) 1)))

  (:action load-cane
    :parameters (?t - truck ?p - place)
    :precondition (and (truck-at ?t ?p) (>= (cut-cane ?p) 1)
                       (<= (+ (carried-cane ?t) (carried-sugar ?t)) (- (truck-capacity ?t) 1)))
    :effect (and (decrease (cut-cane ?p) 1) (increase (carried-cane ?t) 1) (increase (labour) 1)))

  (:action unload-cane
    :parameters (?t - truck ?m - mill)
    :precondition (and (truck-at ?t ?m) (>= (carried-cane ?t) 1))
    :effect (and (decrease (carried-cane ?t) 1) (increase (cut-cane ?m) 1) (increase (labour) 1)))

  (:action crush
    :parameters (?m - mill)
    :precondition (>= (cut-cane ?m) 1)
    :effect (and (decrease (cut-cane ?m) 1) (increase (raw-sugar ?m) 1) (increase (labour) 1)))

  (:action refine
    :parameters (?m - mill)
    :precondition (>= (raw-sugar ?m) 1)
    :effect (and (decrease (raw-sugar ?m) 1) (increase (white-sugar ?m) 1) (increase (labour) 1)))

  (:action load-sugar
    :parameters (?t - truck ?p - place)
    :precondition (and (truck-at ?t ?p) (>= (white-sugar ?p) 1)
                       (<= (+ (carried-cane ?t) (carried-sugar ?t)) (- (truck-capacity ?t) 1)))
    :effect (and (decrease (white-sugar ?p) 1) (increase (carried-sugar ?t) 1) (increase (labour) 1)))

  (:action unload-sugar
    :parameters (?t - truck ?d - depot)
    :precondition (and (truck-at ?t ?d) (>= (carried-sugar ?t) 1))
    :effect (and (decrease (carried-sugar ?t) 1) (increase (stored ?d) 1) (increase (labour) 1)))
)
