; Market trader (SPIN-Bench, resource management).
; A trader with a camel travels between markets, buying goods where they are
; cheap and selling them where they fetch more. Each market sells a limited
; stock of each good at its price and buys any good back at its sell price
; (the goods sold join its stock). The camel carries at most (capacity) units
; in all, and each road costs cash to travel. The goal is a cash target.
(define (domain markettrader)
  (:requirements :typing :fluents)
  (:types market camel goods)
  (:predicates
    (camel-at ?c - camel ?m - market)
    (can-drive ?from - market ?to - market))
  (:functions
    (price ?g - goods ?m - market) - number
    (sell-price ?g - goods ?m - market) - number
    (on-sale ?g - goods ?m - market) - number
    (bought ?g - goods) - number
    (toll ?m - market) - number
    (cash) - number
    (capacity) - number)

  (:action travel
    :parameters (?c - camel ?from - market ?to - market)
    :precondition (and (camel-at ?c ?from) (can-drive ?from ?to) (>= (cash) (toll ?to)))
    :effect (and (not (camel-at ?c ?from)) (camel-at ?c ?to) (decrease (cash) (toll ?to))))

  (:action buy
    :parameters (?c - camel ?g - goods ?m - market)
    :precondition (and (camel-at ?c ?m) (>= (on-sale ?g ?m) 1) (>= (cash) (price ?g ?m))
                       (>= (capacity) 1))
    :effect (and (decrease (on-sale ?g ?m) 1) (decrease (cash) (price ?g ?m))
                 (increase (bought ?g) 1) (decrease (capacity) 1)))

  (:action sell
    :parameters (?c - camel ?g - goods ?m - market)
    :precondition (and (camel-at ?c ?m) (>= (bought ?g) 1))
    :effect (and (increase (on-sale ?g ?m) 1) (increase (cash) (sell-price ?g ?m))
                 (decrease (bought ?g) 1) (increase (capacity) 1)))
)
