(define (problem blocksworld-easy-s5)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b3)
    (on b2 b3)
    (clear b2)
    (ontable b1)
    (clear b1)
    (handempty))
  (:goal (and
    (ontable b1)
    (ontable b2)
    (ontable b3))))
