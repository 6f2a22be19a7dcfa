(define (problem briefcaseworld-medium-s8)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 loc4 - location
    obj1 obj2 obj3 - portable
  )
  (:init
    (briefcase-at loc1)
    (at obj1 loc1)
    (in obj1)
    (at obj2 loc3)
    (at obj3 loc4)
  )
  (:goal (and
    (at obj1 loc4)
    (at obj2 loc2)
    (at obj3 loc1)
    (briefcase-at loc1)
  ))
)
