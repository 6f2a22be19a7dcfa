(define (problem sugar-medium-s12)
  (:domain sugar)
  (:objects
    farm1 - farm
    mill1 - mill
    depot1 - depot
    truck1 - truck)
  (:init
    (truck-at truck1 depot1)
    (= (standing-cane farm1) 3)
    (= (cut-cane farm1) 0)
    (= (cut-cane mill1) 0)
    (= (cut-cane depot1) 0)
    (= (raw-sugar mill1) 0)
    (= (white-sugar farm1) 0)
    (= (white-sugar mill1) 0)
    (= (white-sugar depot1) 0)
    (= (carried-cane truck1) 0)
    (= (carried-sugar truck1) 0)
    (= (truck-capacity truck1) 2)
    (= (stored depot1) 0)
    (= (labour) 0))
  (:goal (and
    (>= (stored depot1) 2))))
