"""Canfield Lab: the toolkit's one import name.

The design card's folders install beneath it: ``canfield.engine`` (the rules),
``canfield.solver`` (the search) and ``canfield.experiments`` (sweeps, reports,
the command line). Nothing generic lands at the top of site-packages.

The Python API (:mod:`canfield.api`) is re-exported here: :func:`deal`,
:func:`solve`, :func:`sweep`, :func:`load_run`, :func:`report`,
:class:`Position` and :class:`SolveResult`.
"""

from importlib import import_module as _import_module
from pathlib import Path as _Path

# In a source checkout the design card's folders sit beside this one, not in
# it: let the package find them there, so a checkout always runs its own code
# (an editable install elsewhere, or a second work tree, never shadows it).
_root = _Path(__file__).resolve().parent.parent
if (_root / "pyproject.toml").is_file() and (_root / "engine" / "core.py").is_file():
    __path__.append(str(_root))

from canfield.engine.version import __version__  # noqa: E402

_API = ("Position", "SolveResult", "Report", "deal", "solve", "sweep", "load_run", "report")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    # the API pulls in pandas and the solver; load it on first use so that
    # `canfield --help` (which imports this package) stays fast
    if name in _API:
        return getattr(_import_module("canfield.api"), name)
    raise AttributeError(f"module 'canfield' has no attribute {name!r}")
