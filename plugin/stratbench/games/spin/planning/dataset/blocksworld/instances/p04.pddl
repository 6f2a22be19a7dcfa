(define (problem blocksworld-easy-s4)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b2)
    (on b1 b2)
    (on b3 b1)
    (clear b3)
    (handempty))
  (:goal (and
    (ontable b1)
    (ontable b3)
    (ontable b2))))
