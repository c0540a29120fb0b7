"""What every build layer runs on: the build cache, the executor of parallel work, writing the site atomically."""
