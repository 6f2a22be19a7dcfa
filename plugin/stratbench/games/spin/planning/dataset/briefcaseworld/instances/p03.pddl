(define (problem briefcaseworld-easy-s3)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 - location
    obj1 - portable
  )
  (:init
    (briefcase-at loc2)
    (at obj1 loc1)
  )
  (:goal (and
    (at obj1 loc3)
    (briefcase-at loc3)
  ))
)
