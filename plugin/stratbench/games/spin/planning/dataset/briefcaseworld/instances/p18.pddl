(define (problem briefcaseworld-hard-s18)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 loc4 loc5 loc6 - location
    obj1 obj2 obj3 obj4 obj5 obj6 - portable
  )
  (:init
    (briefcase-at loc2)
    (at obj1 loc2)
    (at obj2 loc2)
    (in obj2)
    (at obj3 loc5)
    (at obj4 loc2)
    (at obj5 loc2)
    (at obj6 loc6)
  )
  (:goal (and
    (at obj1 loc6)
    (at obj2 loc6)
    (at obj3 loc6)
    (at obj4 loc4)
    (at obj5 loc4)
    (at obj6 loc4)
    (briefcase-at loc2)
  ))
)
