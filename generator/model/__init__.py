"""Typed content objects: a paper, its details, a volume, the config; the paper schema."""
