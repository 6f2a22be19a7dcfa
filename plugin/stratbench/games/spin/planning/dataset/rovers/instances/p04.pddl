(define (problem rovers-easy-s4)
  (:domain rovers)
  (:objects
    rover0 - rover
    waypoint0 waypoint1 waypoint2 waypoint3 - waypoint
    rover0-store - store
    camera0 - camera
    colour high-res low-res - mode
    general - lander
    objective0 - objective
  )
  (:init
    (at-lander general waypoint2)
    (visible waypoint0 waypoint1)
    (visible waypoint1 waypoint0)
    (visible waypoint1 waypoint2)
    (visible waypoint1 waypoint3)
    (visible waypoint2 waypoint1)
    (visible waypoint2 waypoint3)
    (visible waypoint3 waypoint1)
    (visible waypoint3 waypoint2)
    (at rover0 waypoint2)
    (store-of rover0-store rover0)
    (empty rover0-store)
    (can-traverse rover0 waypoint0 waypoint1)
    (can-traverse rover0 waypoint1 waypoint0)
    (can-traverse rover0 waypoint1 waypoint2)
    (can-traverse rover0 waypoint1 waypoint3)
    (can-traverse rover0 waypoint2 waypoint1)
    (can-traverse rover0 waypoint3 waypoint1)
    (can-traverse rover0 waypoint3 waypoint2)
    (equipped-for-imaging rover0)
    (equipped-for-rock-analysis rover0)
    (equipped-for-soil-analysis rover0)
    (on-board camera0 rover0)
    (calibration-target camera0 objective0)
    (supports camera0 low-res)
    (visible-from objective0 waypoint3)
    (at-soil-sample waypoint2)
    (at-soil-sample waypoint3)
    (at-rock-sample waypoint1)
    (at-rock-sample waypoint2)
  )
  (:goal (and
    (communicated-soil-data waypoint2)
    (communicated-rock-data waypoint1)
  ))
)
