"""Tunable constants of the solver, in one place."""

from __future__ import annotations

import os

#: Default wall-clock budget of one solve, in seconds.
DEFAULT_SECONDS = 10.0
#: Default node budget (None: no limit).
DEFAULT_NODES: int | None = None
#: Upper limit on the default transposition-table size: a quarter of RAM.
QUARTER_RAM = (os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")) // 4
#: Default transposition-table memory (bytes); never above a quarter of RAM.
DEFAULT_MEMORY = min(1 << 30, QUARTER_RAM)
#: Nodes expanded per call of the compiled kernel before Python checks the clock.
CHUNK_NODES = 50_000
#: Under a time budget a table is not grown when the rehash would end past
#: the deadline, counting at least this many seconds a byte of the new table
#: (``solver.budgets.rehash_in_time``): measured 6-10 ns a byte on fresh
#: memory here (a 384 MiB two-pack table 2.5 s, a 160 MiB one-pack table
#: 1.6 s), where the last rehash's rate had predicted a tenth of it.
REHASH_SECONDS_PER_BYTE = 1e-8
#: When the clock refuses a rehash, a search that may evict forgets entries
#: instead (``solver.table.tt_evict``) and goes on, if the eviction, priced at
#: this many seconds a byte of the table, ends before the deadline: two
#: passes over memory already written, measured about 2 ns a byte (18 ms for
#: 420,000 slots), taken at twice that.
EVICT_SECONDS_PER_BYTE = 4e-9
#: Under a time budget a chunk shrinks to what the rate so far fits in the
#: time left, but never below this (each kernel call costs a few microseconds).
MIN_CHUNK_NODES = 2_000
#: Deepest search path; a deeper branch makes the result "unknown", never "lost".
#: The path arrays start at ``START_DEPTH`` levels and double on demand: about
#: 190 bytes a level, so the deepest path costs about 200 MB (more when its
#: levels hold more than ``MOVES_PER_LEVEL`` moves each).
MAX_DEPTH = 1 << 20
START_DEPTH = 4096
#: Room for macro moves per path level that the shared move buffer is sized
#: with when the levels grow; a path whose levels hold more moves than that
#: (hevagames 1250: about 10 a level, 868,968 levels) doubles the buffer on
#: its own, short of ``MAX_DEPTH`` (0.23.13).
MOVES_PER_LEVEL = 8
#: Largest number of macro moves one position can have.
MAX_MACROS = 640
#: Table slots a solve starts with (when no node budget sizes it).
START_SLOTS = 1 << 16
#: Below this many slots a full table grows fourfold, above it twofold.
FAST_GROW_BELOW = 1 << 22
#: Bytes of table memory a process keeps for its next tables
#: (``solver.table_memory``): a new table takes an idle kept buffer of about
#: its size instead of fresh pages, whose first touch cost a 10 s solve
#: 0.5-0.8 s here. Buffers above half of it are never kept; 0 keeps none.
TABLE_KEEP_BYTES = min(1 << 29, QUARTER_RAM // 2)
#: Smaller tables are not kept: the C heap gives small blocks back without
#: new pages, and the kept list stays short.
TABLE_KEEP_MIN_BYTES = 1 << 20
#: The table is "full" past this load factor (open addressing with linear probing).
MAX_LOAD = 0.85
#: A table full at its most memory forgets entries the search has not met
#: for a while (never its path's) and the search goes on
#: (``Solver(evict=True)``, ``solver.table.tt_evict``): it keeps this share.
EVICT_KEEP = 0.5
#: Rows each layer's table, each layer's stack and the log start with in the
#: layered search (``Solver(strategy="layers")``); each doubles on demand.
LAYER_START_SLOTS = 1 << 14
#: Share of the time, node and memory budgets ``Solver(strategy="layers")``
#: first spends depth-first: wins come fast that way, and the best banked
#: count it finds lets rule B1 cut in the layers from the start.
LAYER_DFS_SHARE = 0.1
#: Share of the time, node and memory budgets the full depth-first search
#: spends before the probes; it then pauses (keeping its table) and resumes
#: after them, so a deal it decides early is decided exactly as without probes.
DFS_FIRST_SHARE = 0.1
#: Narrowed probes a solve runs after that first slice (``Solver(probes=True)``):
#: each triple is a width (the moves searched at every position below the
#: root, in the ordering's order), the share of the time and node budgets it
#: may spend, and the most seconds it may spend (so a long budget, given for a
#: proof, goes to the full search; not applied without a time budget). Its
#: table may take the memory the paused full search's table leaves. A probe
#: ends the solve only with a win; otherwise the full search resumes, B1
#: cutting against the probes' best banked count.
PROBES = ((2, 0.05, 2.0), (3, 0.6, 30.0))
#: A narrowed probe looks for wins only, so rule B1 cuts there every position
#: whose bound is below 52, not only those that cannot beat the best: a
#: position that cannot win has no winning line below it, and every position
#: on a winning line has the bound 52, so the probe meets those in the same
#: order and finds the same win, in as many positions or fewer. The beam
#: probe, with it, keeps no position whose bound is below 52 (``docs/solver.md``,
#: *B1*, *In the narrowed probes* and *In the beam*). Only under a time
#: budget alone: a node budget (every sweep) makes the rows it made before,
#: the probes' best counts feeding the full search's cut as they did. Off:
#: the narrowed probes cut as the full search does, and the beam does not cut.
PROBE_CUTS_NO_WIN = True
#: Turned probes, run after the narrowed ones, only when a solve has no node
#: budget (a node budget, as sweeps give, makes the rows it made before them):
#: the full-width search again, every move list below the root turned by so
#: many 256ths of its length (``Solver(turn=...)``'s order, added to the
#: solve's own turn), each ``(turn, share)`` on that share of the time
#: budget and at most ``share * TURN_PROBE_SECONDS_PER_SHARE`` seconds, on
#: its own table. A turned order is as exact as the usual one (its
#: exhaustion is a proof) and wins some deals within a few hundred thousand
#: positions that the usual order leaves unknown for minutes (strict 1
#: turned by 224 in 258,044; hevagames 263 by 224 and 282 by 160;
#: docs/solver.md, "Turned probes"), some within a few thousand (superior
#: 35 by 192 in 1,531). Short runs first, then long ones, as restarts are
#: scheduled: the first ``TURN_PROBES_FIRST`` (the even eighths of the
#: list, 1% each) run before the narrowed probes, the others (the odd
#: eighths, four orders as far apart as possible, none the usual one, 4%
#: each) after them.
TURN_PROBES = (
    (192, 0.01), (128, 0.01), (64, 0.01),
    (224, 0.04), (160, 0.04), (96, 0.04), (32, 0.04),
)  # fmt: skip
TURN_PROBES_FIRST = 3
TURN_PROBE_SECONDS_PER_SHARE = 100.0
#: Building rules (engine.core's codes; 2 is ``build=rank``, Rainbow) under
#: which no turned probe runs: in 0.20.0 they decided none of 300 one-pass
#: and 100 three-pass Rainbow deals (0-199 and 300-399 at 10 s), whose
#: wins are the beam's and whose losses are long proofs.
TURN_PROBE_SKIP_BUILDS = (2,)
#: The one-pack beam probe (``solver.beam``): the building rules it runs
#: under (engine.core's codes; 2 is ``build=rank``, Rainbow, where it wins
#: deals the depth-first probes leave unknown; on `superior` and `strict`
#: it won none of the deals they leave unknown: docs/solver.md, "The beam
#: for one pack"), its share of a solve's time and node budgets and the
#: most seconds it may spend. It runs after the full search's first slice,
#: before the narrowed probes.
BEAM_BUILDS = (2,)
BEAM_SHARE = 0.3
BEAM_MOST_SECONDS = 30.0
#: Its width is its node share over ``BEAM_LAYERS`` (won Rainbow lines are
#: 60-80 macro moves deep), at least ``BEAM_MIN_WIDTH``; under a time budget
#: alone the positions are guessed at ``BEAM_RATE`` a second. Its scratch
#: (about 15 KB a position of width) may take ``BEAM_MEMORY_SHARE`` of the
#: memory budget, its table the rest.
BEAM_LAYERS = 80
BEAM_MIN_WIDTH = 16
BEAM_RATE = 250_000
#: Under a time budget alone its table is sized for ``BEAM_TABLE_RATE``
#: positions a second of its time, above any beam's measured rate (about
#: 300,000-550,000), within the memory budget: sized by ``BEAM_RATE``'s
#: guess, a beam that ran faster filled its table and ended the cascade for
#: "memory" with most of the memory unused (superior deal 43 at 10 s: the
#: first beam stopped at 891,288 positions, and the second never ran;
#: docs/solver.md, "A table sized for the clock").
BEAM_TABLE_RATE = 1_000_000
BEAM_MEMORY_SHARE = 0.5
#: The most macro moves its lines may have.
BEAM_DEPTH = 300
#: Its scores (``solver.beam.score``): points per card banked, minus points
#: per reserve card and per unplayed stock card, plus points per stock card
#: the walk will still turn over (limited passes) and per empty column,
#: minus points per card lying on one of each suit's next so many cards
#: (the last two: 0 here; ``BEAM_COVER_WEIGHTS``). The first is the two-pack
#: beam's; the others, measured on the 101 rainbow
#: deals of 0-199 it leaves unknown at 10 s (9,000 wide), win 13 and 8 of
#: them (docs/solver.md, "The beam probe under rank-only building").
BEAM_WEIGHTS = ((10, 3, 4, 4, 0, 0, 0), (10, 3, 4, 8, 0, 0, 0), (10, 6, 4, 4, 0, 0, 0))
#: The beams a probe runs, in turn until one wins or the share is spent: a
#: score, a kin cap (the most positions a depth may keep that differ only
#: in their columns: the same foundations, reserve, stock and waste;
#: ``solver.beam.beam``; 0: no cap) and a share of the probe's width.
#: Without the cap a beam fills with one position's column arrangements and
#: runs dry. The beam probe alone at 750,000 positions on the 280 rainbow
#: deals of 0-299 not proven lost: these three scores, each at the whole
#: width, with no cap won 114, capped at 4 134; each score first a quarter
#: as wide, then at the whole width, 146 (a narrow beam goes deeper on the
#: same positions; a wider one loses some deals a narrower one wins); the
#: first score alone, 9,400 wide, on the 88 deals of 0-199 0.14.1 leaves
#: unknown at 10 s: no cap won 0, a cap of 16 4, of 4 9, of 2 10, of 1 8
#: (docs/solver.md, "The beam probe under rank-only building").
BEAM_KIN_CAP = 4
BEAM_NARROW_SHARE = 0.25
#: The cover beam, run first: the first score less 4 points per card lying
#: on one of each suit's next 2 cards (``solver.beam.cover``), half as wide.
#: The probe alone at 1,600,000 positions (about 9,400 wide, what 10 s gives
#: it) on the 253 one-pass rainbow deals of 0-299 that 0.16.0 won with the
#: beam (135) or left unknown (118) at 10 s: without it 135 won, with it
#: first at half the width 147 (none lost), at the whole width 4 of the 135
#: lost, last nothing gained; at 10 s, deals 0-199, 63.5% decided against
#: 60.5% (docs/solver.md, "The cover beam").
BEAM_COVER_WEIGHTS = (10, 3, 4, 4, 0, 4, 2)
BEAM_COVER_SHARE = 0.5
BEAM_CASCADE = ((BEAM_COVER_WEIGHTS, BEAM_KIN_CAP, BEAM_COVER_SHARE),) + tuple(
    (w, BEAM_KIN_CAP, share) for w in BEAM_WEIGHTS for share in (BEAM_NARROW_SHARE, 1.0)
)
#: Under ``fill=free`` (`superior`: a space stays open at the player's
#: choice) the beam runs too (``BEAM_FILLS``: engine.core's ``FILL_FREE``),
#: with cover beams only (``BEAM_FREE_CASCADE``): the scores without the
#: cover term won none of superior's unknowns; the probe alone at
#: 1,600,000 positions, 9,356 wide, on the 26 superior deals of 0-299 that
#: 0.16.0 leaves unknown at 10 s: each suit's next 3 cards at 4 points, at
#: the whole width, won 5 (43, 109, 195, 271, 282), next 2 cards 4, next 3
#: at half the width 3 (docs/solver.md, "Cover beams under free spaces").
BEAM_FILLS = (1,)
BEAM_FREE_CASCADE = (
    ((10, 3, 4, 4, 0, 4, 3), BEAM_KIN_CAP, 1.0),
    (BEAM_COVER_WEIGHTS, BEAM_KIN_CAP, 1.0),
)
#: Probes of the two-pack search (``solver.double_run``), in order: a kind
#: (``dfs``: the depth-first search searching only the first ``width`` moves
#: at each position below the root, best first; ``beam``: the beam of
#: ``solver.double_beam`` keeping ``width`` positions a depth), the width,
#: and the share of the time and node budgets it may spend before the full
#: search takes what is left. The narrow depth-first probe comes first: it
#: wins easy deals (unlimited passes) in a few hundred positions. On deals
#: 0-39 at 200,000 positions every win was the beam's (19 with 50% of the
#: budget, 23 with 85%), so it takes most (docs/solver.md, "Two packs").
#: The beam's width cap, 16,000, holds under a time budget (the width follows
#: the clock); under a node budget the width is the budget's share over
#: ``DOUBLE_BEAM_LAYERS`` with no cap but memory (``DOUBLE_BEAM_MEMORY_SHARE``;
#: ``solver.double_run.beam_bytes``), so escalations widen it.
DOUBLE_PROBES = (("dfs", 2, 0.05), ("beam", 16000, 0.85), ("dfs", 3, 0.05))
#: The beam's width is its share of the node budget over ``DOUBLE_BEAM_LAYERS``
#: (a won line is about 100 macro moves deep: a beam too wide for its budget
#: runs out before it gets there), at least ``DOUBLE_BEAM_MIN_WIDTH`` and at
#: most the width above; with a time budget alone, the positions it may keep
#: are guessed at ``DOUBLE_BEAM_RATE`` a second (about 4,000 wide at 10 s) until
#: the beam has measured its own rate (``DOUBLE_BEAM_MIN_DEPTHS_LEFT``).
#: A beam too wide for its time ends unknown before its lines are deep
#: enough (deals 0-39 at 10 s: 29 won about 4,000 wide, 8 about 11,000 wide).
DOUBLE_BEAM_LAYERS = 150
#: The share of the memory budget (``--memory``) the beam's scratch may take
#: (about 19 KB a position of width); the table gets the rest. Under a node
#: budget this, not the width in ``DOUBLE_PROBES``, caps the width.
DOUBLE_BEAM_MEMORY_SHARE = 0.5
DOUBLE_BEAM_MIN_WIDTH = 16
#: The two-pack beam's kin cap (the one-pack beam's, ``BEAM_CASCADE``): at
#: most this many positions a depth that differ only in their columns. The
#: whole solve at 700,000 positions on the 200 deals of 0-199: 124 won
#: without it, 138 with 4 (docs/solver.md, "Two packs").
DOUBLE_BEAM_KIN_CAP = 4
DOUBLE_BEAM_RATE = 70_000
#: Under a time budget alone, after its first chunk the beam re-sizes itself
#: to the rate it has measured: the time left spread over the depths a won
#: line still needs, at least this many.
DOUBLE_BEAM_MIN_DEPTHS_LEFT = 20
#: The beam's score of a position (``solver.double_beam.score``): points per
#: card banked; minus points per card in the reserve and per stock card not
#: yet played; plus points per stock card the walk will still turn over (in
#: this pass and the passes left). Chosen on deals 0-39 at 1,000 positions a
#: depth (docs/solver.md, "Two packs"); 0.12.0's (10, 3, 300 a redeal) won 0.
DOUBLE_BEAM_WEIGHTS = (10, 3, 4, 4)
#: The beams the two-pack probe runs in turn, each on an equal share of what
#: is left of the probe's time and positions (``solver.double_run.beams``):
#: the score above, then one that counts a reserve card twice as much, one
#: that counts the walk left twice as much and one half as much. On the 45
#: deals of 0-199 the first left unknown at 10 s, each alone at 600,000
#: positions won 6, 5, 2 and 2, 11 together; the first alone at 2,400,000
#: won 7 (docs/solver.md, "Two packs").
DOUBLE_BEAM_SCORES = (DOUBLE_BEAM_WEIGHTS, (10, 6, 4, 4), (10, 3, 4, 8), (10, 3, 4, 2))
#: Passes left after this one that the walk term counts under unlimited passes
#: (``double:passes=inf``), as in the preset's first pass.
DOUBLE_BEAM_UNLIMITED_LATER = 2
#: The most macro moves its lines may have (a won line is far shorter).
DOUBLE_BEAM_DEPTH = 400

#: Positions of double deal 0 that ``warm_up`` searches to compile every
#: two-pack kernel: enough for each stage (beam, probes, search) to run, far
#: too few to win.
WARM_UP_DOUBLE_NODES = 400
#: Positions of rainbow deal 0 the one-pack beam probe searches in ``warm_up``.
WARM_UP_BEAM_NODES = 300

#: Positions of strict deal 0 that ``warm_up("layers")`` searches so that the
#: layered stage runs (and compiles): the depth-first share before it is a
#: tenth of these, far too few to decide the deal.
WARM_UP_LAYERS_NODES = 400
