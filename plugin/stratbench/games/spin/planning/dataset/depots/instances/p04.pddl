(define (problem depots-easy-s4)
  (:domain depots)
  (:objects
    depot0 - depot
    distributor0 - distributor
    truck0 - truck
    pallet0 pallet1 - pallet
    hoist0 hoist1 - hoist
    crate0 crate1 - crate
  )
  (:init
    (at pallet0 depot0)
    (at hoist0 depot0)
    (available hoist0)
    (at pallet1 distributor0)
    (at hoist1 distributor0)
    (available hoist1)
    (at truck0 depot0)
    (on crate0 pallet1)
    (at crate0 distributor0)
    (on crate1 pallet0)
    (at crate1 depot0)
    (clear crate0)
    (clear crate1)
  )
  (:goal (and
    (on crate0 pallet0)
  ))
)
