"""Table-top textures for the synthetic pile scenes: wood, felt, a dark mat and a light top.

Each is built from a few octaves of smooth noise so that no two seeds look alike, and so
that the watcher meets fine texture (which survives downscaling) as on a real table.
"""
from __future__ import annotations

import cv2
import numpy as np

TEXTURES = ("wood", "felt", "dark_mat", "light_top")


def _smooth_noise(h: int, w: int, cell: float, rng: np.random.Generator) -> np.ndarray:
    """Noise in [-1, 1] with features about `cell` pixels across (bicubic upscaling of random cells)."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _octaves(h: int, w: int, cells: tuple[float, ...], rng: np.random.Generator) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    for k, cell in enumerate(cells):
        out += _smooth_noise(h, w, cell, rng) / (2 ** k)
    return out / np.abs(out).max()


def _wood(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    # Grain: stripes along a random axis, bent by low-frequency noise; planks as darker seams.
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = -xx * np.sin(angle) + yy * np.cos(angle)
    warp = _octaves(h, w, (w / 3, w / 10), rng) * w * 0.02
    period = rng.uniform(6, 14) * w / 640
    grain = 0.5 + 0.5 * np.sin((across + warp) / period * 2 * np.pi)
    plank = rng.uniform(0.18, 0.35) * max(h, w)
    seam = (np.abs(((across + plank * 10) % plank) - plank / 2) > plank / 2 - max(1.0, w / 640)).astype(np.float32)
    fibre = _smooth_noise(h, w, max(2.0, w / 400), rng)
    base = np.array(rng.choice([(40, 80, 130), (30, 60, 100), (60, 110, 160), (50, 95, 140)]), np.float32)
    shade = 0.8 + 0.25 * grain[..., None] + 0.06 * fibre[..., None] - 0.35 * seam[..., None]
    return base * shade


def _felt(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    base = np.array(rng.choice([(60, 110, 30), (90, 60, 20), (40, 40, 120), (70, 100, 50)]), np.float32)
    fine = _smooth_noise(h, w, max(1.5, w / 500), rng)
    blotch = _octaves(h, w, (w / 4, w / 12), rng)
    return base * (1 + 0.08 * fine[..., None] + 0.05 * blotch[..., None])


def _dark_mat(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    base = np.array(rng.choice([(28, 28, 30), (35, 30, 30), (25, 30, 35)]), np.float32)
    fine = _smooth_noise(h, w, max(1.5, w / 600), rng)
    return base * (1 + 0.15 * fine[..., None])


def _light_top(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    base = np.array(rng.choice([(215, 220, 222), (200, 205, 210), (225, 225, 215)]), np.float32)
    speck = _smooth_noise(h, w, max(1.5, w / 700), rng)
    cloud = _octaves(h, w, (w / 5, w / 15), rng)
    return base * (1 + 0.025 * speck[..., None] + 0.03 * cloud[..., None])


def table_texture(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """BGR uint8 texture of `size` (width, height)."""
    w, h = size
    makers = {"wood": _wood, "felt": _felt, "dark_mat": _dark_mat, "light_top": _light_top}
    if kind not in makers:
        raise ValueError(f"unknown table texture {kind!r}; known: {', '.join(TEXTURES)}")
    return np.clip(makers[kind](h, w, rng), 0, 255).astype(np.uint8)
