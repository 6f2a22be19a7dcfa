(define (problem blocksworld-medium-s11)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 b4 b5 - block)
  (:init
    (ontable b2)
    (on b4 b2)
    (clear b4)
    (ontable b3)
    (on b5 b3)
    (on b1 b5)
    (clear b1)
    (handempty))
  (:goal (and
    (ontable b4)
    (on b1 b4)
    (on b2 b1)
    (ontable b5)
    (ontable b3))))
