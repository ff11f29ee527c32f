"""Analysis of run tables: pandas in, pandas out, usable from a notebook (DESIGN §6)."""
