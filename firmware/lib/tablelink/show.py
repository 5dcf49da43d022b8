"""What the board shows for a snapshot: pure functions shared by the firmware, the host's
simulated board (sim://) and its terminal view.

    digits(snap, now_ms, lost, taken)        -> 4 characters for the 7-segment display
    card_text(code)                           -> a card code in 4 characters (None: unknown)
    ring(snap, now_ms, pixels, lost, picking) -> list of `pixels` (r, g, b) tuples, 0..255
    cues(prev, cur) / cue(prev, cur)          -> sounds for the change prev -> cur

Ring layout: pixel 0 sits at seat 0 and indices grow clockwise (the board's wrapper maps
logical pixels to the physical ring, see config.RING_*); seat s is at pixel
round(s * pixels / players). Colours here are full scale; the board applies
config.BRIGHTNESS_CAP to every channel when it writes the ring.

- no snapshot yet, or link lost: a "waiting" ring (one blue pixel running round a dim ring);
- otherwise each active seat is a dim white pixel, eliminated seats dim red, the seat whose
  turn it is bright (in the active UNO colour when there is one, else white), blinking while
  it owes something (pend: Play k, a draw, roulette); the direction of play is a cyan pixel
  stepping round the ring (cw or ccw) every CHASE_STEP_MS; with an active UNO colour the
  free pixels glow faintly in that colour; game over: the winner's pixel blinks green;
- `credit` (the seat the camera credited with a card played out of turn) flashes in magenta,
  fast, over whatever that seat shows;
- `picking` (a colour name) is the colour chosen locally with the COLOUR button: the whole
  ring glows in it until it is confirmed.

Digits: the total right-aligned ("  42", " -4"), "  +4" for a pending draw, "rOUL" for
roulette, "PL 2" alternating with the total while Play 2 is owed, "CArd" alternating with the
camera's likeliest card (card_text) while the referee asks for a card (with the total when
nothing is offered or the code is not one card_text knows: the screen names it), "ErrC" while
an illegal play is outstanding, "End " at the end of a game with no total, "----" before the
first snapshot; link lost: "LOSt" alternating with what would be shown; `taken` (a code the
board's buttons just answered with) shows card_text(taken) steadily. Alternation period:
ALTERNATE_MS.

Card codes in 4 characters (every code of every deck, each a distinct segment pattern;
firmware/README.md has the table): a UNO-family colour card is its colour's letter (r y G b)
then its symbol right-aligned: "r  7", "b SP" skip, "G rE" reverse, "y +2" draw two, "r +4"
(No Mercy draw four), "b SA" skip all, "G dA" discard all. A wild starts with U (the display
has no W): "UILd" (I on the left-hand segments, unlike 1), "U +4" wild draw four, "U +6",
"U+10", "Ur+4" wild reverse draw four, "UrOL" colour roulette, "UCUS" custom, "UShF" shuffle
hands, "USUP" swap hands. The 99 decks: "   7", "  10", " -10", "On99", "  rE" reverse,
"HOLd", "dbPL" double play, "PL 2" play two.
"""

CHASE_STEP_MS = 250
BLINK_MS = 400
FLASH_MS = 150
ALTERNATE_MS = 1000
WAIT_STEP_MS = 120
DANGER_TOTAL = 90

COLOUR_RGB = {
    "red": (255, 0, 0),
    "yellow": (255, 170, 0),
    "green": (0, 255, 0),
    "blue": (0, 64, 255),
}
OFF = (0, 0, 0)
WHITE = (255, 255, 255)
SEAT_IDLE = (40, 40, 40)
SEAT_ELIM = (60, 0, 0)
CHASE = (0, 90, 90)
WAIT_DIM = (0, 0, 12)
WAIT_DOT = (0, 0, 160)
WIN = (0, 255, 0)
CREDIT = (255, 0, 200)

CARD_COLOURS = {"red": "r", "yellow": "y", "green": "G", "blue": "b"}
# the symbol after a colour (numbers stand for themselves)
CARD_SYMBOLS = {"skip": "SP", "reverse": "rE", "draw2": "+2", "draw4": "+4", "skip_all": "SA",
                "discard_all": "dA"}
# codes without a colour: the wilds and the 99 decks' specials (their numbers: "num-<k>")
CARD_WORDS = {
    "wild": "UILd", "wild_draw4": "U +4", "wild_draw6": "U +6", "wild_draw10": "U+10",
    "wild_reverse_draw4": "Ur+4", "wild_color_roulette": "UrOL", "wild_custom": "UCUS",
    "wild_shuffle_hands": "UShF", "wild_swap_hands": "USUP",
    "minus10": " -10", "ono99": "On99", "reverse": "  rE", "hold": "HOLd",
    "double_play": "dbPL", "play2": "PL 2",
}

# cue names, most important first: only one sound plays at a time
CUES = ("win", "bust", "illegal", "danger", "turn")


def seat_pixel(seat: int, players: int, pixels: int) -> int:
    """Ring index of a seat: seats spread evenly, seat 0 at pixel 0, clockwise."""
    return (seat * pixels * 2 + players) // (players * 2)


