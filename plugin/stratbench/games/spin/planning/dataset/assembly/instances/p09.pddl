(define (problem assembly-medium-s9)
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
    (requires product tool1)
    (part-of part3 sub1)
    (part-of part4 sub1)
    (requires sub1 tool1)
    (transient-part jig1 sub1)
    (assemble-order jig1 part3 sub1)
    (remove-order part3 jig1 sub1)
  )
  (:goal (and
    (complete product)
  ))
)
