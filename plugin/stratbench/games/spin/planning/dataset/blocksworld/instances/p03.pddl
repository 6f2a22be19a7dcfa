(define (problem blocksworld-easy-s3)
  (:domain blocksworld)
  (:objects
    b1 b2 b3 - block)
  (:init
    (ontable b2)
    (clear b2)
    (ontable b1)
    (clear b1)
    (ontable b3)
    (clear b3)
    (handempty))
  (:goal (and
    (ontable b3)
    (ontable b1)
    (on b2 b1))))
