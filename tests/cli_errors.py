"""The one check every command's refusal of a user's mistake must pass."""

from __future__ import annotations


def assert_user_error(result, *fragments: str) -> str:
    """Exit 2, one ``error:`` line on stderr naming each of ``fragments``,
    nothing on stdout, no traceback; returns the line.

    ``result`` is a ``click.testing.CliRunner`` result. A refusal that
    printed a figure first, or a second line, is a defect the brief names:
    bad input gets one clear line and loses nothing.
    """
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]
