#!/usr/bin/env python3
"""Train the learned card reader on the project's own synthetic cards and ship it as ONNX.

Seeded and CPU only: the training images come from vision/reader_data.py (cardface renders in
random scenes, warped back as the finder would), a compact CNN reads them, a temperature
fitted on a separate synthetic validation set calibrates it, and the model is exported to
vision/models/card_reader.onnx (outputs: logits and the penultimate embedding) with
card_reader.json beside it (classes, input, temperature, seed, counts, the figures measured
on the validation set through cv2.dnn, and the log of each epoch). No photo is used.

Needs the `train` extra (pip install -e '.[train]'):

    python tools/train_reader.py [--train 40000] [--val 3000] [--epochs 12] [--seed 2026] [--cache DIR]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import pathlib
import sys
import time

import cv2
import numpy as np

from tableref.vision import card_model, reader_data

MODELS = pathlib.Path(__file__).resolve().parents[1] / "vision" / "models"


def make_set(seed: int, n: int, workers: int, cache: pathlib.Path | None,
             corner: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n samples of the seeded stream, at the model's input size, made in chunks by `workers`
    processes (`corner`: the corner stream of that version; 0, the whole-card stream). With
    `cache`, each chunk is kept on disk under a name that says what made it, so that a longer
    run reuses a shorter one's images."""
    jobs = [(seed, a, min(n, a + CHUNK), cache, corner) for a in range(0, n, CHUNK)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.starmap(_make_chunk, jobs, chunksize=1)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


CHUNK = 250


def _make_chunk(seed: int, start: int, stop: int, cache: pathlib.Path | None,
                corner: int) -> tuple[np.ndarray, np.ndarray]:
    path = None
    if cache is not None:
        stream = f"_corner{corner}" if corner else ""
        path = cache / (f"reader_v{reader_data.generator(bool(corner))}{stream}_{seed}_{start}_{stop}_"
                        f"{card_model.INPUT_W}x{card_model.INPUT_H}.npz")
        if path.is_file():
            with np.load(path) as z:
                return z["x"], z["y"]
    cv2.setNumThreads(1)
    # the corner reader reads cards partly under others, that part painted out
    images, labels = reader_data.dataset(seed, start, stop, hidden=bool(corner), corner_version=corner)
    small = card_model.shrink(images, "corner" if corner else "whole")
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path.with_suffix(".tmp.npz"), x=small, y=labels)
        path.with_suffix(".tmp.npz").replace(path)
    return small, labels


