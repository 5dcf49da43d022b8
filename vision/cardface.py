"""Card faces drawn by the project itself (OpenCV primitives and Hershey fonts only).

These renders are the project's own stand-in for printed decks: the synthetic pile videos
use them, and the built-in recogniser profile is trained on them (with augmentation), so
nothing shipped depends on third-party card art.

Styles:
  * ``classic`` - UNO, official-like: white border, coloured field, white-ringed tilted oval,
    white numerals with a black outline.
  * ``clone``   - UNO, the common clone design: filled white oval, coloured italic numerals.
  * ``ono99``   - the 99 decks: coloured field, two rules across the card, big white number
    with a black shadow.
A 99-deck code asked for in an UNO style is drawn in ``ono99`` (and vice versa ``classic``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from . import glyphs

# Card proportions of a real UNO card (56 x 87 mm).
ASPECT = 87.0 / 56.0

UNO_COLOURS = ("red", "yellow", "green", "blue")
UNO_STYLES = ("classic", "clone")
NINETY_NINE_STYLES = ("ono99",)
STYLES = UNO_STYLES + NINETY_NINE_STYLES

# BGR print colours (close to the printed inks under neutral light).
INK: dict[str, tuple[int, int, int]] = {
    "red": (38, 30, 214),
    "yellow": (16, 205, 250),
    "green": (64, 160, 40),
    "blue": (196, 104, 10),
    "black": (24, 24, 24),
    "white": (250, 250, 250),
}

NUMBER_RANKS = tuple(str(n) for n in range(10))
ACTION_RANKS = ("skip", "reverse", "draw2")
NO_MERCY_RANKS = ("draw4", "skip_all", "discard_all")
CLASSIC_WILDS = ("wild", "wild_draw4")
SPECIAL_WILDS_112 = ("wild_shuffle_hands", "wild_swap_hands", "wild_custom")
NO_MERCY_WILDS = ("wild_reverse_draw4", "wild_draw6", "wild_draw10", "wild_color_roulette")
ONO99_CLASSIC = tuple(f"num-{n}" for n in range(2, 11)) + ("minus10", "hold", "reverse", "double_play", "ono99")
ONO99_2022 = tuple(f"num-{n}" for n in range(0, 11)) + ("minus10", "reverse", "play2", "ono99")

DECKS = ("uno", "uno112", "uno_no_mercy", "ono99_classic", "ono99_2022")


def all_codes(deck: str) -> list[str]:
    """Distinct card codes of a deck (rules.md 1.4); counts are not modelled on purpose."""
    coloured = lambda ranks: [f"{c}-{r}" for c in UNO_COLOURS for r in ranks]  # noqa: E731
    if deck == "uno":
        return coloured(NUMBER_RANKS + ACTION_RANKS) + list(CLASSIC_WILDS)
    if deck == "uno112":
        return all_codes("uno") + list(SPECIAL_WILDS_112)
    if deck == "uno_no_mercy":
        return coloured(NUMBER_RANKS + ACTION_RANKS + NO_MERCY_RANKS) + list(NO_MERCY_WILDS)
    if deck == "ono99_classic":
        return list(ONO99_CLASSIC)
    if deck == "ono99_2022":
        return list(ONO99_2022)
    if deck in ("uno_family", "all_uno"):
        return sorted(set(all_codes("uno112")) | set(all_codes("uno_no_mercy")))
    if deck == "ono99":
        return sorted(set(ONO99_CLASSIC) | set(ONO99_2022))
    if deck == "all":
        return all_codes("uno_family") + all_codes("ono99")
    raise ValueError(f"unknown deck {deck!r}; known: {', '.join(DECKS)}")


def is_ninety_nine(code: str) -> bool:
    return code in ONO99_CLASSIC or code in ONO99_2022


def split_code(code: str) -> tuple[str | None, str]:
    """UNO code -> (colour or None for wilds, rank). 99 codes -> (None, code)."""
    colour, sep, rank = code.partition("-")
    if sep and colour in UNO_COLOURS:
        return colour, rank
    return None, code


# --------------------------------------------------------------------------- drawing helpers

def _pt(x: float, y: float) -> tuple[int, int]:
    # Fixed-point coordinates (shift=4) give sub-pixel anti-aliased shapes.
    return int(round(x * 16)), int(round(y * 16))


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], outline: int = 0,
          outline_colour: tuple[int, int, int] = INK["black"]) -> None:
    p = np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)
    if outline > 0:
        cv2.polylines(img, [p], True, outline_colour, outline * 2, cv2.LINE_AA, shift=4)
    cv2.fillPoly(img, [p], colour, cv2.LINE_AA, shift=4)


def _rounded_rect(w: float, h: float, r: float, cx: float, cy: float, angle_deg: float = 0.0) -> np.ndarray:
    """Polygon of a rounded rectangle centred at (cx, cy), rotated by angle (degrees)."""
    pts = []
    for (sx, sy), start in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        ox, oy = sx * (w / 2 - r), sy * (h / 2 - r)
        for k in range(7):
            a = math.radians(start + k * 15)
            pts.append((ox + r * math.cos(a), oy + r * math.sin(a)))
    arr = np.array(pts, np.float64)
    t = math.radians(angle_deg)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return arr @ rot.T + (cx, cy)


def _text(img: np.ndarray, text: str, cx: float, cy: float, height: float, colour: tuple[int, int, int],
          outline_colour: tuple[int, int, int] | None, font: int, weight: float = 0.14,
          shadow: float = 0.0, underline: bool = False, rotate180: bool = False, numerals: bool = False,
          italic: float = 0.0, bar: tuple[float, float] = (1.0, 1.0), extras: bool = False) -> None:
    """Draw `text` centred at (cx, cy) with cap height `height`; optional outline / drop shadow.
    `numerals`: digits are drawn with the project's own UNO-like glyphs (glyphs.py), leaning by
    `italic`, instead of the Hershey `font` (`extras`: with glyphs.EXTRAS). `bar`: the
    underline's length and thickness as shares of the usual (a short one prints as a dot)."""
    if rotate180:
        # Draw on a rotated copy so the text reads upside down like a card's lower index.
        h, w = img.shape[:2]
        flipped = cv2.rotate(img, cv2.ROTATE_180)
        _text(flipped, text, w - 1 - cx, h - 1 - cy, height, colour, outline_colour, font, weight,
              shadow, underline, False, numerals, italic, bar, extras)
        img[:] = cv2.rotate(flipped, cv2.ROTATE_180)
        return
    own = numerals and glyphs.is_numeral(text)
    if own:
        tw, th = glyphs.text_width(text, height, weight), height
    else:
        tw, th, scale, thick = _hershey_size(text, font, height, weight)
    org_x, org_y = cx - tw / 2, cy + th / 2
    layers: list[tuple[float, float, tuple[int, int, int], int]] = []
    if shadow > 0:
        d = height * shadow
        # a shadow behind an outlined numeral is as fat as the outline; alone, it is a thin
        # offset copy (clone prints), which must not fill the numeral's counters
        layers.append((d, d, INK["black"], max(2, int(height * 0.08)) if outline_colour is not None else 0))
    if outline_colour is not None:
        layers.append((0, 0, outline_colour, max(2, int(height * 0.10))))
    layers.append((0, 0, colour, 0))
    for dx, dy, col, extra in layers:
        if own:
            glyphs.draw_numeral(img, text, cx + dx, cy + dy, height, col, weight, italic, extra, extras)
        else:
            org = (int(round(org_x + dx)), int(round(org_y + dy)))
            cv2.putText(img, text, org, font, scale, col, thick + extra, cv2.LINE_AA)
        if underline and own:
            x0, x1, y, t = glyphs.underline_box(cx, cy, height, weight)
            if bar != (1.0, 1.0):
                mid, half = (x0 + x1) / 2, (x1 - x0) / 2 * bar[0]
                x0, x1, t = mid - half, mid + half, t * bar[1]
            lean = italic * (y - cy) * (1 - weight)
            cv2.line(img, _pt(x0 - lean + dx, y + dy), _pt(x1 - lean + dx, y + dy), col, max(1, int(t + extra)),
                     cv2.LINE_AA, shift=4)
        elif underline:
            y = int(round(org_y + dy + height * 0.26))
            a, b = (0.18, 0.82) if bar[0] == 1.0 else (0.5 - 0.32 * bar[0], 0.5 + 0.32 * bar[0])
            cv2.line(img, (int(org_x + dx + tw * a), y), (int(org_x + dx + tw * b), y), col,
                     max(1, int((thick + extra) * 0.45 * bar[1])), cv2.LINE_AA)


