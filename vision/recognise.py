"""Card recogniser: find the top card, rectify it, read it.

`Recogniser(deck)` where deck is "auto" (every known code), a deck name from
`cardface.all_codes` ("uno", "uno112", "uno_no_mercy", "ono99_classic", "ono99_2022") or the
name of an enrolled profile. Low confidence, card backs, bare tables and foreign cards give
`card=None`: the referee then asks the table instead of guessing.

Two readers look at each rectified card: the learned reader (card_model.py, a small CNN
trained only on the project's own renders) and the classic one (colour shares plus a
nearest-neighbour search over symbol features, the built-in profile and any enrolled shots).
They fail in different ways, so their agreement is the strongest evidence there is; how they
are combined is `_combine`'s job. Each reading carries the two likeliest codes, so that the
table can confirm an unsure one with one press.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .card_model import NONE as MODEL_NONE
from .card_model import (HIDDEN_FILL, CORNER_MODEL_FILE, CORNER_MODEL_FILES, INPUT_H, INPUT_W, MODEL_DIR, CardModel,
                         CombinedModel)
from .cardface import DECKS, all_codes, is_ninety_nine, split_code
from .classify_colour import COLOURS, colour_scores, field_darkness, rim_paper_share, white_gains
from .classify_symbol import CANON_H, CANON_W, KnnModel, features, rank_key, six_or_nine, symbol_mask
from .colour_cast import without_cast
from .deck_inks import hue_map, ink_shares, ink_tone, recolour
from .find_card import CardQuad, find_cards, warp_card
from .outline_shape import card_shaped, encloses_panel, nudged_views, part_of_print, print_mark
from .profiles import BACK_LABEL, NONE_LABEL, Profile, builtin_profile, list_profiles, profile_path
from .sharpness import sharpness

# Below these the answer is "unknown". Set from a sweep: LOSO accuracy on the dev photos
# against false cards on the project's card-free scenes (tools/eval_reject.py).
MIN_CONFIDENCE = 0.6
MIN_SIMILARITY = 0.55
FRAME_MIN_CONFIDENCE = 0.85
CROP_SCORE = 0.6  # a whole-frame outline this card-like (white ring, card aspect) is a cropped card
CANDIDATES = 8   # card outlines tried per image, best first (cluttered, hand-held photos need more than 5)
# a wild's ink mix stands in for similarity down to this closeness (see _classify)
WILD_INK_CLOSENESS = 0.75
WILD_INK_SHARE = 0.15
WILD_INK = 0.35  # saturated share of a card at and above which a wild is a plain wild ...
WILD_DRAW4_INK = 0.25  # ... and at and below which a wild +4 (see _settle_wild_pair)
RARE_PRIOR = 0.7  # deck "auto": weight of codes outside the classic UNO and 99 decks
# An unsure reading of a card is tried again with the symbol cut at these ink/paper splits,
# then with grey shade left out of the paper/ink balance (see _classify and symbol_mask);
# the new answer must be this sure, and the outline must have a white paper rim (a card,
# not a smooth texture: re-reads found numerals in those).
RETRY_CUTS = ((0.2, False), (0.5, False), (None, True))  # (ink/paper split, shade_aside)
RETRY_MIN = 0.7
RETRY_RIM = 0.5
SURE = 0.9       # stop trying outlines after an answer this confident
# a bigger outline counts in the panel and print-mark tests (outline_shape) when at least this
# card-like (find_card score)
PANEL_OUTER_SCORE = 0.45
# field_darkness above this: a wild's black field; below COLOURED_FIELD: a coloured card
DARK_FIELD = 0.25
COLOURED_FIELD = 0.2
DARK_FIELD_RANKS = {"99:ono99", BACK_LABEL, NONE_LABEL}


@dataclass(frozen=True)
class RecogniserConfig:
    """How the two readers' answers become one (see _combine); the evaluation tools change
    these (tools/eval_photos.py --reader, --set veto=P)."""
    reader: str = "both"          # "classic", "model", or "both" (each checks the other)
    min_confidence: float = 0.6   # "model": the learned reader's floor when it reads alone
    # set on the dev photos (tools/eval_photos.py --mode builtin --set veto=V sure_alone=S): 0.001
    # keeps every right reading the classic reader makes there and vetoes one wrong code of four
    veto: float = 0.001           # "both": a code the learned reader gives less than this is vetoed
    sure_alone: float = 0.9       # "both": the learned reader alone, where the classic one declines
    # "both": where the classic reader declines but its likeliest code is the learned reader's,
    # the learned reading stands from this confidence on (two readers that fail differently
    # agreeing is evidence neither gives alone: wilds of other decks split the classic vote)
    agree: float = 0.7
    # "both": an outline the learned reader gives "no card" this surely is declined unasked,
    # unless enrolled shots are in the classic reader's profile (they teach it faces the
    # model has never seen); 1.01 asks the classic reader always
    no_card: float = 0.99
    # "both": where the learned reader reads another code first, however unsure, the classic
    # reading stands only from this confidence on. On the dev photos the readers read different
    # codes 21 times: the 3 classic readings the learned one was surer against, at 0.61-0.75,
    # were all wrong (a 5 read as a 6, a draw-two as a reverse, a 5 as a skip). Held only where
    # the learned reader was the surer, the flat Wikimedia deck's 9s read as 8s at 0.72-0.80
    # stood against a learned 9 at 0.36-0.77 (tools/eval_card_art.py, seeds 5-7: 11 wrong codes
    # there, 2 now; 3 of 299 right readings asked); the dev photos (whole, shrunk, leave one
    # source out) and the other card art read alike either way
    overrule: float = 0.9
    # "both": where the learned reader reads another code at least this surely, the classic
    # reading does not stand however sure it is: the table is asked, offered both (with the
    # generator-7 model, on the dev photos shrunk to 40 px wide, 5 of 7 wrong codes were such
    # pairs, 6s the classic reader read as 9s, a 5 as a 6, a 9 as an 8, all at 1.00; 2 right
    # readings were asked)
    contest: float = 0.9
    # a coloured card whose ink lies between two colours' known shades is asked (offered
    # both colours) unless its ink is at least this surely the read colour (deck_inks.ink_share;
    # an enrolled deck's inks are moved into those shades first). 0 turns the check off
    ink_sure: float = 0.8
    # "both": where the learned reader reads another rank at least `contest` surely, its reading
    # stands when the corner reader reads its rank at least this surely (on the dev photos,
    # whole and shrunk to 40-70 px, the learned reader was right in all 38 such disagreements)
    corner_backs: float = 0.9
    # "both": a classic reading stands only where the learned reader gives its code at least
    # this share of what it and the likeliest other colour of its rank get together (0.5: no
    # less than that colour); else the table is asked, offered both. The classic reader names
    # the colour from the ink it sees, another card's included (see other_colour_likelier)
    colour_share: float = 0.5
    # a reading stands only where the corner reader, the card read both ends up, does not read
    # another rank at least this surely at both ends: its index says otherwise. Both readers
    # read the whole card, and one flaw can turn both (the edwin clone's blue 8, a highlight
    # down its numeral's left, read as a 3 at 1.00, its index an 8 at 0.993 both ends up).
    # Both ends: at one end the corner reader read two clone faces' index wrong at 0.99 (a
    # reverse as a 7, an 8 as a 5). 1 turns the check off
    index_veto: float = 0.99
    # "both": a card less sharp than this (sharpness.py) is read only where both readers read
    # it so, as either alone reads a blurred card as another surely. The dev photos' 390 whole-
    # card crops, blurred by Gaussians of 3-8 px at the readers' 128 px width and smeared by
    # shakes of 6-24 px: 3542 right and 69 wrong readings unchecked, 3261 and 31 from 0.6,
    # 3198 and 28 from 0.7; unblurred, none measures under 1.2. 0 turns it off
    least_sharpness: float = 0.6


def other_colour_likelier(code: str, probs: dict[str, float], share: float) -> bool:
    """Whether the learned reader (`probs`) gives `code` less than `share` of what it and the
    likeliest other colour of its rank get together: the readers name two colours of one
    rank, most often where another card's ink lies over the card or its outline."""
    rank = rank_key(code)
    other = max((v for c, v in probs.items() if c not in (code, MODEL_NONE) and rank_key(c) == rank), default=0.0)
    own = probs.get(code, 0.0)
    return own < share * (own + other)


