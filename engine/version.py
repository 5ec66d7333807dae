"""The toolkit's version, written into every result row."""

__version__ = "0.22.1"
