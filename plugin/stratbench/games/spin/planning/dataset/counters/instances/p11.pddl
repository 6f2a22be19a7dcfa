(define (problem counters-medium-s11)
  (:domain counters)
  (:objects
    c0 c1 c2 c3 c4 - counter)
  (:init
    (= (max-value) 6)
    (= (value c0) 1)
    (= (value c1) 0)
    (= (value c2) 2)
    (= (value c3) 3)
    (= (value c4) 5))
  (:goal (and
    (<= (+ (value c4) 1) (value c3))
    (<= (+ (value c3) 1) (value c2))
    (<= (+ (value c2) 1) (value c0))
    (<= (+ (value c0) 1) (value c1)))))
