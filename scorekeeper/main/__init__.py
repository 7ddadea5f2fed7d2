"""The home page and app-wide pages."""
