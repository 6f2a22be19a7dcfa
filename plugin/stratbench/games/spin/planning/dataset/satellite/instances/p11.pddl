(define (problem satellite-medium-s11)
  (:domain satellite)
  (:objects
    sat1 sat2 - satellite
    instrument1 instrument2 instrument3 - instrument
    infrared thermal spectral - mode
    star0 star1 target1 target2 target3 target4 target5 - direction)
  (:init
    (pointing sat1 star0)
    (power-available sat1)
    (pointing sat2 target5)
    (power-available sat2)
    (on-board instrument1 sat1)
    (supports instrument1 thermal)
    (calibration-target instrument1 star0)
    (on-board instrument2 sat1)
    (supports instrument2 infrared)
    (supports instrument2 spectral)
    (calibration-target instrument2 star1)
    (on-board instrument3 sat2)
    (supports instrument3 infrared)
    (supports instrument3 thermal)
    (calibration-target instrument3 star0))
  (:goal (and
    (have-image target4 spectral)
    (have-image target5 infrared)
    (have-image target2 infrared)
    (have-image target5 thermal))))
