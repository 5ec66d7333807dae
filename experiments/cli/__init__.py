"""The ``canfield`` command line.

:func:`main` is the group (:mod:`.root`); each command lives in a module named
for it (``deal``, ``replay``, ``solve``, ``sweep``, ``report``, ``plot``,
``bench``, ``compare``) and is imported only when it runs or is listed, so
``canfield deal`` stays fast. Shared pieces: :mod:`.errors` (the one error
policy: one ``error: ...`` line, exit code 2), :mod:`.group` (the lazy group),
:mod:`.options` (options and input files several commands read) and
:mod:`.budgets` (time and memory budgets of the solver commands).
"""

from canfield.experiments.cli.root import main

__all__ = ["main"]
