"""Button debouncing and long-press detection (pure: levels and times in, events out)."""


class Debouncer:
    """Feed the raw level (True = pressed) with the time; get "short", "long" or None.

    A level must hold for debounce_ms before it counts. "long" fires while the button is
    still held once it has been down for long_ms (so the user gets feedback without letting
    go); releasing after that gives nothing. Releasing earlier gives "short".
    """

    def __init__(self, debounce_ms, long_ms):
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.down = False      # debounced state
        self._raw = False
        self._raw_since = 0
        self._down_at = 0
        self._long_sent = False

    def update(self, pressed, now_ms):
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = now_ms
        event = None
        if self._raw != self.down and now_ms - self._raw_since >= self.debounce_ms:
            self.down = self._raw
            if self.down:
                self._down_at = self._raw_since
                self._long_sent = False
            elif not self._long_sent:
                event = "short"
        if self.down and not self._long_sent and now_ms - self._down_at >= self.long_ms:
            self._long_sent = True
            event = "long"
        return event
