"""The symbol (rank) of a rectified card: features and a nearest-neighbour classifier.

The centre symbol is cut out as a mask whose polarity does not depend on the print style:
on official-style cards the numeral is white on the coloured oval, on clone decks it is
coloured on a white oval; whichever of the two fills less of the centre is the symbol. HOG of
that mask plus a coarse layout of white/dark/coloured areas (tells 99-deck from UNO layouts
and wilds from coloured cards) is the feature vector. A k-NN over these features, trained on
rendered cards (and on enrolled photos for a user's deck), gives the rank.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from .classify_colour import COLOURS, HUE_EDGES, channel_max_min, white_balance, white_gains

CANON_W, CANON_H = 128, 200
FEATURE_VERSION = 7
PALE_SPLIT = 0.12  # lowest ink/paper saturation split (see _colour_split)
RIM_SHARE = 0.1    # a blob with more than this share of itself on the centre ellipse's rim is the oval's ring

UNO_PREFIX = ""          # UNO ranks are stored as plain ranks: "7", "skip", "wild_draw4"
NINETY_NINE_PREFIX = "99:"


@functools.lru_cache(maxsize=None)
def rank_key(code: str) -> str:
    """Card code -> the label the symbol classifier predicts (cached: the readers ask it for
    every code of a reading's probabilities)."""
    from .cardface import is_ninety_nine, split_code
    if is_ninety_nine(code):
        return NINETY_NINE_PREFIX + code
    colour, rank = split_code(code)
    return rank


def hog(img: np.ndarray, cell: int = 8, bins: int = 9) -> np.ndarray:
    """Histogram of oriented gradients (unsigned, cells of `cell` px, 2x2-cell blocks with
    L2-Hys normalisation). OpenCV 5 dropped HOGDescriptor from the main module, hence here."""
    f = img.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (bins / np.pi)
    b0 = np.floor(ang).astype(np.int32) % bins
    frac = ang - np.floor(ang)
    h, w = f.shape
    cy, cx = h // cell, w // cell
    hist = np.zeros((cy, cx, bins), np.float32)
    rows = (np.arange(cy * cell) // cell)[:, None].repeat(cx * cell, 1)
    cols = (np.arange(cx * cell) // cell)[None, :].repeat(cy * cell, 0)
    m, a0, fr = mag[:cy * cell, :cx * cell], b0[:cy * cell, :cx * cell], frac[:cy * cell, :cx * cell]
    np.add.at(hist, (rows, cols, a0), m * (1 - fr))
    np.add.at(hist, (rows, cols, (a0 + 1) % bins), m * fr)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-6
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-6
    return blocks.ravel()


def _pixel_classes(card_bgr: np.ndarray, gains: np.ndarray | None = None,
                   split: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    wb = white_balance(card_bgr, gains)
    mx, mn = channel_max_min(wb)
    sat = (mx - mn) / np.maximum(mx, 1)
    if split is None:
        split = _colour_split(sat[mx >= 70])
    white = ((sat < split) & (mx > 150)).astype(np.float32)
    dark = (mx < 70).astype(np.float32)
    colour = ((sat >= split) & (mx >= 70)).astype(np.float32)
    return white, dark, colour


def _colour_split(sat: np.ndarray) -> float:
    """Saturation between white paper and ink: 0.3 on a well-printed card; lower, down to
    PALE_SPLIT, where the card's own pixels split lower (a washed-out photo, a pale print)."""
    if sat.size < 16:
        return 0.3
    t, _ = cv2.threshold(np.clip(sat * 255, 0, 255).astype(np.uint8).reshape(1, -1), 0, 255,
                         cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(np.clip(t / 255, PALE_SPLIT, 0.3))


def symbol_mask(card_bgr: np.ndarray, gains: np.ndarray | None = None, split: float | None = None,
                shade_aside: bool = False) -> np.ndarray:
    """Mask (float32, 48x72) of the centre symbol of a canonical card (CANON_W x CANON_H).
    `shade_aside`: weigh white against ink alone, leaving out the grey that is neither (the
    shaded half of a curved card), where the usual cut weighs white against all the rest."""
    white, dark, colour = _pixel_classes(card_bgr, gains, split)
    h, w = white.shape
    y0, y1, x0, x1 = int(0.2 * h), int(0.8 * h), int(0.14 * w), int(0.86 * w)
    wc, dc, cc = white[y0:y1, x0:x1], dark[y0:y1, x0:x1], colour[y0:y1, x0:x1]
    ch, cw = wc.shape
    yy, xx = np.mgrid[0:ch, 0:cw]
    inside = (((xx - cw / 2) / (cw * 0.5)) ** 2 + ((yy - ch / 2) / (ch * 0.5)) ** 2) <= 1.0
    # the class that covers less of the centre ellipse is the symbol (white numeral on colour,
    # or coloured/dark numeral on a white oval)
    ink = np.maximum(cc, dc)
    paper = wc[inside].mean()
    sym = wc if paper < (ink[inside].mean() if shade_aside else 1 - paper) else ink
    sym = sym * inside
    return cv2.resize(sym, (48, 72), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=4)
def _rim(h: int, w: int) -> np.ndarray:
    """The rim of the centre ellipse in an h x w mask, where the oval's printed ring shows."""
    yy, xx = np.mgrid[0:h, 0:w]
    return (((xx - w / 2) / (w * 0.5)) ** 2 + ((yy - h / 2) / (h * 0.5)) ** 2) > 0.8


def _on_rim(binary: np.ndarray, lab: np.ndarray, n: int) -> np.ndarray:
    """Pixels of each labelled blob that lie on the rim."""
    return np.bincount(lab[_rim(*binary.shape) & (binary > 0)], minlength=n)


def symbol_crop(mask: np.ndarray, size: tuple[int, int] = (48, 72)) -> np.ndarray:
    """Cut the symbol out of the centre mask: keep the blobs that do not run into the edge of
    the centre ellipse (those are the oval's ring), crop to their bounding box padded to the
    2:3 box, and scale to `size`. Normalises big bold and small thin prints alike."""
    binary = (mask > 0.5).astype(np.uint8)
    h, w = binary.shape
    n, lab, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8)
    # a blob is the ring when much of it lies on the rim; a numeral pushed off-centre by an
    # imperfect outline (the "1" of a wide "10") only grazes it and must stay
    on_rim = _on_rim(binary, lab, n)
    min_area = 0.004 * h * w
    keep = [i for i in range(1, n)
            if on_rim[i] <= RIM_SHARE * stats[i, cv2.CC_STAT_AREA] and stats[i, cv2.CC_STAT_AREA] >= min_area]
    if not keep:
        keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area]
    if not keep:
        return np.zeros((size[1], size[0]), np.float32)
    x0 = min(stats[i, cv2.CC_STAT_LEFT] for i in keep)
    y0 = min(stats[i, cv2.CC_STAT_TOP] for i in keep)
    x1 = max(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] for i in keep)
    y1 = max(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] for i in keep)
    sym = mask * np.isin(lab, keep)
    bw, bh = x1 - x0, y1 - y0
    tw, th = size
    # pad to the target aspect around the box centre, with a small margin
    scale = max(bw / tw, bh / th) * 1.1
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    m = np.array([[1 / scale, 0, tw / 2 - cx / scale], [0, 1 / scale, th / 2 - cy / scale]], np.float32)
    return cv2.warpAffine(sym.astype(np.float32), m, size, flags=cv2.INTER_AREA if scale > 1 else cv2.INTER_LINEAR)


def six_or_nine(mask: np.ndarray) -> str | None:
    """Tell 6 from 9 by geometry, whatever way up the card lies: the underline marks the
    bottom of the digit, and a 6 has its closed loop in its lower half. Many prints join the
    underline to the digit through its shadow; a slight erosion parts them."""
    binary = (mask > 0.5).astype(np.uint8)
    found = _six_or_nine(binary)
    # a thin link goes with a light erosion; a thick one (a shadow joining bar and digit) with a
    # sideways one, which keeps the wide bar and the digit's strokes
    for kernel in ((3, 3), (1, 5), (1, 7)):
        if found is not None:
            break
        found = _six_or_nine(cv2.erode(binary, np.ones(kernel, np.uint8)))
    return found


def _six_or_nine(binary: np.ndarray) -> str | None:
    n, lab, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8)
    # an arc of the oval's ring is wide and thin like the underline: leave it out
    on_rim = _on_rim(binary, lab, n)
    order = sorted((i for i in range(1, n) if on_rim[i] <= 0.5 * stats[i, cv2.CC_STAT_AREA]),
                   key=lambda i: -stats[i, cv2.CC_STAT_AREA])
    if not order:
        return None
    g = order[0]
    gx, gy, gw, gh = (int(stats[g, k]) for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    bar_dir = 0
    for i in order[1:]:
        bx, by, bw, bh = (int(stats[i, k]) for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
        centred = abs((bx + bw / 2) - (gx + gw / 2)) < 0.35 * gw
        if bw >= 0.35 * gw and bh <= 0.4 * gh and bw > 1.5 * bh and centred:
            if by >= gy + 0.8 * gh and by < gy + 1.6 * gh:
                bar_dir = 1      # bar below the glyph: the glyph is upright
                break
            if by + bh <= gy + 0.2 * gh and by + bh > gy - 0.6 * gh:
                bar_dir = -1     # bar above: the card lies upside down
                break
    glyph = (lab == g).astype(np.uint8)
    if bar_dir == 0:
        # the underline may be part of the glyph's blob: a wide band at one end, past a neck
        bar_dir, rows = _joined_bar(glyph[gy:gy + gh, gx:gx + gw])
        gy, gh = (gy + rows if bar_dir < 0 else gy), gh - rows
    if bar_dir == 0:
        return None
    contours, hier = cv2.findContours(glyph, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = [c for c, hh in zip(contours, hier[0]) if hh[3] >= 0 and cv2.contourArea(c) >= 0.01 * gw * gh]
    if not holes:
        return None
    hole = max(holes, key=cv2.contourArea)
    m = cv2.moments(hole)
    if m["m00"] <= 0:
        return None
    hy = m["m01"] / m["m00"]
    low = hy > gy + gh / 2
    if bar_dir < 0:
        low = not low
    return "6" if low else "9"


def _joined_bar(glyph: np.ndarray) -> tuple[int, int]:
    """(+1 bar at the bottom / -1 at the top / 0 none, its thickness in rows) for a digit
    blob whose underline is joined to it: a band of wide single-run rows at one end, no more
    than a fifth of the height, followed by a row much narrower than the band (the gap
    between bar and digit, crossed only by the join)."""
    h = glyph.shape[0]
    widths = glyph.sum(axis=1).astype(np.float32)
    runs = np.count_nonzero(np.diff(glyph.astype(np.int8), axis=1) == 1, axis=1) + glyph[:, 0]
    wide = (widths >= 0.55 * widths.max()) & (runs == 1)

    def band(rows: np.ndarray) -> int:
        skip = 0
        while skip < 2 and skip < len(rows) and widths[rows[skip]] < 0.25 * widths.max():
            skip += 1  # an anti-aliased sliver of the bar's rounded end
        k = skip
        while k < len(rows) and wide[rows[k]]:
            k += 1
        if k == skip or k > 0.2 * h:
            return 0
        bar_w = float(widths[rows[skip:k]].mean())
        neck = rows[k:k + max(2, int(0.15 * h))]
        return k if len(neck) and float(widths[neck].min()) <= 0.6 * bar_w else 0

    bottom, top = band(np.arange(h - 1, -1, -1)), band(np.arange(h))
    if bottom and not top:
        return 1, bottom
    if top and not bottom:
        return -1, top
    return 0, 0


def colour_mix(card_bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Colour-blind summary of the inks: shares of the four hues sorted (one dominant hue on a
    coloured card, four on a wild), plus the saturated / dark / white shares."""
    small = cv2.resize(card_bgr, (24, 38), interpolation=cv2.INTER_AREA)
    wb = white_balance(small, gains).astype(np.uint8)
    hsv = cv2.cvtColor(wb, cv2.COLOR_BGR2HSV)
    h, s_, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sat = (s_ > 90) & (v > 35)
    n = float(h.size)
    shares = dict.fromkeys(COLOURS, 0)
    for lo, hi, name in HUE_EDGES:
        shares[name] += np.count_nonzero(sat & (h >= lo) & (h < hi))
    hues = np.array(list(shares.values()), np.float32) / max(1.0, float(sat.sum()))
    hues = np.sort(hues)[::-1]
    dark = np.count_nonzero((v < 60) & (s_ < 110)) / n
    white = np.count_nonzero((s_ < 60) & (v > 150)) / n
    return _unit(np.concatenate([hues, [sat.sum() / n, dark, white]]).astype(np.float32))


def _unit(v: np.ndarray) -> np.ndarray:
    return v / (np.linalg.norm(v) + 1e-6)


def features(card_bgr: np.ndarray, mask: np.ndarray | None = None, gains: np.ndarray | None = None) -> np.ndarray:
    """Feature vector (float32, L2-normalised) of a canonical card image (`mask`: its
    symbol_mask, `gains`: its white_gains, when the caller has them already)."""
    if card_bgr.shape[:2] != (CANON_H, CANON_W):
        card_bgr = cv2.resize(card_bgr, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
        gains = None  # the caller's were of another size's pixels
    if gains is None:
        gains = white_gains(card_bgr)
    if mask is None:
        mask = symbol_mask(card_bgr, gains)
    crop = symbol_crop(mask)
    c8 = np.clip(cv2.GaussianBlur(crop, (3, 3), 0) * 255, 0, 255).astype(np.uint8)
    shape_hog = _unit(hog(c8))
    shape_px = _unit(cv2.resize(crop, (12, 18), interpolation=cv2.INTER_AREA).ravel())
    m8 = np.clip(cv2.GaussianBlur(mask, (3, 3), 0) * 255, 0, 255).astype(np.uint8)
    place_hog = _unit(hog(cv2.resize(m8, (32, 48), interpolation=cv2.INTER_AREA)))
    white, dark, colour = _pixel_classes(cv2.resize(card_bgr, (32, 50), interpolation=cv2.INTER_AREA), gains)
    layout = _unit(np.concatenate([cv2.resize(p, (4, 6), interpolation=cv2.INTER_AREA).ravel()
                                   for p in (white, dark, colour)]))
    vec = np.concatenate([shape_hog, 0.6 * shape_px, 0.5 * place_hog, 0.4 * layout,
                          0.5 * colour_mix(card_bgr, gains)]).astype(np.float32)
    return _unit(vec)


@dataclass
class KnnModel:
    """Cosine k-NN over L2-normalised features."""
    x: np.ndarray            # n x d float32
    labels: list[str]
    k: int = 5

    def __post_init__(self) -> None:
        self.x = np.asarray(self.x, np.float32)
        self.classes = sorted(set(self.labels))
        index = {c: i for i, c in enumerate(self.classes)}
        self._y = np.array([index[l] for l in self.labels], np.int32)

    def scores(self, feats: np.ndarray, allowed: set[str] | None = None) -> tuple[dict[str, float], float]:
        """(label -> vote share among the k nearest, similarity of the nearest)."""
        # einsum, not @: a BLAS mat-vec spins up threads, which costs ~10x on a busy machine
        sims = np.einsum("ij,j->i", self.x, feats.astype(np.float32))
        if allowed is not None:
            keep = np.array([c in allowed for c in self.classes])[self._y]
            sims = np.where(keep, sims, -2.0)
        k = min(self.k, len(sims))
        idx = np.argpartition(-sims, k - 1)[:k]
        idx = idx[np.argsort(-sims[idx])]
        best = float(sims[idx[0]])
        # weight votes by similarity; a near-tie between the two nearest classes lowers confidence
        votes: dict[str, float] = {}
        for i in idx:
            if sims[i] <= -1.5:
                continue
            lab = self.classes[self._y[i]]
            votes[lab] = votes.get(lab, 0.0) + float(np.exp((sims[i] - best) * 10))
        total = sum(votes.values()) or 1.0
        return {l: v / total for l, v in votes.items()}, best
