(define (problem satellite-easy-s6)
  (:domain satellite)
  (:objects
    sat1 - satellite
    instrument1 - instrument
    infrared thermal - mode
    star0 target1 target2 target3 - direction)
  (:init
    (pointing sat1 target1)
    (power-available sat1)
    (on-board instrument1 sat1)
    (supports instrument1 infrared)
    (supports instrument1 thermal)
    (calibration-target instrument1 star0))
  (:goal (and
    (have-image target2 infrared)
    (have-image target1 infrared))))
