"""A seeded synthetic pile scene: the script (what happens) drawn frame by frame (how it looks).

`SynthScene(params).frame(i)` renders frame i on demand, so a ten-minute clip streams in
constant memory; the table with the pile on it is cached per (pile, lighting) state, and
only the hand, the moving shadows and the camera effects are drawn per frame.
"""
from __future__ import annotations

import bisect
import math
from collections import OrderedDict
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tableref.errors import UserError

from .camera import Sensor, exposure_gain, jpeg_roundtrip, lamp_map, random_tilt, vignette
from .card_faces import CardFaces, deck_codes
from .hand import draw_hand, hand_parts, parts_bbox
from .script import CARD_ASPECT, HandState, Pose, Script, build_script, card_quad, hand_state
from .textures import TEXTURES, table_texture


@dataclass(frozen=True)
class SceneParams:
    seed: int = 0
    deck: str = "uno"
    size: tuple[int, int] = (1280, 720)
    fps: float = 25.0
    cards: int | None = None  # number of landings (default 8 when no duration is given)
    duration: float | None = None  # seconds; the script fills it with actions
    photos: str | None = None  # folder of real card photos with labels.csv
    jpeg: int = 0  # per-frame JPEG quality for streamed frames (0 = off; written clips use the video codec)
    players: int | None = None  # seats around the table, 2..8 (default: 2..4 drawn from the seed)
    uneven: bool = False  # seats spaced as people sit rather than evenly
    edge: bool = False  # the pile near an edge or a corner of the frame (off: the seed's clip as before)


MAX_PLAYERS = 8


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"bad size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= w <= 7680 and 64 <= h <= 4320):
        raise UserError(f"bad size {text!r}: width and height must be between 64 and 7680x4320")
    return w, h


