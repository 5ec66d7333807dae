"""The rules engine. Importing it first points numba's cache at this source tree."""

from canfield.engine.numba_cache import configure as _configure_numba_cache

_configure_numba_cache()
