"""Cue sounds as (frequency Hz, duration ms) steps, 0 Hz = silence, and a pure sequencer."""

TONES = {
    "turn": ((1047, 60),),
    "illegal": ((196, 220), (0, 60), (196, 220)),
    "danger": ((1568, 70), (0, 50), (1568, 70), (0, 50), (1568, 70)),
    "bust": ((523, 140), (392, 140), (262, 320)),
    "win": ((523, 110), (659, 110), (784, 110), (1047, 330)),
    # a board button answered the referee's question: a short rising chirp, "got it"
    "take": ((1319, 50), (0, 30), (1760, 80)),
}


class ToneSequencer:
    """start(name, now) begins a cue (replacing one that plays); freq(now) is the frequency
    to play at that moment (0 = silent)."""

    def __init__(self):
        self._steps = ()
        self._start = 0

    def start(self, name, now_ms):
        self._steps = TONES[name]
        self._start = now_ms

    def freq(self, now_ms):
        t = now_ms - self._start
        for f, ms in self._steps:
            if t < ms:
                return f
            t -= ms
        self._steps = ()
        return 0
