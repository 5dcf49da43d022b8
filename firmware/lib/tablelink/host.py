"""The host side of the link as a pure state machine (no I/O, clock passed in as int ms).

    h = HostSession(epoch, now_ms, applied={("1a2b3c4d", 1)})
    out = h.connected(now_ms)          # after (re)opening the port: WHO (+ the current SNAP)
    out = h.show(snapshot, now_ms)     # a new SNAP if what is shown changed, else b""
    out = h.feed(received, now_ms)     # replies: BACK for already-applied presses, SNAP on HI
    out = h.tick(now_ms)               # heartbeat: the current SNAP every heartbeat_ms
    events = h.take_events()           # new ButtonEvents, each exactly once
    out = h.confirm(events)            # caller has applied (journaled) them: BACK each
    notes = h.take_notices()           # status lines for a person (board found, refused...)

Exactly once: a press is delivered when its (boot_id, n) is neither applied (given at start,
e.g. loaded from the journal, or confirmed since) nor already delivered. Its BACK is sent only
by confirm(), so a host that dies between delivery and journaling gets the press again from the
board's resends; a press the journal already holds is acked at once and never delivered again.
In order: presses of one boot are delivered in n order; one that arrives before an earlier
missing one is held for up to reorder_ms (then delivered anyway: the board may have given
the earlier one up).

Runs on CPython and MicroPython alike (annotations only, never evaluated on MicroPython).
"""
from tablelink.frame import FrameReader
from tablelink.messages import PROTO, Ack, Back, Btn, Hi, Snapshot, Who, read_messages

# What callers put in a Snapshot's epoch/seq before the session stamps it: seq 0 is never
# valid on the wire, so an unstamped snapshot cannot be sent by mistake.
UNSTAMPED_EPOCH = "00000000"
UNSTAMPED_SEQ = 0

HEARTBEAT_MS = 1000
QUIET_MS = 3000  # no frame from the board for this long while we talk to it -> notice
# A press that overtook an earlier one (whose frame was damaged) waits this long for it: the
# board resends every 500 ms, so the earlier one normally arrives well within the wait.
REORDER_MS = 1500


class ButtonEvent(Btn):
    """One board button press as delivered to the caller: a BTN whose (boot_id, n) `key`
    identifies it across resends and restarts."""

    @property
    def key(self) -> tuple:
        return (self.boot_id, self.n)


