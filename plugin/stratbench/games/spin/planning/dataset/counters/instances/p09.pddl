(define (problem counters-medium-s9)
  (:domain counters)
  (:objects
    c0 c1 c2 c3 c4 - counter)
  (:init
    (= (max-value) 6)
    (= (value c0) 4)
    (= (value c1) 4)
    (= (value c2) 0)
    (= (value c3) 6)
    (= (value c4) 3))
  (:goal (and
    (<= (+ (value c3) 1) (value c1))
    (<= (+ (value c1) 1) (value c0))
    (<= (+ (value c0) 1) (value c4))
    (<= (+ (value c4) 1) (value c2)))))