# --------------------------------------------------------------------------- symbols

Symbol = Callable[[np.ndarray, float, float, float, tuple[int, int, int], tuple[int, int, int] | None], None]


def _sym_skip(img, cx, cy, s, fg, ol, weight=1.0, slash=45.0):
    """A ring crossed by a slash; `weight` scales the stroke, `slash`: the slash's rise in degrees."""
    r = s * 0.36
    t = max(2, s * 0.11 * weight)
    for col, extra in ((ol, t * 0.6), (fg, 0)) if ol else ((fg, 0),):
        cv2.circle(img, _pt(cx, cy), int(r * 16), col, int(t + extra), cv2.LINE_AA, shift=4)
        if slash == 45.0:  # the default's own arithmetic (sin and cos of 45 degrees differ in the last bit)
            d = r * math.cos(math.pi / 4)
            cv2.line(img, _pt(cx - d, cy + d), _pt(cx + d, cy - d), col, int(t + extra), cv2.LINE_AA, shift=4)
        else:
            dx, dy = r * math.cos(math.radians(slash)), r * math.sin(math.radians(slash))
            cv2.line(img, _pt(cx - dx, cy + dy), _pt(cx + dx, cy - dy), col, int(t + extra), cv2.LINE_AA, shift=4)


def _arrow_poly(x0: float, y0: float, x1: float, y1: float, width: float) -> np.ndarray:
    """A fat arrow from (x0,y0) to (x1,y1) as a polygon."""
    dx, dy = x1 - x0, y1 - y0
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    head = width * 1.9
    bx, by = x1 - ux * head, y1 - uy * head
    w = width / 2
    return np.array([
        (x0 + px * w, y0 + py * w), (bx + px * w, by + py * w), (bx + px * w * 2.4, by + py * w * 2.4),
        (x1, y1), (bx - px * w * 2.4, by - py * w * 2.4), (bx - px * w, by - py * w), (x0 - px * w, y0 - py * w),
    ])


