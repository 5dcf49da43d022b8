"""A second pile-clip generator, written apart from vision/synth on purpose, and the watcher
scored on its clips: the nearest thing here to the held-out clips of another scene generator.

    .venv/bin/python tools/other_clips.py --clips 12 --seed 100 [--size 1280x720] [--players 2 6]
        [--photos ../shared/data/photos] [--keep DIR] [--bumps N] [--lamp warm] [--jpeg Q]
        [--dim] [--set FIELD=VALUE ...]

vision/synth draws the image directly, with hands brought in along a scripted path. This one
draws a table plane and looks at it through a camera: everything (cards, hands, arms, their
shadows) is laid out on the table in table pixels and the frame is that plane seen through a
random homography (tilt up to ~20 degrees, any roll), then blurred, white-balanced, noised and
written as an mp4 at 15, 24 or 30 fps and read back through the same file source a user's
recording goes through. What it varies that vision/synth does not: rounded card corners,
cards that slide after release and land off the pile's centre, a fanned hand of fingers with a
thumb, sleeves in card colours, a hand that hovers over the pile and leaves without playing, a
top card taken back, patterned cloths, a camera rolled any way round, auto-exposure that
follows what covers the frame, and frame rates below 25. --bumps N knocks the camera N times
per clip (shifted, turned and zoomed a little, with two frames of shake; see OtherScene._knocks).
--jpeg Q passes each frame through JPEG at quality Q before the video is written, as a USB
webcam's MJPEG stream does. --dim films a dim room: the camera's gain lifts a picture
exposed at about a third and lifts its sensor noise with it, fresh on every frame, and the
lifted shadows come out flat and grey (see dim_room). --set changes a field of the
watcher's WatcherConfig, to sweep it.

Truth per clip: fps, seat_bearings (image degrees, 0 = right, counter-clockwise) and events
(landed/removed, card, settled frame: the first frame the card lies still and no hand covers
it, seat, bearing), the format of vision/synth.score, which scores the watcher's events.
Card faces are the project's renders (printings vary per clip) or, with --photos, crops of
real photos (measuring only; they are cropped with the recogniser's finder).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import pathlib
import sys
import tempfile

import cv2
import numpy as np

from camera_faults import smear  # tools/, beside this script
from tableref.vision.colour_cast import LAMPS
from tableref.vision.synth.card_faces import CardFaces
from tableref.vision.synth.score import Score, score_clip, watch_events
from tableref.vision.tunables import add_set_argument, with_settings

ASPECT = 1.55  # long / short side of a card


@dataclasses.dataclass
class Act:
    kind: str                 # "land", "remove" or "hover"
    seat: int
    start: int                # frame the hand sets off
    reach: int                # frames to reach the pile
    back: int                 # frames to withdraw
    card: str | None = None
    pose: tuple[float, float, float] = (0.0, 0.0, 0.0)  # final (x, y, angle) on the table
    slide: tuple[float, float] = (0.0, 0.0)              # how far the card slides after release
    settled: int = -1


def _rounded_mask(w: int, h: int, r: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def _cloth(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table top unlike vision/synth's: plain, checked, dotted or striped, with slow shading."""
    w, h = size
    base = rng.uniform(30, 220, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    kind = rng.choice(["plain", "check", "dots", "stripes"])
    other = np.clip(base + rng.uniform(-70, 70, 3), 0, 255)
    step = int(rng.integers(18, 60))
    yy, xx = np.mgrid[0:h, 0:w]
    if kind == "check":
        sel = ((xx // step + yy // step) % 2).astype(bool)
        img[sel] = other
    elif kind == "dots":
        sel = ((xx % step - step / 2) ** 2 + (yy % step - step / 2) ** 2) < (step / 5) ** 2
        img[sel] = other
    elif kind == "stripes":
        sel = ((xx * math.cos(0.7) + yy * math.sin(0.7)) // step % 2).astype(bool)
        img[sel] = other
    shade = cv2.resize(rng.uniform(0.75, 1.15, (3, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img *= shade[:, :, None]
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _camera(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Homography table -> image: tilted up to ~20 degrees, rolled any way, table filling the frame."""
    w, h = size
    roll = rng.uniform(0, 2 * math.pi)
    tilt = rng.uniform(0, 0.22)
    c = np.array([w / 2, h / 2])
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
    # squeeze the far edge (the camera leans towards a random side), then roll about the centre
    far = rng.uniform(0, 2 * math.pi)
    d = np.array([math.cos(far), math.sin(far)])
    dst = []
    for p in src:
        q = p - c
        along = q @ d / (np.linalg.norm(c) + 1e-9)  # -1 .. 1 towards the far side
        q = q * (1 - tilt * (along + 1) / 2)
        cr, sr = math.cos(roll), math.sin(roll)
        dst.append(c + np.array([cr * q[0] - sr * q[1], sr * q[0] + cr * q[1]]))
    m = cv2.getPerspectiveTransform(src.astype(np.float32), np.array(dst, np.float32))
    # zoom so that the table covers the whole frame
    corners = cv2.perspectiveTransform(src.reshape(1, 4, 2).astype(np.float32), np.linalg.inv(m)).reshape(4, 2)
    inner = max(np.abs(corners - c).max(axis=0) / c)
    zoom = np.array([[inner, 0, c[0] * (1 - inner)], [0, inner, c[1] * (1 - inner)], [0, 0, 1]])
    return m @ zoom


def _bearing(h: np.ndarray, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Image bearing (degrees, 0 = right, counter-clockwise, y up) from table point a to b."""
    pa, pb = cv2.perspectiveTransform(np.array([[a, b]], np.float32), h)[0]
    return math.degrees(math.atan2(-(pb[1] - pa[1]), pb[0] - pa[0])) % 360


class OtherScene:
    def __init__(self, seed: int, size: tuple[int, int], players: int, deck: str = "uno", photos: str | None = None,
                 pile_at: tuple[float, float] | None = None, plays: int | None = None, aspect: float = ASPECT,
                 bumps: int = 0, lamp: str | None = None) -> None:
        """`pile_at`: where the pile shows, as fractions of the frame (default: drawn at random);
        `plays`: how many hands come to the pile (default 12 to 17); `aspect`: the cards' long
        side over their short side; `bumps`: how many times the camera is knocked (see _knocks);
        `lamp`: a colour_cast.LAMPS lamp the camera's white balance leaves in the picture."""
        rng = self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.size = size
        w, h = size
        self.fps = float(rng.choice([15, 24, 30]))
        self.cam = _camera(size, rng)
        self.table = _cloth(size, rng)
        self.short = int(h * rng.uniform(0.10, 0.2))
        self.long = int(self.short * aspect)
        self.faces = CardFaces(deck, self.short, rng, photos)
        self.corner = _rounded_mask(self.short, self.long, max(2, self.short // 14))
        # where the pile shows in the frame: most people centre it, some do not
        spread = 0.25 if rng.random() < 0.8 else 0.36
        fx, fy = rng.uniform(0.5 - spread, 0.5 + spread, 2)
        if pile_at is not None:
            fx, fy = pile_at
        seen = np.array([[[w * fx, h * fy]]])
        self.pile = cv2.perspectiveTransform(seen.astype(np.float32), np.linalg.inv(self.cam))[0, 0].astype(np.float64)
        gap = rng.uniform(0.6, 1.4, players)
        angles = np.cumsum(gap / gap.sum() * 2 * math.pi) + rng.uniform(0, 2 * math.pi)
        reach = 0.75 * math.hypot(w, h)
        self.seats = [tuple(self.pile + reach * np.array([math.cos(a), math.sin(a)])) for a in angles]
        self.seat_bearings = [round(_bearing(self.cam, tuple(self.pile), s), 1) for s in self.seats]
        dark, light = np.array([45, 65, 95]), np.array([170, 195, 235])  # BGR skin tones
        self.skin = [dark + (light - dark) * rng.uniform() + rng.normal(0, 6, 3) for _ in range(players)]
        sleeve_pool = [(30, 30, 200), (40, 190, 40), (200, 80, 20), (20, 200, 230), (240, 240, 240), (30, 30, 30)]
        self.sleeve = [np.array(sleeve_pool[int(rng.integers(len(sleeve_pool)))]) for _ in range(players)]
        self.light = rng.uniform(0, 2 * math.pi)
        self.wb = rng.uniform(0.85, 1.15, 3) * (np.float32(LAMPS[lamp]) if lamp else 1)
        self.blur = rng.uniform(0, 1.3)
        self.noise = rng.uniform(1.5, 6)
        self.acts = self._script(players, plays or int(rng.integers(12, 18)))
        self._pile_key: tuple = ()
        self._grain: list[np.ndarray] = []
        self._pile_img = self.table.astype(np.float32)
        self.n_frames = max(a.start + a.reach + a.back for a in self.acts) + int(self.fps * 1.5)
        # drawn from their own generator so that a clip without bumps is the clip it always was
        self.knocks = self._knocks(np.random.default_rng([seed, 1]), bumps)

    def _script(self, players: int, plays: int) -> list[Act]:
        rng, fps = self.rng, self.fps
        acts: list[Act] = []
        t = int(fps * rng.uniform(0.8, 1.5))
        turn = int(rng.integers(players))
        pile: list[str] = []
        for _ in range(plays):
            kind = "land" if not pile else str(rng.choice(["land", "remove", "hover"], p=[0.84, 0.08, 0.08]))
            seat = turn if rng.random() < 0.8 else int(rng.integers(players))
            a = Act(kind, seat, t, int(fps * rng.uniform(0.45, 0.9)), int(fps * rng.uniform(0.4, 0.8)))
            if kind == "land":
                a.card = self.faces.codes[int(rng.integers(len(self.faces.codes)))]
                off = rng.normal(0, 0.15, 2) * self.short
                a.pose = (self.pile[0] + off[0], self.pile[1] + off[1], rng.uniform(0, 360))
                if rng.random() < 0.35:
                    a.slide = tuple(rng.normal(0, 0.15, 2) * self.short)
                pile.append(a.card)
            elif kind == "remove":
                a.card = pile.pop()
            acts.append(a)
            turn = (seat + 1) % players
            t += a.reach + a.back + int(fps * rng.uniform(0.5, 2.0))
        return acts

    def _knocks(self, rng: np.random.Generator, n: int) -> list[tuple[int, np.ndarray]]:
        """(frame, image map) for each knock of the camera or the table: the picture shifts by
        0.3-1.2% of its width, turns up to a degree and zooms up to half a percent (a camera arm
        that sags), taking two frames to get there. Half the knocks come as a card is slapped
        down, the rest at any moment."""
        w, h = self.size
        lands = [a.start + a.reach for a in self.acts if a.kind == "land"]
        knocks = []
        for _ in range(n):
            at = int(rng.choice(lands)) if rng.random() < 0.5 else int(rng.integers(self.fps, self.n_frames - self.fps))
            turn = rng.uniform(-1, 1)
            zoom = 1 + rng.uniform(-0.005, 0.005)
            m = np.eye(3)
            m[:2] = cv2.getRotationMatrix2D((w / 2, h / 2), turn, zoom)
            shift = rng.uniform(0.003, 0.012) * w
            way = rng.uniform(0, 2 * math.pi)
            m[:2, 2] += (shift * math.cos(way), shift * math.sin(way))
            knocks.append((at, m))
        return sorted(knocks, key=lambda k: k[0])

    def _view(self, i: int) -> tuple[np.ndarray, np.ndarray | None]:
        """(table -> image homography at frame i, shake): the camera after the knocks so far;
        during a knock's two frames, part of the way there and the shake's shift in pixels."""
        cam, shake = self.cam, None
        for at, m in self.knocks:
            if i >= at + 2:
                cam = m @ cam
            elif i >= at:
                part = (i - at + 1) / 3
                step = np.eye(3) + (m - np.eye(3)) * part
                cam = step @ cam
                shake = m[:2, 2] / 3
        return cam, shake

    # -- where things are at frame i ----------------------------------------------------------
    def _pile_at(self, i: int) -> list[tuple[str, tuple[float, float, float]]]:
        cards: list[tuple[str, tuple[float, float, float]]] = []
        for a in self.acts:
            release = a.start + a.reach
            if a.kind == "land" and i >= release:
                k = min(1.0, (i - release) / 3)  # a slide takes three frames
                cards.append((a.card, (a.pose[0] + a.slide[0] * k, a.pose[1] + a.slide[1] * k, a.pose[2])))
            elif a.kind == "remove" and i >= release and cards:
                cards.pop()  # the top card, taken back
        return cards

    def _hand_at(self, a: Act, i: int) -> tuple[np.ndarray, float] | None:
        """(palm centre, progress 0..1 towards the pile) of act a's hand at frame i, or None."""
        release = a.start + a.reach
        if i < a.start or i >= release + a.back:
            return None
        if i < release:
            s = (i - a.start) / a.reach
        else:
            s = 1 - (i - release) / a.back
        s = s * s * (3 - 2 * s)
        seat = np.array(self.seats[a.seat])
        target = np.array(a.pose[:2]) if a.kind == "land" else self.pile
        # the hand stops with the card (or the fingers) over the target: palm a little behind it
        to_seat = (seat - target) / np.linalg.norm(seat - target)
        rest = target + to_seat * self.long * (0.55 if a.kind == "land" else 0.35)
        side = np.array([-to_seat[1], to_seat[0]]) * math.sin(s * math.pi) * self.short * 0.3
        return seat + (rest - seat) * s + side, s

    def _towards(self, a: Act) -> np.ndarray:
        """Unit vector from a's seat towards the pile: the way its arm points."""
        d = self.pile - np.array(self.seats[a.seat])
        return d / np.linalg.norm(d)

    def _draw_card(self, img: np.ndarray, code: str, pose: tuple[float, float, float]) -> None:
        face = self.faces.face(code)[:, :, :3]
        face = cv2.resize(face, (self.short, self.long), interpolation=cv2.INTER_AREA)
        m = cv2.getRotationMatrix2D((self.short / 2, self.long / 2), pose[2], 1.0)
        m[:, 2] += np.array(pose[:2]) - (self.short / 2, self.long / 2)
        h, w = img.shape[:2]
        warped = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(self.corner, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[:, :, None] / 255
        # a flat card casts a thin shadow below and right of it
        shadow = cv2.warpAffine(self.corner, m + np.array([[0, 0, 2], [0, 0, 3]]), (w, h)).astype(np.float32)[:, :, None] / 255
        img *= 1 - 0.25 * shadow * (1 - mask)
        img[:] = img * (1 - mask) + warped.astype(np.float32) * mask

    def _hand_mask(self, a: Act, palm: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
        """(skin mask, sleeve mask), float 0..1, of an arm from the seat to a palm at `palm`."""
        w, h = self.size
        skin = np.zeros((h, w), np.uint8)
        sleeve = np.zeros((h, w), np.uint8)
        seat = np.array(self.seats[a.seat])
        d = self._towards(a)
        n = np.array([-d[1], d[0]])
        u = self.short
        wrist = palm - d * u * 0.55
        cv2.line(sleeve, tuple(map(int, seat)), tuple(map(int, wrist - d * u * 0.5)), 255, int(u * 0.75), cv2.LINE_AA)
        cv2.line(skin, tuple(map(int, wrist - d * u * 0.6)), tuple(map(int, wrist)), 255, int(u * 0.5), cv2.LINE_AA)
        cv2.ellipse(skin, (tuple(palm), (u * 0.8, u * 0.95), math.degrees(math.atan2(d[1], d[0]))), 255, -1, cv2.LINE_AA)
        for k, off in enumerate((-0.3, -0.1, 0.1, 0.3)):
            base = palm + d * u * 0.35 + n * u * off
            tip = base + d * u * (0.45 + 0.1 * (k in (1, 2))) + n * u * off * 0.4
            cv2.line(skin, tuple(map(int, base)), tuple(map(int, tip)), 255, max(2, int(u * 0.16)), cv2.LINE_AA)
        thumb = palm + n * u * 0.4
        cv2.line(skin, tuple(map(int, thumb - d * u * 0.1)), tuple(map(int, thumb + d * u * 0.3 + n * u * 0.2)),
                 255, max(2, int(u * 0.18)), cv2.LINE_AA)
        return skin.astype(np.float32) / 255, sleeve.astype(np.float32) / 255

    def frame(self, i: int, gain: float) -> tuple[np.ndarray, float]:
        """(image, next auto-exposure gain): the table at frame i seen through the camera."""
        pile = self._pile_at(i)
        key = tuple((c, tuple(round(v, 2) for v in p)) for c, p in pile)
        if key != self._pile_key:  # the pile changes a few frames per card: draw it then only
            self._pile_img = self.table.astype(np.float32)
            for code, pose in pile:
                self._draw_card(self._pile_img, code, pose)
            self._pile_key = key
        img = self._pile_img.copy()
        cover = np.zeros(img.shape[:2], np.float32)
        for a in self.acts:
            at = self._hand_at(a, i)
            if at is None:
                continue
            palm, s = at
            release = a.start + a.reach
            holding = (a.kind == "land" and i < release) or (a.kind == "remove" and i >= release)
            if holding:
                ang = a.pose[2] if a.kind == "land" else 0.0
                held = palm + self._towards(a) * self.long * 0.55
                self._draw_card(img, a.card, (held[0], held[1], ang + (1 - s) * 40))
            skin, sleeve = self._hand_mask(a, palm, s)
            both = np.maximum(skin, sleeve)
            off = (np.array([math.cos(self.light), math.sin(self.light)]) * self.short * 0.25).astype(int)
            shadow = np.roll(cv2.GaussianBlur(both, (0, 0), self.short * 0.08), tuple(off[::-1]), axis=(0, 1))
            img *= (1 - 0.35 * shadow)[:, :, None]
            shade = 0.8 + 0.2 * math.cos(i * 0.3)
            img = img * (1 - both[:, :, None]) + (skin[:, :, None] * self.skin[a.seat] * shade
                                                  + sleeve[:, :, None] * self.sleeve[a.seat])
            cover = np.maximum(cover, both)
        w, h = self.size
        cam, shake = self._view(i)
        view = cv2.warpPerspective(img, cam, (w, h), borderMode=cv2.BORDER_REFLECT)
        if shake is not None:  # the knock smears the frame along its way
            view = smear(view, shake)
        if self.blur > 0.3:
            view = cv2.GaussianBlur(view, (0, 0), self.blur)
        view *= self.wb * gain
        if not self._grain:  # sensor noise: a few frames' worth, drawn once, taken in turn
            self._grain = [self.rng.normal(0, self.noise, view.shape).astype(np.float32) for _ in range(7)]
        view += self._grain[i % len(self._grain)]
        # auto-exposure: a big dark or bright arm in view pulls the gain a little, slowly
        target = 1.0 + 0.1 * float(cover.mean()) * (1 if self.skin[0].mean() < 110 else -1)
        return np.clip(view, 0, 255).astype(np.uint8), gain + (target - gain) * 0.2

    def truth(self) -> dict:
        events = []
        for a in self.acts:
            if a.kind == "hover":
                continue
            release = a.start + a.reach
            a.settled = release + (3 if a.slide != (0.0, 0.0) else 0)
            while a.settled < release + a.back and self._covers(a, a.settled):
                a.settled += 1
            pose = a.pose if a.kind == "land" else (self.pile[0], self.pile[1], 0)
            events.append({"type": "landed" if a.kind == "land" else "removed", "card": a.card,
                           "frame": a.settled, "t": round(a.settled / self.fps, 3), "seat": a.seat,
                           "bearing": round(_bearing(self.cam, pose[:2], self.seats[a.seat]), 1)})
        return {"fps": self.fps, "size": list(self.size), "generator": "tools/other_clips.py",
                "seat_bearings": self.seat_bearings, "events": events}

    def _covers(self, a: Act, i: int) -> bool:
        """Whether a's hand still lies over the pile's card at frame i."""
        at = self._hand_at(a, i)
        if at is None:
            return False
        skin, sleeve = self._hand_mask(a, *at)
        w, h = self.size
        near = np.zeros((h, w), np.uint8)
        cv2.circle(near, tuple(map(int, a.pose[:2] if a.kind == "land" else self.pile)), int(self.long * 0.7), 255, -1)
        return bool((np.maximum(skin, sleeve)[near > 0] > 0.2).any())

    def write(self, path: pathlib.Path, jpeg: int | None = None, dim: bool = False) -> None:
        """The clip as an mp4; `jpeg`: each frame first through JPEG at that quality, as a
        USB webcam's MJPEG stream compresses it (blocks, ringing along the cloth's lines);
        `dim`: each frame as a camera takes it in a dim room (dim_room)."""
        w, h = self.size
        # its own generator, so that a clip not dimmed is the clip it always was
        dark = np.random.default_rng([self.seed, 2]) if dim else None
        out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), self.fps, (w, h))
        if not out.isOpened():
            raise SystemExit(f"other_clips: cannot write {path}")
        gain = 1.0
        for i in range(self.n_frames):
            img, gain = self.frame(i, gain)
            if dark is not None:
                img = dim_room(img, dark)
            if jpeg is not None:
                img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])[1], cv2.IMREAD_COLOR)
            out.write(img)
        out.release()


def dim_room(img: np.ndarray, rng: np.random.Generator, light: float = 0.35, read_noise: float = 2.5) -> np.ndarray:
    """`img` as a camera takes it in a dim room: the sensor gets `light` of the light, with
    shot noise (which grows with the light) and read noise, and the gain lifts it back up,
    noise and all; the lifted blacks come out grey and the whole picture a little flat."""
    f = img.astype(np.float32) * light
    f += rng.normal(0.0, 1.0, f.shape).astype(np.float32) * np.sqrt(f * 0.5 + read_noise ** 2)
    lifted = f / light * 0.85 + 18.0
    return np.clip(lifted, 0, 255).astype(np.uint8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--clips", type=int, default=12)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--players", type=int, nargs=2, default=(2, 6), metavar=("LOW", "HIGH"))
    ap.add_argument("--deck", default="uno")
    ap.add_argument("--photos", default=None, metavar="DIR", help="card faces cropped from real photos (labels.csv)")
    ap.add_argument("--keep", default=None, metavar="DIR", help="keep the clips and their truth here")
    ap.add_argument("--bumps", type=int, default=0, metavar="N", help="knock the camera N times in each clip")
    ap.add_argument("--lamp", choices=sorted(LAMPS), help="a lamp the camera's white balance leaves in the picture")
    ap.add_argument("--jpeg", type=int, default=None, metavar="Q",
                    help="each frame through JPEG at quality Q first, as a webcam's MJPEG stream (e.g. 40)")
    ap.add_argument("--dim", action="store_true", help="a dim room: the camera's gain lifts the picture and its noise")
    add_set_argument(ap, "the watcher's WatcherConfig", "settle_s=0.06; motion.settled_reach=2")
    args = ap.parse_args(argv)
    if args.jpeg is not None and not 5 <= args.jpeg <= 100:
        ap.error("--jpeg must be between 5 and 100")
    from tableref.vision.watcher import WatcherConfig
    try:
        config = with_settings(WatcherConfig(), args.set)
    except ValueError as exc:
        ap.error(str(exc))
    w, h = (int(v) for v in args.size.lower().split("x"))
    from tableref.vision.recognise import Recogniser
    rec = Recogniser(deck=args.deck)
    keep = pathlib.Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    total = Score()
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.clips):
            seed = args.seed + k
            rng = np.random.default_rng(seed)
            players = int(rng.integers(args.players[0], args.players[1] + 1))
            scene = OtherScene(seed, (w, h), players, args.deck, args.photos, bumps=args.bumps, lamp=args.lamp)
            path = (keep or pathlib.Path(tmp)) / f"other_{seed}.mp4"
            scene.write(path, args.jpeg, args.dim)
            truth = scene.truth()
            if keep:
                path.with_suffix(".json").write_text(json.dumps(truth, indent=1))
            clip = score_clip(truth, watch_events(str(path), rec, config), f"seed {seed}")
            total = total.add(clip)
            print(f"seed {seed} ({players} players, {scene.fps:g} fps): {clip.summary()}; {clip.seat_summary()}",
                  flush=True)
    print("all:", total.summary())
    print("all:", total.seat_summary())
    wrong = [m for m in total.misreads if not m.endswith("read as None")]
    print(f"wrong codes {len(wrong)} ({len(wrong) / max(1, total.truth):.1%} of events), "
          f"declined {len(total.misreads) - len(wrong)}")
    for line in total.misses + total.extras + total.misreads + total.seat_errors:
        print("  ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
