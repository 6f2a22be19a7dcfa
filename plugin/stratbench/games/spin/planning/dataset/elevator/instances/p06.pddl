(define (problem elevator-easy-s6)
  (:domain elevator)
  (:objects
    slow1 - slow-lift
    p1 p2 - passenger
    floor0 floor1 floor2 floor3 - floor
    n0 n1 n2 - count)
  (:init
    (above floor1 floor0)
    (above floor2 floor0)
    (above floor2 floor1)
    (above floor3 floor0)
    (above floor3 floor1)
    (above floor3 floor2)
    (next-count n0 n1)
    (next-count n1 n2)
    (lift-at slow1 floor3)
    (serves slow1 floor0)
    (serves slow1 floor1)
    (serves slow1 floor2)
    (serves slow1 floor3)
    (load slow1 n0)
    (room-for slow1 n1)
    (room-for slow1 n2)
    (= (total-cost) 0)
    (passenger-at p1 floor3)
    (passenger-at p2 floor2))
  (:goal (and
    (passenger-at p1 floor2)
    (passenger-at p2 floor0)))
  (:metric minimize (total-cost)))
