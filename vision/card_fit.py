"""Card outlines fitted to where the pile changed, for when the card finder misses the new card.

A card landing changes the pile image over (most of) its own area: the changed region's
rotated bounding rectangle gives the card's angle and roughly its place. Its size is not
trusted: shadows make it larger, and where the new card matches what lies below (its border
on another card's border, the same card on itself) the change is only part of the card. So
the rectangle is replaced by card-sized ones (known aspect, short side learnt or estimated)
in both orientations, centred on the change (fitted_quads) and placed where an outline of
that size sits best on strong edges (EdgeFit); the reader classifies them all and keeps the
surest.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

from .cardface import ASPECT
from .find_card import order_quad, side_lengths


Rect = tuple[tuple[float, float], tuple[float, float], float]  # cv2.minAreaRect's ((cx, cy), (w, h), angle)


def change_rect(changed: np.ndarray) -> Rect | None:
    """minAreaRect ((cx, cy), (w, h), angle) of the changed pieces, holes closed. Pieces much
    smaller than the largest are left out; sizeable ones count (where the new card matches
    what lies below, its change falls apart into pieces)."""
    k = max(3, (min(changed.shape[:2]) // 40) | 1)
    closed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    kept = np.zeros(count, np.uint8)
    kept[np.flatnonzero(areas >= 0.2 * areas.max()) + 1] = 1
    # the pieces' outer boundaries have the hull of all their pixels, and are a tenth as
    # many points for minAreaRect to hull
    boundaries, _ = cv2.findContours(kept[labels], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    rect = cv2.minAreaRect(np.concatenate(boundaries))
    if min(rect[1]) < 8:
        return None
    return rect


def short_sides(rect_size: tuple[float, float], known: float | None, hint: float | None = None) -> list[float]:
    """Card short sides worth trying: the known one, else what the changed rectangle suggests
    (its short side, or its long side over the card aspect when the short one is cut) and
    the `hint` (a size measured less surely)."""
    if known:
        return [known]
    lo, hi = sorted(rect_size)
    guesses: list[float] = []
    for g in (lo, hi / ASPECT, hint):
        if g and all(abs(g - o) >= 0.08 * o for o in guesses):
            guesses.append(g)
    return guesses


def card_like_short_side(quads: list[np.ndarray], tolerance: float = 0.1) -> float | None:
    """Median short side of the outlines with a card's aspect (whole cards in the pile: all
    cards of a deck are the same size), None if there are none."""
    sides = []
    for q in quads:
        short, long = side_lengths(np.asarray(q, np.float32).reshape(4, 2))
        if short > 0 and abs(long / short / ASPECT - 1) <= tolerance:
            sides.append(short)
    return float(np.median(sides)) if sides else None


def fitted_quads(rect: Rect | None, short_side: float | None, hint: float | None = None) -> list[np.ndarray]:
    """Card-sized candidate outlines (4x2, mask pixels) centred on the changed pieces, whose
    change_rect is `rect` (worked out once per change: it is the costly part), either way
    round. (Where the change is smaller than the card, the card may sit anywhere over it:
    EdgeFit places it on the edges. Outlines flush with each edge of the change as well, up
    to 9 per size, were half of all the outlines a watcher's read classified, and on 321 reads
    of four kinds of clip they changed no card read.)"""
    if rect is None:
        return []
    (cx, cy), (rw, rh), angle = rect
    u, v = _axes(angle)  # u: the rectangle's "w" axis
    centre = np.array([cx, cy], np.float32)
    return [_rect_quad(centre, u, v, a, b) for s in short_sides((rw, rh), short_side, hint)
            for a, b in ((s * ASPECT, s), (s, s * ASPECT))]  # card extent along u, along v


def _axes(angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along and across a rectangle turned by `angle_deg`."""
    t = np.radians(angle_deg)
    return np.array([np.cos(t), np.sin(t)], np.float32), np.array([-np.sin(t), np.cos(t)], np.float32)


