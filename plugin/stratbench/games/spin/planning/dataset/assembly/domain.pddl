;; Assembly: a product is built from parts, some of them assemblies built
;; from parts in turn. Putting a part into a whole needs every resource the
;; whole requires committed to it, and the parts that must come first already
;; in. Transient parts (jigs) hold a whole together while some parts go in
;; and are removed afterwards. A whole is complete, and available for its
;; own parent, once all its parts are in and no transient part is.
(define (domain assembly)
  (:requirements :adl)
  (:types assembly resource)
  (:predicates
    (available ?a - assembly)
    (complete ?a - assembly)
    (part-of ?part - assembly ?whole - assembly)
    (transient-part ?part - assembly ?whole - assembly)
    (incorporated ?part - assembly ?whole - assembly)
    (assemble-order ?first - assembly ?then - assembly ?whole - assembly)
    (remove-order ?first - assembly ?then - assembly ?whole - assembly)
    (requires ?whole - assembly ?r - resource)
    (committed ?r - resource ?whole - assembly)
    (resource-free ?r - resource))

  (:action commit
    :parameters (?r - resource ?whole - assembly)
    :precondition (resource-free ?r)
    :effect (and (not (resource-free ?r)) (committed ?r ?whole)))

  (:action release
    :parameters (?r - resource ?whole - assembly)
    :precondition (committed ?r ?whole)
    :effect (and (not (committed ?r ?whole)) (resource-free ?r)))

  (:action assemble
    :parameters (?part - assembly ?whole - assembly)
    :precondition (and
      (available ?part)
      (not (complete ?whole))
      (or (part-of ?part ?whole) (transient-part ?part ?whole))
      (forall (?r - resource) (imply (requires ?whole ?r) (committed ?r ?whole)))
      (forall (?first - assembly)
        (imply (assemble-order ?first ?part ?whole) (incorporated ?first ?whole))))
    :effect (and
      (incorporated ?part ?whole)
      (not (available ?part))
      (when (and
              (not (transient-part ?part ?whole))
              (forall (?p - assembly)
                (imply (part-of ?p ?whole) (or (= ?p ?part) (incorporated ?p ?whole))))
              (forall (?t - assembly)
                (imply (transient-part ?t ?whole) (not (incorporated ?t ?whole)))))
            (and (complete ?whole) (available ?whole)))))

  (:action remove
    :parameters (?part - assembly ?whole - assembly)
    :precondition (and
      (incorporated ?part ?whole)
      (transient-part ?part ?whole)
      (forall (?r - resource) (imply (requires ?whole ?r) (committed ?r ?whole)))
      (forall (?first - assembly)
        (imply (remove-order ?first ?part ?whole) (incorporated ?first ?whole))))
    :effect (and
      (not (incorporated ?part ?whole))
      (available ?part)
      (when (and
              (forall (?p - assembly) (imply (part-of ?p ?whole) (incorporated ?p ?whole)))
              (forall (?t - assembly)
                (imply (transient-part ?t ?whole) (or (= ?t ?part) (not (incorporated ?t ?whole))))))
            (and (complete ?whole) (available ?whole))))))
