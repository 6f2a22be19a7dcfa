; Settlers, numeric (SPIN-Bench, resource management).
; Settlers turn raw materials into houses. A cabin in a woodland lets them
; fell its trees for timber (a tree of a managed forest yields two units). A
; sawmill, built from two timber, saws timber into wood. A quarry on a
; mountain, built from one wood, breaks its rock into stone (and pollution).
; A house takes one wood and one stone. Materials lie at places; carts carry a
; few units along roads, and a rough road costs extra labour. The settlers
; should spend little labour and cause little pollution.
(define (domain settlersnumeric)
  (:requirements :typing :fluents :conditional-effects)
  (:types place cart resource)
  (:constants timber wood stone - resource)
  (:predicates
    (woodland ?p - place)
    (mountain ?p - place)
    (managed-forest ?p - place)
    (has-cabin ?p - place)
    (has-sawmill ?p - place)
    (has-quarry ?p - place)
    (road ?from - place ?to - place)
    (rough-road ?from - place ?to - place)
    (cart-at ?c - cart ?p - place))
  (:functions
    (trees ?p - place) - number
    (rock ?p - place) - number
    (available ?r - resource ?p - place) - number
    (carried ?r - resource ?c - cart) - number
    (cart-load ?c - cart) - number
    (cart-capacity ?c - cart) - number
    (housing ?p - place) - number
    (labour) - number
    (pollution) - number)

  (:action build-cabin
    :parameters (?p - place)
    :precondition (woodland ?p)
    :effect (and (has-cabin ?p) (increase (labour) 1)))

  (:action fell-timber
    :parameters (?p - place)
    :precondition (and (has-cabin ?p) (>= (trees ?p) 1))
    :effect (and (decrease (trees ?p) 1) (increase (available timber ?p) 1) (increase (labour) 1)
                 (when (managed-forest ?p) (increase (available timber ?p) 1))))

  (:action build-sawmill
    :parameters (?p - place)
    :precondition (>= (available timber ?p) 2)
    :effect (and (has-sawmill ?p) (decrease (available timber ?p) 2) (increase (labour) 2)))

  (:action saw-wood
    :parameters (?p - place)
    :precondition (and (has-sawmill ?p) (>= (available timber ?p) 1))
    :effect (and (decrease (available timber ?p) 1) (increase (available wood ?p) 1) (increase (labour) 1)))

  (:action build-quarry
    :parameters (?p - place)
    :precondition (and (mountain ?p) (>= (available wood ?p) 1))
    :effect (and (has-quarry ?p) (decrease (available wood ?p) 1) (increase (labour) 2)))

  (:action break-stone
    :parameters (?p - place)
    :precondition (and (has-quarry ?p) (>= (rock ?p) 1))
    :effect (and (decrease (rock ?p) 1) (increase (available stone ?p) 1)
                 (increase (labour) 1) (increase (pollution) 1)))

  (:action build-house
    :parameters (?p - place)
    :precondition (and (>= (available wood ?p) 1) (>= (available stone ?p) 1))
    :effect (and (decrease (available wood ?p) 1) (decrease (available stone ?p) 1)
                 (increase (housing ?p) 1) (increase (labour) 2)))

  (:action move-cart
    :parameters (?c - cart ?from - place ?to - place)
    :precondition (and (cart-at ?c ?from) (road ?from ?to))
    :effect (and (not (cart-at ?c ?from)) (cart-at ?c ?to) (increase (labour) 1)
                 (when (rough-road ?from ?to) (increase (labour) 2))))

  (:action load
    :parameters (?c - cart ?r - resource ?p - place)
    :precondition (and (cart-at ?c ?p) (>= (available ?r ?p) 1)
                       (<= (+ (cart-load ?c) 1) (cart-capacity ?c)))
    :effect (and (decrease (available ?r ?p) 1) (increase (carried ?r ?c) 1) (increase (cart-load ?c) 1)))

  (:action unload
    :parameters (?c - cart ?r - resource ?p - place)
    :precondition (and (cart-at ?c ?p) (>= (carried ?r ?c) 1))
    :effect (and (increase (available ?r ?p) 1) (decrease (carried ?r ?c) 1) (decrease (cart-load ?c) 1)))
)
