; Cooperative sequential gripper (SPIN-Bench, sequential).
; Robots with a single gripper each move balls between rooms. A light ball
; takes one robot. A heavy ball takes two: one robot grasps it (and may not
; leave the room while it holds on), a second robot with an empty gripper
; lifts it, and then the two carry it together. Balls must be delivered to
; their target rooms in a fixed order: a delivery is allowed only when the
; ball's turn has come, and it hands the turn to the next ball. A delivered
; ball stays where it is.
(define (domain cooperate_sequential_gripper)
  (:requirements :strips :typing :negative-preconditions)
  (:types robot ball room turn)
  (:predicates
    (robot-at ?r - robot ?rm - room)
    (ball-at ?b - ball ?rm - room)
    (connected ?from - room ?to - room)
    (holding ?r - robot ?b - ball)
    (busy ?r - robot)
    (heavy ?b - ball)
    (grasped ?b - ball)
    (anchored ?r - robot)
    (team ?r1 - robot ?r2 - robot ?b - ball)
    (target ?b - ball ?rm - room)
    (delivered ?b - ball)
    (turn-of ?b - ball ?t - turn)
    (current ?t - turn)
    (next ?t1 - turn ?t2 - turn))

  (:action move
    :parameters (?r - robot ?from - room ?to - room)
    :precondition (and (robot-at ?r ?from) (connected ?from ?to) (not (anchored ?r)))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)))

  (:action pick
    :parameters (?r - robot ?b - ball ?rm - room)
    :precondition (and (not (heavy ?b)) (not (delivered ?b)) (robot-at ?r ?rm) (ball-at ?b ?rm)
                       (not (busy ?r)))
    :effect (and (holding ?r ?b) (busy ?r) (not (ball-at ?b ?rm))))

  (:action drop
    :parameters (?r - robot ?b - ball ?rm - room)
    :precondition (and (not (heavy ?b)) (robot-at ?r ?rm) (holding ?r ?b))
    :effect (and (ball-at ?b ?rm) (not (holding ?r ?b)) (not (busy ?r))))

  (:action grasp-heavy
    :parameters (?r - robot ?b - ball ?rm - room)
    :precondition (and (heavy ?b) (not (delivered ?b)) (robot-at ?r ?rm) (ball-at ?b ?rm)
                       (not (busy ?r)) (not (grasped ?b)))
    :effect (and (grasped ?b) (holding ?r ?b) (busy ?r) (anchored ?r)))

  (:action release-heavy
    :parameters (?r - robot ?b - ball)
    :precondition (and (grasped ?b) (holding ?r ?b))
    :effect (and (not (grasped ?b)) (not (holding ?r ?b)) (not (busy ?r)) (not (anchored ?r))))

  (:action lift-heavy
    :parameters (?r1 - robot ?r2 - robot ?b - ball ?rm - room)
    :precondition (and (grasped ?b) (ball-at ?b ?rm) (holding ?r1 ?b)
                       (robot-at ?r2 ?rm) (not (busy ?r2)))
    :effect (and (not (grasped ?b)) (not (ball-at ?b ?rm)) (holding ?r2 ?b) (busy ?r2)
                 (anchored ?r2) (team ?r1 ?r2 ?b)))

  (:action carry-heavy
    :parameters (?r1 - robot ?r2 - robot ?b - ball ?from - room ?to - room)
    :precondition (and (team ?r1 ?r2 ?b) (robot-at ?r1 ?from) (robot-at ?r2 ?from) (connected ?from ?to))
    :effect (and (not (robot-at ?r1 ?from)) (not (robot-at ?r2 ?from)) (robot-at ?r1 ?to) (robot-at ?r2 ?to)))

  (:action set-down-heavy
    :parameters (?r1 - robot ?r2 - robot ?b - ball ?rm - room)
    :precondition (and (team ?r1 ?r2 ?b) (robot-at ?r1 ?rm))
    :effect (and (not (team ?r1 ?r2 ?b)) (ball-at ?b ?rm)
                 (not (holding ?r1 ?b)) (not (holding ?r2 ?b)) (not (busy ?r1)) (not (busy ?r2))
                 (not (anchored ?r1)) (not (anchored ?r2))))

  (:action deliver
    :parameters (?r - robot ?b - ball ?rm - room ?t1 - turn ?t2 - turn)
    :precondition (and (not (heavy ?b)) (robot-at ?r ?rm) (holding ?r ?b)
                       (target ?b ?rm) (turn-of ?b ?t1) (current ?t1) (next ?t1 ?t2))
    :effect (and (delivered ?b) (ball-at ?b ?rm) (not (holding ?r ?b)) (not (busy ?r))
                 (not (current ?t1)) (current ?t2)))

  (:action deliver-heavy
    :parameters (?r1 - robot ?r2 - robot ?b - ball ?rm - room ?t1 - turn ?t2 - turn)
    :precondition (and (team ?r1 ?r2 ?b) (robot-at ?r1 ?rm)
                       (target ?b ?rm) (turn-of ?b ?t1) (current ?t1) (next ?t1 ?t2))
    :effect (and (delivered ?b) (not (team ?r1 ?r2 ?b)) (ball-at ?b ?rm)
                 (not (holding ?r1 ?b)) (not (holding ?r2 ?b)) (not (busy ?r1)) (not (busy ?r2))
                 (not (anchored ?r1)) (not (anchored ?r2))
                 (not (current ?t1)) (current ?t2)))
)