def _bent_arrow(img: np.ndarray, path: list[tuple[float, float]], s: float, colour: tuple[int, int, int],
                grow: float, weight: float = 1.0, head: float = 1.0) -> None:
    """A bold arrow along `path` (tail ... neck), its head past the neck; `grow` px fatter all
    round (outline layers); `weight` scales the shaft, `head` the head."""
    pts = np.array(path, np.float64)
    cv2.polylines(img, [np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)], False, colour,
                  max(1, int(round(s * 0.15 * weight + 2 * grow))), cv2.LINE_AA, shift=4)
    d = pts[-1] - pts[-2]
    d /= np.linalg.norm(d) or 1.0
    perp = np.array([-d[1], d[0]])
    neck = pts[-1] - d * grow
    tip = pts[-1] + d * (s * 0.22 * head + 1.6 * grow)
    half = s * 0.17 * head + 1.6 * grow
    _poly(img, np.array([neck + perp * half, tip, neck - perp * half]), colour)


# the reverse's arrow (centre line, tail to neck, in symbol sizes): as UNO prints it, then
# other printings' (training variety): straight diagonal shafts, a wide hook, and long shafts
# set apart with a gap between them (as most of the dev photos' decks print it)
REVERSE_ARROWS = (
    [(-0.13, 0.1), (-0.125, 0.04), (-0.1, -0.04), (-0.06, -0.1), (0.08, -0.23)],
    [(-0.12, 0.14), (-0.1, 0.0), (0.1, -0.2)],
    [(-0.02, 0.12), (-0.17, 0.06), (-0.17, -0.06), (-0.08, -0.14), (0.06, -0.16)],
    [(-0.18, 0.05), (-0.15, -0.05), (0.06, -0.27)],
)


def _sym_reverse(img, cx, cy, s, fg, ol, weight=1.0, arrows=0, head=1.0, apart=0.0):
    """Two fat arrows as printed, making an S: each tail curls down beside the other arrow's
    shaft and the shaft points out to a corner; the second arrow is the first turned half
    round, drawn over it with its own outline so the two stay apart. `head` scales the
    arrowheads; `apart` moves the arrows that share of `s` away from each other, across the
    diagonal they point along (as the official deck prints its small corner index)."""
    arrow = REVERSE_ARROWS[arrows]
    edge = ol or INK["white"]   # clone prints part the arrows with the white of the oval
    for sign in (1, -1):
        off = sign * apart * s * 0.7071
        path = [(cx + sign * x * s - off, cy + sign * y * s - off) for x, y in arrow]
        _bent_arrow(img, path, s, edge, max(1.0, s * 0.03), weight, head)
        _bent_arrow(img, path, s, fg, 0.0, weight, head)


def _mini_cards(img, cx, cy, s, colours, ol, n_offsets, lean: float = 0.0):
    """Little upright cards (back to front), slanted by `lean` (top to the right) in prints
    that draw them italic."""
    cw, ch = s * 0.34, s * 0.5
    for (ox, oy), col in zip(n_offsets, colours):
        p = _rounded_rect(cw, ch, cw * 0.15, 0, 0)
        p[:, 0] -= lean * p[:, 1]
        _poly(img, p + (cx + ox * s, cy + oy * s), col, outline=max(1, int(s * 0.03)), outline_colour=ol or INK["black"])


def _sym_draw2(img, cx, cy, s, fg, ol, lean=0.0):
    _mini_cards(img, cx, cy, s, (fg, fg), ol or INK["black"], ((0.1, -0.1), (-0.1, 0.1)), lean)


def _sym_draw4_coloured(img, cx, cy, s, fg, ol, lean=0.0):
    offs = ((0.18, -0.12), (0.06, -0.04), (-0.06, 0.04), (-0.18, 0.12))
    _mini_cards(img, cx, cy, s, (fg,) * 4, ol or INK["black"], offs, lean)


# the four mini cards of a wild +4 span most of the oval, two by two: in a diamond (top,
# right, left, bottom) or in two rising steps; offsets in mini-card units (see _mini_cards)
WILD_DRAW4_LAYOUTS = (
    (((0.15, -0.29), "yellow"), ((0.26, -0.02), "red"), ((-0.2, 0.05), "green"), ((-0.05, 0.29), "blue")),
    (((0.43, -0.28), "yellow"), ((0.0, -0.26), "blue"), ((-0.23, 0.26), "green"), ((0.11, 0.11), "red")),
)


def _sym_wild_draw4(img, cx, cy, s, fg, ol, lean=0.0, layout=0):
    # printed on a white oval, like the coloured cards' oval
    cv2.ellipse(img, _pt(cx, cy), (int(s * 0.58 * 16), int(s * 1.08 * 16)), 30, 0, 360, INK["white"], -1,
                cv2.LINE_AA, shift=4)
    cards = WILD_DRAW4_LAYOUTS[layout % len(WILD_DRAW4_LAYOUTS)]
    _mini_cards(img, cx, cy, s * 1.05, tuple(INK[c] for _, c in cards), INK["black"], tuple(o for o, _ in cards), lean)


