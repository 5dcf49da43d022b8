"""Card faces for the synthetic scenes: the project's own renders, or crops of real photos.

Photos come from a folder with `labels.csv` (`file,label`, further columns ignored). A photo
may show a card on a table (cropped on the outline the recogniser reads a card on, when the
recogniser is there) or be a crop already (used whole). A photo the recogniser reads no card in,
or whose crop is no whole card (shows_whole_card), gives no face: the code's next photo is
tried. So photo-faced scenes leave out the photos the recogniser reads nothing in: on the dev
photos, 5 of 421, each cropped to part of a card by the outline it had guessed.
"""
from __future__ import annotations

import csv
import pathlib
from typing import Any, Callable

import cv2
import numpy as np

from tableref.errors import UserError
from tableref.vision import cardface
from tableref.vision.classify_colour import channel_max_min, paper_share, white_gains

from .script import CARD_ASPECT

WHOLE_RIM = 0.1  # share of white paper along each side of a crop that is a whole card (see shows_whole_card)
WHOLE_PAPER = 0.85  # ... and the most of its inside that may be paper (a card's print has ink)

# deck name (the recogniser's, cardface.DECKS) -> (codes, face styles)
DECKS = {"uno": ("uno", cardface.UNO_STYLES), "uno112": ("uno112", cardface.UNO_STYLES),
         "uno_no_mercy": ("uno_no_mercy", cardface.UNO_STYLES),
         "ono99_classic": ("ono99_classic", ("ono99",)), "ono99_2022": ("ono99_2022", ("ono99",)),
         "ono99": ("ono99_2022", ("ono99",))}  # "ono99": the old spelling of ono99_2022 here


def deck_codes(deck: str) -> list[str]:
    if deck not in DECKS:
        known = ", ".join(d for d in DECKS if d != "ono99")
        raise UserError(f"unknown deck {deck!r} for synthetic scenes; known: {known}")
    return cardface.all_codes(DECKS[deck][0])


def _order_quad(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise from the top-left of a portrait card (long side vertical)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    q = q[np.argsort(np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0]))]  # clockwise in image coordinates
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)  # make the first edge a short one
    return q


def crop_photo(photo: np.ndarray, short_side: int, find_cards: Callable[[np.ndarray], Any] | None) -> np.ndarray:
    """BGR crop (short_side x short_side*aspect) of the card in `photo`."""
    quads = list(find_cards(photo)) if find_cards is not None else []
    return crop_quad(photo, short_side, quads[0] if quads else None)


def crop_quad(photo: np.ndarray, short_side: int, quad: np.ndarray | None) -> np.ndarray:
    """BGR crop of `photo` on `quad`, or the whole photo upright (a crop already) for None."""
    w, h = short_side, int(round(short_side * CARD_ASPECT))
    if quad is not None:
        dst = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
        m = cv2.getPerspectiveTransform(_order_quad(np.asarray(quad)), dst)
        return cv2.warpPerspective(photo, m, (w, h), flags=cv2.INTER_AREA)
    if photo.shape[1] > photo.shape[0]:
        photo = cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(photo, (w, h), interpolation=cv2.INTER_AREA)


def shows_whole_card(crop_bgr: np.ndarray, least: float = WHOLE_RIM) -> bool:
    """Whether a crop is a whole card: white paper along each of its four sides (a card's
    rim) and printed ink inside. A crop cut inside the card (a panel, the rim cut off) or
    reaching past it (the table, a hand) shows none along at least one side; a
    crop of bare skin or table, balanced to white, is paper all over."""
    small = cv2.resize(crop_bgr, (32, 50), interpolation=cv2.INTER_AREA).astype(np.float32)
    small *= white_gains(crop_bgr)
    sides = (small[:2, 3:-3], small[-2:, 3:-3], small[4:-4, :2], small[4:-4, -2:])  # corners are round
    rim = min(paper_share(*channel_max_min(s.reshape(-1, 3))) for s in sides)
    return rim >= least and paper_share(*channel_max_min(small[4:-4, 4:-4].reshape(-1, 3))) <= WHOLE_PAPER


