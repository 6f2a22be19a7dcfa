(define (problem barman-easy-s2)
  (:domain barman)
  (:objects
    left right - hand
    l0 l1 l2 - level
    dispenser1 dispenser2 - dispenser
    shot1 shot2 shot3 - shot
    shaker1 - shaker
    ingredient1 ingredient2 - ingredient
    cocktail1 - cocktail)
  (:init
    (hand-empty left)
    (hand-empty right)
    (on-table shot1)
    (empty shot1)
    (clean shot1)
    (on-table shot2)
    (empty shot2)
    (clean shot2)
    (on-table shot3)
    (empty shot3)
    (clean shot3)
    (on-table shaker1)
    (empty shaker1)
    (clean shaker1)
    (shaker-level shaker1 l0)
    (next-level l0 l1)
    (next-level l1 l2)
    (bottom-level l0)
    (filled-level l1)
    (filled-level l2)
    (dispenses dispenser1 ingredient1)
    (dispenses dispenser2 ingredient2)
    (first-part cocktail1 ingredient2)
    (second-part cocktail1 ingredient1)
    (= (total-cost) 0))
  (:goal (and
    (contains shot3 ingredient1)
    (contains shot1 ingredient2)))
  (:metric minimize (total-cost)))
