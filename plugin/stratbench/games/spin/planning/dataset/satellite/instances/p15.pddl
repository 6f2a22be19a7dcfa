(define (problem satellite-hard-s15)
  (:domain satellite)
  (:objects
    sat1 sat2 sat3 - satellite
    instrument1 instrument2 instrument3 - instrument
    infrared thermal spectral visible - mode
    star0 star1 star2 target1 target2 target3 target4 target5 target6 target7 target8 - direction)
  (:init
    (pointing sat1 target5)
    (power-available sat1)
    (pointing sat2 target5)
    (power-available sat2)
    (pointing sat3 target5)
    (power-available sat3)
    (on-board instrument1 sat1)
    (supports instrument1 spectral)
    (supports instrument1 thermal)
    (calibration-target instrument1 star2)
    (on-board instrument2 sat3)
    (supports instrument2 infrared)
    (supports instrument2 spectral)
    (calibration-target instrument2 star2)
    (on-board instrument3 sat2)
    (supports instrument3 visible)
    (calibration-target instrument3 star1))
  (:goal (and
    (have-image target7 thermal)
    (have-image target4 spectral)
    (have-image target4 infrared)
    (have-image target6 thermal)
    (have-image target5 infrared)
    (have-image target2 visible)
    (have-image target5 visible)
    (pointing sat2 target5))))
