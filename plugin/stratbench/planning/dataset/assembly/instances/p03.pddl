(define (problem assembly-easy-s3)
  (:domain assembly)
  (:objects
    product part1 part2 part3 - assembly
    tool1 - resource
  )
  (:init
    (resource-free tool1)
    (available part1)
    (available part2)
    (available part3)
    (part-of part1 product)
    (part-of part2 product)
    (part-of part3 product)
    (requires product tool1)
    (assemble-order part1 part3 product)
  )
  (:goal (and
    (complete product)
  ))
)
