(define (problem assembly-easy-s5)
  (:domain assembly)
  (:objects
    product part1 part2 - assembly
    tool1 - resource
  )
  (:init
    (resource-free tool1)
    (available part1)
    (available part2)
    (part-of part1 product)
    (part-of part2 product)
    (requires product tool1)
  )
  (:goal (and
    (complete product)
  ))
)
