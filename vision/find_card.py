"""Find card-shaped quadrilaterals in a photo and rectify them.

Several cheap candidate masks are tried (bright-and-grey card border, edges, saturated card
field, the field of each ink alone, the whole frame for tight crops); every outline that fits
a quadrilateral of card proportions is scored on shape and on how card-like its rectified
border looks. Cards lying fully visible score higher than cards partly covered, so the first
quad is the top card.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .cardface import ASPECT
from .classify_colour import COLOURS, HUE_EDGES, channel_max_min, paper, rim_paper_share
from .colour_cast import without_cast

WORK_SIDE = 400          # long side of the image the search runs on (speed)
MIN_SHORT_SIDE = 24      # px at working scale: ~60 px in a 1280 px frame
WARP_W, WARP_H = 128, 200
MAX_SCORED = 30          # candidate outlines scored in detail per image  # canonical rectified card (portrait)


@dataclass(frozen=True)
class CardQuad:
    quad: np.ndarray   # 4x2 float32, image pixels, clockwise from the top-left of the portrait card
    score: float       # 0..1, how card-like the outline and its border are
    whole_frame: bool = False  # the outline covers most of the photo (a card filling it, or the table)


def order_quad(pts: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise starting so that the first edge is a SHORT side (portrait card)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    # plain floats: this runs for every outline the finder and the fitting try, and numpy's
    # per-call overhead on four points was most of its cost
    p = pts.tolist()
    cx0 = (p[0][0] + p[1][0] + p[2][0] + p[3][0]) / 4
    cy0 = (p[0][1] + p[1][1] + p[2][1] + p[3][1]) / 4
    # clockwise in image coordinates (y down)
    order = sorted(range(4), key=lambda i: math.atan2(p[i][1] - cy0, p[i][0] - cx0))
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = (p[i] for i in order)
    # Start at the point that makes edge 0 short; among the two choices take the upper-left one.
    e01 = math.hypot(bx - ax, by - ay) + math.hypot(dx - cx, dy - cy)
    e12 = math.hypot(cx - bx, cy - by) + math.hypot(ax - dx, ay - dy)
    first = 1 if e01 > e12 else 0
    p0, p2 = p[order[first]], p[order[first + 2]]
    if p0[0] + p0[1] > p2[0] + p2[1]:
        first += 2
    return pts[order[first:] + order[:first]]


def warp_card(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (WARP_W, WARP_H)) -> np.ndarray:
    """Rectify the card inside `quad` to a portrait image of `size` (w, h)."""
    return _warp_ordered(image, order_quad(quad), size)


def _warp_ordered(image: np.ndarray, q: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """warp_card of a quad already ordered by order_quad."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    # shrinking: INTER_AREA (the card's short side is over 1.5 times the output's width)
    shrinks = float(np.linalg.norm(q[1] - q[0])) > 1.5 * w
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA if shrinks else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _refine_corners(contour: np.ndarray, approx: np.ndarray) -> np.ndarray | None:
    """Fit a straight line to each side of the outline (ignoring the rounded corners) and
    intersect neighbours: corners of a rounded card land where the printed corners would be."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    corners = approx.reshape(4, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 4:
            return None
        u = ab / length
        n = np.array([-u[1], u[0]])
        rel = pts - a
        t = rel @ u
        d = np.abs(rel @ n)
        sel = (t > 0.15 * length) & (t < 0.85 * length) & (d < max(3.0, 0.06 * length))
        if sel.sum() < 5:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts[sel], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    res = np.array(out, np.float32)
    # Intersections far from the rough corners mean a bad fit: keep the rough quad then.
    if np.max(np.linalg.norm(res - corners, axis=1)) > 0.25 * np.linalg.norm(corners[0] - corners[2]):
        return None
    return res


def _quad_from_hull(hull: np.ndarray) -> tuple[np.ndarray, bool]:
    """A rough quad of an outline's convex hull (polygon approximation, or the min-area box)
    and whether it is the approximation (only that can be refined along the hull later:
    refinement is the slow part, so only the outlines that are kept get it)."""
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32), True
        if len(approx) < 4:
            break
    return enclosing_rect(hull), False


def enclosing_rect(points: np.ndarray) -> np.ndarray:
    """The smallest rectangle enclosing `points` (an outline, a hull), ordered as order_quad orders."""
    return order_quad(cv2.boxPoints(cv2.minAreaRect(np.asarray(points, np.float32).reshape(-1, 1, 2))))


def side_lengths(q: np.ndarray) -> tuple[float, float]:
    """(short, long) of a quad ordered by order_quad: the mean of each pair of opposite sides."""
    d = q - q[[1, 2, 3, 0]]
    n = np.sqrt(np.einsum("ij,ij->i", d, d))  # the four sides' lengths in one call
    return float(0.5 * (n[0] + n[2])), float(0.5 * (n[1] + n[3]))


def _shape_score(contour: np.ndarray, quad: np.ndarray) -> float:
    q = order_quad(quad)
    short, long_ = side_lengths(q)
    if short < MIN_SHORT_SIDE:
        return 0.0
    aspect = long_ / max(short, 1e-6)
    # Perspective (and photos resized without keeping the aspect) change the ratio: a wide
    # tolerance around the true 1.55.
    aspect_s = math.exp(-((math.log(aspect / ASPECT)) / 0.28) ** 2)
    qa = cv2.contourArea(q)
    if qa <= 0:
        return 0.0
    fill = cv2.contourArea(contour) / qa
    fill_s = float(np.clip((fill - 0.75) / 0.2, 0, 1))
    if not cv2.isContourConvex(np.round(q).astype(np.int32).reshape(-1, 1, 2)):
        return 0.0
    return aspect_s * fill_s


def _rim_paper(work_bgr: np.ndarray, quad: np.ndarray, width: int) -> float:
    """rim_paper_share of the card inside `quad` (warped straight to the 32x50 it measures)."""
    return rim_paper_share(warp_card(work_bgr, quad, (32, 50)), width)


def _edge_support(strong: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Fraction of each outline (n x 4 x 2) that runs along a strong image edge; `strong` is
    true where the gradient within a pixel is strong (the fitted line may sit a pixel off
    the edge), see _strong_edges."""
    h, w = strong.shape
    a = np.asarray(quads, np.float32)
    b = a[:, [1, 2, 3, 0]]
    t = np.linspace(0.1, 0.9, 12)[None, None, :, None]
    p = np.round((a[:, :, None, :] + (b - a)[:, :, None, :] * t).reshape(len(a), -1, 2)).astype(int)
    ok = (p[..., 0] >= 1) & (p[..., 0] < w - 1) & (p[..., 1] >= 1) & (p[..., 1] < h - 1)
    count = ok.sum(axis=1)
    hits = (strong[np.clip(p[..., 1], 0, h - 1), np.clip(p[..., 0], 0, w - 1)] & ok).sum(axis=1)
    return np.where(count >= 8, hits / np.maximum(count, 1), 0.0)


