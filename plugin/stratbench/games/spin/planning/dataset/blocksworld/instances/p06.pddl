(define (problem blocksworld-easy-s6)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b1)
    (clear b1)
    (ontable b2)
    (on b3 b2)
    (clear b3)
    (handempty))
  (:goal (and
    (ontable b3)
    (on b1 b3)
    (on b2 b1))))