def _four_colour_oval(img, cx, cy, ax, ay, angle):
    for k, name in enumerate(("red", "blue", "yellow", "green")):
        cv2.ellipse(img, _pt(cx, cy), (int(ax * 16), int(ay * 16)), angle, k * 90 - 90, k * 90,
                    INK[name], -1, cv2.LINE_AA, shift=4)


def _sym_wild(img, cx, cy, s, fg, ol):
    _four_colour_oval(img, cx, cy, s * 0.24, s * 0.42, 30)


def _sym_wild_lettered(img, cx, cy, s, fg, ol):
    """Older official printing: 'WILD' lettering across the four-colour oval."""
    _four_colour_oval(img, cx, cy, s * 0.34, s * 0.62, 30)
    side = int(s * 1.2)
    canvas = np.zeros((side, side, 3), np.uint8)
    _text(canvas, "WILD", side / 2, side / 2, s * 0.2, INK["yellow"], INK["black"], cv2.FONT_HERSHEY_TRIPLEX, 0.2)
    rot = cv2.getRotationMatrix2D((side / 2, side / 2), 20, 1.0)
    rot[0, 2] += cx - side / 2
    rot[1, 2] += cy - side / 2
    layer = cv2.warpAffine(canvas, rot, (img.shape[1], img.shape[0]))
    mask = layer.max(axis=2) > 0
    img[mask] = layer[mask]