def _strong_edges(gray: np.ndarray) -> np.ndarray:
    """True where the gradient magnitude anywhere in the pixel's 3x3 neighbourhood exceeds 40."""
    grad = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    return cv2.dilate(grad, np.ones((3, 3), np.uint8)) > 40


def expand_field(quad: np.ndarray) -> np.ndarray:
    """A printed coloured field -> the whole card around it (white border ~6.5 % of the width)."""
    q = order_quad(quad)
    c = q.mean(axis=0)
    u = ((q[1] - q[0]) + (q[2] - q[3])) / 2   # along the short side
    v = ((q[3] - q[0]) + (q[2] - q[1])) / 2   # along the long side
    return np.array([c - 0.575 * u - 0.546 * v, c + 0.575 * u - 0.546 * v,
                     c + 0.575 * u + 0.546 * v, c - 0.575 * u + 0.546 * v], np.float32)


def _ring(outer: int, inner: int) -> np.ndarray:
    """The pixels of a 32x50 card from `outer` to `inner` pixels in from its edge."""
    mask = np.zeros((50, 32), bool)
    mask[outer:50 - outer, outer:32 - outer] = True
    mask[inner:50 - inner, inner:32 - inner] = False
    return mask


_RING, _INNER_RING = _ring(0, 2), _ring(4, 7)  # the border, and the field just inside it


