(define (problem counters-medium-s8)
  (:domain counters)
  (:objects
    c0 c1 c2 c3 c4 - counter)
  (:init
    (= (max-value) 6)
    (= (value c0) 4)
    (= (value c1) 2)
    (= (value c2) 3)
    (= (value c3) 0)
    (= (value c4) 1))
  (:goal (and
    (<= (+ (value c0) 1) (value c2))
    (<= (+ (value c2) 1) (value c1))
    (<= (+ (value c1) 1) (value c4))
    (<= (+ (value c4) 1) (value c3)))))