def _wild_banded(img: np.ndarray, cx: float, cy: float, ax: float, ay: float, tilt: float, h: int) -> None:
    """The older official deck's wild: the whole oval in four colours, crossed by a black band
    that carries "WILD" in large letters, each in one ink (_sym_wild_lettered's small word on a
    small oval is no printing the dev photos show, and their wild of this print went unread
    at 40-55 px)."""
    _four_colour_oval(img, cx, cy, ax, ay, tilt)
    angle = -20.0  # the band rises to the right, across the oval's long axis
    t = math.radians(angle)
    along, across = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    c, reach, half = np.array([cx, cy]), 2.0 * h, h * 0.1
    band = np.array([c - along * reach - across * half, c + along * reach - across * half,
                     c + along * reach + across * half, c - along * reach + across * half])
    inside = np.zeros(img.shape[:2], np.uint8)
    cv2.ellipse(inside, _pt(cx, cy), (int(ax * 16), int(ay * 16)), tilt, 0, 360, 255, -1, cv2.LINE_AA, shift=4)
    strip = np.zeros_like(inside)
    cv2.fillConvexPoly(strip, np.round(band * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    share = (cv2.min(inside, strip).astype(np.float32) / 255)[..., None]
    img[:] = np.clip(img * (1 - share) + np.array(INK["black"], np.float32) * share + 0.5, 0, 255).astype(np.uint8)
    height = h * 0.15
    letters = np.zeros_like(img)
    for k, (letter, ink) in enumerate(zip("WILD", ("red", "blue", "yellow", "green"))):
        _text(letters, letter, cx + (k - 1.5) * height * 1.05, cy, height, INK[ink], INK["white"],
              cv2.FONT_HERSHEY_TRIPLEX, 0.24)
    turn = cv2.getRotationMatrix2D((cx, cy), -angle, 1.0)
    letters = cv2.warpAffine(letters, turn, (img.shape[1], img.shape[0]))
    drawn = letters.max(axis=2) > 0
    img[drawn] = letters[drawn]


def _sym_shuffle(img, cx, cy, s, fg, ol):
    _sym_wild(img, cx, cy, s, fg, ol)
    r = s * 0.30
    for start in (20, 200):
        cv2.ellipse(img, _pt(cx, cy), (int(r * 16), int(r * 16)), 0, start, start + 130, INK["white"],
                    max(2, int(s * 0.07)), cv2.LINE_AA, shift=4)
        a = math.radians(start + 130)
        tip = (cx + r * math.cos(a), cy + r * math.sin(a))
        tang = (-math.sin(a), math.cos(a))
        _poly(img, _arrow_poly(tip[0] - tang[0] * s * 0.12, tip[1] - tang[1] * s * 0.12,
                               tip[0] + tang[0] * s * 0.08, tip[1] + tang[1] * s * 0.08, s * 0.06), INK["white"])


def _sym_swap(img, cx, cy, s, fg, ol):
    _sym_wild(img, cx, cy, s, fg, ol)
    w = s * 0.10
    _poly(img, _arrow_poly(cx - s * 0.32, cy - s * 0.10, cx + s * 0.32, cy - s * 0.10, w), INK["white"], 1)
    _poly(img, _arrow_poly(cx + s * 0.32, cy + s * 0.12, cx - s * 0.32, cy + s * 0.12, w), INK["white"], 1)


def _sym_custom(img, cx, cy, s, fg, ol):
    cv2.ellipse(img, _pt(cx, cy), (int(s * 0.26 * 16), int(s * 0.42 * 16)), 30, 0, 360, INK["white"], -1,
                cv2.LINE_AA, shift=4)
    for k in (-1, 0, 1):
        y = cy + k * s * 0.1
        cv2.line(img, _pt(cx - s * 0.12, y), _pt(cx + s * 0.12, y), (170, 170, 170), max(1, int(s * 0.02)),
                 cv2.LINE_AA, shift=4)


def _sym_reverse_draw4(img, cx, cy, s, fg, ol):
    _sym_reverse(img, cx, cy - s * 0.1, s * 0.8, INK["red"], INK["white"])
    _text(img, "+4", cx, cy + s * 0.32, s * 0.26, INK["yellow"], INK["black"], cv2.FONT_HERSHEY_DUPLEX)


def _big_plus(n: int) -> Symbol:
    def draw(img, cx, cy, s, fg, ol):
        _four_colour_oval(img, cx, cy, s * 0.22, s * 0.40, 30)
        _text(img, f"+{n}", cx, cy, s * 0.30, INK["white"], INK["black"], cv2.FONT_HERSHEY_DUPLEX, 0.16)
    return draw


def _sym_roulette(img, cx, cy, s, fg, ol):
    r = s * 0.38
    names = ("red", "yellow", "green", "blue")
    for k in range(8):
        cv2.ellipse(img, _pt(cx, cy), (int(r * 16), int(r * 16)), 0, k * 45, k * 45 + 45, INK[names[k % 4]], -1,
                    cv2.LINE_AA, shift=4)
    cv2.circle(img, _pt(cx, cy), int(r * 16), INK["white"], max(2, int(s * 0.04)), cv2.LINE_AA, shift=4)
    cv2.circle(img, _pt(cx, cy), int(r * 0.25 * 16), INK["white"], -1, cv2.LINE_AA, shift=4)
    _poly(img, np.array([(cx - s * 0.06, cy - r - s * 0.1), (cx + s * 0.06, cy - r - s * 0.1), (cx, cy - r + s * 0.06)]),
          INK["white"], 1)


def _sym_skip_all(img, cx, cy, s, fg, ol):
    _sym_skip(img, cx, cy, s * 0.7, fg, ol)
    for k in range(4):
        a = math.radians(45 + 90 * k)
        x0, y0 = cx + math.cos(a) * s * 0.30, cy + math.sin(a) * s * 0.30
        x1, y1 = cx + math.cos(a) * s * 0.48, cy + math.sin(a) * s * 0.48
        _poly(img, _arrow_poly(x0, y0, x1, y1, s * 0.07), fg, 1, ol or INK["black"])


def _sym_discard_all(img, cx, cy, s, fg, ol):
    offs = ((-0.16, -0.10), (0.0, 0.0), (0.16, 0.10))
    _mini_cards(img, cx, cy, s, (fg,) * 3, ol or INK["black"], offs)
    _poly(img, _arrow_poly(cx, cy - s * 0.05, cx, cy + s * 0.45, s * 0.09), INK["white"], 1)


SYMBOLS: dict[str, Symbol] = {
    "skip": _sym_skip,
    "reverse": _sym_reverse,
    "draw2": _sym_draw2,
    "draw4": _sym_draw4_coloured,
    "skip_all": _sym_skip_all,
    "discard_all": _sym_discard_all,
    "wild": _sym_wild,
    "wild_draw4": _sym_wild_draw4,
    "wild_shuffle_hands": _sym_shuffle,
    "wild_swap_hands": _sym_swap,
    "wild_custom": _sym_custom,
    "wild_reverse_draw4": _sym_reverse_draw4,
    "wild_draw6": _big_plus(6),
    "wild_draw10": _big_plus(10),
    "wild_color_roulette": _sym_roulette,
}

# symbols drawn slanted on italic prints
LEANING = ("draw2", "draw4", "wild_draw4")

# Corner index text (None: a small copy of the centre symbol is drawn instead).
CORNER_TEXT: dict[str, str | None] = {
    "skip": None, "reverse": None, "draw2": "+2", "draw4": "+4", "skip_all": None, "discard_all": None,
    "wild": None, "wild_draw4": "+4", "wild_shuffle_hands": None, "wild_swap_hands": None, "wild_custom": None,
    "wild_reverse_draw4": "+4", "wild_draw6": "+6", "wild_draw10": "+10", "wild_color_roulette": None,
}


# --------------------------------------------------------------------------- card faces

def card_size(short_side: int) -> tuple[int, int]:
    return int(short_side), int(round(short_side * ASPECT))


def card_mask(short_side: int) -> np.ndarray:
    """uint8 mask (255 inside) of the rounded card outline."""
    w, h = card_size(short_side)
    m = np.zeros((h, w), np.uint8)
    _poly(m, _rounded_rect(w - 1, h - 1, w * 0.08, (w - 1) / 2, (h - 1) / 2), (255, 255, 255))
    return m


def _jitter(colour: tuple[int, int, int], rng: np.random.Generator | None, amount: int) -> tuple[int, int, int]:
    if rng is None:
        return colour
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in colour)  # type: ignore[return-value]


@dataclass(frozen=True)
class Printing:
    """How one printing of an UNO design departs from the style's own (training variety for
    the learned reader). The defaults draw the style exactly as without it."""
    oval_w: float = 1.0      # the centre oval's half-axes, as a share of the style's
    oval_h: float = 1.0
    tilt: float = 0.0        # degrees added to the oval's tilt
    numeral: float = 1.0     # the centre numeral's height, as a share of the style's
    outline: bool | None = None  # the centre numeral outlined in black (None: as the style has it)
    field: tuple[int, int, int] | None = None  # the coloured field's ink, BGR (None: the style's)
    # numerals (centre and corners)
    font: int | None = None  # a Hershey font (None: the project's glyphs)
    weight: float | None = None  # stroke as a share of the height (None: as the style draws it)
    lean: float | None = None  # the centre numeral's shear, top to the right (< 0: to the left)
    stretch: float = 1.0     # the centre numeral's width, as a share of its own
    shadow: bool | None = None   # the centre numeral's drop shadow (None: as the style has it)
    bar: tuple[float, float] = (1.0, 1.0)  # the 6/9 underline's length and thickness, shares
    extras: bool = False     # a crossed 7, a 1 on a foot (glyphs.EXTRAS)
    # action symbols
    sym_angle: float = 0.0   # degrees the centre symbol is turned
    sym_scale: float = 1.0
    sym_weight: float = 1.0  # skip ring and reverse arrows: stroke, as a share of the style's
    slash: float = 45.0      # the skip's slash: its rise in degrees
    arrows: int = 0          # the reverse's arrow shape (index in REVERSE_ARROWS)
    plus2: int | None = None  # a draw-two printed as "+2" in this Hershey font, not mini cards
    wild_band: bool = False  # a wild as the older official deck prints it (_wild_banded)
    # corner indices
    index: float = 1.0       # their height, as a share of the style's
    index_at: float = 1.0    # their centre's distance in from the corner, as a share of the style's
    index_symbol: float = 1.0  # a symbol index's (skip, reverse) size, as a share of the style's
    index_weight: float = 1.0  # its strokes, as a share of the centre symbol's (sym_weight)
    index_apart: float = 0.0   # a reverse index's arrows moved apart (_sym_reverse's apart)


def _affine(cx: float, cy: float, angle: float = 0.0, scale: float = 1.0, stretch: float = 1.0,
            shear: float = 0.0) -> np.ndarray | None:
    """The 2x3 map that turns by `angle` degrees and scales about (cx, cy), after stretching x by
    `stretch` and shearing the top to the right by `shear`; None when it moves nothing."""
    if angle == 0.0 and scale == 1.0 and stretch == 1.0 and shear == 0.0:
        return None
    t = math.radians(angle)
    rot = scale * np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])
    a = rot @ np.array([[stretch, -shear], [0.0, 1.0]])
    c = np.array([cx, cy])
    return np.hstack([a, (c - a @ c)[:, None]])


