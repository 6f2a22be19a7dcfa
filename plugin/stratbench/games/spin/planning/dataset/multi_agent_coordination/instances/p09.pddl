(define (problem multi_agent_coordination-medium-s9)
  (:domain multi_agent_coordination)
  (:objects
    robot1 robot2 - robot
    grip1a grip1b grip2a grip2b - gripper
    ball1 ball2 - ball
    room0 room1 room2 room3 room4 - room)
  (:init
    (connected room0 room1)
    (connected room1 room0)
    (connected room1 room2)
    (connected room2 room1)
    (connected room2 room3)
    (connected room3 room2)
    (connected room3 room4)
    (connected room4 room3)
    (robot-at robot1 room1)
    (may-enter robot1 room0)
    (may-enter robot1 room1)
    (may-enter robot1 room2)
    (gripper-of grip1a robot1)
    (gripper-of grip1b robot1)
    (robot-at robot2 room4)
    (may-enter robot2 room2)
    (may-enter robot2 room3)
    (may-enter robot2 room4)
    (gripper-of grip2a robot2)
    (gripper-of grip2b robot2)
    (ball-at ball1 room4)
    (ball-at ball2 room0))
  (:goal (and
    (ball-at ball1 room1)
    (ball-at ball2 room4))))
