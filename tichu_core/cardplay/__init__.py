"""Pure cards and moves: cards as ints, hands as bitmasks, combinations, legal plays.

Its modules may run compiled (mypyc); :mod:`tichu_core.builds` says which build runs.
"""
