(define (problem blocksworld-easy-s1)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b2)
    (clear b2)
    (ontable b3)
    (on b1 b3)
    (clear b1)
    (handempty))
  (:goal (and
    (ontable b2)
    (on b3 b2)
    (on b1 b3))))
