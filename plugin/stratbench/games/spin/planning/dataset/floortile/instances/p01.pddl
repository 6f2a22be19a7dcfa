(define (problem floortile-easy-s1)
  (:domain floortile)
  (:objects
    robot1 - robot
    tile-0-0 tile-0-1 tile-0-2 tile-1-0 tile-1-1 tile-1-2 - tile
    white black - color
  )
  (:init
    (robot-at robot1 tile-0-1)
    (robot-has robot1 white)
    (clear tile-0-0)
    (right-of tile-0-1 tile-0-0)
    (clear tile-0-2)
    (right-of tile-0-2 tile-0-1)
    (clear tile-1-0)
    (above tile-1-0 tile-0-0)
    (clear tile-1-1)
    (above tile-1-1 tile-0-1)
    (right-of tile-1-1 tile-1-0)
    (clear tile-1-2)
    (above tile-1-2 tile-0-2)
    (right-of tile-1-2 tile-1-1)
    (available-color white)
    (available-color black)
    (= (total-cost) 0)
  )
  (:goal (and
    (painted tile-1-0 white)
    (painted tile-1-1 black)
    (painted tile-1-2 white)
  ))
  (:metric minimize (total-cost))
)
