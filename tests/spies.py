"""A function wrapped so that a test can count its calls (how often a warm build read or parsed something)."""


class Counting:
    """Calls ``real`` and counts the calls."""

    def __init__(self, real):
        self.real, self.calls = real, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)
