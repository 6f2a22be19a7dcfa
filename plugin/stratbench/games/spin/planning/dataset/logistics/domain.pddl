;; Logistics: packages travel between locations. Trucks move within one city,
;; airplanes fly between airports. Untyped STRIPS: object kinds are unary predicates.
(define (domain logistics)
  (:requirements :strips)
  (:predicates
    (package ?p) (truck ?t) (airplane ?a)
    (location ?l) (airport ?l) (city ?c)
    (in-city ?l ?c)
    (at ?x ?l)
    (in ?p ?v))

  (:action load-truck
    :parameters (?p ?t ?l)
    :precondition (and (package ?p) (truck ?t) (location ?l) (at ?t ?l) (at ?p ?l))
    :effect (and (not (at ?p ?l)) (in ?p ?t)))

  (:action unload-truck
    :parameters (?p ?t ?l)
    :precondition (and (package ?p) (truck ?t) (location ?l) (at ?t ?l) (in ?p ?t))
    :effect (and (not (in ?p ?t)) (at ?p ?l)))

  (:action load-airplane
    :parameters (?p ?a ?l)
    :precondition (and (package ?p) (airplane ?a) (airport ?l) (at ?a ?l) (at ?p ?l))
    :effect (and (not (at ?p ?l)) (in ?p ?a)))

  (:action unload-airplane
    :parameters (?p ?a ?l)
    :precondition (and (package ?p) (airplane ?a) (airport ?l) (at ?a ?l) (in ?p ?a))
    :effect (and (not (in ?p ?a)) (at ?p ?l)))

  (:action drive-truck
    :parameters (?t ?from ?to ?c)
    :precondition (and (truck ?t) (location ?from) (location ?to) (city ?c)
                       (at ?t ?from) (in-city ?from ?c) (in-city ?to ?c))
    :effect (and (not (at ?t ?from)) (at ?t ?to)))

  (:action fly-airplane
    :parameters (?a ?from ?to)
    :precondition (and (airplane ?a) (airport ?from) (airport ?to) (at ?a ?from))
    :effect (and (not (at ?a ?from)) (at ?a ?to))))
