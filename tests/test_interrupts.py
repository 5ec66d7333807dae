"""A Ctrl-C during a compile is held until the compile ends, then raised."""

from __future__ import annotations

import os
import signal

import pytest

from canfield.engine.numba_cache import interrupts_deferred


@pytest.fixture
def ctrl_c_raises():
    """SIGINT as in a terminal: a suite started in the background (nohup, CI
    runners) inherits it ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_is_held_until_the_block_ends(capsys, ctrl_c_raises):
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("after the signal")  # the block was not cut short
    assert reached == ["after the signal"]
    assert "stopping once the compile ends" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_is_not_held(ctrl_c_raises):
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("not reached")
    assert reached == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_ctrl_c_stays_ignored(capsys):
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupts_deferred():
            os.kill(os.getpid(), signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
    assert capsys.readouterr().err == ""


def test_no_ctrl_c_no_interrupt(ctrl_c_raises):
    with interrupts_deferred():
        total = sum(range(10))
    assert total == 45
