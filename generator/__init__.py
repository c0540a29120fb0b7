"""Proceedings: a static-site generator for conference abstracts."""

__version__ = "0.1.0"
