"""Benchmarks, one module each, run as ``canfield bench NAME``.

``engine`` (positions expanded per second), ``solver`` (deals decided, times),
``pruning`` (rules on against off), ``layers`` (depth-first against layered
search), ``players`` (blind players against the solver), ``view`` (the HTML view's
size and time, ``analyze``'s seconds a game); ``compare_baseline``
checks the solver's verdicts against another solver's (``canfield compare``)
and ``csv_rows`` writes the rows.

A benchmark writes where ``canfield bench`` tells it (by default a run folder
of the current directory, ``results/runs/bench/``; ``results/bench/`` of the
checkout with ``--publish``), never beside its own module.
"""
