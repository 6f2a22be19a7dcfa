(define (problem freecell-easy-s6)
  (:domain freecell)
  (:objects
    hearts0 hearts1 hearts2 spades0 spades1 spades2 - card
    col1 col2 - column
    cell1 - cell)
  (:init
    (on spades1 col1)
    (on spades2 spades1)
    (clear spades2)
    (on hearts1 col2)
    (on hearts2 hearts1)
    (clear hearts2)
    (cell-free cell1)
    (home-top hearts0)
    (home-top spades0)
    (home-next hearts0 hearts1)
    (home-next hearts1 hearts2)
    (home-next spades0 spades1)
    (home-next spades1 spades2)
    (can-stack hearts1 spades2)
    (can-stack spades1 hearts2))
  (:goal (and
    (home-top hearts2)
    (home-top spades2))))
