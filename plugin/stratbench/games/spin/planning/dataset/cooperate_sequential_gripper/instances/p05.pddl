(define (problem cooperate_sequential_gripper-easy-s5)
  (:domain cooperate_sequential_gripper)
  (:objects
    robot1 robot2 - robot
    ball1 - ball
    room0 room1 - room
    turn0 turn1 - turn)
  (:init
    (connected room0 room1)
    (connected room1 room0)
    (robot-at robot1 room0)
    (robot-at robot2 room0)
    (ball-at ball1 room1)
    (target ball1 room0)
    (heavy ball1)
    (turn-of ball1 turn0)
    (next turn0 turn1)
    (current turn0))
  (:goal (and
    (delivered ball1))))
