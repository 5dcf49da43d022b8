"""The protocol's messages (PROTOCOL.md) as small classes with to_fields()/from_fields().

to_fields() returns the frame's fields, TYPE first; from_fields(fields) takes the same list and
raises ValueError when a field is malformed. parse(fields) picks the class by TYPE and returns
None for an unknown TYPE (which the protocol says to ignore). encode(msg) gives the frame bytes.

Optional values (`-` on the wire) are None here.
"""
from tablelink.frame import encode as _encode_fields, field_ok

PROTO = 1
BOARDS = ("rp2", "esp32", "unix")
BUTTONS = ("DRAW", "PASS", "UNDO", "COLOUR")
PRESSES = ("short", "long")
COLOURS = ("red", "yellow", "green", "blue")
DIRECTIONS = ("cw", "ccw")
MODES = ("play", "ask", "over")
MAX_PLAYERS = 10
MAX_OFFER = 2          # codes a snapshot offers while asking: the likeliest, the runner-up
# While asking, these presses answer: ANSWERS[k] takes offer[k]. PASS ("yes, that one") takes
# the likeliest: passing makes no sense for a card just laid. COLOUR ("no, the other one")
# takes the runner-up: its short press only cycles a colour on the board, which nobody needs
# while the card is unnamed; its long press still confirms a colour. Shared by both ends.
ANSWERS = (("PASS", "short"), ("COLOUR", "short"))
MAX_CODE = 24          # characters of one card code on the wire
_CODE_HEAD = "abcdefghijklmnopqrstuvwxyz"
_CODE_CHARS = _CODE_HEAD + "0123456789-_"


def _int(text, lo, hi, what):
    # int() accepts "+5", " 5" and "1_0"; the wire format is plain decimal digits only.
    s = text[1:] if text[:1] == "-" else text
    if not s or not s.isdigit() or len(s) > 9:
        raise ValueError("bad %s: %r" % (what, text))
    v = int(text)
    if v < lo or v > hi:
        raise ValueError("%s out of range: %r" % (what, text))
    return v


def _hex8(text, what):
    if len(text) != 8:
        raise ValueError("bad %s: %r" % (what, text))
    for ch in text:
        if ch not in "0123456789abcdefABCDEF":
            raise ValueError("bad %s: %r" % (what, text))
    return text


def _choice(text, options, what):
    if text not in options:
        raise ValueError("bad %s: %r" % (what, text))
    return text


def card_code(text, what="card"):
    """`text` if it is a card code as the wire carries it (a lower-case letter, then letters,
    digits, `-` or `_`, at most MAX_CODE in all: "red-7", "wild_draw4", "num-10"); else
    ValueError. Which codes exist is the game's business, not the link's."""
    if not isinstance(text, str) or not text or len(text) > MAX_CODE or text[0] not in _CODE_HEAD:
        raise ValueError("bad %s: %r" % (what, text))
    for ch in text:
        if ch not in _CODE_CHARS:
            raise ValueError("bad %s: %r" % (what, text))
    return text


def _offer(text):
    # "code" or "code/code": the likeliest first
    codes = tuple(text.split("/"))
    if len(codes) > MAX_OFFER:
        raise ValueError("bad offer: %r" % (text,))
    for c in codes:
        card_code(c, "offer")
    return codes


def _opt(value):
    return "-" if value is None else str(value)


def _count(fields, n, kind):
    if len(fields) != n or fields[0] != kind:
        raise ValueError("%s needs %d fields, got %d" % (kind, n - 1, len(fields) - 1))


class _Message:
    TYPE = ""
    _ATTRS = ()

    def _key(self):
        return tuple(getattr(self, a) for a in self._ATTRS)

    def __eq__(self, other):
        return type(other) is type(self) and other._key() == self._key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "%s%r" % (type(self).__name__, self._key())

    def encode(self) -> bytes:
        """This message as one frame (bytes)."""
        return _encode_fields(self.to_fields())

    def to_fields(self):
        raise NotImplementedError


