(define (problem briefcaseworld-easy-s6)
  (:domain briefcaseworld)
  (:objects
    loc1 loc2 loc3 - location
    obj1 - portable
  )
  (:init
    (briefcase-at loc2)
    (at obj1 loc3)
  )
  (:goal (and
    (at obj1 loc1)
    (briefcase-at loc2)
  ))
)
