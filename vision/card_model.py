"""Runtime of the learned card reader: the shipped ONNX model run with onnxruntime (no torch),
on one thread (the watcher and the rules share a small machine; bench/bench_recognise.py
times it: about two and a half times quicker than cv2.dnn on the same batch).

The model reads a rectified card (find_card.warp_card's portrait view, any size; landscape
views are turned upright) and gives calibrated probabilities over every card code of every
deck plus "_none" (no readable card face), and the penultimate embedding that enrolled shots
can adapt the reader with. Training lives in tools/train_reader.py, its data in reader_data.py.
"""
from __future__ import annotations

import functools
import json
import pathlib

import cv2
import numpy as np
import onnxruntime
from onnxruntime.capi.onnxruntime_pybind11_state import Fail, InvalidGraph, InvalidProtobuf

MODEL_DIR = pathlib.Path(__file__).resolve().parent / "models"
MODEL_FILE = "card_reader.onnx"
META_FILE = "card_reader.json"
CORNER_MODEL_FILE = "card_reader_corner.onnx"  # the corner reader: cards partly painted out (identify --all's fans)
# the corner readers a fan is read by (CombinedModel), by the corner stream each was trained on
# (reader_data.CORNER_VERSION); the first also checks a single card's index (Recogniser)
CORNER_MODEL_FILES = {2: CORNER_MODEL_FILE, 3: "card_reader_corner_thin.onnx"}
HIDDEN_FILL = (128, 128, 128)  # ... in this colour
INPUT_W, INPUT_H = 64, 96
# the corner reader's view: this share of the card's width and height at its index's corner, at
# the warp's own scale (64x96 of a 128x200 warp: the index ~30 px high, not ~8 as in the whole card)
CORNER_W, CORNER_H = 0.5, 0.48
NONE = "_none"
CHECK_SAMPLES = 300  # the first validation samples whose figures CI recomputes


class ModelFileError(ValueError):
    """The reader's model file is missing or cannot be loaded."""


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def upright(card: np.ndarray) -> np.ndarray:
    """A rectified card in portrait (a landscape view is turned a quarter round)."""
    return cv2.rotate(card, cv2.ROTATE_90_CLOCKWISE) if card.shape[1] > card.shape[0] else card


def corner(card: np.ndarray) -> np.ndarray:
    """The corner reader's view of an upright card: the corner (top left, or bottom right
    turned half round: a card prints its index at both) less painted out (HIDDEN_FILL)."""
    h, w = card.shape[:2]
    ch, cw = round(h * CORNER_H), round(w * CORNER_W)
    ends = (card[:ch, :cw], card[::-1, ::-1][:ch, :cw])
    return min(ends, key=lambda e: int(np.all(e == HIDDEN_FILL, axis=2).sum()))


