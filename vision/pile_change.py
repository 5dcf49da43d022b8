"""The settled change: how the pile region now differs from an older pile image (pure logic).

The pile watcher's stages (watcher.py) compare working-size views (motion.py) over a region
of interest: the fine-scale change of the ratio view, the change each pixel shows of itself
(colour or brightness, no halo), what of it reaches the region's edge (an arm lying across
it), and how far the exposure moved between two views. No state: the views and the sizes
come in, masks and numbers go out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .motion import SATURATED, MotionConfig, View, brightness_change, chroma_change, clean, settled_change
from .pile_region import Box

Roi = tuple[slice, slice]  # rows, columns of a working-size view

OWN_SHARE = 0.5  # the least share of a change without its halo that is still the card (see without_halo)


@dataclass(frozen=True)
class ChangeSizes:
    """Pixel counts (working size) that make motion, a change and a piece of one, for a view
    of `area` pixels: the config's fractions, with floors for very small views."""
    motion_px: int
    change_px: int
    part_px: int

    @classmethod
    def of(cls, area: int, motion_frac: float, change_frac: float, part_frac: float) -> ChangeSizes:
        return cls(max(4, int(motion_frac * area)), max(12, int(change_frac * area)), max(3, int(part_frac * area)))


def roi_of(box: Box) -> Roi:
    x0, y0, x1, y1 = box
    return slice(y0, y1), slice(x0, x1)


def origin(roi: Roi) -> tuple[int, int]:
    return roi[1].start, roi[0].start


def on_border(mask: np.ndarray) -> bool:
    return bool(mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any())


def raw_change(a: View, b: View, roi: Roi, mc: MotionConfig, reach: int = 0) -> np.ndarray:
    """The uncleaned ratio-view change of `roi` between two views; `reach` > 0: a pixel
    counts only where it differs from the other view's whole neighbourhood (settled_change)."""
    return settled_change(a.ratio[roi], b.ratio[roi], a.small[roi], b.small[roi], mc.diff_threshold, reach)


def changed(a: View, b: View, roi: Roi, mc: MotionConfig, reach: int = 0) -> np.ndarray:
    return clean(raw_change(a, b, roi, mc, reach))