class Hi(_Message):
    """Board -> host: HI,<proto>,<boot_id>,<board>,<pixels>,<fw>."""
    TYPE = "HI"
    _ATTRS = ("proto", "boot_id", "board", "pixels", "fw")

    def __init__(self, boot_id: str, board: str, pixels: int, fw: str, proto: int = PROTO):
        self.proto = proto
        self.boot_id = boot_id
        self.board = board
        self.pixels = pixels
        self.fw = fw

    def to_fields(self):
        return ["HI", str(self.proto), self.boot_id, self.board, str(self.pixels), self.fw]

    @classmethod
    def from_fields(cls, fields):
        _count(fields, 6, "HI")
        # proto is parsed but not checked: the host must say *why* it refuses another version
        return cls(_hex8(fields[2], "boot_id"), fields[3], _int(fields[4], 1, 1024, "pixels"),
                   fields[5], proto=_int(fields[1], 0, 999999, "proto"))


class Ack(_Message):
    """Board -> host: ACK,<epoch>,<seq>: snapshot (epoch, seq) is shown."""
    TYPE = "ACK"
    _ATTRS = ("epoch", "seq")

    def __init__(self, epoch: str, seq: int):
        self.epoch = epoch
        self.seq = seq

    def to_fields(self):
        return ["ACK", self.epoch, str(self.seq)]

    @classmethod
    def from_fields(cls, fields):
        _count(fields, 3, "ACK")
        return cls(_hex8(fields[1], "epoch"), _int(fields[2], 0, 999999999, "seq"))


class Btn(_Message):
    """Board -> host: BTN,<boot_id>,<n>,<button>,<press>,<arg>; arg is a colour for COLOUR long,
    and the card code the board showed when a press answers the referee's question (so the
    host can tell the press is about the card it still asks about), else None."""
    TYPE = "BTN"
    _ATTRS = ("boot_id", "n", "button", "press", "arg")

    def __init__(self, boot_id: str, n: int, button: str, press: str, arg: "str | None" = None):
        self.boot_id = boot_id
        self.n = n
        self.button = button
        self.press = press
        self.arg = arg

    def to_fields(self):
        return ["BTN", self.boot_id, str(self.n), self.button, self.press, _opt(self.arg)]

    @classmethod
    def from_fields(cls, fields):
        _count(fields, 6, "BTN")
        button = _choice(fields[3], BUTTONS, "button")
        press = _choice(fields[4], PRESSES, "press")
        if button == "COLOUR" and press == "long":
            arg = None if fields[5] == "-" else _choice(fields[5], COLOURS, "colour")
        else:
            arg = None if fields[5] == "-" else card_code(fields[5], "arg")
        return cls(_hex8(fields[1], "boot_id"), _int(fields[2], 1, 999999999, "n"),
                   button, press, arg)


class Who(_Message):
    """Host -> board: WHO asks for HI."""
    TYPE = "WHO"
    _ATTRS = ()

    def to_fields(self):
        return ["WHO"]

    @classmethod
    def from_fields(cls, fields):
        _count(fields, 1, "WHO")
        return cls()


class Back(_Message):
    """Host -> board: BACK,<boot_id>,<n>: button event n of that boot is applied."""
    TYPE = "BACK"
    _ATTRS = ("boot_id", "n")

    def __init__(self, boot_id: str, n: int):
        self.boot_id = boot_id
        self.n = n

    def to_fields(self):
        return ["BACK", self.boot_id, str(self.n)]

    @classmethod
    def from_fields(cls, fields):
        _count(fields, 3, "BACK")
        return cls(_hex8(fields[1], "boot_id"), _int(fields[2], 1, 999999999, "n"))


def _pend_ok(pend):
    if pend is None or pend == "r":
        return True
    if len(pend) < 2 or pend[0] not in "pd":
        return False
    digits = pend[1:]
    return digits.isdigit() and len(digits) <= 4 and int(digits) >= 1


