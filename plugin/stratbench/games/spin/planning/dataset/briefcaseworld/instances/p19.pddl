(define (problem briefcaseworld-hard-s19)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 loc4 loc5 loc6 - location
    obj1 obj2 obj3 obj4 obj5 obj6 - portable
  )
  (:init
    (briefcase-at loc1)
    (at obj1 loc1)
    (at obj2 loc5)
    (at obj3 loc3)
    (at obj4 loc1)
    (in obj4)
    (at obj5 loc3)
    (at obj6 loc3)
  )
  (:goal (and
    (at obj1 loc6)
    (at obj2 loc2)
    (at obj3 loc6)
    (at obj4 loc4)
    (at obj5 loc1)
    (at obj6 loc1)
    (briefcase-at loc1)
  ))
)