def _rect_quad(centre: np.ndarray, u: np.ndarray, v: np.ndarray, a: float, b: float) -> np.ndarray:
    """The ordered quad of an a x b rectangle around `centre`, its a side along unit vector u."""
    corners = [centre + sx * a / 2 * u + sy * b / 2 * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return order_quad(np.array(corners, np.float32))


def _colour_gradient(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the x/y gradient of the colour channel that changes most there (a red card
    on a red cloth hardly shows in grey)."""
    img = cv2.GaussianBlur(bgr, (3, 3), 0).astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    m0, m1, m2 = cv2.split(gx * gx + gy * gy)
    # the first channel of the largest (as np.argmax picks; three comparisons cost less)
    first = (m0 >= m1) & (m0 >= m2)
    second = ~first & (m1 >= m2)
    gx_, gy_ = (np.where(first, g[..., 0], np.where(second, g[..., 1], g[..., 2])) for g in (gx, gy))
    return gx_, gy_


def _edge_angle(gx: np.ndarray, gy: np.ndarray, where: np.ndarray) -> float:
    """The dominant edge direction (degrees, modulo 90) among the changed pixels: a new card's
    outline is the strongest straight edge where the pile changed."""
    dx, dy = gx[where], gy[where]
    mag = np.hypot(dx, dy)
    ang = np.degrees(np.arctan2(dy, dx)) % 90.0
    hist = np.bincount(np.minimum(89, ang.astype(np.int32)), weights=mag, minlength=90)
    hist = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), np.ones(5), "valid")  # wraps around
    return float(np.argmax(hist)) + 0.5


@functools.lru_cache(maxsize=64)
def _outline(a: float, b: float, n: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Points along a centred a x b rectangle's edges (inset a little) and their unit normals."""
    t = (np.arange(n) + 0.5) / n - 0.5
    along_a, along_b = t * (0.85 * a), t * (0.85 * b)  # offsets along the a sides, the b sides
    # the a sides lie -b/2 and +b/2 across, the b sides -a/2 and +a/2 (in float32, as they
    # always were: a sample must not move a pixel)
    across = np.float32([-b / 2, b / 2, -a / 2, a / 2]).astype(np.float64)
    points = np.empty((4 * n, 2))
    points[:2 * n, 0] = np.tile(along_a, 2)
    points[:2 * n, 1] = np.repeat(across[:2], n)
    points[2 * n:, 0] = np.repeat(across[2:], n)
    points[2 * n:, 1] = np.tile(along_b, 2)
    units = np.repeat(np.float32([[0, 1], [1, 0]]), 2 * n, axis=0)
    points.flags.writeable = units.flags.writeable = False  # shared by every call (lru_cache)
    return points, units


def _best_outlines(gx: np.ndarray, gy: np.ndarray, centres: np.ndarray, angles: list[float],
                   sides: list[float], cache: dict | None = None) -> list[tuple[float, np.ndarray, float, float, float]]:
    """(edge support, centre, angle, a, b) for every combination, scored by the gradient
    across the outline (the top card's whole outline shows; covered cards' do not). `cache`
    keeps the coarse search's per-pixel gradients across an outline between calls on the
    same gradients (a crop is searched for several sizes)."""
    cache = {} if cache is None else cache
    h, w = gx.shape
    n = 24  # points per side (see _outline)
    # Many outlines on whole-pixel centres (the coarse search): the gradient across each pair
    # of sides is worked out once per angle for every pixel, on an image grown by repeating
    # its border (as clipping to the border would read it), so that each outline's samples
    # are its centre's index plus fixed offsets. Few outlines (the fine search): each sample
    # on its own, every angle at once (their count, not their size, is what costs there).
    integral = bool(np.all(centres == np.round(centres)))
    whole = len(centres) * 4 * n * len(sides) > 2 * h * w and integral
    t = np.radians(np.asarray(angles, np.float64))
    cos, sin = np.cos(t).astype(np.float32), np.sin(t).astype(np.float32)
    rots = np.stack([np.stack([cos, -sin], axis=-1), np.stack([sin, cos], axis=-1)], axis=1)  # (angles, 2, 2)
    # per angle, the unit normal of each sample's side: the a sides' (first 2n samples, the
    # rotation's second column), the b sides' (its first)
    normals = np.repeat(np.stack([rots[:, :, 1], rots[:, :, 0]], axis=1), 2 * n, axis=1)
    if whole:
        pad = int(np.ceil(max(sides) * np.hypot(ASPECT, 1) / 2)) + 2
        wide = w + 2 * pad
        at = ((centres[:, 1] + pad) * wide + centres[:, 0] + pad).astype(np.int64)
        across = [_across(gx, gy, ang, pad, normals[k, [0, -1]], cache) for k, ang in enumerate(angles)]
    gxf, gyf = gx.ravel(), gy.ravel()

    def of_size(s: float) -> list[tuple[float, np.ndarray, float, float, float]]:
        a, b = s * ASPECT, s  # long side along the angle
        square = _outline(a, b, n)[0]
        offsets = square @ rots.transpose(0, 2, 1)  # (angles, 4n, 2)
        if whole:
            # the b sides' samples index the second half of `across` (see _across); every
            # outline is first scored on a quarter of its samples, and the likeliest in full
            off = np.round(offsets).astype(np.int64)
            shift = off[..., 1] * wide + off[..., 0] + np.repeat([0, (h + 2 * pad) * wide], 2 * n)
            found = []
            for k, acr in enumerate(across):
                kept = _likeliest(acr, at, shift[k][::4], COARSE_KEEP)
                found += _top(acr[at[kept, None] + shift[k][None, :]], centres[kept], [angles[k]], a, b)
            return found
        if integral:
            # whole-pixel centres: the outline's offsets are rounded once (a centre's whole
            # pixels do not change how its offset rounds)
            off = np.round(offsets).astype(np.int32)
            x = np.clip(centres[:, 0].astype(np.int32)[None, :, None] + off[:, None, :, 0], 0, w - 1)
            y = np.clip(centres[:, 1].astype(np.int32)[None, :, None] + off[:, None, :, 1], 0, h - 1)
        else:
            x = np.clip(np.round(centres[:, 0][None, :, None] + offsets[:, None, :, 0]).astype(np.int32), 0, w - 1)
            y = np.clip(np.round(centres[:, 1][None, :, None] + offsets[:, None, :, 1]).astype(np.int32), 0, h - 1)
        flat = y * w + x  # (angles, centres, 4n)
        return _top(np.abs(gxf[flat] * normals[:, None, :, 0] + gyf[flat] * normals[:, None, :, 1]),
                    centres, angles, a, b)

    # a size asked twice (EdgeFit's guess that also ends its range of sizes) gives the same outlines
    done: dict[float, list[tuple[float, np.ndarray, float, float, float]]] = {}
    out = []
    for s in sides:
        if s not in done:
            done[s] = of_size(s)
        out += done[s]
    return out


COARSE_KEEP = 32  # outlines per angle and size the coarse search scores in full (it keeps 3)


def _score(support: np.ndarray) -> np.ndarray:
    """A median-like score of each outline's samples (last axis): the outline must show all
    round, not one strong edge (a sort of a hundred values is quicker than numpy's partition
    of them, and picks the same)."""
    return np.sort(support, axis=-1)[..., support.shape[-1] // 4]


def _top(support: np.ndarray, centres: np.ndarray, angles: list[float], a: float,
         b: float) -> list[tuple[float, np.ndarray, float, float, float]]:
    """The best 3 outlines per angle, from their samples' support (angles, centres, samples)."""
    score = _score(support.reshape(len(angles), len(centres), -1))
    out = []
    for k, best in enumerate(np.argsort(-score, axis=1)[:, :3]):
        out += [(float(score[k, i]), centres[i], angles[k], a, b) for i in best]
    return out


def _likeliest(across: np.ndarray, at: np.ndarray, shift: np.ndarray, keep: int) -> np.ndarray:
    """The indices (in order) of the `keep` centres at `at` whose outline, sampled at `shift`
    in `across`, scores best: most outlines of the coarse search lie nowhere near an edge,
    and a quarter of their samples says so at a fraction of the cost (the full score of
    every one took a third of a card read at 1280x720)."""
    if len(at) <= keep:
        return np.arange(len(at))
    return np.sort(np.argsort(-_score(across[at[:, None] + shift[None, :]]))[:keep])


def _across(gx: np.ndarray, gy: np.ndarray, ang: float, pad: int, normals: np.ndarray, cache: dict) -> np.ndarray:
    """Per pixel of the gradients grown by `pad`, the gradient across the a sides (normal 0)
    then across the b sides (normal 1) of an outline at `ang`, flattened one after the other
    (so one look-up serves both), kept in `cache`."""
    if (ang, pad) not in cache:
        # worked out on the crop, then grown: the border's repeats are the same figures, and
        # the grown image has several times the crop's pixels
        cache[ang, pad] = np.concatenate([
            cv2.copyMakeBorder(np.abs(gx * nx + gy * ny), pad, pad, pad, pad, cv2.BORDER_REPLICATE).ravel()
            for nx, ny in normals])
    return cache[ang, pad]


def _around(centre: np.ndarray, reach: float, stride: float) -> np.ndarray:
    """Centres on a square grid of `stride` reaching `reach` either way from `centre`."""
    d = np.arange(-reach, reach + 1e-3, stride, dtype=np.float32)
    return (centre[None, :] + np.stack(np.meshgrid(d, d), axis=-1).reshape(-1, 2)).astype(np.float32)


class EdgeFit:
    """Card-sized outlines over the change that sit best on strong edges (4x2, crop pixels).

    When the landing card knocked another one aside, the change is the union of both places
    and its rectangle says little; the new card's own outline, of the known size, is what
    lines up with the edges. A coarse search over centres in the change and the dominant
    edge angle (both ways round), then a fine one around the best few. The gradients and
    the angle are worked out once per crop, for every size asked for."""

    def __init__(self, crop_bgr: np.ndarray, changed: np.ndarray) -> None:
        self.rect = change_rect(changed)
        self._across: dict = {}  # see _best_outlines
        self.where = changed > 0
        self.usable = self.rect is not None and np.count_nonzero(self.where) >= 20
        if self.usable:
            self.gx, self.gy = _colour_gradient(crop_bgr)
            self.theta = _edge_angle(self.gx, self.gy, self.where)

    def quads(self, short_side: float | None, hint: float | None = None, keep: int = 3) -> list[np.ndarray]:
        if not self.usable:
            return []
        assert self.rect is not None
        gx, gy = self.gx, self.gy
        sides = short_sides(self.rect[1], short_side, hint)
        if short_side is None:
            # shadows and cards knocked aside widen the change and the finder's whole cards may
            # be none: let the outline's fit to the edges choose among sizes down to half the change
            lo, hi = sorted(self.rect[1])
            sides += list(np.geomspace(0.5 * lo, max(lo, hi / ASPECT), 9))
        step = max(2.0, min(sides) / 10)
        ys, xs = np.nonzero(self.where[::int(step), ::int(step)])
        centres = np.stack([xs, ys], axis=1).astype(np.float32) * int(step)
        coarse = _best_outlines(gx, gy, centres, [self.theta, self.theta + 90.0], sides, self._across)
        coarse.sort(key=lambda c: -c[0])
        found: list[tuple[float, np.ndarray]] = []
        for _, c, ang, a, b in coarse[:keep]:
            # the fine search: every other pixel around the coarse centre, then each pixel
            # around the best of those (a fourth of the outlines of a search pixel by pixel)
            turns = [ang - 2, ang - 1, ang, ang + 1, ang + 2]
            score, c2, ang2, a2, b2 = max(_best_outlines(gx, gy, _around(c, step, 2.0), turns, [b]), key=lambda r: r[0])
            score, c2, ang2, a2, b2 = max(_best_outlines(gx, gy, _around(c2, 1.0, 1.0), turns, [b]), key=lambda r: r[0])
            u, v = _axes(ang2)
            found.append((score, _rect_quad(c2, u, v, a2, b2)))
        found.sort(key=lambda f: -f[0])
        return [q for _, q in found]
