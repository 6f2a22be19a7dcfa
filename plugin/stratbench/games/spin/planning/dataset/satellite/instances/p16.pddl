(define (problem satellite-hard-s16)
  (:domain satellite)
  (:objects
    sat1 sat2 sat3 - satellite
    instrument1 instrument2 instrument3 - instrument
    infrared thermal spectral visible - mode
    star0 star1 star2 target1 target2 target3 target4 target5 target6 target7 target8 - direction)
  (:init
    (pointing sat1 star0)
    (power-available sat1)
    (pointing sat2 target7)
    (power-available sat2)
    (pointing sat3 target1)
    (power-available sat3)
    (on-board instrument1 sat3)
    (supports instrument1 thermal)
    (calibration-target instrument1 star1)
    (on-board instrument2 sat2)
    (supports instrument2 spectral)
    (supports instrument2 visible)
    (calibration-target instrument2 star0)
    (on-board instrument3 sat1)
    (supports instrument3 infrared)
    (calibration-target instrument3 star2))
  (:goal (and
    (have-image target2 spectral)
    (have-image target2 thermal)
    (have-image target5 infrared)
    (have-image target8 visible)
    (have-image target4 infrared)
    (have-image target5 visible)
    (have-image target4 spectral)
    (pointing sat3 target7))))
