"""The README's quick commands that need no solver run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from test_cli import run

README = Path(__file__).resolve().parents[1] / "README.md"


def _deal_commands() -> list[str]:
    """Every ``canfield deal ...`` line of the README's code blocks, comment cut."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S):
        for line in block.splitlines():
            command = line.split("  #", 1)[0].strip()
            if command.startswith("canfield deal "):
                lines.append(command)
    return lines


def test_the_readmes_deal_commands_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # --png writes its picture here, not in the checkout
    commands = _deal_commands()
    assert len(commands) >= 3  # the tour's three at least
    for command in commands:
        result = run(*shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}: {result.output}"
