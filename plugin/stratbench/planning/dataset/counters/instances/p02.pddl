(define (problem counters-easy-s2)
  (:domain counters)
  (:objects
    c0 c1 c2 - counter)
  (:init
    (= (max-value) 4)
    (= (value c0) 3)
    (= (value c1) 3)
    (= (value c2) 2))
  (:goal (and
    (<= (+ (value c0) 1) (value c1))
    (<= (+ (value c1) 1) (value c2)))))
