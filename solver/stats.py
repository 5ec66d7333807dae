"""What the compiled searches hand back: return codes and statistics slots.

Shared by the depth-first kernel (:mod:`solver.dfs`), the table
(:mod:`solver.table`) and the layered search, whose own codes and slots
continue these numbers (:mod:`solver.layers`).
"""

from __future__ import annotations

# return codes of a kernel call
RUNNING, WON, EXHAUSTED, TABLE_FULL, TOO_DEEP = range(5)
N_CODES = 5

# slots of the statistics vector
ST_NODES = 0  # positions expanded
ST_DEPTH = 1  # depth of the position being expanded
ST_MAXDEPTH = 2  # deepest path reached
ST_BEST = 3  # most cards banked in a position seen
ST_BESTLEN = 4  # moves to that position
ST_ENTRIES = 5  # positions in the transposition table
ST_PRUNED = 6  # positions rule P1 left one move
ST_DEAD = 7  # positions without a move
ST_CHILDREN = 8  # children made (each applied, keyed and looked up)
ST_CUT = 9  # positions not expanded because rule B1 says they cannot beat the best
ST_DOMINATED = 10  # children skipped because rule E2 says a visited one dominates them
ST_HOMED = 11  # positions rule R1 or W1 left one move (a card sent home)
ST_SLOT = 12  # shared search: the table slot of the position last entered
ST_HELPED = 13  # shared search: positions in progress elsewhere a helper searched too
ST_EVICTED = 14  # entries solver.table.tt_evict removed from a full table
N_STATS = 15
