"""A series: many volumes in one site, each run by the volume's own pipeline."""
