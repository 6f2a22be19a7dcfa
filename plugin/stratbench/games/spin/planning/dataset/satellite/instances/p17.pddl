(define (problem satellite-hard-s17)
  (:domain satellite)
  (:objects
    sat1 sat2 sat3 - satellite
    instrument1 instrument2 instrument3 - instrument
    infrared thermal spectral visible - mode
    star0 star1 star2 target1 target2 target3 target4 target5 target6 target7 target8 - direction)
  (:init
    (pointing sat1 target4)
    (power-available sat1)
    (pointing sat2 star1)
    (power-available sat2)
    (pointing sat3 target6)
    (power-available sat3)
    (on-board instrument1 sat2)
    (supports instrument1 spectral)
    (supports instrument1 thermal)
    (supports instrument1 visible)
    (calibration-target instrument1 star0)
    (on-board instrument2 sat1)
    (supports instrument2 infrared)
    (calibration-target instrument2 star1)
    (on-board instrument3 sat3)
    (supports instrument3 infrared)
    (calibration-target instrument3 star1))
  (:goal (and
    (have-image target2 thermal)
    (have-image target5 infrared)
    (have-image target3 infrared)
    (have-image target7 thermal)
    (have-image target4 infrared)
    (have-image target3 spectral)
    (have-image target4 spectral)
    (pointing sat2 target8))))
