"""Names vulture reports as unused that are used where it cannot see.

``tests/test_code_health.py`` passes this file to vulture beside the package
folders; vulture only parses it, nothing imports it. Every entry says why it
is not dead: keep it so, and prefer deleting dead code to listing it here.
"""

import numba
from canfield.engine.formats import position_to_solvitaire, position_to_text
from canfield.experiments.cli import bench_engine_cmd, replay
from canfield.experiments.solve_cli import solve_cmd
from canfield.experiments.sweep import load_run
from canfield.solver.search import SolveResult

_ = [
    # numba reads its cache folder from this attribute of its own config module
    numba.config.CACHE_DIR,
    # click commands: the decorators register them, the group calls them
    replay,
    bench_engine_cmd,
    solve_cmd,
    # public API documented in docs/formats.md, used by callers outside the tree
    position_to_text,
    position_to_solvitaire,
    # public API documented in README.md ("In Python: experiments.sweep.load_run")
    load_run,
    # a solve result's field documented in README.md and docs/solver.md
    SolveResult.picks,
]
