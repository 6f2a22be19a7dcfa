; FreeCell (SPIN-Bench, resource management).
; Cards lie in columns on the table. Only the top card of a column is moved,
; one card at a time: onto a card one rank higher of the other colour, into an
; empty column, into a free cell (a cell holds one card), or home. Each suit
; builds its home pile upwards from the ace; a pile starts on the suit's rank-0
; card, which is never dealt. A card placed home stays there. A "place" is a
; card or the bottom of a column; (on ?c ?p) says card ?c lies on ?p, and
; (clear ?p) says nothing lies on ?p (for a column: the column is empty).
(define (domain freecell)
  (:requirements :strips :typing)
  (:types
    place cell - object
    card column - place)
  (:predicates
    (on ?c - card ?p - place)
    (clear ?p - place)
    (in-cell ?c - card ?f - cell)
    (cell-free ?f - cell)
    (home-top ?c - card)
    (home-next ?lower - card ?higher - card)
    (can-stack ?c - card ?under - card))

  (:action move-to-card
    :parameters (?c - card ?from - place ?to - card)
    :precondition (and (on ?c ?from) (clear ?c) (clear ?to) (can-stack ?c ?to))
    :effect (and (not (on ?c ?from)) (clear ?from) (on ?c ?to) (not (clear ?to))))

  (:action move-to-column
    :parameters (?c - card ?from - place ?col - column)
    :precondition (and (on ?c ?from) (clear ?c) (clear ?col))
    :effect (and (not (on ?c ?from)) (clear ?from) (on ?c ?col) (not (clear ?col))))

  (:action move-to-cell
    :parameters (?c - card ?from - place ?f - cell)
    :precondition (and (on ?c ?from) (clear ?c) (cell-free ?f))
    :effect (and (not (on ?c ?from)) (clear ?from) (not (clear ?c))
                 (in-cell ?c ?f) (not (cell-free ?f))))

  (:action move-home
    :parameters (?c - card ?from - place ?h - card)
    :precondition (and (on ?c ?from) (clear ?c) (home-top ?h) (home-next ?h ?c))
    :effect (and (not (on ?c ?from)) (clear ?from) (not (clear ?c))
                 (not (home-top ?h)) (home-top ?c)))

  (:action cell-to-card
    :parameters (?c - card ?f - cell ?to - card)
    :precondition (and (in-cell ?c ?f) (clear ?to) (can-stack ?c ?to))
    :effect (and (not (in-cell ?c ?f)) (cell-free ?f) (clear ?c) (on ?c ?to) (not (clear ?to))))

  (:action cell-to-column
    :parameters (?c - card ?f - cell ?col - column)
    :precondition (and (in-cell ?c ?f) (clear ?col))
    :effect (and (not (in-cell ?c ?f)) (cell-free ?f) (clear ?c) (on ?c ?col) (not (clear ?col))))

  (:action cell-home
    :parameters (?c - card ?f - cell ?h - card)
    :precondition (and (in-cell ?c ?f) (home-top ?h) (home-next ?h ?c))
    :effect (and (not (in-cell ?c ?f)) (cell-free ?f) (not (home-top ?h)) (home-top ?c)))
)
