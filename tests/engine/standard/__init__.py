"""Tests of the standard game (a package so the tests can share helpers.py)."""