class HostSession:
    def __init__(self, epoch: str, now_ms: int, applied: "set[tuple[str, int]] | None" = None,
                 heartbeat_ms: int = HEARTBEAT_MS, quiet_ms: int = QUIET_MS,
                 reorder_ms: int = REORDER_MS):
        if len(epoch) != 8:
            raise ValueError("epoch must be 8 hex digits")
        int(epoch, 16)
        self.epoch = epoch
        self.heartbeat_ms = heartbeat_ms
        self.quiet_ms = quiet_ms
        self.reorder_ms = reorder_ms
        # (boot_id, n) already applied: ack, never deliver
        self.applied: "set[tuple[str, int]]" = set(applied) if applied else set()
        self.delivered: "set[tuple[str, int]]" = set()  # handed to the caller, BACK waits for confirm()
        self._next_n: "dict[str, int]" = {}  # boot_id -> the n expected next (in-order delivery)
        for boot, n in self.applied:
            self._next_n[boot] = max(self._next_n.get(boot, 1), n + 1)
        self._held = {}  # (boot_id, n) -> [ButtonEvent, first seen ms]: waiting for earlier ones
        self.reader = FrameReader()
        self.current = None  # the stamped Snapshot being shown (None before the first show)
        self.seq = 0
        self.acked_seq = 0  # highest seq of this epoch the board acked
        self.board = None  # the last accepted Hi
        self.refused = None  # why the board was refused (protocol mismatch), else None
        self.malformed = 0
        self.last_rx_ms = now_ms
        self._last_snap_ms = now_ms
        self._quiet = False
        self._events = []
        self._notices = []

    # -- what to show --------------------------------------------------------------------
    def show(self, snap: Snapshot, now_ms: int) -> bytes:
        """Make `snap` the current snapshot (its epoch/seq are replaced, so UNSTAMPED_* will do);
        returns the SNAP bytes if what is shown changed, else b""."""
        if snap.shows_same(self.current):
            return b""
        stamped = snap.stamped(self.epoch, self.seq + 1)
        frame = stamped.encode()  # validates first: a bad snapshot raises, nothing changes
        self.seq += 1
        self.current = stamped
        return self._send_snap(frame, now_ms)

    def _send_snap(self, frame: bytes, now_ms: int) -> bytes:
        if self.refused is not None:
            return b""
        self._last_snap_ms = now_ms
        return frame

    def _snap_frame(self, now_ms: int) -> bytes:
        if self.current is None:
            return b""
        return self._send_snap(self.current.encode(), now_ms)

    @property
    def acked(self) -> bool:
        """True once the board acked the current snapshot."""
        return self.current is not None and self.acked_seq >= self.current.seq

    # -- time and connection -------------------------------------------------------------
    def connected(self, now_ms: int) -> bytes:
        """The port was (re)opened: ask who is there and show the current snapshot again."""
        self.reader.reset()
        self.last_rx_ms = now_ms
        self._quiet = False
        return Who().encode() + self._snap_frame(now_ms)

    def tick(self, now_ms: int) -> bytes:
        self._release(now_ms)
        out = b""
        if now_ms - self._last_snap_ms >= self.heartbeat_ms:
            self._last_snap_ms = now_ms
            if self.board is None:  # nobody introduced itself yet: keep asking
                out += Who().encode()
            out += self._snap_frame(now_ms)
        if not self._quiet and now_ms - self.last_rx_ms >= self.quiet_ms:
            self._quiet = True
            self._notices.append("no answer from the board for %d s" % (self.quiet_ms // 1000))
        return out

    # -- input from the board ------------------------------------------------------------
    def feed(self, data: bytes, now_ms: int) -> bytes:
        out = []
        for msg in read_messages(self.reader, data, self):
            if isinstance(msg, (Who, Snapshot, Back)):
                continue  # our own frames echoed back by a tty that echoes
            self.last_rx_ms = now_ms
            if self._quiet:
                self._quiet = False
                self._notices.append("the board answers again")
            if isinstance(msg, Hi):
                out.append(self._on_hi(msg, now_ms))
            elif isinstance(msg, Ack):
                if msg.epoch == self.epoch and msg.seq > self.acked_seq:
                    self.acked_seq = msg.seq
            elif isinstance(msg, Btn):
                out.append(self._on_btn(msg, now_ms))
        self._release(now_ms)
        return b"".join(out)

    def _on_hi(self, hi: Hi, now_ms: int) -> bytes:
        if hi.proto != PROTO:
            reason = ("board %s speaks tablelink protocol %d, this host speaks %d: "
                      "update the firmware (tableref flash) or tableref" % (hi.boot_id, hi.proto, PROTO))
            if self.refused != reason:
                self._notices.append(reason)
            self.refused = reason
            self.board = None
            return b""
        self.refused = None
        if self.board is None or self.board.boot_id != hi.boot_id:
            self._notices.append("board %s (%s, %d pixels, firmware %s) connected"
                                 % (hi.boot_id, hi.board, hi.pixels, hi.fw))
        self.board = hi
        # A new boot shows nothing; the same boot sends HI only before its first SNAP or on
        # WHO. Either way the snapshot is what it needs (it is idempotent).
        return self._snap_frame(now_ms)

    def _on_btn(self, btn: Btn, now_ms: int) -> bytes:
        if self.refused is not None:
            return b""  # a board we refused may mean something else by its fields
        key = (btn.boot_id, btn.n)
        if key in self.applied:
            return Back(btn.boot_id, btn.n).encode()  # a resend whose BACK was lost
        if key not in self.delivered and key not in self._held:
            ev = ButtonEvent(btn.boot_id, btn.n, btn.button, btn.press, btn.arg)
            self._held[key] = [ev, now_ms]
        return b""  # BACK once the caller confirms

    def _release(self, now_ms: int) -> None:
        """Deliver held presses that are next in line, or have waited reorder_ms."""
        if not self._held:
            return
        for key in sorted(self._held):
            boot, n = key
            ev, seen = self._held[key]
            expected = self._next_n.get(boot, 1)
            if n <= expected or now_ms - seen >= self.reorder_ms:
                del self._held[key]
                self.delivered.add(key)
                self._events.append(ev)
                if n >= expected:
                    self._next_n[boot] = n + 1

    # -- handing events to the caller ----------------------------------------------------
    def take_events(self) -> list:
        ev, self._events = self._events, []
        return ev

    def confirm(self, events: list) -> bytes:
        """The caller has applied `events` (and made that durable): BACK each."""
        out = []
        for e in events:
            self.delivered.discard(e.key)
            self.applied.add(e.key)
            out.append(Back(e.boot_id, e.n).encode())
        return b"".join(out)

    def take_notices(self) -> list:
        notes, self._notices = self._notices, []
        return notes
