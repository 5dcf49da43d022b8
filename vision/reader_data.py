"""Training images for the learned card reader: the RECTIFIED card as the finder hands it over.

Each sample is a cardface render (or a card-free view, class "_none") pasted into a random
scene with perspective, worn, lit and photographed (cheap-camera effects), then warped back
to the canonical 128x200 portrait with a jittered version of the true outline, exactly as
find_card.warp_card does at run time. Everything is drawn from one numpy Generator, so a
seed gives the same images on every machine. No photo from outside the project is used.

Boundary: image synthesis only; training lives in tools/train_reader.py, the runtime in
card_model.py.
"""
from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np

from .card_model import HIDDEN_FILL
from .cardface import UNO_STYLES, Printing, all_codes, card_size, is_ninety_nine, render_back, render_card
from .classify_colour import INK_SHADES
from .classify_training import camera_effects, card_quad, draw_hand, foreign_card, paste, random_table
from .find_card import WARP_H, WARP_W, warp_card
from .spread_neighbours import turned_about
from .spread_peel import cover_mask

VERSION = 8  # bump when the images change (training caches are named by it; 3 and 4 were never shipped)
CORNER_VERSION = 3  # the corner readers' stream (hide, _index): bump when its images change
# (dataset's corner_version makes an older one's images again: each shipped corner reader is
# checked on its own, card_model.CORNER_MODEL_FILES)
# the whole-card generator whose images the corner stream still is: generator 8 draws its
# additions (_later) from a stream of their own that the corner stream leaves out
CORNER_BASE = 7
NONE = "_none"
HIDDEN_MOST = 0.8  # share of the read card the cards over it may hide
NONE_KINDS = ("table", "hand", "back", "foreign", "part", "overlap", "offset")


def generator(hidden: bool = False) -> int:
    """The version of the images dataset(hidden=...) makes (the corner stream's is CORNER_BASE)."""
    return CORNER_BASE if hidden else VERSION


def classes() -> list[str]:
    """The reader's output classes: every card code of every deck, then "_none"."""
    return all_codes("all") + [NONE]


# --------------------------------------------------------------------------- the printed face

