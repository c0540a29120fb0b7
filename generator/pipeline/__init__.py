"""The build pipeline: named stages, their scheduling, the cache, and where files go."""
