"""The toolkit's version, written into every result row."""

__version__ = "0.23.14"