def _drawn_moved(img: np.ndarray, draw: Callable[[np.ndarray], None], m: np.ndarray | None) -> None:
    """draw(img), but what it draws moved by the affine map `m` (None: in place)."""
    if m is None:
        draw(img)
        return
    layer = img.copy()
    draw(layer)
    mask = (layer != img).any(axis=2).astype(np.float32)
    h, w = img.shape[:2]
    layer = cv2.warpAffine(layer, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    img[:] = np.clip(img * (1 - mask) + layer * mask + 0.5, 0, 255).astype(np.uint8)


def _uno_face(code: str, style: str, w: int, h: int, rng: np.random.Generator | None,
              printing: Printing | None = None) -> np.ndarray:
    pr = printing or Printing()
    colour, rank = split_code(code)
    field = INK["black"] if colour is None else (pr.field or _jitter(INK[colour], rng, 12))
    img = np.full((h, w, 3), INK["white"], np.uint8)
    border = w * 0.065
    _poly(img, _rounded_rect(w - 2 * border, h - 2 * border, w * 0.05, w / 2, h / 2), field)
    tilt = 30 + (rng.uniform(-4, 4) if rng is not None else 0) + pr.tilt
    ax, ay = w * 0.36 * pr.oval_w, h * 0.43 * pr.oval_h
    cx, cy = w / 2, h / 2
    is_number = rank in NUMBER_RANKS
    clone = style == "clone"
    # printings differ in weight and lean (classic upright, many clones italic)
    weight = 0.2 if rng is None else float(rng.uniform(0.16, 0.23))
    lean = (0.2 if clone else 0.0) if rng is None else float(rng.uniform(0.0, 0.35) if clone else rng.uniform(0, 0.06))
    if clone:
        cv2.ellipse(img, _pt(cx, cy), (int(ax * 16), int(ay * 16)), tilt, 0, 360, INK["white"], -1, cv2.LINE_AA, shift=4)
    else:
        cv2.ellipse(img, _pt(cx, cy), (int(ax * 16), int(ay * 16)), tilt, 0, 360, INK["white"], max(2, int(w * 0.03)),
                    cv2.LINE_AA, shift=4)
    font = (cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC) if clone else cv2.FONT_HERSHEY_DUPLEX
    own = pr.font is None  # the project's glyphs; else the printing's Hershey font
    if pr.weight is not None:
        weight = pr.weight
    if pr.lean is not None:
        lean = pr.lean
    centre_fg = field if clone else INK["white"]
    centre_ol = INK["black"] if not clone else (None if colour is not None else INK["black"])
    if is_number:
        # printed numerals are big and bold: ~0.39 of the card height including the stroke
        # a 6 or 9 sits a little high so that it and its underline are centred as a group
        lift = h * 0.036 if rank in ("6", "9") else 0.0
        outline = None if clone else INK["black"]
        if pr.outline is not None:
            outline = INK["black"] if pr.outline else None
        shadow = 0.03 if clone else 0.05
        if pr.shadow is not None:
            shadow = 0.04 if pr.shadow else 0.0

        def numeral(canvas: np.ndarray) -> None:
            _text(canvas, rank, cx, cy - lift, h * 0.36 * pr.numeral, centre_fg, outline,
                  font if own else pr.font, weight, shadow=shadow, underline=rank in ("6", "9"), numerals=own,
                  italic=lean if own else 0.0, bar=pr.bar, extras=pr.extras)
        # a Hershey numeral leans through the map (the glyphs lean by themselves)
        _drawn_moved(img, numeral, _affine(cx, cy, stretch=pr.stretch, shear=0.0 if own else lean))
    else:
        fg = INK["white"] if colour is None else (field if clone else INK["white"])
        lettered = not clone and (rng is None or rng.random() < 0.4)
        if rank == "wild" and pr.wild_band:
            _wild_banded(img, cx, cy, ax, ay, tilt, h)
        elif rank == "wild" and not lettered:  # newer prints and clones: the whole oval in four colours
            round_ = rng is not None and rng.random() < 0.3
            _four_colour_oval(img, cx, cy, ax, ax if round_ else ay, 0 if round_ else tilt)
        else:
            symbol = _sym_wild_lettered if rank == "wild" else SYMBOLS[rank]
            slant = (lean,) if rank in LEANING else ()  # only the mini-card symbols lean
            if rank == "wild_draw4":
                # its mini cards lean in every print we know; the layout follows from the lean
                # (not a new random draw, which would change every later render of a profile)
                slant = (0.1 + lean, int(lean * 1000) % 2)
            sym_ol = centre_ol if clone else INK["black"]
            kw = _symbol_printing(rank, pr)

            def centre_symbol(canvas: np.ndarray) -> None:
                if rank == "draw2" and pr.plus2 is not None:
                    _text(canvas, "+2", cx, cy, h * 0.26, fg, sym_ol, pr.plus2, weight * 0.8, shadow=0.04)
                else:
                    symbol(canvas, cx, cy, w * 0.62, fg, sym_ol, *slant, **kw)
            moved = rank in ACTION_RANKS + NO_MERCY_RANKS
            _drawn_moved(img, centre_symbol, _affine(cx, cy, pr.sym_angle, pr.sym_scale) if moved else None)
    # corner indices: top-left upright, bottom-right upside down
    idx_h = h * 0.085 * pr.index
    ix, iy = border + w * 0.10 * pr.index_at, border + h * 0.08 * pr.index_at
    label = rank if is_number else CORNER_TEXT.get(rank)
    for rot in (False, True):
        if label is not None:
            _text(img, label, ix if not rot else w - ix, iy if not rot else h - iy, idx_h, INK["white"], INK["black"]
                  if not clone else None, cv2.FONT_HERSHEY_DUPLEX if own else pr.font,
                  0.18 if pr.weight is None else pr.weight, underline=label in ("6", "9"), rotate180=rot,
                  numerals=own, bar=pr.bar, extras=pr.extras)
        else:
            x, y = (ix, iy) if not rot else (w - ix, h - iy)
            SYMBOLS[rank](img, x, y, idx_h * 1.8 * pr.index_symbol, INK["white"], None,
                          **_symbol_printing(rank, pr, pr.index_weight, pr.index_apart))
    return img


def _symbol_printing(rank: str, pr: Printing, thinner: float = 1.0, apart: float = 0.0) -> dict:
    """The keyword arguments that draw `rank`'s symbol in printing `pr` (the skip and the
    reverse take a printing's strokes, `thinner` times as wide, a thinner reverse's heads
    smaller too and its arrows `apart`; the other symbols none)."""
    if rank == "skip":
        return {"weight": pr.sym_weight * thinner, "slash": pr.slash}
    if rank == "reverse":
        return {"weight": pr.sym_weight * thinner, "arrows": pr.arrows, "head": 0.6 + 0.4 * thinner,
                "apart": apart}
    return {}


NINETY_NINE_FIELD: dict[str, tuple[int, int, int]] = {
    "minus10": (245, 215, 140), "hold": (60, 170, 60), "reverse": (200, 120, 40),
    "double_play": (150, 60, 150), "play2": (150, 60, 150), "ono99": INK["black"],
}


def _ninety_nine_face(code: str, w: int, h: int, rng: np.random.Generator | None) -> np.ndarray:
    field = NINETY_NINE_FIELD.get(code, (0, 110, 250))  # number cards: orange
    field = _jitter(field, rng, 12)
    # printed like UNO cards: a narrow white border around the coloured field
    img = np.full((h, w, 3), INK["white"], np.uint8)
    border = w * 0.05
    _poly(img, _rounded_rect(w - 2 * border, h - 2 * border, w * 0.05, w / 2, h / 2), field)
    for y in (h * 0.2, h * 0.8):
        cv2.line(img, _pt(w * 0.1, y), _pt(w * 0.9, y), INK["white"], max(1, int(w * 0.015)), cv2.LINE_AA, shift=4)
    text = {"minus10": "-10", "hold": "HOLD", "double_play": "x2", "play2": "PLAY2", "ono99": "99"}.get(code)
    if code.startswith("num-"):
        text = code[4:]
    font = cv2.FONT_HERSHEY_DUPLEX
    cx, cy = w / 2, h / 2
    if code == "reverse":
        _sym_reverse(img, cx, cy, w * 0.7, INK["white"], INK["black"])
        corner = None
    else:
        assert text is not None
        big = min(h * 0.26, _height_for_width(text, font, 0.17, w * CENTRE_TEXT_WIDTH))
        _text(img, text, cx, cy, big, INK["white"], INK["black"], font, 0.17, shadow=0.06,
              underline=text in ("6", "9"))
        corner = text
    ix, iy = w * 0.14, h * 0.09
    for rot in (False, True):
        x, y = (ix, iy) if not rot else (w - ix, h - iy)
        if corner is None:
            _sym_reverse(img, x, y, h * 0.12, INK["white"], None)
        else:
            _text(img, corner, x, y, h * 0.06, INK["white"], None, font, 0.15, rotate180=rot)
    return img


# The centre number stays inside the central oval the classifier reads (classify_symbol's
# symbol_mask ellipse spans 0.72 of the width): a "-10" or "10" running past it loses digits.
CENTRE_TEXT_WIDTH = 0.6


def _hershey_size(text: str, font: int, height: float, weight: float) -> tuple[int, int, float, int]:
    """(width, height, font scale, stroke) of `text` in a Hershey `font` at cap height `height`."""
    (_, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    thick = max(1, int(round(height * weight)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    return tw, th, scale, thick


def _height_for_width(text: str, font: int, weight: float, max_w: float) -> float:
    """The largest cap height at which `text` (as drawn by _text) is at most `max_w` wide."""
    height = 100.0
    return height * max_w / max(_hershey_size(text, font, height, weight)[0], 1)


def render_card(code: str, style: str = "classic", short_side: int = 200,
                rng: np.random.Generator | None = None, printing: Printing | None = None) -> np.ndarray:
    """BGRA image of the face of `code` (alpha = rounded card outline).

    `rng` adds small print variations (ink colour, oval tilt) for training and synthesis;
    without it the render is deterministic. `printing` draws another printing of an UNO
    style (see Printing); the 99 decks ignore it.
    """
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r}; known: {', '.join(STYLES)}")
    if short_side < 16:
        raise ValueError("short_side must be at least 16 px")
    w, h = card_size(short_side)
    if is_ninety_nine(code) and not code.startswith(("red-", "blue-")):
        # "reverse" exists in both families only as a 99 code (UNO reverses carry a colour).
        bgr = _ninety_nine_face(code, w, h, rng)
    else:
        colour, rank = split_code(code)
        valid_rank = rank in NUMBER_RANKS + ACTION_RANKS + NO_MERCY_RANKS if colour else rank in SYMBOLS
        if not valid_rank or (colour is None and rank in NUMBER_RANKS + ACTION_RANKS + NO_MERCY_RANKS):
            raise ValueError(f"unknown card code {code!r}")
        bgr = _uno_face(code, style if style in UNO_STYLES else "classic", w, h, rng, printing)
    return np.dstack([bgr, card_mask(short_side)])


def render_back(style: str = "classic", short_side: int = 200) -> np.ndarray:
    """BGRA image of a card back: UNO (black, red oval, yellow lettering) or 99 (yellow, rings)."""
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r}; known: {', '.join(STYLES)}")
    w, h = card_size(short_side)
    if style in NINETY_NINE_STYLES:
        img = np.full((h, w, 3), (30, 215, 250), np.uint8)
        for k in range(4):
            r = w * (0.25 + 0.09 * k)
            cv2.ellipse(img, _pt(w / 2, h * 0.42), (int(r * 16), int(r * 16)), 0, 180, 360, (20, 120, 240),
                        max(2, int(w * 0.04)), cv2.LINE_AA, shift=4)
        _text(img, "ONO", w / 2, h * 0.45, h * 0.11, INK["white"], INK["black"], cv2.FONT_HERSHEY_DUPLEX, 0.18)
        _text(img, "99", w / 2, h * 0.62, h * 0.13, INK["white"], INK["black"], cv2.FONT_HERSHEY_DUPLEX, 0.18)
    else:
        img = np.full((h, w, 3), INK["white"], np.uint8)
        border = w * 0.065
        _poly(img, _rounded_rect(w - 2 * border, h - 2 * border, w * 0.05, w / 2, h / 2), INK["black"])
        cv2.ellipse(img, _pt(w / 2, h / 2), (int(w * 0.36 * 16), int(h * 0.43 * 16)), 30, 0, 360, INK["red"], -1,
                    cv2.LINE_AA, shift=4)
        # UNO lettering runs diagonally; draw it horizontally then rotate into place.
        side = max(w, h)
        canvas = np.zeros((side, side, 3), np.uint8)
        _text(canvas, "UNO", side / 2, side / 2, w * 0.22, INK["yellow"], INK["black"], cv2.FONT_HERSHEY_TRIPLEX,
              0.2, shadow=0.06)
        rot = cv2.getRotationMatrix2D((side / 2, side / 2), 25, 1.0)
        rot[0, 2] += w / 2 - side / 2
        rot[1, 2] += h / 2 - side / 2
        big = cv2.warpAffine(canvas, rot, (w, h))
        mask = big.max(axis=2) > 0
        img[mask] = big[mask]
    return np.dstack([img, card_mask(short_side)])