Likely = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class CardReading:
    """What a rectified card reads as: the code (None: declined, the table is asked), its
    confidence, and the two likeliest codes whether accepted or not (for a one-press answer)."""
    card: str | None
    confidence: float
    likely: Likely = ()


@dataclass(frozen=True)
class Recognition:
    card: str | None
    confidence: float
    quad: np.ndarray | None
    likely: Likely = ()


def settle(learned: CardReading, probs: dict[str, float], classic: CardReading,
           cfg: RecogniserConfig, own: frozenset[str] = frozenset(),
           backed: Callable[[str], bool] = lambda code: False) -> CardReading:
    """The one reading of the two readers' ("both"): the classic reading stands unless the
    learned reader all but rules its code out or surely reads another (then the table is
    asked, offered both), or reads another code first while the classic reader is itself
    unsure of its own: that counts as the classic reader declining. Where the classic
    reader declines, the learned reading stands when it is sure alone, or fairly sure and
    the classic reader's own likeliest code. `own`: the codes the user's deck was enrolled
    with; a classic reading of one of them rests on shots of that very deck, which the
    learned reader never saw, so it is not vetoed. Where the learned reader surely reads
    another rank than the classic one, its reading stands if `backed` (the corner reader
    reads its rank: two readers of three)."""
    if classic.card is not None:
        if classic.card in own:
            return classic
        other = learned.card not in (None, classic.card)
        contested = other and learned.confidence >= cfg.contest
        if not other or classic.confidence >= cfg.overrule:
            if probs.get(classic.card, 0.0) >= cfg.veto and not contested \
                    and not other_colour_likelier(classic.card, probs, cfg.colour_share):
                return classic
        elif learned.confidence >= cfg.sure_alone:
            return learned  # an unsure classic reading the learned reader reads otherwise: as none
        if contested and rank_key(learned.card) != rank_key(classic.card) and backed(learned.card):
            return learned  # (the index tells the rank: of two colours of one rank it says nothing)
        likely = (classic.likely[0], learned.likely[0]) if learned.likely else classic.likely
        return CardReading(None, min(classic.confidence, 0.5), likely)
    if learned.card is not None and learned.confidence >= cfg.sure_alone:
        return learned
    if learned.card is not None and learned.confidence >= cfg.agree and classic.likely \
            and classic.likely[0][0] == learned.card:
        return learned
    return CardReading(None, classic.confidence, classic.likely or learned.likely)


