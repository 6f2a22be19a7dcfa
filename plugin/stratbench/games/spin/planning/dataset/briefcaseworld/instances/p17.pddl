(define (problem briefcaseworld-hard-s17)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 loc4 loc5 loc6 - location
    obj1 obj2 obj3 obj4 obj5 obj6 - portable
  )
  (:init
    (briefcase-at loc3)
    (at obj1 loc4)
    (at obj2 loc3)
    (at obj3 loc3)
    (in obj3)
    (at obj4 loc6)
    (at obj5 loc4)
    (at obj6 loc3)
  )
  (:goal (and
    (at obj1 loc2)
    (at obj2 loc1)
    (at obj3 loc4)
    (at obj4 loc4)
    (at obj5 loc1)
    (at obj6 loc4)
    (briefcase-at loc6)
  ))
)
