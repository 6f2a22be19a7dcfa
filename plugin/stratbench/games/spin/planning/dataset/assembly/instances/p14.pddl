(define (problem assembly-medium-s14)
  (:domain assembly)
  (:objects
    product sub1 part1 part2 part3 part4 jig1 - assembly
    tool1 tool2 - resource
  )
  (:init
    (resource-free tool1)
    (resource-free tool2)
    (available part1)
    (available part2)
    (available part3)
    (available part4)
    (available jig1)
    (part-of part1 product)
    (part-of part2 product)
    (part-of sub1 product)
    (requires product tool2)
    (part-of part3 sub1)
    (part-of part4 sub1)
    (requires sub1 tool1)
    (transient-part jig1 product)
    (assemble-order jig1 part2 product)
    (remove-order part2 jig1 product)
  )
  (:goal (and
    (complete product)
  ))
)
