(define (problem counters-easy-s4)
  (:domain counters)
  (:objects
    c0 c1 c2 - counter)
  (:init
    (= (max-value) 4)
    (= (value c0) 4)
    (= (value c1) 3)
    (= (value c2) 4))
  (:goal (and
    (<= (+ (value c0) 1) (value c2))
    (<= (+ (value c2) 1) (value c1)))))
