(define (problem blocksworld-medium-s10)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block)
  (:init
    (ontable b5)
    (on b4 b5)
    (on b1 b4)
    (clear b1)
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (handempty))
  (:goal (and
    (ontable b5)
    (on b1 b5)
    (on b4 b1)
    (on b3 b4)
    (on b2 b3))))
