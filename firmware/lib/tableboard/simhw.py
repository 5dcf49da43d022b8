"""Simulated hardware for the unix port: reports what the board would show.

show() writes one JSON line to stdout per change:
  {"t": ms, "digits": "  42", "ring": [[r, g, b], ...], "tone": null | cue name,
   "lost": bool, "snap": [epoch, seq] | null}
ring values are what the LEDs would get (brightness cap applied). Buttons are driven by
script: press(name, kind, now) holds the simulated button down long enough for the real
debouncer to see a short or a long press; presses queue up one after another (a gap of
GAP_MS between them) so "press COLOUR short" then "press COLOUR long" are two presses.
"""
import json
import sys

SHORT_HOLD_MS = 120
GAP_MS = 80


class SimHardware:
    def __init__(self, cfg, boot_hold=None, out=None):
        self.cfg = cfg
        self.out = out if out is not None else sys.stdout
        self.boot_hold = boot_hold  # held from boot on, never released
        self._script = []  # [button, down_ms, up_ms], in time order
        self._now = 0

    def press(self, name, kind, now):
        hold = SHORT_HOLD_MS if kind == "short" else self.cfg.LONG_PRESS_MS + 200
        start = now
        if self._script:
            start = max(start, self._script[-1][2] + GAP_MS)
        self._script.append([name, start, start + hold])

    def pressed(self, name):
        if name == self.boot_hold:
            return True
        while self._script and self._script[0][2] <= self._now:
            self._script.pop(0)
        for b, down, up in self._script:
            if b == name and down <= self._now < up:
                return True
        return False

    def any_pressed(self):
        return self.boot_hold

    def emit(self, obj):
        self.out.write(json.dumps(obj) + "\n")

    def show(self, now, digits, ring, lost, snap, tone):
        self.emit({"t": now, "digits": digits, "ring": [list(c) for c in ring],
                   "tone": tone, "lost": lost,
                   "snap": None if snap is None else [snap.epoch, snap.seq]})

    def service(self, now):
        self._now = now  # the button script's clock
