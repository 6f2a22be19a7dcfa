; Multi-agent coordination (SPIN-Bench, sequential).
; Robots with one or more grippers carry balls between rooms. Each robot may
; only enter the rooms of its own zone, so a ball whose goal lies in another
; zone has to be passed on: dropped in a room two zones share, or handed over
; directly between two robots standing in the same room.
(define (domain multi_agent_coordination)
  (:requirements :strips :typing :negative-preconditions)
  (:types robot gripper ball room)
  (:predicates
    (robot-at ?r - robot ?rm - room)
    (ball-at ?b - ball ?rm - room)
    (connected ?from - room ?to - room)
    (may-enter ?r - robot ?rm - room)
    (gripper-of ?g - gripper ?r - robot)
    (holding ?g - gripper ?b - ball)
    (busy ?g - gripper))

  (:action move
    :parameters (?r - robot ?from - room ?to - room)
    :precondition (and (robot-at ?r ?from) (connected ?from ?to) (may-enter ?r ?to))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)))

  (:action pick
    :parameters (?r - robot ?g - gripper ?b - ball ?rm - room)
    :precondition (and (gripper-of ?g ?r) (robot-at ?r ?rm) (ball-at ?b ?rm) (not (busy ?g)))
    :effect (and (holding ?g ?b) (busy ?g) (not (ball-at ?b ?rm))))

  (:action drop
    :parameters (?r - robot ?g - gripper ?b - ball ?rm - room)
    :precondition (and (gripper-of ?g ?r) (robot-at ?r ?rm) (holding ?g ?b))
    :effect (and (ball-at ?b ?rm) (not (holding ?g ?b)) (not (busy ?g))))

  (:action hand-over
    :parameters (?giver - robot ?g1 - gripper ?taker - robot ?g2 - gripper ?b - ball ?rm - room)
    :precondition (and (gripper-of ?g1 ?giver) (gripper-of ?g2 ?taker)
                       (robot-at ?giver ?rm) (robot-at ?taker ?rm)
                       (holding ?g1 ?b) (not (busy ?g2)))
    :effect (and (not (holding ?g1 ?b)) (not (busy ?g1)) (holding ?g2 ?b) (busy ?g2)))
)
