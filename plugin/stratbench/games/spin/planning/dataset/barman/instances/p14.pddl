(define (problem barman-medium-s14)
  (:domain barman)
  (:objects
    left right - hand
    l0 l1 l2 - level
    dispenser1 dispenser2 dispenser3 - dispenser
    shot1 shot2 - shot
    shaker1 - shaker
    ingredient1 ingredient2 ingredient3 - ingredient
    cocktail1 cocktail2 - cocktail)
  (:init
    (hand-empty left)
    (hand-empty right)
    (on-table shot1)
    (empty shot1)
    (clean shot1)
    (on-table shot2)
    (empty shot2)
    (clean shot2)
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
    (dispenses dispenser3 ingredient3)
    (first-part cocktail1 ingredient1)
    (second-part cocktail1 ingredient2)
    (first-part cocktail2 ingredient3)
    (second-part cocktail2 ingredient2)
    (= (total-cost) 0))
  (:goal (and
    (contains shot2 cocktail2)))
  (:metric minimize (total-cost)))
