(define (problem satellite-medium-s13)
  (:domain satellite)
  (:objects
    sat1 sat2 - satellite
    instrument1 instrument2 instrument3 - instrument
    infrared thermal spectral - mode
    star0 star1 target1 target2 target3 target4 target5 - direction)
  (:init
    (pointing sat1 target4)
    (power-available sat1)
    (pointing sat2 star1)
    (power-available sat2)
    (on-board instrument1 sat1)
    (supports instrument1 spectral)
    (supports instrument1 thermal)
    (calibration-target instrument1 star1)
    (on-board instrument2 sat1)
    (supports instrument2 infrared)
    (calibration-target instrument2 star0)
    (on-board instrument3 sat2)
    (supports instrument3 thermal)
    (calibration-target instrument3 star1))
  (:goal (and
    (have-image target3 spectral)
    (have-image target4 spectral)
    (have-image target2 infrared)
    (have-image target4 thermal))))