def _median_rows(px: np.ndarray) -> np.ndarray:
    """np.median(px, axis=1) of n x pixels x channels, as the mean of the middle one or two
    pixels of each sorted (the same figures, without np.median's overhead)."""
    s = np.sort(px, axis=1)
    m = s.shape[1]
    return (s[:, (m - 1) // 2] + s[:, m // 2]) / 2


def _border_score(work_bgr: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """How much each rectified outline (`quads`, ordered by order_quad) looks like a card face:
    a uniform light border ring that differs from the printed field just inside it, and
    structure (oval, symbol) inside. (All outlines at once: numpy's per-call overhead was most
    of the cost of one.)"""
    small = np.stack([_warp_ordered(work_bgr, q, (32, 50)) for q in quads]).astype(np.float32)
    ring_px, in_px = small[:, _RING], small[:, _INNER_RING]
    v, mn = channel_max_min(ring_px)
    white = np.mean(paper(v, mn), axis=1)
    uniform = np.clip(1 - np.std(v, axis=1) / 60, 0, 1)
    # border vs field: per-pixel colour distance between the two rings' medians
    contrast = np.clip(np.linalg.norm(_median_rows(ring_px) - _median_rows(in_px), axis=1) / 80, 0, 1)
    inner = small[:, 8:-8, 6:-6].reshape(len(quads), -1)
    structure = np.clip(inner.std(axis=1) / 40, 0, 1)
    return 0.3 * white + 0.15 * uniform + 0.35 * contrast + 0.2 * structure


# What a candidate mask outlines: the whole card; its printed field (the card extends beyond
# it); or the field of one ink alone (see _candidate_masks)
CARD, FIELD, INK = "card", "field", "ink"
BOX_APART = 0.9  # a black field's min-area box this far from its fitted quad (IoU) is a candidate too
INK_RIM = 0.5  # paper share an ink field's card must show around it (see find_cards)
# ... and its outline ranks below a whole-card outline of the same shape: the mini cards of
# a wild +4 are ink fields on a white oval too (hemant's wild +4 was enrolled as one)
INK_WEIGHT = 0.8


@dataclass(frozen=True)
class _Mask:
    image: np.ndarray
    kind: str
    # also try unions of two pieces (see _paired_fields): "hue" pairs same-coloured pieces;
    # "any" pairs any two, for a mask of one kind of pixel only (the near-black field of a
    # wild, whose hue says little)
    paired: str = ""
    # also the smallest rectangle round each shape (a wild's black field, which its print breaks up)
    boxed: bool = False


def _percentile(img: np.ndarray, q: float) -> float:
    """np.percentile(img, q) of a uint8 image (linear interpolation, the same figure), from
    its histogram: sorting the pixels cost more than all the masks built from the answer."""
    counts = cv2.calcHist([img], [0], None, [256], [0, 256]).ravel().cumsum()
    rank = q / 100 * (img.size - 1)
    lo = math.floor(rank)
    a = int(np.searchsorted(counts, lo, side="right"))
    b = int(np.searchsorted(counts, min(lo + 1, img.size - 1), side="right"))
    t = rank - lo
    return float(b - (b - a) * (1 - t)) if t >= 0.5 else float(a + (b - a) * t)


def _ink_lut() -> np.ndarray:
    """Hue (0..180) -> index of its ink in COLOURS (see HUE_EDGES)."""
    lut = np.zeros(256, np.uint8)
    for lo, hi, ink in HUE_EDGES:
        lut[lo:hi] = COLOURS.index(ink)
    return lut


_INK_OF_HUE = _ink_lut()


def _candidate_masks(work: np.ndarray, hsv: np.ndarray, gray: np.ndarray) -> list[_Mask]:
    s, v = hsv[:, :, 1], hsv[:, :, 2]
    k3 = np.ones((3, 3), np.uint8)
    masks = []
    # 1. light grey-ish pixels (the white card border) relative to the scene
    thr_v = max(90, int(_percentile(v, 55)))
    white = ((v >= thr_v) & (s < 90)).astype(np.uint8) * 255
    masks.append(_Mask(cv2.morphologyEx(white, cv2.MORPH_CLOSE, k3), CARD))
    # 2. edges (works on light tables where the border merges with the background)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    med = _percentile(blur, 50)
    edges = cv2.Canny(blur, max(10, 0.5 * med), max(30, 1.2 * med))
    edges_s = cv2.Canny(cv2.GaussianBlur(s, (5, 5), 0), 30, 90)
    masks.append(_Mask(cv2.dilate(cv2.bitwise_or(edges, edges_s), k3), CARD))
    # 3. saturated or bright: card field+border against a dull table
    _, otsu = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(_Mask(cv2.morphologyEx(otsu, cv2.MORPH_OPEN, k3), CARD))
    # 4./5. the saturated printed field. On clone decks the white oval cuts it in two
    # halves, so a wide closing joins them (two scales: small and large cards).
    # (a dim photo prints its fields darker: the floor follows the paper's brightness)
    v_floor = min(60.0, 0.35 * float(np.percentile(v[::4, ::4], 95)))
    sat = ((s > 100) & (v > v_floor)).astype(np.uint8) * 255
    k7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    masks.append(_Mask(cv2.morphologyEx(sat, cv2.MORPH_CLOSE, k7), FIELD, paired="hue"))
    k21 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (21, 21))
    masks.append(_Mask(cv2.morphologyEx(sat, cv2.MORPH_CLOSE, k21), FIELD))
    # 6.-9. the field of one ink: a hand, a wooden table or a card beside it is saturated too
    # and merges with the field in 4./5.; one ink alone parts from them (a red field from
    # a blue card it lies on, a yellow one from the hand; find_cards asks a white rim of it)
    ink = cv2.LUT(hsv[:, :, 0], _INK_OF_HUE)
    for i in range(len(COLOURS)):
        band = cv2.bitwise_and(sat, cv2.compare(ink, i, cv2.CMP_EQ))
        masks.append(_Mask(cv2.morphologyEx(band, cv2.MORPH_CLOSE, k7), INK, paired="hue"))
    # 10. the black field of a wild, on a table lighter than it (a white card on a light
    # table shows no border to follow)
    if _percentile(v, 50) > 110:
        dark = (v < 70).astype(np.uint8) * 255
        k9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
        masks.append(_Mask(cv2.morphologyEx(dark, cv2.MORPH_CLOSE, k9), FIELD, paired="any", boxed=True))
    return masks


_TO_RAD = np.arange(256, dtype=np.uint8).astype(np.float32) * (2 * math.pi / 180)  # OpenCV hue -> radians
_HUE_SIN, _HUE_COS = np.sin(_TO_RAD), np.cos(_TO_RAD)


def _hue_vectors(hue: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's hue as (sine, cosine) images (hue is circular: red lies at both ends)."""
    return cv2.LUT(hue, _HUE_SIN), cv2.LUT(hue, _HUE_COS)


def _piece_hues(pieces: list[tuple[float, np.ndarray]], hue: tuple[np.ndarray, np.ndarray]) -> list[float]:
    """Each piece's mean hue, as an angle; `hue`: the image's _hue_vectors."""
    sin, cos = hue
    hues = []
    for _, c in pieces:
        x, y, w, h = cv2.boundingRect(c)
        m = np.zeros((h, w), np.uint8)
        cv2.drawContours(m, [c - (x, y)], -1, 255, -1)
        hues.append(math.atan2(cv2.mean(sin[y:y + h, x:x + w], m)[0], cv2.mean(cos[y:y + h, x:x + w], m)[0]))
    return hues


def _paired_fields(contours: list[np.ndarray], areas: list[float], hue: tuple[np.ndarray, np.ndarray] | None,
                   min_area: float) -> list[np.ndarray]:
    """Decks whose white circle or oval runs across the whole card split the printed field in
    two; the union of two same-coloured pieces is then the field. (`areas`: the contours';
    `hue`: the image's _hue_vectors, or None: the mask holds one kind of pixel only, so any
    two pieces may pair.)"""
    pieces = [(a, c) for a, c in zip(areas, contours) if a >= 0.15 * min_area]
    pieces = sorted(pieces, key=lambda t: t[0], reverse=True)[:8]
    if len(pieces) < 2:
        return []
    hues = _piece_hues(pieces, hue) if hue is not None else None
    out = []
    for i in range(len(pieces)):
        for j in range(i + 1, len(pieces)):
            if hues is not None:
                d = abs(hues[i] - hues[j]) % (2 * math.pi)
                if min(d, 2 * math.pi - d) > 0.35:
                    continue
            (ai, ci), (aj, cj) = pieces[i], pieces[j]
            if min(ai, aj) < 0.25 * max(ai, aj):
                continue
            out.append(cv2.convexHull(np.concatenate([ci, cj])))
    return out


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex outlines."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    ua = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / ua) if ua > 0 else 0.0


def overlap_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of the smaller of two convex outlines that they have in common (1.0 for a
    degenerate one: it is no card of its own)."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return float(inter / smaller) if smaller > 0 else 1.0


def find_cards(image_bgr: np.ndarray, max_cards: int = 8, work_side: int = WORK_SIDE,
               max_scored: int = MAX_SCORED, balanced: bool = False) -> list[CardQuad]:
    """Card quads in the image, best (the top card of a pile) first. A photo of many cards
    (hands spread out for scoring) needs a larger `work_side` and `max_scored`. `balanced`:
    the caller has taken a lamp's cast out of the picture already (colour_cast.without_cast),
    to read the cards in it in plain light too."""
    h, w = image_bgr.shape[:2]
    # shrink by an integer factor: INTER_AREA is several times faster then
    k = max(1, round(max(h, w) / work_side))
    if k > 1:
        # crop to a multiple of k so the shrink is exact (OpenCV's fast INTER_AREA path)
        src = image_bgr[: h - h % k, : w - w % k]
        work = cv2.resize(src, (src.shape[1] // k, src.shape[0] // k), interpolation=cv2.INTER_AREA)
    else:
        work = image_bgr
    # a warm lamp turns the white border orange, which no paper test below would take for paper
    if not balanced:
        work = without_cast(work)
    wh, ww = work.shape[:2]
    scale = np.float32(1.0 / k)
    min_area = MIN_SHORT_SIDE * MIN_SHORT_SIDE * ASPECT * 0.8
    cands: list[tuple[float, np.ndarray, np.ndarray | None]] = []
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    hue: tuple[np.ndarray, np.ndarray] | None = None  # _hue_vectors, made when a mask first asks
    for mask in _candidate_masks(work, hsv, gray):
        contours, _ = cv2.findContours(mask.image, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        contours = list(contours)
        areas = list(map(cv2.contourArea, contours))  # most are specks: one pass, then only the big ones
        if mask.paired:
            if mask.paired == "hue" and hue is None:
                hue = _hue_vectors(hsv[:, :, 0])
            pairs = _paired_fields(contours, areas, hue if mask.paired == "hue" else None, min_area)
            contours += pairs
            areas += map(cv2.contourArea, pairs)
        for c, area in zip(contours, areas):
            if area < min_area or area > 0.98 * wh * ww:
                continue
            hull = cv2.convexHull(c)
            quad, fitted = _quad_from_hull(hull)
            is_field = mask.kind != CARD
            # a clone-deck field is two halves around the oval: judge its hull
            shape = _shape_score(hull if is_field else c, quad)
            if shape < 0.25:
                continue
            if mask.kind == INK:
                # one ink's blobs come out of colourful textures too: only a card whose white
                # border shows around the field counts
                card = expand_field(quad)
                if _rim_paper(work, card, 2) >= INK_RIM:
                    cands.append((shape * INK_WEIGHT, card, None))
                continue
            cands.append((shape, quad, hull if fitted else None))
            if is_field:  # printed field: the card extends beyond it
                cands.append((shape * 0.95, expand_field(quad), None))
                if mask.boxed and fitted:
                    # the print breaks a wild's black field up (the four-colour oval reaching its
                    # edges, the corner marks), and the fit can take a corner astray, the card
                    # turned wrong: the hull's smallest rectangle too, for the scoring to choose
                    box = enclosing_rect(hull)
                    if quad_iou(box, order_quad(quad)) < BOX_APART:
                        cands.append((shape * 0.95, expand_field(box), None))
    # A tight crop of a single card: the frame itself is the card outline.
    frame = np.array([[0, 0], [ww - 1, 0], [ww - 1, wh - 1], [0, wh - 1]], np.float32)
    frame_aspect = max(wh, ww) / max(1, min(wh, ww))
    if 1.35 < frame_aspect < 1.8 and _rim_paper(work, frame, 3) > 0.6:
        cands.append((0.6, frame, None))
    else:
        # a card filling the photo (cut by its edges): the frame is the best outline there is;
        # the classifier turns it down when it holds no card
        cands.append((0.3, frame, None))
    # many masks find the same outline: score each distinct one once, best shapes first
    seen: set[tuple[int, int, int]] = set()
    distinct = []
    for shape, quad, hull in sorted(cands, key=lambda t: -t[0]):
        c = quad.mean(axis=0)
        key = (int(c[0] // 4), int(c[1] // 4), int(math.sqrt(max(cv2.contourArea(quad), 0)) // 4))
        if key not in seen:
            seen.add(key)
            distinct.append((shape, quad, hull))
    distinct = distinct[:max_scored]
    quads = [order_quad(quad) for _, quad, _ in distinct]
    looks = 0.65 * _border_score(work, quads) + 0.35 * _edge_support(_strong_edges(gray), np.array(quads))
    scored: list[tuple[float, np.ndarray, np.ndarray | None]] = []
    for (shape, _, hull), q, look in zip(distinct, quads, looks.tolist()):
        size = float(np.sqrt(cv2.contourArea(q) / (wh * ww)))
        score = shape * (0.15 + 0.85 * look) * (0.9 + 0.1 * min(1.0, size / 0.3))
        scored.append((score, q, hull))
    scored.sort(key=lambda t: -t[0])
    kept: list[tuple[float, np.ndarray]] = []
    for score, q, hull in scored:
        if all(quad_iou(q, k) < 0.5 for _, k in kept):
            refined = _refine_corners(hull, q) if hull is not None else None
            kept.append((score, order_quad(refined) if refined is not None else q))
        if len(kept) >= max_cards:
            break
    # outlines covering most of the photo are usually the table itself; flag them so that the
    # recogniser only accepts them when it is sure (a card filling the photo)
    big = 0.6 * wh * ww
    return [CardQuad((q / scale).astype(np.float32), float(s), bool(cv2.contourArea(q) > big)) for s, q in kept]
