(define (problem briefcaseworld-medium-s12)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 loc4 - location
    obj1 obj2 obj3 - portable
  )
  (:init
    (briefcase-at loc2)
    (at obj1 loc4)
    (at obj2 loc2)
    (in obj2)
    (at obj3 loc1)
  )
  (:goal (and
    (at obj1 loc2)
    (at obj2 loc3)
    (at obj3 loc3)
    (briefcase-at loc2)
  ))
)