def _scaled(rgb, num, den):
    return (rgb[0] * num // den, rgb[1] * num // den, rgb[2] * num // den)


def _total_text(total):
    if total > 9999:
        total = 9999
    elif total < -999:
        total = -999
    return _right(str(total))


def _right(text):
    return " " * (4 - len(text)) + text if len(text) < 4 else text[:4]


def card_text(code) -> "str | None":
    """A card code as 4 display characters, or None for a code this table does not know."""
    word = CARD_WORDS.get(code)
    if word is not None:
        return word
    head, _, sym = code.partition("-")
    if head == "num":
        return _right(sym) if sym.isdigit() and len(sym) <= 2 else None
    letter = CARD_COLOURS.get(head)
    if letter is None:
        return None
    if len(sym) == 1 and sym.isdigit():
        return letter + "  " + sym
    sym = CARD_SYMBOLS.get(sym)
    return None if sym is None else letter + " " + sym


def _texts(snap):
    """What the display cycles through for a snapshot (usually one text)."""
    if snap is None:
        return ["----"]
    if snap.err:
        return ["ErrC"]
    base = None if snap.total is None else _total_text(snap.total)
    kind = snap.pend_kind()
    if snap.mode == "over":
        return [base if base is not None else "End "]
    if kind == "d":
        texts = [_right("+%d" % min(snap.pend_count(), 999))]
    elif kind == "r":
        texts = ["rOUL"]
    elif kind == "p":
        texts = ["PL" + _right(str(min(snap.pend_count(), 99)))[2:]]
        if base is not None:
            texts.insert(0, base)
    else:
        texts = [base if base is not None else "    "]
    if snap.mode == "ask":
        offered = card_text(snap.offer[0]) if snap.offer else None
        if offered is not None:
            texts = [offered]  # the question matters more than the total just now
        texts.append("CArd")
    return texts


TAKEN_MS = 1200  # the card a button answered the referee with stays on the digits this long


def digits(snap, now_ms: int, lost: bool = False, taken: "str | None" = None) -> str:
    """The 4 characters on the 7-segment display; `taken`: the code the board's buttons just
    answered the referee's question with (shown steadily while the app says so)."""
    if taken is not None:
        text = card_text(taken)
        if text is not None:
            return text
    texts = _texts(snap)
    if lost:
        texts = ["LOSt", texts[0]]
    return texts[(now_ms // ALTERNATE_MS) % len(texts)]


def _waiting(now_ms: int, pixels: int) -> "list[tuple[int, int, int]]":
    out: "list[tuple[int, int, int]]" = [WAIT_DIM] * pixels
    out[(now_ms // WAIT_STEP_MS) % pixels] = WAIT_DOT
    return out


def ring(snap, now_ms: int, pixels: int, lost: bool = False,
         picking: "str | None" = None) -> "list[tuple[int, int, int]]":
    """Colours (r, g, b), 0..255 each, for the `pixels` pixels of the ring."""
    if snap is None or lost:
        return _waiting(now_ms, pixels)
    players = snap.players
    seat_px = [seat_pixel(s, players, pixels) for s in range(players)]
    blink_on = (now_ms // BLINK_MS) % 2 == 0
    if picking is not None:
        out = [_scaled(COLOUR_RGB[picking], 1, 4)] * pixels
        if snap.turn is not None:
            out[seat_px[snap.turn]] = COLOUR_RGB[picking]
        return out
    active = COLOUR_RGB.get(snap.colour) if snap.colour is not None else None
    out = [_scaled(active, 1, 16) if active is not None else OFF] * pixels
    if snap.mode != "over":
        step = now_ms // CHASE_STEP_MS
        pos = step % pixels if snap.direction == "cw" else (-step) % pixels
        out[pos] = CHASE
    for s in range(players):
        out[seat_px[s]] = SEAT_ELIM if snap.elim >> s & 1 else SEAT_IDLE
    if snap.mode == "over":
        if snap.winner is not None:
            out[seat_px[snap.winner]] = WIN if blink_on else OFF
        return out
    if snap.turn is not None:
        bright = active if active is not None else WHITE
        if snap.pend is not None and not blink_on:
            bright = _scaled(bright, 1, 8)
        out[seat_px[snap.turn]] = bright
    if snap.credit is not None and (now_ms // FLASH_MS) % 2 == 0:
        out[seat_px[snap.credit]] = CREDIT
    return out


def cues(prev, cur) -> "list[str]":
    """Cue names for the change from the shown snapshot `prev` to `cur`, most important
    first. The first snapshot after boot (prev None) makes no sound."""
    if prev is None or cur is None:
        return []
    out = []
    if cur.winner is not None and cur.winner != prev.winner:
        out.append("win")
    if cur.elim & ~prev.elim:
        out.append("bust")
    if cur.err and cur.err != prev.err:
        out.append("illegal")
    if cur.total is not None and cur.total >= DANGER_TOTAL and (
            prev.total is None or prev.total < DANGER_TOTAL):
        out.append("danger")
    if cur.turn is not None and cur.turn != prev.turn:
        out.append("turn")
    return out


def cue(prev, cur) -> "str | None":
    """The one cue to sound for prev -> cur (the most important), or None."""
    c = cues(prev, cur)
    return c[0] if c else None


def apply_cap(colours: list, cap: int) -> "list[tuple[int, int, int]]":
    """Scale every channel from 0..255 to 0..cap (the board's brightness/current cap)."""
    return [(c[0] * cap // 255, c[1] * cap // 255, c[2] * cap // 255) for c in colours]
