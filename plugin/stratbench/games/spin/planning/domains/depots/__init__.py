"""The depots planning domain: hoists and trucks move stacked crates between depots and distributors."""