class Snapshot(_Message):
    """Host -> board: everything the board shows (SNAP frame).

    epoch: 8 hex digits (str); seq: int >= 1; players: 2..10; turn: seat or None;
    direction: "cw" | "ccw"; elim: bitmask of eliminated seats (int, hex on the wire);
    total: int or None (UNO family); pend: None | "p<k>" (owes k plays) | "d<k>" (owes a draw
    of k) | "r" (roulette); colour: one of COLOURS or None; err: int, 0 = no illegal play
    outstanding, else an id that changes with each new illegal play; winner: seat or None;
    mode: "play" | "ask" | "over"; credit: the seat the camera credited with the last card
    played out of turn (the ring flashes it), or None; offer: while asking (mode "ask"), the
    camera's likeliest card code and its runner-up, likeliest first (a tuple of 0..MAX_OFFER
    codes; the board shows the first and its buttons answer with either).

    `credit` is a 14th field and `offer` a 15th (`code` or `code/code`), each sent only when
    it (or a later one) is set, a credit of None then going as `-`: a board that knows 13 or
    14 fields still reads every snapshot that does not use the newer ones, and this one reads
    13, 14 and 15.
    """
    TYPE = "SNAP"
    _ATTRS = ("epoch", "seq", "players", "turn", "direction", "elim", "total", "pend",
              "colour", "err", "winner", "mode", "credit", "offer")

    def __init__(self, epoch: str, seq: int, players: int, turn: "int | None" = None,
                 direction: str = "cw", elim: int = 0, total: "int | None" = None,
                 pend: "str | None" = None, colour: "str | None" = None, err: int = 0,
                 winner: "int | None" = None, mode: str = "play", credit: "int | None" = None,
                 offer: tuple = ()):
        self.epoch = epoch
        self.seq = seq
        self.players = players
        self.turn = turn
        self.direction = direction
        self.elim = elim
        self.total = total
        self.pend = pend
        self.colour = colour
        self.err = err
        self.winner = winner
        self.mode = mode
        self.credit = credit
        self.offer = tuple(offer)

    def shows_same(self, other: "Snapshot | None") -> bool:
        """True if `other` shows exactly the same thing (epoch and seq aside)."""
        return other is not None and self._key()[2:] == other._key()[2:]

    def stamped(self, epoch: str, seq: int) -> "Snapshot":
        """The same snapshot under another (epoch, seq)."""
        return Snapshot(epoch, seq, self.players, self.turn, self.direction, self.elim, self.total,
                        self.pend, self.colour, self.err, self.winner, self.mode, self.credit, self.offer)

    def answer(self, button: str, press: str) -> "str | None":
        """The offered code a press takes while asking (see ANSWERS), or None: not asking,
        no such code offered, or a press that keeps its ordinary meaning."""
        if self.mode != "ask" or (button, press) not in ANSWERS:
            return None
        pick = ANSWERS.index((button, press))
        return self.offer[pick] if pick < len(self.offer) else None

    def pend_kind(self) -> "str | None":
        """None, "p", "d" or "r"."""
        return None if self.pend is None else self.pend[0]

    def pend_count(self) -> int:
        """k of "p<k>"/"d<k>", else 0."""
        if self.pend is None or self.pend == "r":
            return 0
        return int(self.pend[1:])

    def validate(self) -> None:
        """Raise ValueError unless every field is one the protocol can carry."""
        _hex8(self.epoch, "epoch")
        for v, lo, hi, what in ((self.seq, 1, 999999999, "seq"),
                                (self.players, 2, MAX_PLAYERS, "players"),
                                (self.err, 0, 999999999, "err")):
            if not isinstance(v, int) or v < lo or v > hi:
                raise ValueError("bad %s: %r" % (what, v))
        for v, what in ((self.turn, "turn"), (self.winner, "winner"), (self.credit, "credit")):
            if v is not None and (not isinstance(v, int) or v < 0 or v >= self.players):
                raise ValueError("bad %s: %r" % (what, v))
        _choice(self.direction, DIRECTIONS, "dir")
        if not isinstance(self.elim, int) or self.elim < 0 or self.elim >> self.players:
            raise ValueError("bad elim: %r" % (self.elim,))
        if self.total is not None and (not isinstance(self.total, int)
                                       or abs(self.total) > 999999):
            raise ValueError("bad total: %r" % (self.total,))
        if not _pend_ok(self.pend):
            raise ValueError("bad pend: %r" % (self.pend,))
        if self.colour is not None:
            _choice(self.colour, COLOURS, "colour")
        _choice(self.mode, MODES, "mode")
        if len(self.offer) > MAX_OFFER or (self.offer and self.mode != "ask"):
            raise ValueError("bad offer: %r (only while asking, at most %d codes)" % (self.offer, MAX_OFFER))
        for c in self.offer:
            card_code(c, "offer")

    def to_fields(self):
        self.validate()
        return ["SNAP", self.epoch, str(self.seq), str(self.players), _opt(self.turn),
                self.direction, "%x" % self.elim, _opt(self.total), _opt(self.pend),
                _opt(self.colour), str(self.err), _opt(self.winner), self.mode] + self._trailing()

    def _trailing(self):
        # the newer fields, each only when it or a later one is set (older boards read the rest)
        if self.offer:
            return [_opt(self.credit), "/".join(self.offer)]
        return [] if self.credit is None else [str(self.credit)]

    @classmethod
    def from_fields(cls, fields):
        if len(fields) not in (14, 15):
            _count(fields, 13, "SNAP")
        players = _int(fields[3], 2, MAX_PLAYERS, "players")
        turn = None if fields[4] == "-" else _int(fields[4], 0, players - 1, "turn")
        elim_text = fields[6]
        if not elim_text or len(elim_text) > 4:
            raise ValueError("bad elim: %r" % elim_text)
        for ch in elim_text:
            if ch not in "0123456789abcdefABCDEF":
                raise ValueError("bad elim: %r" % elim_text)
        total = None if fields[7] == "-" else _int(fields[7], -999999, 999999, "total")
        pend = None if fields[8] == "-" else fields[8]
        colour = None if fields[9] == "-" else _choice(fields[9], COLOURS, "colour")
        winner = None if fields[11] == "-" else _int(fields[11], 0, players - 1, "winner")
        snap = cls(_hex8(fields[1], "epoch"), _int(fields[2], 1, 999999999, "seq"), players,
                   turn, fields[5], int(elim_text, 16), total, pend, colour,
                   _int(fields[10], 0, 999999999, "err"), winner, fields[12],
                   None if len(fields) == 13 or fields[13] == "-" else _int(fields[13], 0, players - 1, "credit"),
                   _offer(fields[14]) if len(fields) == 15 else ())
        snap.validate()
        return snap


_BY_TYPE = {"HI": Hi, "ACK": Ack, "BTN": Btn, "WHO": Who, "SNAP": Snapshot, "BACK": Back}


def parse(fields: "list[str]"):
    """The message for a frame's fields; None for an unknown TYPE; ValueError if malformed."""
    cls = _BY_TYPE.get(fields[0])
    if cls is None:
        return None
    return cls.from_fields(fields)


def read_messages(reader, data: bytes, counts):
    """The well-formed messages of known TYPE in `data`, fed through `reader` (a FrameReader).

    Malformed frames of a known TYPE are counted on `counts.malformed`; unknown TYPEs are
    skipped silently (a newer peer may send them). Shared by both ends of the link.
    """
    for fields in reader.feed(data):
        try:
            msg = parse(fields)
        except ValueError:
            counts.malformed += 1
            continue
        if msg is not None:
            yield msg


def encode(msg) -> bytes:
    """The frame (bytes) for a message."""
    return msg.encode()


def check_field(text: str) -> str:
    """Raise ValueError unless `text` can travel as one field (e.g. a firmware version)."""
    if not field_ok(text):
        raise ValueError("not a valid field: %r" % (text,))
    return text
