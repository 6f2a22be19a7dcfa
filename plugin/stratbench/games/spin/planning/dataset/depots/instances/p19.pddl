(define (problem depots-hard-s19)
  (:domain depots)
  (:objects
    depot0 depot1 - depot
    distributor0 - distributor
    truck0 - truck
    pallet0 pallet1 pallet2 - pallet
    hoist0 hoist1 hoist2 - hoist
    crate0 crate1 crate2 crate3 - crate
  )
  (:init
    (at pallet0 depot0)
    (at hoist0 depot0)
    (available hoist0)
    (at pallet1 depot1)
    (at hoist1 depot1)
    (available hoist1)
    (at pallet2 distributor0)
    (at hoist2 distributor0)
    (available hoist2)
    (at truck0 distributor0)
    (on crate0 pallet2)
    (at crate0 distributor0)
    (on crate1 pallet0)
    (at crate1 depot0)
    (on crate2 crate1)
    (at crate2 depot0)
    (on crate3 pallet1)
    (at crate3 depot1)
    (clear crate0)
    (clear crate2)
    (clear crate3)
  )
  (:goal (and
    (on crate0 crate3)
    (on crate1 pallet2)
    (on crate2 crate0)
    (on crate3 pallet0)
  ))
)
