"""The rules engine: pure Python, no Flask, no database. It owns every rule of the game."""
