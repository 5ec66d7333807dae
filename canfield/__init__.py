"""Canfield Lab: the toolkit's one import name.

The design card's folders install beneath it: ``canfield.engine`` (the rules),
``canfield.solver`` (the search) and ``canfield.experiments`` (sweeps, reports,
the command line). Nothing generic lands at the top of site-packages.
"""

from pathlib import Path as _Path

# In a source checkout the design card's folders sit beside this one, not in
# it: let the package find them there, so a checkout always runs its own code
# (an editable install elsewhere, or a second work tree, never shadows it).
_root = _Path(__file__).resolve().parent.parent
if (_root / "pyproject.toml").is_file() and (_root / "engine" / "core.py").is_file():
    __path__.append(str(_root))  # noqa: F821 (a package's __path__ is defined)

from canfield.engine.version import __version__  # noqa: E402

__all__ = ["__version__"]