def shrink(cards, view: str = "whole") -> np.ndarray:
    """Rectified BGR cards (any size, either orientation) -> n x INPUT_H x INPUT_W x 3 uint8:
    the whole card, or (`view` "corner") its corner()."""
    out = np.empty((len(cards), INPUT_H, INPUT_W, 3), np.uint8)
    for i, card in enumerate(cards):
        card = upright(np.asarray(card))
        if card.ndim == 2:
            card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR)
        card = corner(card[:, :, :3]) if view == "corner" else card[:, :, :3]
        out[i] = cv2.resize(card, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
    return out


class CardModel:
    """The loaded reader. Use CardModel.load(); `classes` names the probability columns."""

    def __init__(self, session: onnxruntime.InferenceSession, meta: dict, path: pathlib.Path):
        self.session = session
        self.input = session.get_inputs()[0].name
        self.meta = meta
        self.path = path
        self.classes: list[str] = list(meta["classes"])
        self.temperature = float(meta.get("temperature", 1.0))
        self.view: str = meta.get("view", "whole")  # what of the card it reads (see shrink)

    @staticmethod
    @functools.lru_cache(maxsize=4)
    def load(path: pathlib.Path | str | None = None) -> "CardModel":
        """The model at `path` (default: the shipped one), loaded once per path."""
        onnx = pathlib.Path(path) if path is not None else MODEL_DIR / MODEL_FILE
        meta_path = onnx.with_suffix(".json")
        if not onnx.is_file():
            raise ModelFileError(f"card reader model missing: {onnx}")
        try:
            meta = json.loads(meta_path.read_text())
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = options.inter_op_num_threads = 1
            options.log_severity_level = 3  # errors only: a corrupt file is reported below, once
            session = onnxruntime.InferenceSession(str(onnx), options, providers=["CPUExecutionProvider"])
        except FileNotFoundError:
            raise ModelFileError(f"card reader model description missing: {meta_path}") from None
        except (Fail, InvalidGraph, InvalidProtobuf, ValueError, json.JSONDecodeError, RuntimeError) as e:
            first = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
            raise ModelFileError(f"card reader model corrupt: {onnx} ({first[:120]})") from None
        outputs = {o.name for o in session.get_outputs()}
        if "classes" not in meta or not {"logits", "embedding"} <= outputs:
            raise ModelFileError(f"card reader model corrupt: {onnx}")
        return CardModel(session, meta, onnx)

    def _forward(self, small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        blob = np.ascontiguousarray(small.transpose(0, 3, 1, 2), np.float32) / np.float32(255.0)
        logits, emb = self.session.run(["logits", "embedding"], {self.input: blob})
        return logits.reshape(len(small), -1), emb.reshape(len(small), -1)

    def probabilities_shrunk(self, small: np.ndarray, both_ends: bool = True) -> np.ndarray:
        """As probabilities(), for cards already shrunk to the input size (see shrink)."""
        if len(small) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        out = []
        for a in range(0, len(small), 128):
            part = small[a:a + 128]
            if both_ends:  # the card read the other way up too (one batch): a printed card reads the same
                part = np.concatenate([part, part[:, ::-1, ::-1]])
            p = softmax(self._forward(part)[0] / self.temperature)
            out.append((p[:len(p) // 2] + p[len(p) // 2:]) / 2 if both_ends else p)
        return np.concatenate(out)

    def probabilities(self, cards, both_ends: bool = True) -> np.ndarray:
        """Calibrated class probabilities (n x len(classes)) of rectified BGR cards; with
        `both_ends` the average of the card and the card turned half round (on the dev
        photos: 381/421 exact instead of 373, 20 wrong codes instead of 28; twice the work).
        The corner reader reads one end, the one less painted out (corner())."""
        return self.probabilities_shrunk(shrink(cards, self.view), both_ends and self.view == "whole")

    def embed(self, cards) -> np.ndarray:
        """The penultimate-layer embedding (n x embedding_dim) of rectified BGR cards."""
        small = shrink(cards, self.view)
        if len(small) == 0:
            return np.zeros((0, int(self.meta.get("embedding_dim", 0))), np.float32)
        return np.concatenate([self._forward(small[a:a + 256])[1] for a in range(0, len(small), 256)])


class CombinedModel:
    """Readers of one view read as one: their calibrated probabilities combined by the
    geometric mean, so that a code every reader leans to wins over one a single reader is
    sure of. Two corner readers trained on two streams read 111 of 165 photo-faced fan cards
    with no wrong report where the first alone read 106 with 1 (README)."""

    def __init__(self, models: list[CardModel]) -> None:
        self.models = models
        self.classes = models[0].classes
        self.view = models[0].view
        assert all(m.classes == self.classes and m.view == self.view for m in models)

    def probabilities(self, cards, both_ends: bool = True) -> np.ndarray:
        """As CardModel.probabilities, each card shrunk once for all the readers."""
        small = shrink(cards, self.view)
        both = both_ends and self.view == "whole"
        logs = [np.log(m.probabilities_shrunk(small, both) + 1e-6) for m in self.models]
        p = np.exp(np.mean(logs, axis=0))
        return p / p.sum(axis=1, keepdims=True)


THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95)
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001)


def figures(probs: np.ndarray, y: np.ndarray, classes: list[str]) -> dict:
    """What a set of readings scores: accuracy, "_none" rejection, the wrong-code share when
    readings below a confidence are declined, and a reliability table."""
    pred = probs.argmax(axis=1)
    conf = probs.max(axis=1)
    right = pred == y
    none = classes.index(NONE)
    cards = y != none
    out: dict = {"samples": int(len(y)), "accuracy": round(float(right.mean()), 4),
                 "card_accuracy": round(float(right[cards].mean()), 4) if cards.any() else None,
                 "none_rejected": round(float((pred[~cards] == none).mean()), 4) if (~cards).any() else None,
                 "check_accuracy": round(float(right[:CHECK_SAMPLES].mean()), 4)}
    out["decline_below"] = {
        str(t): {"wrong": round(float(((conf >= t) & ~right).mean()), 4),
                 "declined": round(float((conf < t).mean()), 4)} for t in THRESHOLDS}
    out["reliability"] = reliability(conf, right)
    return out


def reliability(conf: np.ndarray, right: np.ndarray) -> list[dict]:
    """Confidence bins -> count, mean confidence, accuracy (a calibrated reader matches them)."""
    rows = []
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        sel = (conf >= lo) & (conf < hi)
        if sel.any():
            rows.append({"bin": f"{lo:.2f}-{min(hi, 1.0):.2f}", "n": int(sel.sum()),
                         "confidence": round(float(conf[sel].mean()), 3), "accuracy": round(float(right[sel].mean()), 3)})
    return rows


__all__ = ["CardModel", "CombinedModel", "ModelFileError", "shrink", "upright", "softmax", "figures", "reliability",
           "MODEL_FILE", "META_FILE", "CORNER_MODEL_FILE", "CORNER_MODEL_FILES", "HIDDEN_FILL", "corner", "INPUT_W",
           "INPUT_H", "NONE", "CHECK_SAMPLES"]
