(define (problem counters-medium-s13)
  (:domain counters)
  (:objects
    c0 c1 c2 c3 c4 - counter)
  (:init
    (= (max-value) 6)
    (= (value c0) 5)
    (= (value c1) 5)
    (= (value c2) 0)
    (= (value c3) 4)
    (= (value c4) 0))
  (:goal (and
    (<= (+ (value c1) 1) (value c0))
    (<= (+ (value c0) 1) (value c3))
    (<= (+ (value c3) 1) (value c2))
    (<= (+ (value c2) 1) (value c4)))))
