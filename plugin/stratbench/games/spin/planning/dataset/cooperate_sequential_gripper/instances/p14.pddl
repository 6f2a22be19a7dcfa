(define (problem cooperate_sequential_gripper-medium-s14)
  (:domain cooperate_sequential_gripper)
  (:objects
    robot1 robot2 - robot
    ball1 ball2 ball3 - ball
    room0 room1 room2 - room
    turn0 turn1 turn2 turn3 - turn)
  (:init
    (connected room0 room1)
    (connected room1 room0)
    (connected room1 room2)
    (connected room2 room1)
    (robot-at robot1 room1)
    (robot-at robot2 room2)
    (ball-at ball1 room0)
    (target ball1 room2)
    (heavy ball1)
    (turn-of ball1 turn0)
    (ball-at ball2 room1)
    (target ball2 room2)
    (turn-of ball2 turn2)
    (ball-at ball3 room0)
    (target ball3 room2)
    (turn-of ball3 turn1)
    (next turn0 turn1)
    (next turn1 turn2)
    (next turn2 turn3)
    (current turn0))
  (:goal (and
    (delivered ball1)
    (delivered ball2)
    (delivered ball3))))