def shared_parts(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per class, the index of its ink (red, yellow, green, blue or other) and of its rank
    (shared by the four inks). Auxiliary heads learn these: a rank seen in four colours gets
    four times the examples, which a small synthetic set needs."""
    from tableref.vision.cardface import UNO_COLOURS, split_code
    inks, ranks = [], []
    for code in names:
        colour, rank = split_code(code) if code != reader_data.NONE else (None, code)
        inks.append(UNO_COLOURS.index(colour) if colour else len(UNO_COLOURS))
        ranks.append(rank)
    rank_names = sorted(set(ranks))
    return np.array(inks), np.array([rank_names.index(r) for r in ranks])


def build_net(n_classes: int, embed_dim: int, n_inks: int, n_ranks: int):
    import torch.nn as nn

    def block(cin: int, cout: int, stride: int = 1) -> list:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Reader(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # strided convolutions rather than pooling: a quarter of the work per layer, which
            # matters on a shared 2-core CPU
            self.features = nn.Sequential(
                *block(3, 16, 2), *block(16, 32, 2), *block(32, 32),        # 96x64 -> 24x16
                *block(32, 64, 2), *block(64, 64),                          # -> 12x8
                *block(64, 128, 2), *block(128, 128),                       # -> 6x4
                nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.embed = nn.Sequential(nn.Linear(128, embed_dim), nn.BatchNorm1d(embed_dim), nn.ReLU(inplace=True))
            self.head = nn.Linear(embed_dim, n_classes)
            # training only (not exported): ink and rank from the same embedding
            self.ink_head = nn.Linear(embed_dim, n_inks)
            self.rank_head = nn.Linear(embed_dim, n_ranks)

        def forward(self, x):
            e = self.embed(self.features(x))
            return self.head(e), e

    return Reader()


def _batches(x: np.ndarray, y: np.ndarray, size: int, rng: np.random.Generator | None):
    order = rng.permutation(len(x)) if rng is not None else np.arange(len(x))
    for a in range(0, len(x), size):
        idx = order[a:a + size]
        yield x[idx], y[idx]


def _to_tensor(images: np.ndarray, rng: np.random.Generator | None):
    """uint8 NHWC -> float NCHW in 0..1; in training also turned half round (either end up)
    and lit a little differently, both cheap enough to do per batch."""
    import torch
    f = images.astype(np.float32) / 255.0
    if rng is not None:
        flip = rng.random(len(f)) < 0.5
        f[flip] = f[flip, ::-1, ::-1]
        f *= rng.uniform(0.8, 1.2, (len(f), 1, 1, 3)).astype(np.float32)
        f += rng.uniform(-0.08, 0.08, (len(f), 1, 1, 1)).astype(np.float32)
        np.clip(f, 0, 1, out=f)
    return torch.from_numpy(np.ascontiguousarray(f.transpose(0, 3, 1, 2)))


AUX_WEIGHT = 0.3


def train(net, x: np.ndarray, y: np.ndarray, epochs: int, seed: int, log: list, xv, yv, names: list[str]) -> None:
    import torch
    import torch.nn.functional as F
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    steps = epochs * ((len(x) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    rng = np.random.default_rng([seed, 1])
    inks, ranks = (torch.from_numpy(a) for a in shared_parts(names))
    for ep in range(epochs):
        net.train()
        t0, total, n = time.time(), 0.0, 0
        for xb, yb in _batches(x, y, 128, rng):
            logits, e = net(_to_tensor(xb, rng))
            t = torch.from_numpy(yb)
            loss = (F.cross_entropy(logits, t, label_smoothing=0.05)
                    + AUX_WEIGHT * (F.cross_entropy(net.ink_head(e), inks[t]) + F.cross_entropy(net.rank_head(e), ranks[t])))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(xb)
            n += len(xb)
        logits = torch_logits(net, xv)
        acc = float((logits.argmax(1) == yv).mean())
        log.append({"epoch": ep + 1, "train_loss": round(total / n, 4), "val_accuracy": round(acc, 4),
                    "seconds": round(time.time() - t0, 1)})
        print(f"epoch {ep + 1}/{epochs}: loss {total / n:.4f}, val accuracy {acc:.4f} ({time.time() - t0:.0f} s)",
              flush=True)


def torch_logits(net, x: np.ndarray) -> np.ndarray:
    import torch
    net.eval()
    out = []
    with torch.no_grad():
        for xb, _ in _batches(x, np.zeros(len(x)), 256, None):
            out.append(net(_to_tensor(xb, None))[0].numpy())
    return np.concatenate(out)


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature that minimises the validation negative log-likelihood (grid, then a
    finer grid around the best: one parameter needs nothing cleverer)."""
    def nll(t: float) -> float:
        return float(-np.log(card_model.softmax(logits / t)[np.arange(len(y)), y] + 1e-12).mean())
    grid = np.exp(np.linspace(np.log(0.3), np.log(5.0), 60))
    best = min(grid, key=nll)
    fine = np.linspace(best * 0.93, best * 1.07, 30)
    return float(min(fine, key=nll))


def export(net, path: pathlib.Path) -> None:
    import torch
    net.eval()
    dummy = torch.zeros(1, 3, card_model.INPUT_H, card_model.INPUT_W)
    # the TorchScript exporter: its opset-13 graphs load in cv2.dnn (4.x and 5.x) and onnxruntime
    torch.onnx.export(net, (dummy,), str(path), input_names=["image"], output_names=["logits", "embedding"],
                      opset_version=13, dynamic_axes={"image": {0: "n"}}, dynamo=False)


def _history(previous: pathlib.Path) -> list[dict]:
    """The earlier runs written to this folder, one line each (so a shipped model keeps the
    figures of the runs that led to it)."""
    try:
        old = json.loads(previous.read_text())
    except (OSError, ValueError):
        return []
    keep = ("generator", "seed", "train_samples", "val_samples", "epochs", "parameters", "temperature", "seconds")
    run = {k: old[k] for k in keep if k in old}
    run["validation_accuracy"] = old.get("validation", {}).get("accuracy")
    run["photos"] = old.get("photos")
    return old.get("history", []) + [run]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--train", type=int, default=40000, help="synthetic training samples")
    ap.add_argument("--val", type=int, default=3000, help="synthetic validation samples (temperature, figures)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--embed", type=int, default=96, help="embedding width")
    ap.add_argument("--workers", type=int, default=2, help="processes making the images")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: on a busy machine more threads mostly spin)")
    ap.add_argument("--cache", type=pathlib.Path, default=None, help="keep the made image sets here")
    ap.add_argument("--make-only", action="store_true", help="only make (and cache) the image sets")
    ap.add_argument("--out", type=pathlib.Path, default=MODELS)
    ap.add_argument("--corner", type=int, nargs="?", const=reader_data.CORNER_VERSION, default=0,
                    choices=sorted(card_model.CORNER_MODEL_FILES), metavar="VERSION",
                    help="a corner reader (card_model.CORNER_MODEL_FILES): the index corner of cards partly under "
                    "others, that part painted out (reader_data.hide), from corner stream VERSION (default: the newest)")
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("train_reader: torch is missing; install the train extra: pip install -e '.[train]'", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    names = reader_data.classes()
    # train and validation are separate streams of the generator (different seeds)
    x, y = make_set(args.seed, args.train, args.workers, args.cache, args.corner)
    xv, yv = make_set(args.seed + 1, args.val, args.workers, args.cache, args.corner)
    model_file = card_model.CORNER_MODEL_FILES[args.corner] if args.corner else card_model.MODEL_FILE
    meta_file = pathlib.Path(model_file).with_suffix(".json").name
    t_data = time.time() - t0
    print(f"made {len(x)} training and {len(xv)} validation images in {t_data:.0f} s", flush=True)
    if args.make_only:
        return 0
    inks, ranks = shared_parts(names)
    net = build_net(len(names), args.embed, int(inks.max()) + 1, int(ranks.max()) + 1)
    n_params = sum(p.numel() for p in net.parameters())
    log: list[dict] = []
    train(net, x, y, args.epochs, args.seed, log, xv, yv, names)
    temperature = fit_temperature(torch_logits(net, xv), yv)
    args.out.mkdir(parents=True, exist_ok=True)
    onnx_path = args.out / model_file
    export(net, onnx_path)
    meta = {
        "classes": names, "input": {"width": card_model.INPUT_W, "height": card_model.INPUT_H,
                                    "layout": "NCHW", "channels": "BGR", "scale": "1/255"},
        "generator": reader_data.generator(bool(args.corner)),  # the image generator's version it was trained on
        "temperature": round(temperature, 4), "seed": args.seed, "train_samples": args.train,
        "val_samples": args.val, "val_seed": args.seed + 1, "epochs": args.epochs, "parameters": n_params,
        "embedding_dim": args.embed, "torch_version": torch.__version__,
        "view": "corner" if args.corner else "whole",  # its images: reader_data's corner stream, card_model.corner
        "corner_generator": args.corner or None,
        "seconds": {"data": round(t_data), "total": round(time.time() - t0)}, "log": log,
    }
    meta["history"] = _history(args.out / meta_file)
    (args.out / meta_file).write_text(json.dumps(meta, indent=1) + "\n")
    # the figures are measured through the shipped file and the runtime (card_model.py)
    model = card_model.CardModel.load(onnx_path)
    # (one end up, as the images come: the test recomputes it so)
    meta["validation"] = card_model.figures(model.probabilities_shrunk(xv, both_ends=False), yv, names)
    (args.out / meta_file).write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta["validation"], indent=1))
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size // 1024} kB), temperature {temperature:.3f}, "
          f"{n_params} parameters, {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
