(define (problem blocksworld-easy-s7)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b3)
    (clear b3)
    (ontable b1)
    (on b2 b1)
    (clear b2)
    (handempty))
  (:goal (and
    (ontable b3)
    (on b1 b3)
    (ontable b2))))