def parse_spec(spec: str) -> SceneParams:
    """`synth:seed=3,deck=uno,size=1280x720,cards=12` -> SceneParams.

    `cards` is a number of landings, or a folder of card photos (with labels.csv);
    further keys: fps, duration (seconds), minutes, photos, jpeg, players (2..8), uneven (0/1), edge (0/1: the pile near an edge or corner of the frame).
    """
    body = spec.split(":", 1)[1] if spec.startswith("synth:") else spec
    params = SceneParams()
    for item in filter(None, (s.strip() for s in body.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise UserError(f"bad synth option {item!r} in {spec!r}: expected key=value")
        try:
            if key == "seed":
                params = replace(params, seed=int(value))
            elif key == "deck":
                deck_codes(value)
                params = replace(params, deck=value)
            elif key == "size":
                params = replace(params, size=parse_size(value))
            elif key == "fps":
                params = replace(params, fps=float(value))
            elif key == "cards" and value.isdigit():
                params = replace(params, cards=int(value))
            elif key in ("cards", "photos"):
                params = replace(params, photos=value)
            elif key == "duration":
                params = replace(params, duration=float(value))
            elif key == "minutes":
                params = replace(params, duration=float(value) * 60)
            elif key == "jpeg":
                params = replace(params, jpeg=int(value))
            elif key == "players":
                if not 2 <= int(value) <= MAX_PLAYERS:
                    raise UserError(f"synth option players={value} in {spec!r}: a table seats 2..{MAX_PLAYERS}")
                params = replace(params, players=int(value))
            elif key in ("uneven", "edge"):
                if value not in ("0", "1"):
                    raise ValueError(value)
                params = replace(params, **{key: value == "1"})
            else:
                raise UserError(f"unknown synth option {key!r} in {spec!r} (known: seed, deck, size, fps, "
                                "cards, duration, minutes, photos, jpeg, players, uneven, edge)")
        except ValueError:
            raise UserError(f"bad value for synth option {key!r} in {spec!r}: {value!r}") from None
    if params.fps <= 0 or (params.duration is not None and params.duration <= 0):
        raise UserError(f"fps and duration must be positive in {spec!r}")
    return params


def _blend(dst: np.ndarray, premult: np.ndarray, alpha: np.ndarray) -> None:
    """dst = dst * (1 - alpha) + premult, in place on a uint8 ROI."""
    out = dst.astype(np.float32) * (1 - alpha[..., None]) + premult
    np.clip(out, 0, 255, out=out)
    dst[...] = out.astype(np.uint8)


class SynthScene:
    def __init__(self, params: SceneParams):
        self.params = params
        rng = np.random.default_rng(params.seed)
        w, h = self.size = params.size
        self.homography = random_tilt(self.size, rng)
        self.unit = float(rng.uniform(0.24, 0.3) * h)  # card short side in pixels
        self.faces = CardFaces(params.deck, int(round(self.unit * 1.25)), rng, params.photos)
        self.texture_kind = TEXTURES[int(rng.integers(len(TEXTURES)))]
        texture = table_texture(self.texture_kind, (int(w * 1.2), int(h * 1.2)), rng)
        shift = np.array([[1, 0, -0.1 * w], [0, 1, -0.1 * h], [0, 0, 1]])
        self.table = cv2.warpPerspective(texture, self.homography @ shift, (w, h), borderMode=cv2.BORDER_REFLECT)
        self.vignette = vignette(self.size, float(rng.uniform(0.1, 0.4)))
        self.sensor = Sensor(self.size, float(rng.uniform(1.5, 4.5)), rng)
        self._bases: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()
        self._lights: OrderedDict[int, np.ndarray] = OrderedDict()
        self._blob_cache: dict[int, np.ndarray] = {}
        self.use_script(build_script(rng, self.size, params.fps, self.faces.codes, self.homography,
                                     self.unit, params.cards, params.duration, params.players, params.uneven,
                                     params.edge))

    def use_script(self, script: Script) -> None:
        """Play `script` (the seeded one, or e.g. a game's exact cards) on this table, camera and faces."""
        self.script = script
        # pile versions: each land/remove changes the pile at its release frame
        self._changes = sorted((a.release, i) for i, a in enumerate(script.actions) if a.kind != "pass")
        self._change_frames = [f for f, _ in self._changes]
        self._switch_frames = [s.frame for s in script.switches]
        self._bases.clear()
        self._lights.clear()

    @property
    def n_frames(self) -> int:
        return self.script.n_frames

    @property
    def fps(self) -> float:
        return self.params.fps

    def ground_truth(self) -> dict:
        s = self.script
        return {
            "fps": s.fps, "size": list(s.size), "frames": s.n_frames, "seed": self.params.seed,
            "deck": self.params.deck, "players": s.players, "table": self.texture_kind,
            "card_short_side": round(self.unit, 1), "pile_centre": [round(v, 1) for v in s.pile_centre],
            "seat_bearings": s.seat_bearings, "events": s.events,
        }

    # -- cached static parts -------------------------------------------------------------
    def _pile(self, version: int) -> list[tuple[str, Pose]]:
        pile = list(self.script.initial_pile)
        for _, i in self._changes[:version]:
            a = self.script.actions[i]
            if a.kind == "land":
                pile.append((a.card, a.pose))  # type: ignore[arg-type]
            else:
                pile.pop()
        return pile

    def _light(self, k: int) -> np.ndarray:
        if k not in self._lights:
            light = self.vignette.copy()
            for sw in self.script.switches[:k]:
                if sw.lamp[0] > 0:
                    light *= lamp_map(self.size, sw)
            self._lights[k] = light
            while len(self._lights) > 3:
                self._lights.popitem(last=False)
        return self._lights[k]

    def _base(self, version: int, light_k: int) -> np.ndarray:
        key = (version, light_k)
        if key not in self._bases:
            img = self.table.astype(np.float32)
            for code, pose in self._pile(version):
                self._draw_card(img, code, pose, shadow=True)
            img *= self._light(light_k)[..., None]
            self._bases[key] = np.clip(img, 0, 255).astype(np.uint8)
            while len(self._bases) > 4:
                self._bases.popitem(last=False)
        return self._bases[key]

    def _card_matrix(self, pose: Pose) -> np.ndarray:
        fh, fw = self.faces.short_side * CARD_ASPECT, self.faces.short_side
        s = self.unit / fw
        c, sn = math.cos(math.radians(pose.angle)), math.sin(math.radians(pose.angle))
        to_card = np.array([[s, 0, -fw * s / 2], [0, s, -fh * s / 2], [0, 0, 1]])
        rot = np.array([[c, -sn, pose.x], [sn, c, pose.y], [0, 0, 1]])
        return self.homography @ rot @ to_card

    def _draw_card(self, img: np.ndarray, code: str, pose: Pose, shadow: bool,
                   origin: tuple[int, int] = (0, 0), alpha_out: np.ndarray | None = None) -> None:
        """Warp the card face into float image `img` (whose top-left is `origin` in frame pixels)."""
        face = self.faces.face(code)
        quad = cv2.perspectiveTransform(card_quad(pose, self.unit).reshape(-1, 1, 2), self.homography).reshape(-1, 2)
        pad = 0.1 * self.unit
        x0 = max(int(quad[:, 0].min() - pad), origin[0])
        y0 = max(int(quad[:, 1].min() - pad), origin[1])
        x1 = min(int(quad[:, 0].max() + pad) + 1, origin[0] + img.shape[1])
        y1 = min(int(quad[:, 1].max() + pad) + 1, origin[1] + img.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ self._card_matrix(pose)
        warped = cv2.warpPerspective(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        a = warped[..., 3].astype(np.float32) / 255.0
        roi = img[y0 - origin[1]:y1 - origin[1], x0 - origin[0]:x1 - origin[0]]
        if shadow:
            # a soft contact shadow: cards are thin, so it is faint and barely offset
            sh = cv2.GaussianBlur(a, (0, 0), max(1.0, 0.04 * self.unit))
            sh = np.roll(sh, (max(1, int(0.02 * self.unit)),) * 2, axis=(0, 1))
            roi *= (1 - 0.3 * sh)[..., None]
        roi *= (1 - a)[..., None]
        roi += warped[..., :3].astype(np.float32) * a[..., None]
        if alpha_out is not None:
            ar = alpha_out[y0 - origin[1]:y1 - origin[1], x0 - origin[0]:x1 - origin[0]]
            np.maximum(ar, a, out=ar)

    # -- per frame -----------------------------------------------------------------------
    def _hands(self, i: int) -> list[HandState]:
        return [st for a in self.script.actions if a.start <= i <= a.end and (st := hand_state(a, i)) is not None]

    def _draw_hand(self, frame: np.ndarray, st: HandState, light: np.ndarray) -> None:
        w, h = self.size
        u = self.unit
        parts = hand_parts(st.grip, st.direction, u, st.look)
        bx0, by0, bx1, by1 = parts_bbox(parts)
        if st.held:
            q = card_quad(st.held[1], u)
            bx0, by0 = min(bx0, q[:, 0].min()), min(by0, q[:, 1].min())
            bx1, by1 = max(bx1, q[:, 0].max()), max(by1, q[:, 1].max())
        pad = int(0.6 * u)
        x0, y0 = max(0, int(bx0) - pad), max(0, int(by0) - pad)
        x1, y1 = min(w, int(bx1) + pad), min(h, int(by1) + pad)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        layer = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
        if st.held:
            self._draw_card(layer, st.held[0], st.held[1], shadow=False, origin=(x0, y0), alpha_out=alpha)
        draw_hand(layer, alpha, (x0, y0), parts, st.look, st.grip, st.direction, u)
        premult = layer * alpha[..., None]
        speed = math.hypot(*st.speed)
        if speed > 1.5:
            # motion blur over half the frame interval (shutter open 50%)
            length = int(min(speed * 0.5, 0.5 * u)) | 1
            k = np.zeros((length, length), np.float32)
            dx, dy = st.speed[0] / speed, st.speed[1] / speed
            c = length // 2
            cv2.line(k, (int(round(c - dx * c)), int(round(c - dy * c))),
                     (int(round(c + dx * c)), int(round(c + dy * c))), 1.0, 1)
            k /= k.sum()
            premult = cv2.filter2D(premult, -1, k)
            alpha = cv2.filter2D(alpha, -1, k)
        lroi = light[y0:y1, x0:x1]
        premult *= lroi[..., None]
        # the hand's shadow on the table, cast by a light above and to one side
        small = cv2.resize(alpha, (max(1, (x1 - x0) // 4), max(1, (y1 - y0) // 4)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), max(1.0, 0.05 * u))
        sh = cv2.resize(small, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        off = max(1, int(0.12 * u))
        sh = np.roll(sh, (off, off), axis=(0, 1))
        sh[:off, :] = 0
        sh[:, :off] = 0
        roi = frame[y0:y1, x0:x1]
        shaded = roi.astype(np.float32) * (1 - 0.35 * sh[..., None])
        out = shaded * (1 - alpha[..., None]) + premult
        roi[...] = np.clip(out, 0, 255).astype(np.uint8)

    def _blob(self, r: int) -> np.ndarray:
        if r not in self._blob_cache:
            yy, xx = np.mgrid[-r:r, -r:r].astype(np.float32)
            self._blob_cache[r] = np.exp(-(xx * xx + yy * yy) / (2 * (r / 2.2) ** 2))
        return self._blob_cache[r]

    def _draw_shadows(self, frame: np.ndarray, i: int) -> None:
        w, h = self.size
        for sp in self.script.shadows:
            if not sp.start <= i <= sp.end:
                continue
            s = (i - sp.start) / max(1, sp.end - sp.start)
            cx = int(sp.p0[0] + (sp.p1[0] - sp.p0[0]) * s)
            cy = int(sp.p0[1] + (sp.p1[1] - sp.p0[1]) * s)
            r = int(sp.radius)
            blob = self._blob(r)
            x0, y0, x1, y1 = max(0, cx - r), max(0, cy - r), min(w, cx + r), min(h, cy + r)
            if x1 <= x0 or y1 <= y0:
                continue
            b = blob[y0 - (cy - r):y1 - (cy - r), x0 - (cx - r):x1 - (cx - r)]
            roi = frame[y0:y1, x0:x1]
            roi[...] = (roi.astype(np.float32) * (1 - sp.darkness * b)[..., None]).astype(np.uint8)

    def frame(self, i: int) -> np.ndarray:
        """BGR uint8 frame `i` (0-based)."""
        version = bisect.bisect_right(self._change_frames, i)
        light_k = bisect.bisect_right(self._switch_frames, i)
        img = self._base(version, light_k).copy()
        light = self._light(light_k)
        for st in self._hands(i):
            self._draw_hand(img, st, light)
        self._draw_shadows(img, i)
        g = exposure_gain(self.script, i)
        cv2.multiply(img, (g[0], g[1], g[2], 0.0), dst=img)
        self.sensor.apply(img, i)
        if self.params.jpeg:
            img = jpeg_roundtrip(img, self.params.jpeg)
        return img
