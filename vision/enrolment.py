"""Enrolment: a user's own shots of their deck turned into an enrolled profile, and the
check that a live shot is worth keeping.

It sits above both the recogniser and the profiles (it uses the recogniser to find the card
in a shot and to read a shot back), so neither of those imports the other's caller. No I/O:
`tableref enroll` (enroll_cmd.py) talks to the folder, the camera and the person.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .cardface import split_code
from .classify_colour import COLOURS
from .classify_symbol import CANON_H, CANON_W, features, rank_key
from .classify_training import camera_effects, jitter_quad
from .colour_cast import without_cast
from .deck_inks import circular_median, hue_map, ink_hue, recolour
from .find_card import find_cards, warp_card
from .profiles import Profile
from .recognise import Recogniser, Recognition

SURE_OTHER = 0.8  # a read-back this sure of another card means the wrong card was shot


def shot_outline(image_bgr: np.ndarray, reader: Recogniser) -> np.ndarray:
    """The card's outline in one labelled shot (a lamp's cast taken out: without_cast): the
    one the built-in recogniser likes best (a card, not a piece of one), else the finder's
    best. LookupError when the shot holds no card outline, or only table or a card back."""
    found = reader.identify(image_bgr, balanced=True)
    quad = found.quad
    if quad is None:
        cands = find_cards(image_bgr, balanced=True)
        if not cands:
            raise LookupError("no card found in the shot")
        quad = cands[0].quad
    if found.card is None and reader.sees_no_card(warp_card(image_bgr, quad, (CANON_W, CANON_H))):
        # the outline found is table (or a card back): learning it would teach the deck the table
        raise LookupError("no card in the shot (only table, or a card back); shot skipped: "
                          "lay the card face up in the middle and shoot it again")
    return quad


def enrol_samples(image_bgr: np.ndarray, quad: np.ndarray, rng: np.random.Generator, copies: int = 6,
                  inks: np.ndarray | None = None) -> list[np.ndarray]:
    """Features of one labelled shot of a physical card outlined by `quad`: the card as found,
    plus copies with small outline errors and camera changes, in both 180-degree
    orientations; each recoloured by `inks` (deck_inks.hue_map) as the cards read later are."""
    out = []
    for k in range(copies):
        q = quad if k == 0 else jitter_quad(quad, rng, 0.015)
        warped = warp_card(image_bgr, q, (CANON_W, CANON_H))
        if k > 0:
            warped = camera_effects(warped, rng, strength=0.5)
        if inks is not None:
            warped = recolour(warped, inks)
        out.append(features(warped))
        out.append(features(cv2.rotate(warped, cv2.ROTATE_180)))
    return out


@dataclass
class Learner:
    """The samples learned so far from a deck's shots, one shot at a time, and the deck's
    inks measured on them (see deck_inks)."""
    name: str
    seed: int = 7
    xs: list[np.ndarray] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    hues: dict[str, list[float]] = field(default_factory=dict)
    shots: int = 0

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.reader = Recogniser("auto")

    def add(self, image_bgr: np.ndarray, code: str) -> None:
        """Learn one shot of `code`; LookupError (nothing learned) for a shot without a card."""
        # learned in the light the cards are read in (identify takes a lamp's cast out too)
        image_bgr = without_cast(image_bgr)
        quad = shot_outline(image_bgr, self.reader)
        colour = split_code(code)[0]
        if colour in COLOURS:
            hue = ink_hue(warp_card(image_bgr, quad, (CANON_W, CANON_H)))
            if hue is not None:
                self.hues.setdefault(colour, []).append(hue)
        # the shot is learned in the inks known so far, this one's included: each ink is a
        # fixed point of the map, so later shots of other colours hardly move what it learned
        feats = enrol_samples(image_bgr, quad, self.rng, inks=hue_map(self.inks()))
        self.xs += feats
        self.labels += [rank_key(code)] * len(feats)
        self.codes += [code] * len(feats)
        self.shots += 1

    def inks(self) -> dict[str, float]:
        """The deck's ink per colour (OpenCV hue), from the shots of that colour."""
        return {c: round(circular_median(h), 1) for c, h in self.hues.items()}

    def profile(self) -> Profile:
        if not self.xs:
            raise ValueError("no usable shots")
        return Profile(self.name, np.stack(self.xs), self.labels, self.codes,
                       {"shots": self.shots, "inks": self.inks()})


def build_enrolled(name: str, shots: list[tuple[np.ndarray, str]], seed: int = 7) -> Profile:
    """A profile from labelled shots [(image, code)] of the user's own deck."""
    learner = Learner(name, seed)
    for image, code in shots:
        learner.add(image, code)
    return learner.profile()


@dataclass(frozen=True)
class ShotCheck:
    keep: bool
    text: str


def check_shot(asked: str, reading: Recognition, card_found: bool) -> ShotCheck:
    """Whether a live shot of the card `asked` for is worth learning, read back by the
    recogniser as taught so far. A shot with no card, or one read confidently as another card
    (the wrong card under the camera), is retaken; an unfamiliar face that is read unsure or
    not at all is exactly what enrolment is for, and is kept."""
    if not card_found:
        return ShotCheck(False, "no card in the picture: lay it face up in view and shoot again")
    if reading.card == asked:
        return ShotCheck(True, f"read back as {asked}")
    if reading.card is not None and reading.confidence >= SURE_OTHER:
        return ShotCheck(False, f"that looks like {reading.card} ({reading.confidence:.2f}), not {asked}: "
                                f"put {asked} under the camera and shoot again (k keeps it as {asked})")
    seen = f"read as {reading.card} ({reading.confidence:.2f})" if reading.card else "not read"
    return ShotCheck(True, f"{seen}: learned as {asked}")
