(define (problem counters-easy-s7)
  (:domain counters)
  (:objects
    c0 c1 c2 - counter)
  (:init
    (= (max-value) 4)
    (= (value c0) 1)
    (= (value c1) 1)
    (= (value c2) 1))
  (:goal (and
    (<= (+ (value c0) 1) (value c1))
    (<= (+ (value c1) 1) (value c2)))))
