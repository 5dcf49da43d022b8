"""The board app: one cooperative loop, a step every PERIOD_MS.

Each step reads what the host sent (BoardSession answers it), samples the buttons through the
debouncers, sends what is due (HI, button resends), works out what to show with tablelink.show
and hands it to the hardware only when it changed. The same App runs on a real board
(tableboard.hardware + USB CDC link) and on the unix port (tableboard.simhw + a tty).

The hardware object offers: pressed(button) -> bool, show(now, digits, ring, lost, snap, tone)
(ring colours are already capped), service(now) (tones). The link offers: read() -> bytes,
write(bytes), wait(ms) (sleeps until input or timeout), closed (True once it is gone).
"""
from tablelink import show
from tablelink.board import BoardSession
from tablelink.messages import BUTTONS, COLOURS
from tableboard.debounce import Debouncer

PERIOD_MS = 10        # button sampling rate is 1/PERIOD_MS; the debounce needs a few samples
PICK_TIMEOUT_MS = 8000  # an unconfirmed COLOUR choice is dropped after this long
TAKEN_MS = show.TAKEN_MS


class App:
    def __init__(self, hw, link, clock, cfg, boot_id, board, fw):
        self.hw = hw
        self.link = link
        self.clock = clock
        self.cfg = cfg
        now = clock.now()
        self.session = BoardSession(boot_id, board, cfg.PIXELS, fw, now,
                                    link_timeout_ms=cfg.LINK_TIMEOUT_MS,
                                    hello_ms=cfg.HEARTBEAT_MS)
        self.buttons = [(b, Debouncer(cfg.DEBOUNCE_MS, cfg.LONG_PRESS_MS)) for b in BUTTONS]
        self.picking = None       # colour chosen with COLOUR short presses, not yet confirmed
        self._pick_until = 0
        self.taken = None         # the code a button just answered the referee's question with
        self._taken_until = 0
        self._tone = None         # a cue of the board's own (a button's answer), sounded next render
        self._seen = 0            # session.shown_count already turned into cues
        self._prev_snap = None
        self._shown = None        # (digits, ring, lost, snap) last handed to hw
        self.running = True

    def on_press(self, button, press, now):
        snap = self.session.shown
        code = snap.answer(button, press) if snap is not None else None
        if code is not None:
            # the referee asks which card: this press takes one of the codes it offered, and
            # names it, so the host can tell the answer is about the card it still asks about
            self.taken, self._taken_until, self._tone = code, now + TAKEN_MS, "take"
            self.link.write(self.session.press(button, press, code, now))
            return
        if button == "COLOUR":
            if press == "short":
                self._cycle_colour(now)
                return
            arg = self.picking
            if arg is None:
                snap = self.session.shown
                arg = snap.colour if snap is not None and snap.colour else COLOURS[0]
            self.picking = None
            self.link.write(self.session.press("COLOUR", "long", arg, now))
            return
        self.link.write(self.session.press(button, press, None, now))

    def _cycle_colour(self, now):
        cur = self.picking
        if cur is None:
            snap = self.session.shown
            cur = snap.colour if snap is not None else None
        i = COLOURS.index(cur) + 1 if cur in COLOURS else 0
        self.picking = COLOURS[i % len(COLOURS)]
        self._pick_until = now + PICK_TIMEOUT_MS

    def step(self, now):
        session = self.session
        data = self.link.read()
        if data:
            out = session.feed(data, now)
            if out:
                self.link.write(out)
        tone = None
        if session.shown_count != self._seen:
            self._seen = session.shown_count
            tone = show.cue(self._prev_snap, session.shown)
            self._prev_snap = session.shown
        for name, deb in self.buttons:
            ev = deb.update(self.hw.pressed(name), now)
            if ev is not None:
                self.on_press(name, ev, now)
        if self._tone is not None:  # the chirp for the person's own press sounds at once
            tone, self._tone = self._tone, None
        if self.picking is not None and now >= self._pick_until:
            self.picking = None
        if self.taken is not None and now >= self._taken_until:
            self.taken = None
        out = session.tick(now)
        if out:
            self.link.write(out)
        self._render(now, tone)
        self.hw.service(now)

    def _render(self, now, tone):
        snap = self.session.shown
        lost = self.session.lost(now)
        digits = show.digits(snap, now, lost, self.taken)
        ring = show.apply_cap(show.ring(snap, now, self.cfg.PIXELS, lost, self.picking),
                              self.cfg.BRIGHTNESS_CAP)
        cur = (digits, ring, lost, snap)
        if tone is not None or cur != self._shown:
            self._shown = cur
            self.hw.show(now, digits, ring, lost, snap, tone)

    def run(self):
        while self.running and not self.link.closed:
            self.step(self.clock.now())
            self.link.wait(PERIOD_MS)

    def stop(self):
        self.running = False
