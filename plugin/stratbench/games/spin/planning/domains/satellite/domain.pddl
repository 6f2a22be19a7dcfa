; Satellite (SPIN-Bench, resource management).
; Satellites carry instruments that support imaging modes. A satellite turns
; from one direction to another; its power supply runs one instrument at a
; time, so an instrument must be switched off before another on the same
; satellite is switched on. An instrument loses its calibration when switched
; on and is calibrated by pointing at one of its calibration targets. An image
; of a direction in a mode is taken by a powered, calibrated instrument that
; supports the mode, on a satellite pointing at that direction. Deletes apply
; before adds, so turning to the direction a satellite already points at
; changes nothing.
(define (domain satellite)
  (:requirements :strips :typing)
  (:types satellite direction instrument mode)
  (:predicates
    (on-board ?i - instrument ?s - satellite)
    (supports ?i - instrument ?m - mode)
    (pointing ?s - satellite ?d - direction)
    (power-available ?s - satellite)
    (power-on ?i - instrument)
    (calibrated ?i - instrument)
    (calibration-target ?i - instrument ?d - direction)
    (have-image ?d - direction ?m - mode))

  (:action turn-to
    :parameters (?s - satellite ?new - direction ?old - direction)
    :precondition (pointing ?s ?old)
    :effect (and (pointing ?s ?new) (not (pointing ?s ?old))))

  (:action switch-on
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on-board ?i ?s) (power-available ?s))
    :effect (and (power-on ?i) (not (calibrated ?i)) (not (power-available ?s))))

  (:action switch-off
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on-board ?i ?s) (power-on ?i))
    :effect (and (not (power-on ?i)) (power-available ?s)))

  (:action calibrate
    :parameters (?s - satellite ?i - instrument ?d - direction)
    :precondition (and (on-board ?i ?s) (calibration-target ?i ?d) (pointing ?s ?d) (power-on ?i))
    :effect (calibrated ?i))

  (:action take-image
    :parameters (?s - satellite ?d - direction ?i - instrument ?m - mode)
    :precondition (and (calibrated ?i) (on-board ?i ?s) (supports ?i ?m) (power-on ?i) (pointing ?s ?d))
    :effect (have-image ?d ?m))
)
