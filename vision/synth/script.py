"""The timeline of a synthetic pile clip: who plays which card when, and the exact ground truth.

Pure logic (no drawing): a seeded generator lays out hand actions (land a card, take the top
card back, pass over the pile, linger), light switches, exposure drift and moving shadows.
Ground truth for each event is the frame at which the card has settled: the hand (and any
card it carries) no longer overlaps the pile, and the card lies still.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .hand import HandLook, hand_parts

CARD_ASPECT = 87.0 / 56.0
GT_MARGIN = 0.2  # pile zone margin, in card short sides


@dataclass(frozen=True)
class Pose:
    """A card lying on the table: centre (image pixels) and rotation in degrees."""
    x: float
    y: float
    angle: float


@dataclass
class Action:
    kind: str  # "land", "remove" or "pass"
    seat: int
    card: str | None
    pose: Pose | None  # land: where the card comes to rest; remove: where it lay
    start: int  # frame the hand sets off (still out of view)
    arrive: int  # hand at the grip point
    release: int  # card let go (land), picked up (remove), or the hand turns back (pass)
    end: int  # hand back out of view
    entry: tuple[float, float]
    grip: tuple[float, float]
    exit: tuple[float, float]
    approach_angle: float  # card rotation when the hand sets off (land)
    wobble: float  # amplitude of the hand's drift while lingering, pixels
    look: HandLook
    settled: int = -1  # ground truth (land/remove): first frame with the pile at rest and clear

    def bearing(self) -> float:
        """Where the hand and its arm come from, seen from the pile: degrees in the image,
        0 = towards the right edge, 90 = towards the top edge, counter-clockwise."""
        dx, dy = self.direction()
        return image_bearing(-dx, -dy)

    def direction(self) -> tuple[float, float]:
        dx, dy = self.grip[0] - self.entry[0], self.grip[1] - self.entry[1]
        n = math.hypot(dx, dy) or 1.0
        return dx / n, dy / n


@dataclass(frozen=True)
class LightSwitch:
    frame: int
    factor: float  # brightness step the camera sees before auto-exposure reacts
    tint: tuple[float, float, float]  # B, G, R multipliers of the new light
    lamp: tuple[float, float, float]  # gradient strength, direction x, direction y (0 = uniform)


@dataclass(frozen=True)
class ShadowPass:
    start: int
    end: int
    p0: tuple[float, float]
    p1: tuple[float, float]
    radius: float
    darkness: float


@dataclass
class Script:
    fps: float
    size: tuple[int, int]
    unit: float  # card short side in pixels
    pile_centre: tuple[float, float]
    initial_pile: list[tuple[str, Pose]]
    actions: list[Action]
    switches: list[LightSwitch]
    shadows: list[ShadowPass]
    n_frames: int
    players: int
    drift: tuple[float, float, float]  # exposure drift amplitude, period (s), phase
    ae_tau: float  # auto-exposure time constant, seconds
    ae_residual: float  # fraction of a light step auto-exposure leaves uncorrected
    events: list[dict] = field(default_factory=list)
    seat_bearings: list[float] = field(default_factory=list)  # each seat's bearing (see Action.bearing)


def image_bearing(dx: float, dy: float) -> float:
    """The bearing (degrees, [0, 360), counter-clockwise from the right edge) of an image
    vector (x right, y down)."""
    return math.degrees(math.atan2(-dy, dx)) % 360.0


def smoothstep(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3 - 2 * s)


@dataclass(frozen=True)
class HandState:
    grip: tuple[float, float]
    direction: tuple[float, float]
    look: HandLook
    held: tuple[str, Pose] | None  # the card in the hand, if any
    speed: tuple[float, float]  # grip motion per frame (for motion blur)


def _grip_at(a: Action, f: float) -> tuple[float, float]:
    if f <= a.arrive:
        s = smoothstep((f - a.start) / max(1, a.arrive - a.start))
        return (a.entry[0] + (a.grip[0] - a.entry[0]) * s, a.entry[1] + (a.grip[1] - a.entry[1]) * s)
    if f <= a.release:
        # lingering: a slow drift that returns to the grip point at release, so the card lands where planned
        env = math.sin(math.pi * (f - a.arrive) / max(1, a.release - a.arrive))
        return (a.grip[0] + a.wobble * env * math.sin(f / 5.3), a.grip[1] + a.wobble * env * math.cos(f / 7.1))
    s = smoothstep((f - a.release) / max(1, a.end - a.release))
    return (a.grip[0] + (a.exit[0] - a.grip[0]) * s, a.grip[1] + (a.exit[1] - a.grip[1]) * s)


def hand_state(a: Action, f: int) -> HandState | None:
    if f < a.start or f > a.end:
        return None
    g = _grip_at(a, f)
    g_prev = _grip_at(a, f - 1)
    held: tuple[str, Pose] | None = None
    if a.kind == "land" and f < a.release and a.card and a.pose:
        s = smoothstep((f - a.start) / max(1, a.arrive - a.start))
        angle = a.approach_angle + (a.pose.angle - a.approach_angle) * s
        held = (a.card, Pose(a.pose.x + g[0] - a.grip[0], a.pose.y + g[1] - a.grip[1], angle))
    elif a.kind == "remove" and f >= a.release and a.card and a.pose:
        held = (a.card, Pose(a.pose.x + g[0] - a.grip[0], a.pose.y + g[1] - a.grip[1], a.pose.angle))
    d = a.direction()
    return HandState(g, d, a.look, held, (g[0] - g_prev[0], g[1] - g_prev[1]))


def card_quad(pose: Pose, unit: float) -> np.ndarray:
    """Corners (4x2, image pixels) of a card of short side `unit` at `pose` (before camera tilt)."""
    w, h = unit / 2, unit * CARD_ASPECT / 2
    c, s = math.cos(math.radians(pose.angle)), math.sin(math.radians(pose.angle))
    corners = np.array([(-w, -h), (w, -h), (w, h), (-w, h)], np.float64)
    rot = np.array([[c, -s], [s, c]])
    return (corners @ rot.T + (pose.x, pose.y)).astype(np.float32)


class _Raster:
    """Low-resolution masks for the ground-truth overlap test (hand vs pile zone)."""

    def __init__(self, size: tuple[int, int], unit: float, homography: np.ndarray):
        self.scale = 0.25
        self.w, self.h = int(size[0] * self.scale) + 1, int(size[1] * self.scale) + 1
        self.unit = unit
        self.homography = homography
        self.kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(GT_MARGIN * unit * self.scale) + 1,) * 2)

    def _fill(self, mask: np.ndarray, pts: np.ndarray) -> None:
        cv2.fillPoly(mask, [np.round(pts * self.scale * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)

    def card_image_quad(self, pose: Pose) -> np.ndarray:
        q = card_quad(pose, self.unit).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(q, self.homography).reshape(-1, 2)

    def pile_zone(self, cards: list[tuple[str, Pose]]) -> np.ndarray:
        mask = np.zeros((self.h, self.w), np.uint8)
        for _, pose in cards:
            self._fill(mask, self.card_image_quad(pose))
        return cv2.dilate(mask, self.kernel)

    def hand_mask(self, st: HandState) -> np.ndarray:
        mask = np.zeros((self.h, self.w), np.uint8)
        for part in hand_parts(st.grip, st.direction, self.unit, st.look):
            self._fill(mask, part.points)
        if st.held:
            self._fill(mask, self.card_image_quad(st.held[1]))
        return mask


def _far_point(centre: tuple[float, float], d: tuple[float, float], size: tuple[int, int], unit: float) -> tuple[float, float]:
    """A grip point behind the player (opposite `d`) far enough that hand and card are out of view."""
    w, h = size
    # distance from the centre to the frame edge along -d, plus the reach of a hand holding a card
    tx = (w / 2 + abs(centre[0] - w / 2)) / max(1e-6, abs(d[0]))
    ty = (h / 2 + abs(centre[1] - h / 2)) / max(1e-6, abs(d[1]))
    r = min(tx, ty) + 1.6 * unit * CARD_ASPECT
    return centre[0] - d[0] * r, centre[1] - d[1] * r


def _rotate(v: tuple[float, float], deg: float) -> tuple[float, float]:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return v[0] * c - v[1] * s, v[0] * s + v[1] * c


SEAT_JITTER = 20.0  # the most (degrees) a reach strays from its seat's bearing ...
SEAT_JITTER_SHARE = 0.25  # ... and at most this share of the narrowest gap between two seats
UNEVEN_GAP = (0.55, 1.45)  # uneven seats: each gap is the even one times a factor in this range


@dataclass(frozen=True)
class Seats:
    """Where the players sit around the pile: each seat's direction out from the pile (an
    angle in degrees with x right and y down, so it turns clockwise on screen) and how far a
    reach may stray from it (kept well inside half the narrowest gap, so that the nearest
    seat stays the right one)."""
    angles: tuple[float, ...]
    jitter: float

    @staticmethod
    def even(players: int) -> "Seats":
        angles = tuple(90.0 + s * 360.0 / players for s in range(players))
        return Seats(angles, min(SEAT_JITTER, SEAT_JITTER_SHARE * 360.0 / players))

    @staticmethod
    def uneven(players: int, rng: np.random.Generator) -> "Seats":
        """Seats spaced as people sit: gaps drawn apart, the whole ring turned at random."""
        gaps = rng.uniform(*UNEVEN_GAP, players)
        gaps *= 360.0 / gaps.sum()
        start = float(rng.uniform(0, 360))
        angles = tuple(float((start + np.concatenate(([0.0], np.cumsum(gaps[:-1])))[s]) % 360) for s in range(players))
        return Seats(angles, min(SEAT_JITTER, SEAT_JITTER_SHARE * float(gaps.min())))

    def bearings(self) -> list[float]:
        """Each seat's bearing in the image convention of Action.bearing."""
        return [round((-a) % 360.0, 1) for a in self.angles]


