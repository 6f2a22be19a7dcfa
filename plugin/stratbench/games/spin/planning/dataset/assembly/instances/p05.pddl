(define (problem assembly-easy-s5)
  (:domain assembly)
  (:objects
    product sub1 part1 part2 part3 part4 - assembly
    tool1 - resource
  )
  (:init
    (resource-free tool1)
    (available part1)
    (available part2)
    (available part3)
    (available part4)
    (part-of part1 product)
    (part-of part2 product)
    (part-of sub1 product)
    (requires product tool1)
    (part-of part3 sub1)
    (part-of part4 sub1)
    (requires sub1 tool1)
  )
  (:goal (and
    (complete product)
  ))
)
