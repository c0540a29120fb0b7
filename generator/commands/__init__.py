"""The command line and its commands: build, check, serve, new."""
