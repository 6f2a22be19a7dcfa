"""FreeCell: a small card solitaire where free cells are the scarce resource."""
