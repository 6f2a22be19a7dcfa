(define (problem blocksworld-easy-s2)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b2)
    (on b3 b2)
    (on b1 b3)
    (clear b1)
    (handempty))
  (:goal (and
    (ontable b1)
    (ontable b3)
    (ontable b2))))
