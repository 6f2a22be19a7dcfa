"""Market trader: a camel trader buys and sells goods across markets to reach a cash target."""
