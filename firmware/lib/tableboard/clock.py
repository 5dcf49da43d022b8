"""A millisecond clock that does not wrap.

time.ticks_ms() wraps (at 2**30 ms on most ports, about 12 days); the protocol code does plain
subtraction, so it gets this counter, advanced with ticks_diff on every call.
"""
import time


class Clock:
    def __init__(self):
        self._last = time.ticks_ms()
        self._ms = 0

    def now(self):
        t = time.ticks_ms()
        self._ms += time.ticks_diff(t, self._last)
        self._last = t
        return self._ms