def _print_variety(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another printing of the same design: inks shifted in hue and depth, strokes a little
    fatter or thinner, the design a little larger or smaller inside the card."""
    bgr, alpha = face[:, :, :3], face[:, :, 3]
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).astype(np.int16)
    hsv[:, :, 0] = (hsv[:, :, 0] + int(rng.integers(-4, 5))) % 180
    hsv[:, :, 1] = np.clip(hsv[:, :, 1] * rng.uniform(0.7, 1.15), 0, 255)
    hsv[:, :, 2] = np.clip(hsv[:, :, 2] * rng.uniform(0.8, 1.05), 0, 255)
    bgr = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    r = rng.random()
    if r < 0.2:    # thinner dark strokes (outlines), fatter light ones
        bgr = cv2.dilate(bgr, np.ones((2, 2), np.uint8))
    elif r < 0.4:  # fatter dark strokes
        bgr = cv2.erode(bgr, np.ones((2, 2), np.uint8))
    if rng.random() < 0.5:  # the design scaled about the centre, the white border kept
        h, w = bgr.shape[:2]
        s = rng.uniform(0.92, 1.08)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-2, 2)), s)
        inner = cv2.warpAffine(bgr, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
        keep = np.zeros((h, w), np.uint8)
        b = int(w * 0.09)
        keep[b:h - b, b:w - b] = 1
        bgr = np.where(keep[..., None] > 0, inner, bgr)
    return np.dstack([bgr, alpha])


def _wear(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Worn and faded ink: a blotchy fade toward the paper, scuffs and dirt."""
    bgr = face[:, :, :3].astype(np.float32)
    h, w = bgr.shape[:2]
    if rng.random() < 0.5:
        blotch = cv2.resize(rng.uniform(0, 1, (6, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        fade = np.clip(blotch * rng.uniform(0.1, 0.45), 0, 0.6)[..., None]
        paper = np.array(rng.uniform(215, 250, 3), np.float32)
        bgr = bgr * (1 - fade) + paper * fade
    for _ in range(int(rng.integers(0, 6))):
        p0 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        p1 = (int(p0[0] + rng.normal(0, w * 0.2)), int(p0[1] + rng.normal(0, h * 0.2)))
        tone = float(rng.uniform(150, 255)) if rng.random() < 0.7 else float(rng.uniform(30, 90))
        cv2.line(bgr, p0, p1, (tone, tone, tone), int(rng.integers(1, 3)), cv2.LINE_AA)
    return np.dstack([np.clip(bgr, 0, 255).astype(np.uint8), face[:, :, 3]])


def _washed(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ink washed out down one side (a card worn along an edge, or printed unevenly): the fade
    toward the paper grows across the card from somewhere past its middle (a dev photo's
    blue 8, pale down the left of its numeral, reads as a 3 to every reader; this did not
    mend that one)."""
    bgr = face[:, :, :3].astype(np.float32)
    h, w = bgr.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    across = abs(w * math.cos(a)) + abs(h * math.sin(a))  # the card's extent along a
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / across
    start = rng.uniform(0.0, 0.35)  # ramp runs -0.5..0.5 across the card
    fade = (np.clip((ramp - start) / (0.5 - start), 0, 1) * rng.uniform(0.35, 0.75))[..., None]
    paper = np.array(rng.uniform(215, 250, 3), np.float32)
    return np.dstack([np.clip(bgr * (1 - fade) + paper * fade, 0, 255).astype(np.uint8), face[:, :, 3]])


def _later(code: str, printing: Printing | None,
           rng: np.random.Generator) -> tuple[Printing | None, np.random.Generator | None]:
    """Generator 8's additions, drawn from their own stream `rng`: a wild as the older
    official deck prints it, and ink washed out down one side (the stream to wash it with,
    or None)."""
    if code == "wild" and rng.random() < 0.35:
        printing = dataclasses.replace(printing or Printing(), wild_band=True)
    return printing, rng if rng.random() < 0.2 else None


def deck_ink(colour: str, rng: np.random.Generator) -> tuple[int, int, int]:
    """One deck's print of `colour` (BGR), drawn from INK_SHADES."""
    (h0, h1), (s0, s1), (v0, v1) = INK_SHADES[colour]
    hsv = np.array([[[round(rng.uniform(h0, h1)) % 180, rng.uniform(s0, s1), rng.uniform(v0, v1)]]], np.uint8)
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


# the Hershey fonts other decks' numerals may look like (the project's glyphs are the rest)
FONTS = tuple(f | italic for f in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                                   cv2.FONT_HERSHEY_TRIPLEX) for italic in (0, cv2.FONT_ITALIC))


def _lettering(rng: np.random.Generator) -> dict:
    """Another deck's numerals and action symbols (generator 6): held-out decks' 6s were read
    as 9s, 7s as 4s or 1s and draw-twos as reverses by a model that had seen one printing of
    each. Each idea is drawn on its own, about half of the time."""
    out: dict = {}
    if rng.random() < 0.5:
        font = FONTS[int(rng.integers(len(FONTS)))]
        out["font"] = font
        if rng.random() < 0.6:
            out["weight"] = float(rng.uniform(0.08, 0.22))
    elif rng.random() < 0.5:
        out["weight"] = float(rng.uniform(0.12, 0.28))
    if rng.random() < 0.4:
        out["lean"] = float(rng.uniform(-0.2, 0.35))
    if rng.random() < 0.5:
        out["stretch"] = float(rng.uniform(0.75, 1.3))
    if rng.random() < 0.4:
        out["shadow"] = bool(rng.random() < 0.5)
    r = rng.random()
    # the 6/9 bar shorter, longer, thinner, thicker, or a dot; never left out: a 6 and a 9
    # without it are the same card turned half round (and training turns cards half round)
    if r < 0.15:
        out["bar"] = (0.12, float(rng.uniform(1.0, 1.6)))
    elif r < 0.55:
        out["bar"] = (float(rng.uniform(0.4, 1.4)), float(rng.uniform(0.5, 1.6)))
    out["extras"] = bool(rng.random() < 0.3)
    if rng.random() < 0.5:
        out["sym_angle"] = float(rng.uniform(-30, 30))
    if rng.random() < 0.5:  # any symbol: the dev photos' reverses are up to 1.7 times the classic print's
        out["sym_scale"] = float(rng.uniform(0.8, 1.7))
    if rng.random() < 0.5:
        out["sym_weight"] = float(rng.uniform(0.6, 1.6))
    if rng.random() < 0.4:
        out["slash"] = float(rng.uniform(25, 65))
    if rng.random() < 0.5:
        out["arrows"] = int(rng.integers(1, 4))
    if rng.random() < 0.2:
        out["plus2"] = FONTS[int(rng.integers(len(FONTS)))]
    return out


def _index(rng: np.random.Generator, version: int) -> dict:
    """Another deck's corner indices (the corner stream `version` only: the whole-card reader's
    images stay as its shipped model was trained on): the dev photos' decks print them up to
    1.5 times the classic render's height, and further in. From version 3, skip and reverse
    indices also as the official deck prints them, no bigger than a numeral and in thin
    strokes, where the renders' are fat: the version-2 reader read its reverses as 7s."""
    out = {"index": float(rng.uniform(0.9, 1.6)), "index_at": float(rng.uniform(0.85, 1.35))}
    if version >= 3:
        if rng.random() < 0.5:
            out["index_symbol"] = float(rng.uniform(0.65, 1.0))
        if rng.random() < 0.6:
            out["index_weight"] = float(rng.uniform(0.35, 1.0))
            out["index_apart"] = float(rng.uniform(0.0, 0.12))
    return out


def _printing(code: str, rng: np.random.Generator, indices: int = 0) -> Printing | None:
    """Another deck's printing: the oval larger, smaller or a full-width circle (decks with
    a white disc), numerals larger or smaller, outlined or not, its own ink shade, and its
    own lettering (_lettering); with `indices` (a corner stream's version), its own corner
    indices (_index)."""
    r = rng.random()
    if r < 0.2:
        return Printing(**_index(rng, indices)) if indices else None
    colour = code.split("-", 1)[0]
    shared = {"field": deck_ink(colour, rng) if colour in INK_SHADES and rng.random() < 0.7 else None}
    shared.update(_lettering(rng))
    if indices:
        shared.update(_index(rng, indices))
    if r < 0.4:    # a circle across the card: half-axes equal in pixels
        k = rng.uniform(1.05, 1.3)
        return Printing(oval_w=k, oval_h=k * 0.36 / (0.43 * 1.553), numeral=rng.uniform(0.75, 0.95),
                        outline=bool(rng.random() < 0.7), **shared)
    return Printing(oval_w=rng.uniform(0.85, 1.15), oval_h=rng.uniform(0.85, 1.1), tilt=rng.uniform(-12, 12),
                    numeral=rng.uniform(0.8, 1.1), outline=None if rng.random() < 0.6 else bool(rng.random() < 0.5),
                    **shared)


def _face(code: str, rng: np.random.Generator, short: int, indices: int = 0,
          later: np.random.Generator | None = None) -> np.ndarray:
    """The face of `code` in another deck's printing, worn; `later`: generator 8's additions
    too (_later), drawn from that stream so that the rest comes out as before."""
    style = "ono99" if is_ninety_nine(code) else str(rng.choice(UNO_STYLES))
    printing, wash = _printing(code, rng, indices), None
    if later is not None:
        printing, wash = _later(code, printing, later)
    face = render_card(code, style, short, rng, printing)
    if rng.random() < 0.8:
        face = _print_variety(face, rng)
    if rng.random() < 0.4:
        face = _wear(face, rng)
    return _washed(face, wash) if wash is not None else face


def _random_face(rng: np.random.Generator, short: int, codes: list[str]) -> np.ndarray:
    """Any card (face, back or another game's) for the cards underneath."""
    r = rng.random()
    if r < 0.15:
        return render_back(str(rng.choice(["classic", "ono99"])), short)
    if r < 0.25:
        return foreign_card(rng, short)
    return _face(str(rng.choice(codes)), rng, short)


# --------------------------------------------------------------------------- the scene

def _shade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light falling off across the card (a lamp to one side, a hand's or head's shadow)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / (max(h, w) / 2)
    k = rng.uniform(0.15, 0.6)
    if rng.random() < 0.5:  # a hard-edged shadow
        ramp = (ramp > rng.uniform(-0.5, 0.5)).astype(np.float32) * 2 - 1
        ramp = cv2.GaussianBlur(ramp, (0, 0), rng.uniform(2, 12))
    gain = 1 - k * (ramp + 1) / 2
    return np.clip(img.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def _glare(img: np.ndarray, rng: np.random.Generator, quad: np.ndarray) -> np.ndarray:
    """A specular spot or streak on the glossy card: washes colour out toward white."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    for _ in range(int(rng.integers(1, 3))):
        centre = quad.mean(axis=0)
        c = centre + (quad[int(rng.integers(4))] - centre) * rng.uniform(0, 0.9)
        size = float(np.linalg.norm(quad[1] - quad[0]))
        ax = (int(size * rng.uniform(0.08, 0.4)), int(size * rng.uniform(0.05, 0.2)))
        spot = np.zeros((h, w), np.float32)
        cv2.ellipse(spot, (int(c[0]), int(c[1])), ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), max(1.0, ax[1] * rng.uniform(0.3, 1.0)))
        k = rng.uniform(0.5, 1.0)
        out = out + (255 - out) * (spot * k)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _finger(img: np.ndarray, rng: np.random.Generator, quad: np.ndarray) -> np.ndarray:
    """A finger or thumb over one corner of the card."""
    out = img.copy()
    skin = tuple(float(c) for c in (np.array([90, 130, 190]) * rng.uniform(0.4, 1.25)).clip(0, 255))
    i = int(rng.integers(4))
    corner, centre = quad[i], quad.mean(axis=0)
    size = float(np.linalg.norm(quad[1] - quad[0]))
    tip = corner + (centre - corner) * rng.uniform(0.05, 0.3)
    away = corner + (corner - centre) * 2.0 + rng.normal(0, size * 0.3, 2)
    cv2.line(out, (int(tip[0]), int(tip[1])), (int(away[0]), int(away[1])), skin, max(3, int(size * rng.uniform(0.15, 0.3))),
             cv2.LINE_AA)
    return out


def _scene_size(short: float) -> tuple[int, int]:
    side = int(short * 2.0)  # room for the card at any angle and a little table around it
    return side, side


def _card_short(rng: np.random.Generator) -> float:
    """The card's short side in the photo, px: from a far webcam to a close phone shot (the
    warp to 128x200 then enlarges or shrinks it, as at run time). A 640x360 webcam frame
    shows a card 36-72 px wide, where 6s, 8s and 9s and the reverse's arrows blur together."""
    return float(np.exp(rng.uniform(math.log(32), math.log(170))))


def _place(rng: np.random.Generator, short: float) -> tuple[np.ndarray, np.ndarray]:
    """A table big enough for a card of short side `short` and the card's outline on it."""
    w, h = _scene_size(short)
    return random_table(rng, h, w), card_quad(rng, h, w, short, tilt=rng.uniform(0.0, 0.12))


def _underneath(scene: np.ndarray, quad: np.ndarray, rng: np.random.Generator, codes: list[str]) -> np.ndarray:
    """One or two cards lying under the read card, offset so their edges show around it."""
    short = float(np.linalg.norm(quad[1] - quad[0]))
    for _ in range(int(rng.integers(1, 3))):
        c = quad.mean(axis=0)
        ang = rng.uniform(0, 2 * math.pi)
        off = np.array([math.cos(ang), math.sin(ang)]) * short * rng.uniform(0.1, 0.7)
        rot = math.radians(rng.normal(0, 25))
        m = np.array([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]])
        under = (quad - c) @ m.T + c + off
        scene = paste(scene, _random_face(rng, 160, codes), under.astype(np.float32))
    return scene


def _finder_quad(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The outline a finder would report for a card at `quad`: corners off by a few %, now and
    then cut short on one side (a partial crop) or reaching a little past the card."""
    size = float(np.linalg.norm(quad[0] - quad[2]))
    out = quad + rng.normal(0, rng.uniform(0.005, 0.03) * size, quad.shape)
    r = rng.random()
    c = quad.mean(axis=0)
    if r < 0.15:    # one side cut short
        i = int(rng.integers(4))
        j = (i + 1) % 4
        pull = (c - (out[i] + out[j]) / 2) * rng.uniform(0.05, 0.2)
        out[i] += pull
        out[j] += pull
    elif r < 0.3:   # whole outline a little too small or too large
        out = c + (out - c) * rng.uniform(0.9, 1.12)
    return out.astype(np.float32)


def card_scene(code: str, rng: np.random.Generator, codes: list[str] | None = None,
               indices: int = 0, later: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A photo of `code` on a random table after a random trip through a camera, and the
    card's true outline in it (also what bench/bench_calibration.py reads whole); `indices`:
    its corner indices varied too, as that corner stream's version does (_index); `later`:
    see _face."""
    codes = codes or all_codes("all")
    short = _card_short(rng)
    scene, quad = _place(rng, short)
    if rng.random() < 0.35:
        scene = _underneath(scene, quad, rng, codes)
    scene = paste(scene, _face(code, rng, int(np.clip(short * 1.2, 64, 220)), indices, later), quad)
    if rng.random() < 0.15:
        scene = _finger(scene, rng, quad)
    if rng.random() < 0.4:
        scene = _shade(scene, rng)
    if rng.random() < 0.3:
        scene = _glare(scene, rng, quad)
    return camera_effects(scene, rng, strength=float(rng.uniform(0.3, 1.2))), quad


def _over(quad: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    """Where the cards of a hand lie over the card at `quad`: one or two held as a fan is (each
    turned further about the card's bottom-left corner, hiding its right side: its top-left
    index shows), or one fanned about any corner either way, or next in its row (shifted along
    its short side, or the row below along its long side)."""
    u, v = quad[1] - quad[0], quad[3] - quad[0]
    r = rng.random()
    if r < 0.45:
        step = math.radians(rng.uniform(6, 30))
        return [turned_about(quad, quad[3], step * k) for k in range(1, int(rng.integers(2, 4)))]
    if r < 0.65:
        return [turned_about(quad, quad[int(rng.integers(4))], math.radians(rng.uniform(8, 40)) * rng.choice([-1, 1]))]
    along, other = (u, v) if rng.random() < 0.75 else (v, u)
    shifted = quad + along * rng.choice([-1, 1]) * rng.uniform(0.2, 0.9) + other * rng.normal(0, 0.04)
    return [turned_about(shifted, shifted.mean(axis=0), math.radians(rng.normal(0, 3)))]


def hide(scene: np.ndarray, quad: np.ndarray, rng: np.random.Generator, codes: list[str]) -> np.ndarray:
    """The photo with one or two cards of a hand over the card at `quad` (_over, hiding at
    most HIDDEN_MOST of it), each then painted HIDDEN_FILL on an outline a little off its own,
    as a spread's cards found are at run time (spread_read): what the corner
    reader is trained on."""
    size = float(np.linalg.norm(quad[0] - quad[2]))
    short = int(np.clip(np.linalg.norm(quad[1] - quad[0]) * 1.2, 64, 220))
    card = cover_mask(scene.shape, [quad])
    whole = cv2.countNonZero(card)
    for _ in range(10):
        overs = _over(quad, rng) + (_over(quad, rng) if rng.random() < 0.2 else [])
        shows = cv2.countNonZero(cv2.bitwise_and(card, cv2.bitwise_not(cover_mask(scene.shape, overs))))
        if shows >= (1.0 - HIDDEN_MOST) * whole:
            break
    else:
        return scene
    for over in overs:
        scene = paste(scene, _random_face(rng, short, codes), over)
    found = [over.mean(axis=0) + (over - over.mean(axis=0)) * rng.uniform(0.99, 1.04)
             + rng.normal(0, 0.005 * size, over.shape) for over in overs]
    for f in found:
        cv2.fillConvexPoly(scene, np.round(f).astype(np.int32), HIDDEN_FILL)
    return scene


def card_sample(code: str, rng: np.random.Generator, codes: list[str] | None = None,
                hidden: bool = False, later: np.random.Generator | None = None,
                corner_version: int = CORNER_VERSION) -> np.ndarray:
    """The rectified 128x200 BGR view of `code` after a random trip through a camera
    (`hidden`: with cards of a hand over part of it, painted out, as corner stream
    `corner_version` makes it; see hide; `later`: see _face)."""
    scene, quad = card_scene(code, rng, codes, indices=corner_version if hidden else 0, later=later)
    if hidden:
        scene = hide(scene, quad, rng, codes or all_codes("all"))
    return warp_card(scene, _finder_quad(quad, rng), (WARP_W, WARP_H))


def none_sample(rng: np.random.Generator, codes: list[str] | None = None, kind: str | None = None,
                hidden: bool = False) -> np.ndarray:
    """A rectified view that holds no readable card face (class "_none"; `hidden`: with part
    of it painted out as card_sample's)."""
    codes = codes or all_codes("all")
    kind = kind or str(rng.choice(NONE_KINDS))
    short = _card_short(rng)
    scene, quad = _place(rng, short)
    size = int(np.clip(short * 1.2, 64, 220))
    if kind == "hand":
        scene = draw_hand(scene, rng)
    elif kind == "back":
        scene = paste(scene, render_back(str(rng.choice(["classic", "ono99"])), size), quad)
    elif kind == "foreign":
        scene = paste(scene, foreign_card(rng, size), quad)
    elif kind in ("part", "offset", "overlap"):
        scene = paste(scene, _face(str(rng.choice(codes)), rng, size), quad)
        c = quad.mean(axis=0)
        if kind == "part":        # a panel or half of the card, blown up to a whole card
            anchor = quad[int(rng.integers(4))] if rng.random() < 0.5 else c
            quad = (anchor + (quad - anchor) * rng.uniform(0.3, 0.6)).astype(np.float32)
        elif kind == "offset":    # half on the card, half on the table
            u, v = quad[1] - quad[0], quad[3] - quad[0]
            quad = (quad + u * rng.choice([-1, 1]) * rng.uniform(0.45, 0.8)
                    + v * rng.uniform(-0.3, 0.3)).astype(np.float32)
        else:                     # two cards overlapping: the outline straddles both
            u, v = quad[1] - quad[0], quad[3] - quad[0]
            shift = u * rng.uniform(-0.7, 0.7) + v * rng.choice([-1, 1]) * rng.uniform(0.4, 0.7)
            scene = paste(scene, _face(str(rng.choice(codes)), rng, size), (quad + shift).astype(np.float32))
            quad = (quad + shift * rng.uniform(0.35, 0.65)).astype(np.float32)
    elif kind != "table":
        raise ValueError(f"unknown card-free kind {kind!r}")
    if rng.random() < 0.4:
        scene = _shade(scene, rng)
    scene = camera_effects(scene, rng, strength=float(rng.uniform(0.3, 1.2)))
    if hidden:
        scene = hide(scene, quad, rng, codes)
    return warp_card(scene, _finder_quad(quad, rng), (WARP_W, WARP_H))


def sample(label: str, rng: np.random.Generator, codes: list[str] | None = None, hidden: bool = False,
           later: np.random.Generator | None = None, corner_version: int = CORNER_VERSION) -> np.ndarray:
    """A rectified training image of class `label` (a card code or "_none"; `later`: see _face;
    `corner_version`: see card_sample)."""
    if label == NONE:
        return none_sample(rng, codes, hidden=hidden)
    return card_sample(label, rng, codes, hidden, later, corner_version)


def dataset(seed: int, start: int, stop: int, none_share: float = 0.12,
            hidden: bool = False, corner_version: int = CORNER_VERSION) -> tuple[np.ndarray, np.ndarray]:
    """Samples start..stop-1 of the seeded stream (images n x 200 x 128 x 3 uint8, class
    indices): codes drawn evenly, "_none" with probability `none_share`; `hidden`: the
    corner readers' stream `corner_version` (see hide), its cards as generator CORNER_BASE
    made them. Sample i depends only on (seed, i), so any slice can be made apart (in
    parallel) and comes out the same."""
    names = classes()
    codes = names[:-1]
    n = max(0, stop - start)
    images = np.empty((n, WARP_H, WARP_W, 3), np.uint8)
    labels = np.empty(n, np.int64)
    for j, i in enumerate(range(start, stop)):
        rng = np.random.default_rng([seed, i])
        k = len(codes) if rng.random() < none_share else int(rng.integers(len(codes)))
        later = None if hidden else np.random.default_rng([seed, i, VERSION])
        images[j] = sample(names[k], rng, codes, hidden, later, corner_version)
        labels[j] = k
    return images, labels


__all__ = ["NONE", "NONE_KINDS", "hide", "classes", "generator", "card_sample", "none_sample", "sample", "dataset",
           "card_size"]
