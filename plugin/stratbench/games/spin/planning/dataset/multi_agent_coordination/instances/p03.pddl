(define (problem multi_agent_coordination-easy-s3)
  (:domain multi_agent_coordination)
  (:objects
    robot1 robot2 - robot
    grip1a grip2a - gripper
    ball1 - ball
    room0 room1 room2 - room)
  (:init
    (connected room0 room1)
    (connected room1 room0)
    (connected room1 room2)
    (connected room2 room1)
    (robot-at robot1 room0)
    (may-enter robot1 room0)
    (may-enter robot1 room1)
    (gripper-of grip1a robot1)
    (robot-at robot2 room2)
    (may-enter robot2 room1)
    (may-enter robot2 room2)
    (gripper-of grip2a robot2)
    (ball-at ball1 room0))
  (:goal (and
    (ball-at ball1 room2))))