def recogniser_finder(read_only: bool = False) -> Callable[[np.ndarray], Any] | None:
    """The outline the recogniser settles on (it knows a panel of a card from the card),
    else the finder's best ones. `read_only`: only an outline the recogniser reads a card on,
    else none. Where it reads none, its outline is a guess that the rim check can pass: the 5
    such dev photos (hand-held, close up) crop to part of a card stretched whole, and 4 of
    those crops show white along every side, the card's oval where its rim should be."""
    try:
        from tableref.vision.recognise import Recogniser
    except ImportError:
        return None
    rec = Recogniser(deck="auto")

    def outlines(photo: np.ndarray) -> list[np.ndarray]:
        r = rec.identify(photo)
        if r.quad is not None and (r.card is not None or not read_only):
            return [r.quad]
        return [] if read_only else rec.find_cards(photo)
    return outlines


class CardFaces:
    """BGRA faces (alpha = card outline) at a fixed short side, cached per code."""

    def __init__(self, deck: str, short_side: int, rng: np.random.Generator, photo_dir: str | None = None):
        """Faces from photos come only from crops that are a whole card (shows_whole_card):
        half a card stretched to a whole one is no face of its code. A code none of whose
        photos crops whole raises UserError."""
        self.short_side = short_side
        codes_deck, styles = DECKS[deck] if deck in DECKS else (None, ())
        if codes_deck is None:
            deck_codes(deck)  # raises the clear error
        self.style = styles[int(rng.integers(len(styles)))]
        self.rng = rng
        self._cache: dict[str, np.ndarray] = {}
        self.photos: dict[str, list[pathlib.Path]] = {}
        if photo_dir:
            self.photos = read_labels(pathlib.Path(photo_dir))
            self.codes = sorted(self.photos)
            self._finder = recogniser_finder(read_only=True)
        else:
            self.codes = deck_codes(deck)

    def face(self, code: str) -> np.ndarray:
        if code not in self._cache:
            self._cache[code] = self._make(code)
        return self._cache[code]

    def _make(self, code: str) -> np.ndarray:
        if not self.photos:
            return cardface.render_card(code, self.style, self.short_side, rng=self.rng)
        files = self.photos[code]
        crops = (self._crop(files[i]) for i in self.rng.permutation(len(files)))
        bgr = next((c for c in crops if c is not None and shows_whole_card(c)), None)
        if bgr is None:
            raise UserError(f"no photo of {code} crops to a whole card the recogniser reads")
        mask = cardface.card_mask(self.short_side)
        if mask.shape[:2] != bgr.shape[:2]:
            mask = cv2.resize(mask, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_NEAREST)
        return np.dstack([bgr, mask])

    def _crop(self, path: pathlib.Path) -> np.ndarray | None:
        """The photo's card, cropped; None where the recogniser reads no card in it."""
        photo = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if photo is None:
            raise UserError(f"cannot read card photo {path}")
        if self._finder is None:
            return crop_quad(photo, self.short_side, None)
        quads = self._finder(photo)
        return crop_quad(photo, self.short_side, quads[0]) if quads else None


def read_labels(folder: pathlib.Path) -> dict[str, list[pathlib.Path]]:
    """code -> photo files, from `folder/labels.csv` (header `file,label`)."""
    labels = folder / "labels.csv"
    if not labels.is_file():
        raise UserError(f"{folder}: no labels.csv (expected columns file,label)")
    out: dict[str, list[pathlib.Path]] = {}
    with labels.open(newline="") as fh:
        reader = csv.DictReader(fh)
        if not reader.fieldnames or "file" not in reader.fieldnames or "label" not in reader.fieldnames:
            raise UserError(f"{labels}: the header must name the columns file and label")
        for lineno, row in enumerate(reader, start=2):
            path = folder / (row["file"] or "")
            if not row["file"] or not row["label"]:
                raise UserError(f"{labels}:{lineno}: empty file or label")
            if not path.is_file():
                raise UserError(f"{labels}:{lineno}: no such photo {path}")
            out.setdefault(row["label"], []).append(path)
    if not out:
        raise UserError(f"{labels}: no photos listed")
    return out
