"""The release, in a module that imports nothing so any layer may read it."""

__version__ = "0.2.0"
