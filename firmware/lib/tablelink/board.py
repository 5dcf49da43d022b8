"""The board side of the link as a pure state machine (no I/O, clock passed in as int ms).

    s = BoardSession(boot_id, "rp2", 12, "0.1.0", now_ms)
    out = s.tick(now_ms)                 # bytes to write (HI at boot, resends)
    out = s.feed(received_bytes, now_ms) # bytes to write (ACK, HI in reply to WHO)
    out = s.press("DRAW", "short", None, now_ms)
    s.shown        # the Snapshot on display (None before the first one)
    s.shown_count  # grows by one each time a new snapshot replaces the shown one
    s.lost(now_ms) # True once the host has been quiet for link_timeout_ms

Behaviour (PROTOCOL.md): HI at boot and every hello_ms until the first valid SNAP, and in reply
to WHO; every SNAP is acked; within an epoch only a higher seq replaces what is shown, a new
epoch always does; button events get (boot_id, n) and are resent oldest first every resend_ms
until the host's BACK.

Tick arithmetic uses plain int subtraction, so callers on a board pass a counter that does not
wrap (see tableboard.clock), not raw time.ticks_ms().
"""
from tablelink.frame import FrameReader
from tablelink.messages import (Ack, Back, Btn, Hi, Snapshot, Who, read_messages, BUTTONS,
                                PRESSES, COLOURS, card_code)

HELLO_MS = 1000
RESEND_MS = 500
LINK_TIMEOUT_MS = 3000
MAX_OUTSTANDING = 32  # unacked button events kept; beyond that the oldest is given up


class BoardSession:
    def __init__(self, boot_id: str, board: str, pixels: int, fw: str, now_ms: int,
                 link_timeout_ms: int = LINK_TIMEOUT_MS, hello_ms: int = HELLO_MS,
                 resend_ms: int = RESEND_MS):
        self.hi = Hi(boot_id, board, pixels, fw)
        self.boot_id = boot_id
        self.link_timeout_ms = link_timeout_ms
        self.hello_ms = hello_ms
        self.resend_ms = resend_ms
        self.reader = FrameReader()
        self.shown = None
        self.shown_count = 0
        self.last_rx_ms = now_ms   # last valid frame from the host (boot counts as a start)
        self._next_hello_ms = now_ms  # first tick sends HI
        self._hello_done = False
        self.hellos = 0          # HI frames sent by tick()
        self._n = 0
        self._pending = []  # [ [n, frame_bytes, last_sent_ms], ... ] oldest first
        self.malformed = 0  # frames with a known TYPE and bad fields
        self.gave_up = 0    # button events dropped because too many were outstanding

    # -- inputs -------------------------------------------------------------------------
    def feed(self, data: bytes, now_ms: int) -> bytes:
        """Bytes from the host; returns the bytes to send back."""
        out = []
        # unknown TYPEs are skipped there, and are not proof the host is there
        for msg in read_messages(self.reader, data, self):
            if isinstance(msg, Snapshot):
                self.last_rx_ms = now_ms
                self._on_snap(msg)
                out.append(Ack(msg.epoch, msg.seq).encode())
            elif isinstance(msg, Who):
                self.last_rx_ms = now_ms
                out.append(self.hi.encode())
            elif isinstance(msg, Back):
                self.last_rx_ms = now_ms
                if msg.boot_id == self.boot_id:
                    self._pending = [p for p in self._pending if p[0] != msg.n]
            # HI/ACK/BTN are the board's own messages (an echoing tty): ignored
        return b"".join(out)

    def _on_snap(self, snap):
        self._hello_done = True
        cur = self.shown
        if cur is not None and cur.epoch == snap.epoch and snap.seq <= cur.seq:
            return  # a heartbeat or an old one: acked, not shown again
        self.shown = snap
        self.shown_count += 1

    def press(self, button: str, press: str, arg: "str | None", now_ms: int) -> bytes:
        """Queue a button event; returns the first sending of its frame."""
        if button not in BUTTONS or press not in PRESSES:
            raise ValueError("bad button event: %r %r" % (button, press))
        if button == "COLOUR" and press == "long":
            if arg is not None and arg not in COLOURS:
                raise ValueError("bad colour: %r" % (arg,))
        elif arg is not None:
            card_code(arg, "arg")  # the card a press answers the referee's question with
        self._n += 1
        frame = Btn(self.boot_id, self._n, button, press, arg).encode()
        if len(self._pending) >= MAX_OUTSTANDING:
            self._pending.pop(0)
            self.gave_up += 1
        self._pending.append([self._n, frame, now_ms])
        return frame

    def tick(self, now_ms: int) -> bytes:
        """Time passes; returns what is due (HI while waiting for a first SNAP, BTN resends)."""
        out = []
        # the first HI always goes out, even if a SNAP beat the first tick
        if self.hellos == 0 or (not self._hello_done and now_ms >= self._next_hello_ms):
            self.hellos += 1
            out.append(self.hi.encode())
            self._next_hello_ms = now_ms + self.hello_ms
        for p in self._pending:
            if now_ms - p[2] >= self.resend_ms:
                out.append(p[1])
                p[2] = now_ms
        return b"".join(out)

    # -- state --------------------------------------------------------------------------
    def lost(self, now_ms: int) -> bool:
        """True if no valid frame from the host arrived for link_timeout_ms."""
        return now_ms - self.last_rx_ms >= self.link_timeout_ms

    def outstanding(self) -> "list[int]":
        """Numbers n of the button events not yet acknowledged, oldest first."""
        return [p[0] for p in self._pending]
