(define (problem counters-easy-s2)
  (:domain counters)
  (:objects
    c0 c1 c2 - counter)
  (:init
    (= (max-value) 4)
    (= (value c0) 0)
    (= (value c1) 2)
    (= (value c2) 3))
  (:goal (and
    (<= (+ (value c2) 1) (value c1))
    (<= (+ (value c1) 1) (value c0)))))
