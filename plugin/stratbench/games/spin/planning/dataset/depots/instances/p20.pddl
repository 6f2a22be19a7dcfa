(define (problem depots-hard-s20)
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
    (on crate0 crate1)
    (at crate0 depot1)
    (on crate1 crate2)
    (at crate1 depot1)
    (on crate2 pallet1)
    (at crate2 depot1)
    (on crate3 pallet2)
    (at crate3 distributor0)
    (clear pallet0)
    (clear crate0)
    (clear crate3)
  )
  (:goal (and
    (on crate0 pallet1)
    (on crate1 pallet0)
    (on crate2 crate0)
    (on crate3 pallet2)
  ))
)
