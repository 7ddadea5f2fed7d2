"""Scorekeeper tests."""
