(define (problem satellite-medium-s9)
  (:domain satellite)
  (:objects
    sat1 sat2 - satellite
    instrument1 instrument2 instrument3 - instrument
    infrared thermal spectral - mode
    star0 star1 target1 target2 target3 target4 target5 - direction)
  (:init
    (pointing sat1 target4)
    (power-available sat1)
    (pointing sat2 target4)
    (power-available sat2)
    (on-board instrument1 sat2)
    (supports instrument1 spectral)
    (calibration-target instrument1 star1)
    (on-board instrument2 sat1)
    (supports instrument2 spectral)
    (calibration-target instrument2 star1)
    (on-board instrument3 sat1)
    (supports instrument3 infrared)
    (supports instrument3 thermal)
    (calibration-target instrument3 star0))
  (:goal (and
    (have-image target2 spectral)
    (have-image target3 infrared)
    (have-image target5 infrared)
    (have-image target4 thermal))))
