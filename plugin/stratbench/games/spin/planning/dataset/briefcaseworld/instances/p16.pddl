(define (problem briefcaseworld-hard-s16)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 loc4 loc5 loc6 - location
    obj1 obj2 obj3 obj4 obj5 obj6 - portable
  )
  (:init
    (briefcase-at loc1)
    (at obj1 loc4)
    (at obj2 loc2)
    (at obj3 loc5)
    (at obj4 loc1)
    (in obj4)
    (at obj5 loc2)
    (at obj6 loc5)
  )
  (:goal (and
    (at obj1 loc1)
    (at obj2 loc5)
    (at obj3 loc4)
    (at obj4 loc2)
    (at obj5 loc3)
    (at obj6 loc3)
    (briefcase-at loc5)
  ))
)
