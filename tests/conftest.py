"""Suite-wide hooks."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "long(seconds): a test of about `seconds` on two busy cores; such tests start first",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the long tests first, longest first (the rest keep their order).

    pytest-xdist hands tests to its workers in collection order. A test of
    minutes collected late starts when the other worker has little left, and
    that worker then idles while it runs (the suite once took 18 minutes of
    which the last 8 were the no-JIT coverage run alone); started first, the
    long tests overlap with each other and with the short ones.
    """

    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return float(mark.args[0]) if mark else 0.0

    items.sort(key=lambda item: -seconds(item))