def pieces(mask: np.ndarray, part_px: int, evidence: np.ndarray | None = None) -> np.ndarray:
    """`mask` without its specks (pieces of fewer than `part_px` pixels): noise. With
    `evidence`, a piece must also hold `part_px` of its pixels: the change judged a card is
    the plain change (a card landed on one of its colour changes by its print alone, which
    the change within reach (settled_change) thins to a third), but only its pieces that
    the change within reach bears out (along a checked cloth's lines, a still video's
    jitter changed 5% of the frame plainly, in lines that a card's outline snapped to)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    kept = stats[:, 4] >= part_px
    if evidence is not None:
        kept &= np.bincount(labels[evidence > 0], minlength=count) >= part_px
    keep = np.zeros(count, np.uint8)
    keep[1:] = kept[1:] * 255
    return keep[labels]


def colour_change(n: View, ref: View, roi: Roi, mc: MotionConfig) -> np.ndarray:
    """The pixels of `roi` whose colour changed since `ref`, without specks: a hand or a
    sleeve (the ratio view shows only the outline of one the table's brightness)."""
    return clean(chroma_change(n.small[roi], ref.small[roi], mc.chroma_threshold), 3)


def own_change(n: View, ref: View, roi: Roi, mc: MotionConfig, colour: np.ndarray | None = None) -> np.ndarray:
    """The pixels of `roi` that changed colour or brightness themselves since `ref`
    (brought to the frame's exposure first): unlike the ratio view, no halo around what
    changed. `colour` is their colour_change, when the caller has it already."""
    cur, old = n.small[roi], ref.small[roi]
    if colour is None:
        colour = colour_change(n, ref, roi, mc)
    lit = cv2.convertScaleAbs(old, alpha=exposure_gain(cur, old))
    return cv2.bitwise_or(colour, clean(brightness_change(cur, lit, mc.brightness_threshold, mc.dark_offset), 3))


def without_halo(n: View, ref: View, roi: Roi, interior: np.ndarray, mc: MotionConfig) -> np.ndarray:
    """The change `interior` (of `roi`, since the pile image `ref`) without the ratio view's
    halo: its pixels that changed of themselves. The blur that cancels lighting spreads a
    change about two blur widths around a card (most of all a light card on a dark table):
    outlines fitted to that halo are too big, and they read as guesses that, several of them,
    outvoted a sure reading of the card itself. Only where the card is much like the table,
    so that little of it changes of itself, does the whole change stay."""
    own = cv2.dilate(own_change(n, ref, roi, mc), np.ones((3, 3), np.uint8))
    core = cv2.bitwise_and(interior, own)
    return core if cv2.countNonZero(core) >= OWN_SHARE * cv2.countNonZero(interior) else interior


def inner_sides(roi: Roi, region_size: tuple[int, int]) -> tuple[bool, bool, bool, bool]:
    """For the left, top, right and bottom sides of `roi`, whether it lies inside the frame
    (`region_size`: the working frame's width and height), not on the frame's own edge."""
    sw, sh = region_size
    return roi[1].start > 0, roi[0].start > 0, roi[1].stop < sw, roi[0].stop < sh


def at_edge(raw: np.ndarray, n: View, ref: View, roi: Roi, region_size: tuple[int, int], sizes: ChangeSizes,
            mc: MotionConfig, halo_ok: bool = False) -> np.ndarray:
    """Mask of the changed pieces that reach the edge of `roi`: an arm lying across it.
    `raw` is the uncleaned ratio-view change there (raw_change); `region_size` the working
    view's width and height.

    An arm is long and often close to the table's colour: in the ratio view its outline
    comes out dotted. Dilating the raw mask joins the dots, so the arm is one piece
    touching the edge; sensor noise is sparse, so a piece must hold enough raw pixels.
    On a plain table a flat-coloured hand shows only that dotted outline, and its colour
    shows the rest.

    Where the region ends at the frame's edge, growing it cannot tell a card from an arm,
    and a card lying near that edge reaches it with the ratio view's halo alone (the
    blur that cancels lighting spreads a new card's change about two blur widths around
    it). There a piece is that card when its own pixels (those that changed colour or
    brightness) lie near the stretch of edge it meets but keep clear of the edge itself;
    an arm crossing the edge changes right there, or it shows nothing of its own and
    stays an arm. A hand of the table's colour changes in speckles only, which may miss
    the edge for a frame: so this holds only once all has kept still for a while
    (`halo_ok`), which a hand that brought a card seldom does."""
    hand = colour_change(n, ref, roi, mc)
    inner = inner_sides(roi, region_size)
    own = own_change(n, ref, roi, mc, hand) if halo_ok and not all(inner) else None
    return _raw_edge_pieces(raw, sizes, inner, own, mc.halo_px + 2) | edge_pieces(hand, hand, sizes.change_px)


def edge_specks(raw: np.ndarray, n: View, ref: View, roi: Roi, sizes: ChangeSizes, mc: MotionConfig) -> np.ndarray:
    """Mask of the changed pieces that reach the edge of `roi` with no change of colour in
    them: the specks a move of the camera by a fraction of a pixel leaves along a grained
    table's lines, not an arm (its skin or sleeve changes colour) nor a card it holds."""
    edge = _raw_edge_pieces(raw, sizes)
    count, labels = cv2.connectedComponents(edge.astype(np.uint8), connectivity=8)
    coloured = np.zeros(count, bool)
    coloured[labels[colour_change(n, ref, roi, mc) > 0]] = True
    coloured[0] = True
    return ~coloured[labels]


def off_the_change(raw: np.ndarray) -> np.ndarray:
    """Mask of all but what is thick in the raw change `raw` (what an opening leaves, and a
    little round it): right after the camera moved, the old image fitted onto the new one
    still differs by specks and lines along every sharp edge, a fraction of a pixel off,
    that come and go from frame to frame; a card landed in the same moment, or a hand, is
    thick. Left in, a striped cloth's lines joined such a card's change to the frame's edge,
    and it was waited on as an arm (other_clips seed 906)."""
    thick = cv2.dilate(clean(raw, 3), np.ones((5, 5), np.uint8))
    return thick == 0


def _raw_edge_pieces(raw: np.ndarray, sizes: ChangeSizes,
                     inner: tuple[bool, bool, bool, bool] = (True, True, True, True),
                     own: np.ndarray | None = None, halo: int = 0) -> np.ndarray:
    """The pieces of the raw ratio-view change that reach the edge (edge_pieces), its dots
    joined first: an arm's outline there comes out dotted."""
    return edge_pieces(cv2.dilate(raw, np.ones((5, 5), np.uint8)), raw, 2 * sizes.part_px, inner, own, halo)


def edge_pieces(mask: np.ndarray, evidence: np.ndarray, min_px: int,
                inner: tuple[bool, bool, bool, bool] = (True, True, True, True),
                own: np.ndarray | None = None, halo: int = 0) -> np.ndarray:
    """The connected pieces of `mask` that touch its border and hold at least `min_px`
    pixels of `evidence`, as a boolean mask.

    `inner` tells, for the left, top, right and bottom sides, whether that border lies
    inside the frame. Where it is the frame's edge and `own` is given, a piece that touches
    it is let off when `own` explains the touch as a halo: along the stretch of edge the
    piece meets, `own` has no pixel on the edge itself but some within `halo` of it."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    held = np.bincount(labels[evidence > 0], minlength=count)
    h, w = mask.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    touch = np.zeros(count, bool)
    sides = (x == 0, y == 0, x + bw == w, y + bh == h)
    spans = ((y, bh), (x, bw), (y, bh), (x, bw))  # where each piece lies along each side
    for k, (side, inside, (start, length)) in enumerate(zip(sides, inner, spans)):
        if inside or own is None:
            touch |= side
            continue
        # `own` within `halo` of this side of the frame, turned so that the edge row comes first
        band = (own[:, :halo].T, own[:halo], own[:, w - halo:].T[::-1], own[h - halo:][::-1])[k]
        on, near = band[0], band.any(axis=0)
        for i in np.flatnonzero(side & ~touch):
            at = slice(start[i], start[i] + length[i])
            touch[i] = bool(on[at].any()) or not near[at].any()
    touch &= held >= min_px
    touch[0] = False
    return touch[labels]


def exposure_gain(cur: np.ndarray, ref: np.ndarray) -> float:
    """The typical brightness ratio cur / ref: the median over pixels clipped in neither
    (clipping hides how far a bright table moved; a hand covers a minority)."""
    a = cur.reshape(-1).astype(np.float32)
    b = ref.reshape(-1).astype(np.float32)
    ok = (a < SATURATED) & (b < SATURATED) & (a > 8) & (b > 8)
    if np.count_nonzero(ok) < 50:
        return 1.0  # nearly everything clipped or black: no measure
    return float(np.exp(np.median(np.log(a[ok] / b[ok]))))


def exposure_step(cur: np.ndarray, ref: np.ndarray) -> float:
    """|log| of the typical brightness ratio between two views (see exposure_gain)."""
    return abs(math.log(exposure_gain(cur, ref)))
