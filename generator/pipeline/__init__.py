"""The build pipeline: named stages, their scheduling, what a pass lists and reuses, and where files go."""
