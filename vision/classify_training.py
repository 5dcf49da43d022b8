"""Training material made by the project itself: rendered cards on procedural tables, with the
distortions a camera adds (rotation, perspective, blur, noise, colour cast, dim light, glare,
JPEG), plus card-free scenes for the reject class."""
from __future__ import annotations

import math

import cv2
import numpy as np

from .cardface import STYLES, UNO_STYLES, all_codes, card_size, is_ninety_nine, render_back, render_card


def random_table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A procedural table surface: plain dark/light, wood grain, checked cloth, noise, pattern."""
    kind = rng.integers(0, 6)
    base = rng.integers(10, 245, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # plain, dark or light
        img = np.ones((h, w, 3), np.float32) * (base * (0.25 if rng.random() < 0.5 else 1.0))
    elif kind == 1:  # wood grain
        t = math.radians(rng.uniform(0, 180))
        u = xx * math.cos(t) + yy * math.sin(t)
        v = -xx * math.sin(t) + yy * math.cos(t)
        grain = np.sin(u / rng.uniform(2, 8) + 3 * np.sin(v / rng.uniform(30, 120))) * 0.5 + 0.5
        wood = np.array([40, 90, 150], np.float32) * rng.uniform(0.5, 1.4)
        img = wood[None, None, :] * (0.7 + 0.3 * grain[..., None])
    elif kind == 2:  # checked cloth
        p = rng.uniform(8, 40)
        c = ((np.floor(xx / p) + np.floor(yy / p)) % 2)[..., None]
        other = rng.integers(150, 256, 3).astype(np.float32)
        img = base * c + other * (1 - c)
    elif kind == 3:  # smooth noise
        small = rng.uniform(0, 255, (max(2, h // 40), max(2, w // 40), 3)).astype(np.float32)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * 0.6 + base * 0.4
    elif kind == 4:  # pattern of shapes
        img = np.ones((h, w, 3), np.float32) * base
        for _ in range(int(rng.integers(5, 30))):
            col = tuple(float(c) for c in rng.integers(0, 256, 3))
            ctr = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            if rng.random() < 0.5:
                cv2.circle(img, ctr, int(rng.integers(3, max(4, w // 8))), col, -1)
            else:
                cv2.line(img, ctr, (int(rng.integers(0, w)), int(rng.integers(0, h))), col, int(rng.integers(1, 8)))
    else:  # gradient (vignette-like backdrop)
        g = (xx / w * rng.uniform(-1, 1) + yy / h * rng.uniform(-1, 1))[..., None]
        img = base * (0.6 + 0.4 * g)
    img += rng.normal(0, rng.uniform(1, 8), img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def paste(scene: np.ndarray, card_bgra: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp a BGRA card onto `scene` so its corners land on `quad` (TL, TR, BR, BL)."""
    ch, cw = card_bgra.shape[:2]
    src = np.array([[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    h, w = scene.shape[:2]
    warped = cv2.warpPerspective(card_bgra, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4].astype(np.float32) / 255.0
    return (warped[:, :, :3] * a + scene * (1 - a)).astype(np.uint8)


def card_quad(rng: np.random.Generator, h: int, w: int, short: float, tilt: float = 0.12) -> np.ndarray:
    """A random card outline (rotation, perspective) of short side `short` inside an h x w frame."""
    long_ = short * 1.553
    ang = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(ang), math.sin(ang)
    half = np.array([[-short / 2, -long_ / 2], [short / 2, -long_ / 2], [short / 2, long_ / 2], [-short / 2, long_ / 2]])
    pts = half @ np.array([[c, s], [-s, c]])
    pts += rng.normal(0, tilt * short / 2, pts.shape)  # perspective-like corner jitter
    ext = np.abs(pts).max(axis=0)
    cx = rng.uniform(ext[0], max(ext[0] + 1, w - ext[0]))
    cy = rng.uniform(ext[1], max(ext[1] + 1, h - ext[1]))
    return (pts + (cx, cy)).astype(np.float32)


def camera_effects(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Colour cast, exposure, glare, blur, noise and JPEG, as a cheap camera would add them."""
    out = img.astype(np.float32)
    cast = 1 + rng.normal(0, 0.12 * strength, 3)
    out *= cast * rng.uniform(1 - 0.5 * strength, 1 + 0.25 * strength)
    if rng.random() < 0.3 * strength:  # glare blob
        h, w = out.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w]
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.4) * max(h, w)
        out += (rng.uniform(40, 120) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))[..., None]
    if rng.random() < 0.5:
        k = float(rng.uniform(0.3, 1.6 * strength))
        out = cv2.GaussianBlur(out, (0, 0), max(0.3, k))
    out += rng.normal(0, rng.uniform(0, 8 * strength), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render_scene(code: str | None, rng: np.random.Generator, size: tuple[int, int] = (480, 360),
                 style: str | None = None, short: float | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """A table with one card (code) or its back (code 'back'), or none (code None).
    Returns (image, true quad or None)."""
    w, h = size
    scene = random_table(rng, h, w)
    quad = None
    if code is not None:
        if style is None:
            style = "ono99" if code != "back" and is_ninety_nine(code) else str(rng.choice(UNO_STYLES))
        short = short if short is not None else float(rng.uniform(0.2, 0.45) * min(w, h))
        face = render_back(style, 200) if code == "back" else render_card(code, style, 200, rng)
        quad = card_quad(rng, h, w, short)
        scene = paste(scene, face, quad)
    return camera_effects(scene, rng), quad


def foreign_card(rng: np.random.Generator, short_side: int = 200) -> np.ndarray:
    """BGRA face of another game's card (a French-suited playing card): white, with red or
    black pips and corner letters. The recogniser must not call it an UNO card."""
    w, h = card_size(short_side)
    img = np.full((h, w, 3), 245, np.uint8)
    ink = (30, 30, 200) if rng.random() < 0.5 else (25, 25, 25)
    n = int(rng.integers(1, 11))
    for _ in range(n):
        x, y = int(rng.uniform(0.25, 0.75) * w), int(rng.uniform(0.2, 0.8) * h)
        r = int(w * rng.uniform(0.05, 0.09))
        if rng.random() < 0.5:
            pts = np.array([[x, y - r], [x + r, y], [x, y + r], [x - r, y]], np.int32)  # diamond
            cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
        else:
            cv2.circle(img, (x - r // 2, y), r // 2 + 1, ink, -1, cv2.LINE_AA)
            cv2.circle(img, (x + r // 2, y), r // 2 + 1, ink, -1, cv2.LINE_AA)
            cv2.fillPoly(img, [np.array([[x - r, y], [x + r, y], [x, y + r + 2]], np.int32)], ink, cv2.LINE_AA)
    letter = str(rng.choice(list("AKQJ") + [str(k) for k in range(2, 11)]))
    cv2.putText(img, letter, (int(w * 0.06), int(h * 0.13)), cv2.FONT_HERSHEY_SIMPLEX, w / 180, ink, 2, cv2.LINE_AA)
    from .cardface import card_mask
    return np.dstack([img, card_mask(short_side)])


def draw_hand(scene: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A hand reaching in from an edge: a skin-toned palm with fingers (card-free)."""
    h, w = scene.shape[:2]
    out = scene.copy()
    skin = tuple(float(c) for c in (np.array([90, 130, 190]) * rng.uniform(0.4, 1.2)).clip(0, 255))
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.3, 1.0) * h
    r = rng.uniform(0.12, 0.25) * min(h, w)
    cv2.ellipse(out, (int(cx), int(cy)), (int(r), int(r * 1.2)), float(rng.uniform(0, 180)), 0, 360, skin, -1, cv2.LINE_AA)
    cv2.line(out, (int(cx), int(cy)), (int(cx + rng.uniform(-1, 1) * w), h + 10), skin, int(r * 1.2), cv2.LINE_AA)
    for k in range(4):
        a = math.radians(-140 + k * 30 + rng.uniform(-10, 10))
        tip = (int(cx + math.cos(a) * r * 2.0), int(cy + math.sin(a) * r * 2.0))
        cv2.line(out, (int(cx), int(cy)), tip, skin, max(3, int(r * 0.35)), cv2.LINE_AA)
    return out


def card_free_scene(rng: np.random.Generator, kind: str, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """Scenes the recogniser must answer with 'no card': bare table, hand over the table,
    card back, another game's card."""
    w, h = size
    scene = random_table(rng, h, w)
    if kind == "hand":
        scene = draw_hand(scene, rng)
    elif kind in ("back", "foreign"):
        face = (render_back(str(rng.choice(["classic", "ono99"])), 200) if kind == "back"
                else foreign_card(rng, 200))
        scene = paste(scene, face, card_quad(rng, h, w, float(rng.uniform(0.25, 0.45) * min(w, h))))
        if rng.random() < 0.5:
            scene = draw_hand(scene, rng)
    elif kind != "table":
        raise ValueError(f"unknown scene kind {kind!r}")
    return camera_effects(scene, rng)


CARD_FREE_KINDS = ("table", "hand", "back", "foreign")


def training_codes() -> list[str]:
    return all_codes("all")


def jitter_quad(quad: np.ndarray, rng: np.random.Generator, amount: float = 0.025) -> np.ndarray:
    """Corner errors like a real card finder makes (a few % of the card size)."""
    size = float(np.linalg.norm(quad[0] - quad[2]))
    return (quad + rng.normal(0, amount * size, quad.shape)).astype(np.float32)


def misplace_quad(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An outline that covers only part of the card, or the card and much table around it."""
    c = quad.mean(axis=0)
    u, v = quad[1] - quad[0], quad[3] - quad[0]
    kind = rng.integers(0, 3)
    if kind == 0:    # shifted by a third to two thirds of the card
        off = u * rng.uniform(-0.6, 0.6) + v * rng.uniform(-0.6, 0.6)
        if np.linalg.norm(off) < 0.3 * np.linalg.norm(u):
            off = off / (np.linalg.norm(off) + 1e-6) * 0.4 * np.linalg.norm(u)
        out = quad + off
    elif kind == 1:  # a part of the card (corner or half)
        f = rng.uniform(0.4, 0.65)
        anchor = quad[int(rng.integers(4))]
        out = anchor + (quad - anchor) * f
    else:            # far too large
        out = c + (quad - c) * rng.uniform(1.5, 2.2)
    return out.astype(np.float32)


__all__ = ["random_table", "paste", "card_quad", "camera_effects", "render_scene", "training_codes",
           "jitter_quad", "misplace_quad", "foreign_card", "draw_hand", "card_free_scene",
           "CARD_FREE_KINDS", "STYLES", "card_size"]
