"""Names vulture reports as unused that are used where it cannot see.

``tests/test_code_health.py`` passes this file to vulture beside the package
folders, and runs it to check that every name here still exists. Every entry
says why it is not dead: keep it so, and prefer deleting dead code to listing
it here. Click commands need no entry: the test ignores functions decorated
as commands or groups.
"""

import numba

import canfield
from canfield.engine import core, scores
from canfield.engine.formats import position_to_solvitaire, position_to_text
from canfield.experiments.cli.budgets import WithUnit
from canfield.experiments.cli.group import CanfieldGroup
from canfield.experiments.draw import Drawing
from canfield.solver.search import SolveResult

_ = [
    # overrides of click's own methods, which click calls
    WithUnit.convert,
    CanfieldGroup.format_commands,
    # numba reads its cache folder from this attribute of its own config module
    numba.config.CACHE_DIR,
    # Python calls a module-level __getattr__ for the package's lazy API names
    canfield.__getattr__,
    # the index of 'ak' in profiles.CHOICES['wrap'], beside WRAP_BASE: kernels
    # test only for the other choice; tests/test_profiles.py checks both
    core.WRAP_AK,
    # the scores of docs/rules.md section 5: public API with doctests
    scores.hevagames_score,
    scores.cardgames_score,
    scores.casino_net,
    # public API documented in docs/formats.md, used by callers outside the tree
    position_to_text,
    position_to_solvitaire,
    # a solve result's field documented in README.md and docs/solver.md (a
    # dataclass field with a factory is no class attribute: read it off a result)
    lambda result: result.picks,
    SolveResult.__dataclass_fields__["picks"],
    # IPython calls it to show a drawing in a notebook (tests/test_draw.py)
    Drawing._repr_png_,
]
