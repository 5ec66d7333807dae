"""``python -m canfield.experiments.cli``: the same as the ``canfield`` script."""

from canfield.experiments.cli import main

main(prog_name="canfield")
