"""Deck profiles: the labelled feature sets the recogniser's nearest-neighbour search uses.

* The built-in profile is generated from the project's own renders (cardface) with camera
  augmentation; nothing in it comes from third-party images. It is regenerated on first use
  (a few seconds) and cached under the user cache dir, keyed by the generator's source.
* Enrolled profiles (`tableref enroll`) hold features of a user's physical deck, computed
  from their own shots, and live under the user data dir as `<name>.npz`.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import sys
from dataclasses import dataclass, field
from typing import IO, Callable

import cv2
import numpy as np

from .classify_symbol import FEATURE_VERSION, features, rank_key
from .find_card import warp_card

# Every module that shapes the built-in profile's renders and features. The cache key holds
# a digest of their source, so an upgrade (or a change someone forgot to version) never loads
# a stale profile: a profile built by older code scores worse without any error.
_PROFILE_SOURCES = ("cardface.py", "glyphs.py", "classify_symbol.py", "classify_colour.py",
                    "classify_training.py", "find_card.py", "profiles.py")


def sources_digest(folder: pathlib.Path = pathlib.Path(__file__).parent) -> str:
    digest = hashlib.sha1()
    for name in _PROFILE_SOURCES:
        try:
            digest.update((folder / name).read_bytes())
        except OSError:  # installed without sources: the feature version alone keys the cache
            digest.update(name.encode())
    return digest.hexdigest()[:10]


# ... and the OpenCV build's version: renders and features are OpenCV's arithmetic too (5.1
# drew some cards otherwise than 5.0), and two environments may share one cache folder
BUILTIN_VERSION = f"f{FEATURE_VERSION}-{sources_digest()}-cv{cv2.__version__}"
NONE_LABEL = "_none"     # not a card face: table, hand, card back
BACK_LABEL = "_back"
_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@dataclass
class Profile:
    name: str
    x: np.ndarray                   # n x d features
    labels: list[str]               # rank keys (classify_symbol.rank_key) or NONE/BACK
    codes: list[str] = field(default_factory=list)   # full card codes when known ("" otherwise)
    meta: dict = field(default_factory=dict)

    def save(self, path: pathlib.Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, x=self.x.astype(np.float16), labels=np.array(self.labels),
                            codes=np.array(self.codes or [""] * len(self.labels)),
                            meta=np.array(json.dumps({"name": self.name, **self.meta})))
        os.replace(tmp, path)  # never leave a half-written profile behind

    @classmethod
    def load(cls, path: pathlib.Path) -> "Profile":
        with np.load(path, allow_pickle=False) as d:
            meta = json.loads(str(d["meta"]))
            return cls(meta.pop("name", path.stem), d["x"].astype(np.float32), [str(s) for s in d["labels"]],
                       [str(s) for s in d["codes"]], meta)


def data_dir() -> pathlib.Path:
    env = os.environ.get("TABLEREF_DATA_DIR")
    if env:
        return pathlib.Path(env)
    import platformdirs
    return pathlib.Path(platformdirs.user_data_dir("tableref"))


def cache_dir() -> pathlib.Path:
    env = os.environ.get("TABLEREF_CACHE_DIR")
    if env:
        return pathlib.Path(env)
    import platformdirs
    return pathlib.Path(platformdirs.user_cache_dir("tableref"))


def profile_path(name: str) -> pathlib.Path:
    if not _NAME_RE.match(name):
        raise ValueError(f"bad deck profile name {name!r}: use letters, digits, '_', '-', '.'")
    return data_dir() / "decks" / f"{name}.npz"


def list_profiles() -> list[str]:
    d = data_dir() / "decks"
    return sorted(p.stem for p in d.glob("*.npz")) if d.is_dir() else []


def build_builtin(seed: int = 1234, per_code: int = 4,
                  progress: Callable[[float], None] | None = None) -> Profile:
    """Render every code in every style onto random tables, warp it back the way the finder
    would (with corner errors), and keep the features. Also card backs and bare table.
    `progress(share done)` is called after each of the samples."""
    from .cardface import UNO_STYLES, is_ninety_nine, render_back, render_card  # noqa: F401
    from .classify_training import (camera_effects, card_quad, foreign_card, jitter_quad, misplace_quad, paste,
                                    random_table, training_codes)

    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    labels: list[str] = []
    codes: list[str] = []
    # the samples made below, counted the same way, so progress is a share of the work
    per_code_samples = {code: (per_code * 3 if is_ninety_nine(code) or code.startswith("wild") else per_code)
                        * (1 if is_ninety_nine(code) else len(UNO_STYLES)) for code in training_codes()}
    total = sum(per_code_samples.values()) + per_code * (6 * 2 + 20 + 10 + 6 + 40)

    def add(face: np.ndarray | None, label: str, code: str, misplaced: bool = False) -> None:
        w, h = int(rng.integers(200, 360)), int(rng.integers(160, 280))
        scene = random_table(rng, h, w)
        short = float(rng.uniform(0.28, 0.5) * min(w, h))
        quad = card_quad(rng, h, w, short)
        if face is not None:
            scene = paste(scene, face, quad)
        img = camera_effects(scene, rng)
        look = misplace_quad(quad, rng) if misplaced else jitter_quad(quad, rng)
        xs.append(features(warp_card(img, look)))
        labels.append(label)
        codes.append(code)
        if progress is not None:
            progress(len(xs) / total)

    for code in training_codes():
        styles = ("ono99",) if is_ninety_nine(code) else UNO_STYLES
        # 99 cards have one style where UNO has two; wilds come in many prints
        n = per_code * 3 if is_ninety_nine(code) or code.startswith("wild") else per_code
        for style in styles:
            for _ in range(n):
                add(render_card(code, style, 200, rng), rank_key(code), code)
    for style in ("classic", "ono99"):
        for _ in range(per_code * 6):
            add(render_back(style, 200), BACK_LABEL, "")
    for _ in range(per_code * 20):
        add(None, NONE_LABEL, "")
    for _ in range(per_code * 10):   # another game's card
        add(foreign_card(rng, 200), NONE_LABEL, "")
    for _ in range(per_code * 6):    # more backs, seen whole
        add(render_back(str(rng.choice(["classic", "ono99"])), 200), BACK_LABEL, "")
    # an outline around part of a card (half a clone field, a corner, card plus table) is
    # not a card: the finder proposes such outlines, the classifier must turn them down
    codes_all = training_codes()
    for _ in range(per_code * 40):
        code = codes_all[int(rng.integers(len(codes_all)))]
        style = "ono99" if is_ninety_nine(code) else str(rng.choice(UNO_STYLES))
        add(render_card(code, style, 200, rng), NONE_LABEL, "", misplaced=True)
    return Profile("builtin", np.stack(xs), labels, codes, {"version": BUILTIN_VERSION, "seed": seed})


_BUILTIN: Profile | None = None


def builtin_profile() -> Profile:
    """The built-in profile, from the cache or regenerated (deterministic, seeded)."""
    global _BUILTIN
    if _BUILTIN is not None:
        return _BUILTIN
    path = cache_dir() / f"builtin-{BUILTIN_VERSION}.npz"
    if path.is_file():
        try:
            _BUILTIN = Profile.load(path)
            return _BUILTIN
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache is rebuilt below
    # progress for a person at a terminal; a log or a pipe (scripts, tests counting error lines) gets none
    _BUILTIN = build_builtin(progress=BuildProgress(sys.stderr) if _is_tty(sys.stderr) else None)
    try:
        _BUILTIN.save(path)
        for old in path.parent.glob("builtin-*.npz"):
            # profiles of older code are never read again; another OpenCV's may be, by
            # another environment sharing the folder
            if old != path and (old.stem.endswith(f"-cv{cv2.__version__}") or "-cv" not in old.stem):
                old.unlink()
    except OSError:
        pass  # read-only home: keep it in memory only
    return _BUILTIN


def _is_tty(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


class BuildProgress:
    """Says how far the first-use build of the built-in profile is (it takes ~20 s), so no
    stretch of it passes without a word: one line redrawn in place for every 1% on a terminal,
    else a line for every 5%."""

    def __init__(self, stream: IO[str], step: int = 5) -> None:
        self.stream = stream
        self.tty = _is_tty(stream)
        self.step = 1 if self.tty else step  # in percent
        self.said: int | None = None

    def __call__(self, done: float) -> None:
        percent = min(100, int(done * 100 + 1e-6))
        if self.said is None:
            self._say("building the card reader's built-in profile (first use only, about 20 s)", True)
            self.said = 0
        if percent >= self.said + self.step or (percent == 100 and self.said < 100):
            self.said = percent
            self._say(f"building the card reader's profile: {percent}%", percent == 100)

    def _say(self, text: str, last: bool) -> None:
        try:
            if self.tty:
                self.stream.write("\r" + text + ("\n" if last else ""))
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed stderr never stops the build


