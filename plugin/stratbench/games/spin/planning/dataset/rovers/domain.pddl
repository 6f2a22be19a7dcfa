;; Rovers: rovers drive between waypoints along the paths each of them can
;; traverse, analyse soil and rock samples (one sample per store at a time),
;; calibrate cameras and take images of objectives, and send every result to
;; the lander from a waypoint that can see the lander's waypoint.
(define (domain rovers)
  (:requirements :strips :typing)
  (:types rover waypoint store camera mode lander objective)
  (:predicates
    (at ?r - rover ?w - waypoint)
    (at-lander ?l - lander ?w - waypoint)
    (can-traverse ?r - rover ?from - waypoint ?to - waypoint)
    (visible ?w1 - waypoint ?w2 - waypoint)
    (equipped-for-soil-analysis ?r - rover)
    (equipped-for-rock-analysis ?r - rover)
    (equipped-for-imaging ?r - rover)
    (store-of ?s - store ?r - rover)
    (empty ?s - store)
    (full ?s - store)
    (at-soil-sample ?w - waypoint)
    (at-rock-sample ?w - waypoint)
    (have-soil-analysis ?r - rover ?w - waypoint)
    (have-rock-analysis ?r - rover ?w - waypoint)
    (on-board ?c - camera ?r - rover)
    (supports ?c - camera ?m - mode)
    (calibration-target ?c - camera ?o - objective)
    (calibrated ?c - camera ?r - rover)
    (visible-from ?o - objective ?w - waypoint)
    (have-image ?r - rover ?o - objective ?m - mode)
    (communicated-soil-data ?w - waypoint)
    (communicated-rock-data ?w - waypoint)
    (communicated-image-data ?o - objective ?m - mode))

  (:action navigate
    :parameters (?r - rover ?from - waypoint ?to - waypoint)
    :precondition (and (at ?r ?from) (can-traverse ?r ?from ?to) (visible ?from ?to))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action sample-soil
    :parameters (?r - rover ?s - store ?w - waypoint)
    :precondition (and (at ?r ?w) (at-soil-sample ?w) (equipped-for-soil-analysis ?r)
                       (store-of ?s ?r) (empty ?s))
    :effect (and (not (empty ?s)) (full ?s) (have-soil-analysis ?r ?w) (not (at-soil-sample ?w))))

  (:action sample-rock
    :parameters (?r - rover ?s - store ?w - waypoint)
    :precondition (and (at ?r ?w) (at-rock-sample ?w) (equipped-for-rock-analysis ?r)
                       (store-of ?s ?r) (empty ?s))
    :effect (and (not (empty ?s)) (full ?s) (have-rock-analysis ?r ?w) (not (at-rock-sample ?w))))

  (:action drop
    :parameters (?r - rover ?s - store)
    :precondition (and (store-of ?s ?r) (full ?s))
    :effect (and (not (full ?s)) (empty ?s)))

  (:action calibrate
    :parameters (?r - rover ?c - camera ?o - objective ?w - waypoint)
    :precondition (and (equipped-for-imaging ?r) (on-board ?c ?r) (calibration-target ?c ?o)
                       (at ?r ?w) (visible-from ?o ?w))
    :effect (calibrated ?c ?r))

  (:action take-image
    :parameters (?r - rover ?w - waypoint ?o - objective ?c - camera ?m - mode)
    :precondition (and (calibrated ?c ?r) (on-board ?c ?r) (equipped-for-imaging ?r)
                       (supports ?c ?m) (visible-from ?o ?w) (at ?r ?w))
    :effect (and (have-image ?r ?o ?m) (not (calibrated ?c ?r))))

  (:action communicate-soil-data
    :parameters (?r - rover ?l - lander ?w - waypoint ?x - waypoint ?y - waypoint)
    :precondition (and (at ?r ?x) (at-lander ?l ?y) (have-soil-analysis ?r ?w) (visible ?x ?y))
    :effect (communicated-soil-data ?w))

  (:action communicate-rock-data
    :parameters (?r - rover ?l - lander ?w - waypoint ?x - waypoint ?y - waypoint)
    :precondition (and (at ?r ?x) (at-lander ?l ?y) (have-rock-analysis ?r ?w) (visible ?x ?y))
    :effect (communicated-rock-data ?w))

  (:action communicate-image-data
    :parameters (?r - rover ?l - lander ?o - objective ?m - mode ?x - waypoint ?y - waypoint)
    :precondition (and (at ?r ?x) (at-lander ?l ?y) (have-image ?r ?o ?m) (visible ?x ?y))
    :effect (communicated-image-data ?o ?m)))