class PendingReading:
    """A rectified card's reading, the classic reader (the slow one) asked only when it is
    read, once. `could` holds the codes it can come to (None: any), so that a caller weighing
    several outlines can leave unread those that cannot turn its answer (top_card.py)."""

    def __init__(self, could: frozenset[str] | None, reader: Callable[[], CardReading]) -> None:
        self.could = could
        self._reader = reader
        self._reading: CardReading | None = None

    @staticmethod
    def known(reading: CardReading) -> PendingReading:
        """A reading that needs no reader's further word."""
        pending = PendingReading(frozenset({reading.card} - {None}), lambda: reading)
        pending._reading = reading
        return pending

    @property
    def is_read(self) -> bool:
        return self._reading is not None

    def read(self) -> CardReading:
        if self._reading is None:
            self._reading = self._reader()
        return self._reading


class Recogniser:
    def __init__(self, deck: str = "auto", profile: Profile | None = None,
                 extra: Profile | None = None, config: RecogniserConfig = RecogniserConfig()) -> None:
        """`profile` overrides the built-in one (evaluation); `extra` adds samples to it."""
        self.deck = deck
        self.config = config
        base = profile if profile is not None else builtin_profile()
        if deck in ("auto", *DECKS, "uno_family", "ono99", "all"):
            codes = all_codes("all" if deck == "auto" else deck)
        else:
            path = profile_path(deck)
            if not path.is_file():
                known = ", ".join(["auto", *DECKS, *list_profiles()])
                raise ValueError(f"unknown deck {deck!r} (known: {known})")
            enrolled = Profile.load(path)
            extra = enrolled if extra is None else _merge(enrolled, extra)
            codes = sorted({c for c in enrolled.codes if c}) or all_codes("all")
        self.codes = set(codes)
        # with every deck allowed, the classic UNO deck and the 99 decks are what most tables
        # play: the special cards of the other decks (whose wilds share the four-colour motif)
        # must read clearly better to win
        self.rare = self.codes - set(all_codes("uno")) - set(all_codes("ono99")) if deck == "auto" else set()
        prof = base if extra is None else _merge(base, extra)
        self.enrolled = extra is not None
        self._own = frozenset(c for c in extra.codes if c) if extra is not None else frozenset()
        # an enrolled deck printed in inks the readers do not know: its cards are recoloured
        # into the inks they do know before either reads them (see deck_inks)
        self._inks = hue_map(extra.meta.get("inks", {})) if extra is not None else None
        self.allowed_ranks = {rank_key(c) for c in self.codes} | {NONE_LABEL, BACK_LABEL}
        self.model = KnnModel(prof.x, prof.labels, k=5)
        self.reader = CardModel.load() if config.reader != "classic" else None
        if self.reader is not None:
            cols = [i for i, c in enumerate(self.reader.classes) if c in self.codes or c == MODEL_NONE]
            self._cols = np.array(cols)
            self._col_codes = [self.reader.classes[i] for i in cols]
            self._col_prior = np.array([RARE_PRIOR if c in self.rare else 1.0 for c in self._col_codes])

    # ---------------------------------------------------------------- public API
    def find_cards(self, image_bgr: np.ndarray) -> list[np.ndarray]:
        return [c.quad for c in find_cards(image_bgr)]

    def classify_card(self, warped_bgr: np.ndarray) -> tuple[str | None, float]:
        """(code or None, confidence) of an already rectified card (any size; a landscape
        image is turned to portrait first; either end may be up)."""
        r = self.read_cards([warped_bgr])[0]
        return r.card, r.confidence

    def read_cards(self, warped: list[np.ndarray]) -> list[CardReading]:
        """The reading of each rectified card (any size, portrait or landscape, either end up)."""
        return [p.read() for p in self.pending_reads(warped)]

    def pending_reads(self, warped: list[np.ndarray]) -> list[PendingReading]:
        """The readings of rectified cards as the learned reader leaves them (one batch): each
        asks the classic reader only when read (see PendingReading)."""
        warped = [self._recoloured(w) for w in warped]
        if self.reader is None:
            return [PendingReading(None, functools.partial(self._classic, w)) for w in warped]
        probs = self.reader.probabilities(warped, both_ends=True)
        return [self._pending(self._learned(p), w) for p, w in zip(probs, warped)]

    def _recoloured(self, warped_bgr: np.ndarray) -> np.ndarray:
        """The rectified card in the inks the readers know (as it is, unless the deck's differ)."""
        return warped_bgr if self._inks is None else recolour(warped_bgr, self._inks)

    def _classic(self, warped_bgr: np.ndarray) -> CardReading:
        if warped_bgr.shape[1] > warped_bgr.shape[0]:
            warped_bgr = cv2.rotate(warped_bgr, cv2.ROTATE_90_CLOCKWISE)
        code, conf, scored = self._classify(warped_bgr)
        total = sum(scored.values()) or 1.0
        ranked = sorted(((c, v / total) for c, v in scored.items() if c not in (NONE_LABEL, BACK_LABEL)),
                        key=lambda t: -t[1])
        if code is not None:  # the accepted code first, with its own confidence
            ranked = [(code, conf)] + [t for t in ranked if t[0] != code]
        return CardReading(code, conf, tuple((c, round(float(v), 3)) for c, v in ranked[:2]))

    def _learned_probs(self, probs: np.ndarray) -> dict[str, float]:
        """The learned reader's probabilities over this deck's codes and "no card",
        renormalised (the deck is known: other decks' codes are impossible, not unlikely)."""
        p = probs[self._cols] * self._col_prior
        p = p / max(float(p.sum()), 1e-9)
        return dict(zip(self._col_codes, map(float, p)))

    def _learned(self, probs: np.ndarray) -> tuple[CardReading, dict[str, float]]:
        p = self._learned_probs(probs)
        ranked = sorted(((c, v) for c, v in p.items() if c != MODEL_NONE), key=lambda t: -t[1])[:2]
        likely = tuple((c, round(v, 3)) for c, v in ranked)
        first = max(p, key=lambda c: p[c])
        if first == MODEL_NONE:
            return CardReading(None, 0.0, likely), p
        return CardReading(first, p[first], likely), p

    def _combine(self, learned: tuple[CardReading, dict[str, float]], warped: np.ndarray) -> CardReading:
        """One reading from the learned reader's and (for "both") the classic reader's (see
        settle)."""
        return self._pending(learned, warped).read()

    def _pending(self, learned: tuple[CardReading, dict[str, float]], warped: np.ndarray) -> PendingReading:
        """_combine's reading, the classic reader's part left until it is read."""
        reading, probs = learned
        cfg = self.config
        if cfg.reader == "model":
            if reading.card is not None and reading.confidence < cfg.min_confidence:
                return PendingReading.known(CardReading(None, reading.confidence, reading.likely))
            return PendingReading.known(self._checked(reading, warped))
        if all(v < cfg.veto for c, v in probs.items() if c != MODEL_NONE) and not self._own:
            # the learned reader all but rules out every code (an outline of no card, or of
            # part of one): whatever the classic reader said, it would be vetoed, so it is not
            # asked (it is the slow one), unless it knows the user's deck from enrolled shots
            return PendingReading.known(CardReading(None, 0.0, reading.likely))
        if probs.get(MODEL_NONE, 0.0) >= cfg.no_card and not self.enrolled:
            # the learned reader is sure this outline holds no card face it knows, and no
            # enrolled shot could teach the classic reader one: not asked (the slow one)
            return PendingReading.known(CardReading(None, 0.0, reading.likely))
        if cfg.least_sharpness > 0 and sharpness(warped) < cfg.least_sharpness:
            # blurred: either reader alone may read another card surely, so both must read it
            if reading.card is None:
                return PendingReading.known(reading)
            return PendingReading(frozenset({reading.card}), lambda: self._agreeing(reading, warped))
        # (a learned reading sure alone is not taken without the classic reader's word: tried,
        # it read the same dev photos, but on other_clips seed 304 the watcher then lost 3 of
        # 13 landings, its outlines voting with 0.999 where they had voted with 1.0)
        # settle gives the classic reader's code unless vetoed (an enrolled code never is), or
        # the learned one, or none
        could = frozenset(c for c, v in probs.items() if c != MODEL_NONE and v >= cfg.veto) | self._own

        def backed(code: str) -> bool:
            return self._corner_ranks(warped).get(rank_key(code), 0.0) >= cfg.corner_backs
        return PendingReading(could | {reading.card} - {None}, lambda: self._checked(
            settle(reading, probs, self._classic(warped), cfg, self._own, backed), warped))

    def _corner_ranks(self, warped: np.ndarray) -> dict[str, float]:
        """How surely the corner reader reads each rank on this card (its codes' probabilities
        summed over colours: the index tells the rank, the whole card the colour); empty
        without a corner reader."""
        if self.corner_reader is None:
            return {}
        ranks: dict[str, float] = {}
        for code, p in self._learned_probs(self.corner_reader.probabilities([warped])[0]).items():
            if code != MODEL_NONE:
                ranks[rank_key(code)] = ranks.get(rank_key(code), 0.0) + p
        return ranks

    def _checked(self, reading: CardReading, warped: np.ndarray) -> CardReading:
        """`reading` as it stands after the checks on the card's own look: its ink
        (_ink_checked) and its index (_index_checked)."""
        return self._index_checked(self._ink_checked(reading, warped), warped)

    def _index_checked(self, reading: CardReading, warped: np.ndarray) -> CardReading:
        """`reading`, or a decline offering it and the index's rank in its colour, where the
        corner reader reads another rank at both ends of the card at least index_veto surely
        (RecogniserConfig). A code of the enrolled deck is not checked: the corner reader never
        saw that deck, the classic reader has."""
        if reading.card is None or self.config.index_veto >= 1 or reading.card in self._own \
                or self.corner_reader is None:
            return reading
        rank, veto = rank_key(reading.card), self.config.index_veto
        ranks = {k: v for k, v in self._corner_ranks(warped).items() if k != rank}
        if max(ranks.values(), default=0.0) < veto:
            return reading  # one end up clears it: the other end is read only to confirm a doubt
        turned = self._corner_ranks(np.ascontiguousarray(warped[::-1, ::-1]))
        ranks = {k: min(v, turned.get(k, 0.0)) for k, v in ranks.items()}
        top = max(ranks, key=ranks.__getitem__)
        if ranks[top] < veto:
            return reading
        colour, _ = split_code(reading.card)
        likely = ((reading.card, round(reading.confidence, 3)),)
        index_code = top if colour is None else f"{colour}-{top}"
        if index_code in self.codes:
            likely += ((index_code, round(ranks[top], 3)),)
        return CardReading(None, min(reading.confidence, 1.0 - ranks[top]), likely)

    def _ink_checked(self, reading: CardReading, warped: np.ndarray) -> CardReading:
        """`reading`, or a decline offering both colours where the card's ink lies between the
        read colour's shades and another's: both readers know only the shades they were made
        on, and name the nearer colour of an orange or a lime ink as surely as a clear one
        (on renders of a deck with every ink turned 20 degrees, 4 to 6 in 100 cards were read
        in the neighbouring colour at 0.95-1.0)."""
        colour, rank = split_code(reading.card) if reading.card is not None else (None, "")
        if colour not in COLOURS or not self.config.ink_sure:
            return reading
        tone = ink_tone(warped)
        if tone is None:
            return reading
        shares = ink_shares(tone)
        share = shares[colour]
        if share >= self.config.ink_sure:
            return reading
        other = max((c for c in COLOURS if c != colour), key=lambda c: shares[c])
        likely = ((reading.card, round(share, 3)),)
        if f"{other}-{rank}" in self.codes:
            likely += ((f"{other}-{rank}", round(shares[other], 3)),)
        return CardReading(None, min(reading.confidence, share), likely)

    def sees_no_card(self, warped_bgr: np.ndarray) -> bool:
        """Whether an already rectified outline reads best as no card at all (bare table, a
        hand) or a card back: `enroll` refuses such a shot rather than learn the table."""
        return _says_no_card(self._classify(warped_bgr)[2])

    def identify(self, image_bgr: np.ndarray, balanced: bool = False) -> Recognition:
        """The top card: among the best few outlines, the one whose outline score times
        classification confidence is highest, unless it is a panel of a bigger, clear card
        outline (the top or bottom field of a card split by a white band, see encloses):
        then the bigger outline is the card, and what it reads as (None included) stands.
        `balanced`: the caller has taken a lamp's cast out already (as find_cards')."""
        # the cards are found and read in plain light (a warm lamp's orange taken out)
        if not balanced:
            image_bgr = without_cast(image_bgr)
        found = find_cards(image_bgr, balanced=True)
        # a photo cropped to one card: its frame is the outline, however low it ranks
        cands = found[:CANDIDATES] + [c for c in found[CANDIDATES:] if c.whole_frame and c.score >= CROP_SCORE][:1]
        lazy = self.lazy_reader(image_bgr, [c.quad for c in cands])
        read: dict[int, CardReading] = {}

        def reading(i: int) -> tuple[str | None, float]:
            if i not in read:
                r = lazy(i)
                if cands[i].whole_frame and cands[i].score < CROP_SCORE and r.confidence < FRAME_MIN_CONFIDENCE:
                    r = CardReading(None, r.confidence, r.likely)  # the whole photo as a card: only when sure
                read[i] = r
            return read[i].card, read[i].confidence

        def marked(i: int) -> list[int]:
            # the clear card outlines cands[i] may be a mark of the print of
            return [j for j, c in enumerate(cands) if j != i and not c.whole_frame
                    and c.score >= PANEL_OUTER_SCORE and print_mark(c.quad, cands[i].quad)]

        best, best_score = -1, -1.0
        for i, cand in enumerate(cands):
            code, conf = reading(i)
            score = conf * (0.4 + 0.6 * min(1.0, cand.score / 0.6))
            if code is not None and score > best_score:
                best, best_score = i, score
                if conf >= SURE and cand.score >= 0.5 and not marked(i):
                    break  # a clear card on a clear outline: the other outlines cannot beat it
        if best < 0:
            if not cands:
                return Recognition(None, 0.0, None)
            return Recognition(None, read[0].confidence, cands[0].quad, read[0].likely)
        if cands[best].whole_frame:
            best = card_in_frame(cands, best, reading)
        # a numeral or oval can read as a card of its own (a 6's underlined numeral as 0):
        # the card it is printed on, where that reads as a card, is the card (a small card on
        # a bigger card-shaped thing, a book or a tray, stands where the bigger one reads none)
        bigger = [j for j in marked(best) if reading(j)[0] is not None]
        if bigger:
            best = max(bigger, key=lambda j: cv2.contourArea(cands[j].quad.astype(np.float32)))
        outer = [i for i, c in enumerate(cands)
                 if not c.whole_frame and c.score >= PANEL_OUTER_SCORE and encloses_panel(c.quad, cands[best].quad)]
        if outer:
            # the card is the biggest such outline; what it reads as (None included) stands
            best = max(outer, key=lambda i: cv2.contourArea(cands[i].quad.astype(np.float32)))
            reading(best)
        r = read[best]
        if r.card is not None and r.confidence < SURE:
            around = [j for j in range(len(cands)) if j != best and not cands[j].whole_frame
                      and cands[j].score >= PANEL_OUTER_SCORE and part_of_print(cands[j].quad, cands[best].quad)]
            r = part_doubted(r, [lazy(j) for j in around])
        return Recognition(r.card, r.confidence, cands[best].quad, r.likely)

    def lazy_reader(self, image_bgr: np.ndarray, quads: list[np.ndarray],
                    vet: Callable[[CardReading, dict[str, float]], CardReading] | None = None
                    ) -> Callable[[int], CardReading]:
        """reading(i) of quads[i], each read once, when first asked for. The learned reader
        reads the first outline alone (the top card's, most often sure: identify asks no
        more), then all the others in one batch; the classic reader (the slow one) reads
        only those asked for. `vet(reading, learned)`, given the learned reader's
        probabilities, may decline a reading (a spread's cards are left out rather than guessed)."""
        warped: dict[int, np.ndarray] = {}
        probs: dict[int, np.ndarray] = {}

        def view(i: int) -> np.ndarray:
            if i not in warped:
                warped[i] = self._recoloured(warp_card(image_bgr, quads[i], (CANON_W, CANON_H)))
            return warped[i]

        def reading(i: int) -> CardReading:
            if self.reader is None:
                return self._classic(view(i))
            if i not in probs:
                batch = [i] if i == 0 else [j for j in range(len(quads)) if j not in probs]
                probs.update(zip(batch, self.reader.probabilities([view(j) for j in batch], both_ends=True)))
            learned = self._learned(probs[i])
            r = self._combine(learned, view(i))
            return vet(r, learned[1]) if vet is not None else r
        return reading

    def agreed(self, warped_bgr: np.ndarray) -> CardReading:
        """The reading of a rectified card both readers give, or a decline where they differ.
        For a card pieced together (spread_neighbours.mirrored_in), a view neither reader has
        seen the like of: on seed 11's photo-faced spreads the classic reader read one such
        piece (a reverse's arrows and the card over it) as a 4 at 0.998."""
        view = self._recoloured(warped_bgr)
        if self.reader is None:
            return self._classic(view)
        learned, _ = self._learned(self.reader.probabilities([view], both_ends=True)[0])
        if learned.card is None:
            return learned  # no code both could read: the classic reader (the slow one) is not asked
        return self._agreeing(learned, view)

    def _agreeing(self, learned: CardReading, view: np.ndarray) -> CardReading:
        """The classic reading of `view` where it is the learned reading's code, else a decline."""
        classic = self._classic(view)
        if learned.card != classic.card:
            return CardReading(None, classic.confidence, classic.likely)
        return self._checked(classic, view)

    def window_sureness(self, image_bgr: np.ndarray, quads: np.ndarray,
                        both_ends: bool = True) -> tuple[np.ndarray, list[str | None]]:
        """How sure the learned reader alone is of its likeliest code of this deck in each of
        many windows (N x 4 x 2), and that code (None where "no card" is likelier): a cheap
        look for spread_scan, each window warped straight to the reader's input size (and
        read both ends up, unless not `both_ends`: half the work). All zero without a
        learned reader."""
        if self.reader is None or not len(quads):
            return np.zeros(len(quads)), [None] * len(quads)
        small = np.stack([self._recoloured(warp_card(image_bgr, q, (INPUT_W, INPUT_H))) for q in quads])
        p = self.reader.probabilities_shrunk(small, both_ends)[:, self._cols] * self._col_prior
        p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-9)
        best = p.argmax(axis=1)
        return p.max(axis=1), [None if self._col_codes[b] == MODEL_NONE else self._col_codes[b] for b in best]

    @functools.cached_property
    def corner_reader(self) -> CardModel | None:
        """The learned reader of a card's index corner, trained on cards partly under others,
        that part painted out (card_model.corner)."""
        return CardModel.load(MODEL_DIR / CORNER_MODEL_FILE) if self.reader is not None else None

    @functools.cached_property
    def fan_reader(self) -> CombinedModel | None:
        """The corner readers combined (CORNER_MODEL_FILES): what reads a card partly under
        others. The index check of a whole card (_corner_ranks) keeps the first alone, whose
        sureness its index_veto was set by (the second reads the edwin clone's blue 8 index
        at 0.976 one end up, and that photo's check turns on it)."""
        if self.corner_reader is None:
            return None
        return CombinedModel([CardModel.load(MODEL_DIR / f) for f in CORNER_MODEL_FILES.values()])

    def corner_readings(self, image_bgr: np.ndarray, quads: list[np.ndarray], cover: np.ndarray,
                        views: int = 1) -> list[CardReading]:
        """How the corner readers (fan_reader) read each of `quads` with the mask `cover` (the
        cards over them) painted out, as they were trained (HIDDEN_FILL), over this deck's
        codes, however unsure (tools/eval_spreads.py --true-outlines measures it so). With `views` > 1, each
        outline is also read nudged (nudged_views) and the views' probabilities combined
        (corner_reading)."""
        if self.corner_reader is None or not quads:
            return [CardReading(None, 0.0, ()) for _ in quads]
        looks = [nudged_views(q, views) for q in quads]
        probs = self.corner_probabilities(image_bgr, [v for vs in looks for v in vs], cover)
        return [self.corner_reading(p) for p in probs.reshape(len(quads), len(looks[0]), -1)]

    def corner_probabilities(self, image_bgr: np.ndarray, quads: list[np.ndarray], cover: np.ndarray) -> np.ndarray:
        """The corner readers' probabilities (fan_reader; one row per outline of `quads`) with
        `cover` painted out; needs the corner reader."""
        assert self.fan_reader is not None
        painted = image_bgr.copy()
        painted[cover > 0] = HIDDEN_FILL
        return self.fan_reader.probabilities(
            [self._recoloured(warp_card(painted, q, (CANON_W, CANON_H))) for q in quads], both_ends=True)

    def corner_reading(self, views: np.ndarray) -> CardReading:
        """One outline's reading from its views' probabilities (views x classes), combined by
        their geometric mean: a code every view leans to wins over one a single view is sure
        of, and its share grows."""
        combined = views[0] if len(views) == 1 else np.exp(np.log(views + 1e-6).mean(axis=0))
        return self._learned(combined / combined.sum())[0]

    # ---------------------------------------------------------------- internals
    def _classify(self, warped_bgr: np.ndarray) -> tuple[str | None, float, dict[str, float]]:
        canon = warped_bgr if warped_bgr.shape[:2] == (CANON_H, CANON_W) else cv2.resize(
            warped_bgr, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
        gains = white_gains(canon)
        # the field decides the family: a black field is a wild (or the 99 deck's black card),
        # a coloured one is not, whatever the symbol looks like
        dark = field_darkness(canon, gains)
        colours = colour_scores(canon, gains)
        allowed = self.allowed_ranks
        if dark >= DARK_FIELD:
            allowed = {r for r in allowed if r.startswith("wild") or r in DARK_FIELD_RANKS}
            if _four_inks({c: colours[c] for c in COLOURS}) and rim_paper_share(canon) >= RETRY_RIM:
                # a black field in three or four inks, inside a card's white rim, is a wild
                # however its symbol reads (wild prints vary most of all)
                allowed -= {NONE_LABEL, BACK_LABEL}
        elif dark < COLOURED_FIELD:
            allowed = {r for r in allowed if not r.startswith("wild")}
        first = symbol_mask(canon, gains)
        best = self._read(canon, gains, (first,), allowed, dark, colours)
        if best[1] >= SURE or _says_no_card(best[2]) or rim_paper_share(canon) < RETRY_RIM:
            return best
        # unsure of a card: the ink/paper split may have cut the symbol wrongly (glare
        # bleaches part of a numeral, a tinted oval passes for ink), or grey shade may have
        # tipped which of paper and ink is the symbol, so cut it again
        for split, shade_aside in RETRY_CUTS:
            mask = symbol_mask(canon, gains, split, shade_aside)
            if np.array_equal(mask, first):
                continue  # the same cut reads the same
            # an underline the first cut saw still tells 6 from 9 where this cut lost it
            other = self._read(canon, gains, (mask, first), allowed, dark, colours)
            if other[0] is not None and other[1] > max(best[1], RETRY_MIN):
                best = other
        return best

    def _read(self, canon: np.ndarray, gains: np.ndarray, masks: tuple[np.ndarray, ...], allowed: set[str],
              dark: float, colours: dict[str, float]) -> tuple[str | None, float, dict[str, float]]:
        """(code or None, confidence, every code's score) of the symbol cut out as masks[0] (the
        other masks only tell 6 from 9, see _settle_six_nine); `gains`: canon's white_gains."""
        mask = masks[0]
        rank_probs, sim = self.model.scores(features(canon, mask, gains), allowed)
        rank_probs = _settle_six_nine(rank_probs, masks)
        if {"wild", "wild_draw4"} <= allowed:
            rank_probs = _settle_wild_pair(rank_probs, colours["_saturated"])
        scored: dict[str, float] = {}
        uno_colours = {c: colours[c] for c in COLOURS}
        col_total = sum(uno_colours.values()) or 1.0
        for rank, p in rank_probs.items():
            if rank in (NONE_LABEL, BACK_LABEL):
                scored[rank] = p
                continue
            if rank.startswith("99:"):
                code = rank[3:]
                if code in self.codes:
                    scored[code] = p
                continue
            if rank.startswith("wild"):
                if rank in self.codes:
                    # a wild shows a black field or several inks, no single dominant one
                    mixed = float(np.clip((1 - max(uno_colours.values()) / col_total) / 0.5, 0, 1))
                    black = 1.0 if dark >= DARK_FIELD else colours["black"]
                    scored[rank] = p * (0.3 + 0.7 * max(black, mixed))
                continue
            for colour in COLOURS:
                code = f"{colour}-{rank}"
                if code in self.codes:
                    scored[code] = p * (uno_colours[colour] / col_total) * (1 - 0.7 * colours["black"])
        scored = {c: v * (RARE_PRIOR if c in self.rare else 1.0) for c, v in scored.items()}
        if not scored:
            return None, 0.0, scored
        code = max(scored, key=lambda c: scored[c])
        closeness = min(1.0, max(0.0, (sim - MIN_SIMILARITY) / 0.2))
        if code.startswith("wild") and (_four_inks(uno_colours) or dark >= DARK_FIELD):
            # wilds are printed in many designs, few of which the profile holds; three or four
            # inks in clear shares are evidence the nearest-neighbour distance cannot give
            closeness = max(closeness, WILD_INK_CLOSENESS)
        conf = scored[code] * closeness
        # a card already known to be a wild (see _classify) need not look like a profiled print
        far = sim < MIN_SIMILARITY and NONE_LABEL in allowed
        if code in (NONE_LABEL, BACK_LABEL) or far or conf < MIN_CONFIDENCE:
            return None, float(conf if code not in (NONE_LABEL, BACK_LABEL) else 0.0), scored
        return code, float(conf), scored


def card_in_frame(cands: list[CardQuad], frame: int, reading: Callable[[int], tuple[str | None, float]]) -> int:
    """The outline to give when the photo's frame `frame` reads best. A card lying in the middle
    of a photo reads the same taken whole: a clear outline of card proportions inside the frame
    that reads the same, surely, and is no panel of it, is where the card is. A photo cropped to
    the card keeps its frame (the outlines inside it are print, and unclear).
    `reading(i)` is (code, confidence) of cands[i]."""
    code = reading(frame)[0]
    inner = [i for i, c in enumerate(cands) if i != frame and not c.whole_frame and c.score >= CROP_SCORE
             and card_shaped(c.quad) and not encloses_panel(cands[frame].quad, c.quad)
             and reading(i)[0] == code and reading(i)[1] >= SURE]
    return max(inner, key=lambda i: cands[i].score, default=frame)


def _says_no_card(scored: dict[str, float]) -> bool:
    """The symbol reads best as no card or a card back."""
    return not scored or max(scored, key=lambda c: scored[c]) in (NONE_LABEL, BACK_LABEL)


def part_doubted(reading: CardReading, around: list[CardReading]) -> CardReading:
    """`reading`, or where it is less than SURE sure and a bigger card outline round its own
    (`around`: their readings) reads another code, a decline offering both: part of a card's
    print read as a card (under a warm lamp a yellow 7's white circle read as a reverse at
    0.82, and the card round it as a 7 at 0.61). The table is asked."""
    if reading.card is None or reading.confidence >= SURE:
        return reading
    others = [a for a in around if a.card not in (None, reading.card)]
    if not others:
        return reading
    other = max(others, key=lambda a: a.confidence)
    offered = ((reading.card, round(reading.confidence, 3)), (other.card, round(other.confidence, 3)))
    return CardReading(None, min(reading.confidence, 0.5), offered)


def _four_inks(colours: dict[str, float]) -> bool:
    """At least three of the four UNO inks, each a clear share of the coloured area."""
    total = sum(colours.values()) or 1.0
    return sum(v / total >= WILD_INK_SHARE for v in colours.values()) >= 3


def _settle_wild_pair(rank_probs: dict[str, float], saturated: float) -> dict[str, float]:
    """A plain wild and a wild +4 differ in how much ink their oval holds: a wild's oval is
    all ink (about half the card on every print we know), a wild +4 shows four small cards on
    a white oval (a quarter of the card or less). Where that share is clear, it decides
    between the two; the symbol features, which follow the white of the oval, cannot."""
    pair = rank_probs.get("wild", 0.0) + rank_probs.get("wild_draw4", 0.0)
    if pair == 0.0 or WILD_DRAW4_INK < saturated < WILD_INK:
        return rank_probs
    out = dict(rank_probs)
    out["wild"], out["wild_draw4"] = (pair, 0.0) if saturated >= WILD_INK else (0.0, pair)
    return out


def _settle_six_nine(rank_probs: dict[str, float], masks: tuple[np.ndarray, ...]) -> dict[str, float]:
    """6 and 9 differ only by which way up they are; the underline decides (see six_or_nine),
    as the first of `masks` that shows one tells it."""
    top = max(rank_probs, key=lambda r: rank_probs[r]) if rank_probs else None
    if top not in ("6", "9"):
        return rank_probs
    which = next((w for w in map(six_or_nine, masks) if w is not None), None)
    if which is None:
        return rank_probs
    out = dict(rank_probs)
    pair = out.get("6", 0.0) + out.get("9", 0.0)
    out[which] = pair
    out["9" if which == "6" else "6"] = 0.0
    return out


def _merge(a: Profile, b: Profile) -> Profile:
    inks = {**a.meta.get("inks", {}), **b.meta.get("inks", {})}  # (the built-in profile has none)
    return Profile(f"{a.name}+{b.name}", np.concatenate([a.x, b.x]), a.labels + b.labels,
                   (a.codes or [""] * len(a.labels)) + (b.codes or [""] * len(b.labels)),
                   {"inks": inks} if inks else {})


__all__ = ["Recogniser", "Recognition", "is_ninety_nine", "split_code"]
