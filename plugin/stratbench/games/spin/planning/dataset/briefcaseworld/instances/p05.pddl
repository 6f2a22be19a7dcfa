(define (problem briefcaseworld-easy-s5)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 - location
    obj1 - portable
  )
  (:init
    (briefcase-at loc3)
    (at obj1 loc2)
  )
  (:goal (and
    (at obj1 loc1)
    (briefcase-at loc3)
  ))
)
