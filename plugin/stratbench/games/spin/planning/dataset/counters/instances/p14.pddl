(define (problem counters-medium-s14)
  (:domain counters)
  (:objects
    c0 c1 c2 c3 c4 - counter)
  (:init
    (= (max-value) 6)
    (= (value c0) 6)
    (= (value c1) 3)
    (= (value c2) 0)
    (= (value c3) 6)
    (= (value c4) 5))
  (:goal (and
    (<= (+ (value c0) 1) (value c3))
    (<= (+ (value c3) 1) (value c4))
    (<= (+ (value c4) 1) (value c1))
    (<= (+ (value c1) 1) (value c2)))))