EDGE_ROOM = 1.0  # a pile near the frame's edge: its centre this many card short sides from it, at the least


def near_edge(centre: tuple[float, float], size: tuple[int, int], unit: float,
              rng: np.random.Generator) -> tuple[float, float]:
    """The pile moved towards one edge of the frame, or two (a corner), as far as the cards
    still lie whole in view: a camera set up off-centre, where an arm soon leaves the frame."""
    w, h = size
    x, y = centre
    room = EDGE_ROOM * unit * CARD_ASPECT
    corner = rng.random() < 0.4
    side = int(rng.integers(4))
    for s in ((side, (side + 1) % 4) if corner else (side,)):
        if s == 0:
            x = float(rng.uniform(room, room + 0.1 * w))
        elif s == 1:
            y = float(rng.uniform(room, room + 0.1 * h))
        elif s == 2:
            x = float(w - rng.uniform(room, room + 0.1 * w))
        else:
            y = float(h - rng.uniform(room, room + 0.1 * h))
    return x, y


class ScriptBuilder:
    """Lays out a clip action by action, computing each event's settled frame as it goes.

    `players` (2..8) fixes the number of seats (default: 2..4 drawn from the seed) and
    `uneven` spaces them as people sit rather than evenly; `edge` puts the pile near an edge
    or a corner of the frame (its draws are made only then, so with it off a seed's clip is
    the one it always was)."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int], fps: float, codes: list[str],
                 homography: np.ndarray, unit: float, players: int | None = None, uneven: bool = False,
                 edge: bool = False):
        self.rng = rng
        self.size = size
        self.fps = fps
        self.codes = codes
        self.unit = unit
        self.raster = _Raster(size, unit, homography)
        w, h = size
        self.centre = (w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.05, 0.05) * h)
        self.players = int(rng.integers(2, 5))  # drawn always, so that a seed's other draws stay put
        if players is not None:
            self.players = players
        self.seats = Seats.uneven(self.players, rng) if uneven else Seats.even(self.players)
        if edge:
            self.centre = near_edge(self.centre, size, unit, rng)
        self.pile: list[tuple[str, Pose]] = []
        self.actions: list[Action] = []

    def frames(self, lo: float, hi: float) -> int:
        return max(1, int(round(self.rng.uniform(lo, hi) * self.fps)))

    def _new_pose(self) -> Pose:
        u = self.unit
        for _ in range(50):
            off = np.clip(self.rng.normal(0, 0.22 * u, 2), -0.5 * u, 0.5 * u)
            pose = Pose(self.centre[0] + float(off[0]), self.centre[1] + float(off[1]), float(self.rng.uniform(0, 360)))
            if not self.pile:
                return pose
            top = self.pile[-1][1]
            dang = abs((pose.angle - top.angle + 90) % 180 - 90)
            if dang > 10 or math.hypot(pose.x - top.x, pose.y - top.y) > 0.15 * u:
                return pose  # visibly different from the card below, even if the card is the same
        return pose

    def _direction(self, seat: int) -> tuple[float, float]:
        j = self.seats.jitter
        theta = self.seats.angles[seat] + self.rng.uniform(-j, j)
        out = (math.cos(math.radians(theta)), math.sin(math.radians(theta)))
        return -out[0], -out[1]

    def initial_pile(self, n: int) -> list[tuple[str, Pose]]:
        for _ in range(n):
            self.pile.append((self.codes[int(self.rng.integers(len(self.codes)))], self._new_pose()))
        return list(self.pile)

    def add(self, kind: str, start: int, linger: bool = False, same_card: bool = False,
            seat: int | None = None) -> Action:
        """Lay out one action; its seat is drawn at random unless given (a scripted game's)."""
        rng, u = self.rng, self.unit
        drawn = int(rng.integers(self.players))
        seat = drawn if seat is None else seat
        d = self._direction(seat)
        card: str | None = None
        pose: Pose | None = None
        if kind == "land":
            card = self.pile[-1][0] if same_card and self.pile else self.codes[int(rng.integers(len(self.codes)))]
            pose = self._new_pose()
        elif kind == "remove":
            card, pose = self.pile[-1]
        if pose is not None:
            target = tuple(self.raster.card_image_quad(pose).mean(axis=0))
            reach = 0.3 * u * CARD_ASPECT  # fingertips pinch the near part of the card
            grip = (target[0] - d[0] * reach, target[1] - d[1] * reach)
        else:
            off = rng.normal(0, 0.5 * u, 2)
            grip = (self.centre[0] + float(off[0]), self.centre[1] + float(off[1]))
        entry = _far_point(grip, d, self.size, u)
        exit_ = _far_point(grip, _rotate(d, float(rng.uniform(-15, 15))), self.size, u)
        arrive = start + self.frames(0.45, 0.8)
        hold = self.frames(0.8, 2.0) if linger else self.frames(0.04, 0.2)
        if kind == "pass":
            hold = self.frames(0.0, 0.6)
        release = arrive + hold
        end = release + self.frames(0.4, 0.7)
        a = Action(kind, seat, card, pose, start, arrive, release, end, entry, grip, exit_,
                   float((pose.angle if pose else 0.0) + rng.uniform(-40, 40)),
                   # hands are never quite still: a slow drift while they hover or linger
                   float(rng.uniform(0.03, 0.08) * u) if linger else float(rng.uniform(0.01, 0.04) * u),
                   HandLook.random(rng))
        if kind == "land":
            assert card is not None and pose is not None
            self.pile.append((card, pose))
        zone_cards = list(self.pile)
        if kind == "remove":
            self.pile.pop()
        if kind != "pass":
            a.settled = self._settled(a, zone_cards)
        self.actions.append(a)
        return a

    def _settled(self, a: Action, zone_cards: list[tuple[str, Pose]]) -> int:
        zone = self.raster.pile_zone(zone_cards)
        for f in range(a.release, a.end + 1):
            st = hand_state(a, f)
            if st is None or not cv2.countNonZero(cv2.bitwise_and(zone, self.raster.hand_mask(st))):
                return f
        return a.end + 1


def truth_events(actions: list[Action], fps: float) -> list[dict]:
    """Ground truth of the landings and removals: settled frame, card, seat and the reach's bearing."""
    return [{"type": "landed" if a.kind == "land" else "removed", "card": a.card, "frame": a.settled,
             "t": round(a.settled / fps, 4), "seat": a.seat, "bearing": round(a.bearing(), 1)}
            for a in actions if a.kind != "pass"]


def build_script(rng: np.random.Generator, size: tuple[int, int], fps: float, codes: list[str],
                 homography: np.ndarray, unit: float, cards: int | None, duration: float | None,
                 players: int | None = None, uneven: bool = False, edge: bool = False) -> Script:
    """Lay out a clip: `cards` landings, or as many actions as fit in `duration` seconds."""
    b = ScriptBuilder(rng, size, fps, codes, homography, unit, players, uneven, edge)
    initial = b.initial_pile(int(rng.integers(0, 4)))
    limit = int(duration * fps) if duration else None
    f = b.frames(0.4, 1.0)
    landed = 0
    last: Action | None = None
    while True:
        if limit is not None and f > limit - int(2.5 * fps):
            break
        if limit is None and landed >= (cards if cards is not None else 8):
            break
        r = rng.random()
        if last is not None and last.kind == "land" and r < 0.12 and b.pile:
            a = b.add("remove", f)
        elif r < 0.24:
            a = b.add("pass", f)
        else:
            a = b.add("land", f, linger=rng.random() < 0.12, same_card=rng.random() < 0.12)
            landed += 1
        last = a
        if a.kind != "pass" and rng.random() < 0.2:
            # two cards in quick succession: the next hand sets off right after this one clears the pile
            f = a.settled + b.frames(0.1, 0.3)
        else:
            f = a.end + b.frames(0.3, 1.3)
    n_frames = max(limit or 0, f + b.frames(0.8, 1.2))
    switches = []
    for _ in range(int(rng.integers(0, 3))):
        up = rng.random() < 0.5
        factor = float(rng.uniform(1.25, 1.6) if up else rng.uniform(0.6, 0.8))
        tint = tuple(float(x) for x in rng.uniform(0.93, 1.07, 3))
        lamp = (float(rng.uniform(0, 0.35)) if rng.random() < 0.5 else 0.0, float(rng.normal()), float(rng.normal()))
        switches.append(LightSwitch(int(rng.integers(0, n_frames)), factor, tint, lamp))  # type: ignore[arg-type]
    switches.sort(key=lambda s: s.frame)
    shadows = []
    w, h = size
    for _ in range(int(rng.integers(0, 3))):
        s0 = int(rng.integers(0, n_frames))
        s1 = s0 + b.frames(1.0, 3.0)
        side = rng.uniform(0, 2 * np.pi)
        p0 = (w / 2 + math.cos(side) * w * 0.7, h / 2 + math.sin(side) * h * 0.7)
        p1 = (w / 2 - math.cos(side) * w * 0.7 + rng.normal(0, w * 0.1), h / 2 - math.sin(side) * h * 0.7)
        shadows.append(ShadowPass(s0, s1, p0, p1, float(rng.uniform(0.25, 0.45) * h), float(rng.uniform(0.2, 0.4))))
    drift = (float(rng.uniform(0, 0.1)), float(rng.uniform(4, 12)), float(rng.uniform(0, 2 * np.pi)))
    script = Script(fps, size, unit, b.centre, initial, b.actions, switches, shadows, n_frames, b.players,
                    drift, float(rng.uniform(0.3, 0.9)), float(rng.uniform(0.0, 0.3)))
    script.events = truth_events(b.actions, fps)
    script.seat_bearings = b.seats.bearings()
    return script
