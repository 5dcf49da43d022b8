"""Reading the recogniser's input images safely: every failure is one UserError naming the
file (missing, not an image, truncated, absurdly large), never a traceback or a silently
half-decoded picture."""
from __future__ import annotations

import pathlib
import struct

import cv2
import numpy as np

from tableref.errors import UserError

MAX_PIXELS = 50_000_000   # a 50 MP photo is plenty; 12000x12000 would need ~430 MB decoded


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 2 if marker != 0xFF else 1
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        i += 2 + length
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header without decoding; None for other formats."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _truncated(data: bytes) -> bool:
    if data[:2] == b"\xff\xd8":
        # FF D9 (end of image) cannot occur inside entropy-coded data (FF is always stuffed)
        return b"\xff\xd9" not in data.rstrip(b"\x00")[-4096:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-16:]
    return False


def decode_image(data: bytes, name: str) -> np.ndarray:
    """Decode image bytes to BGR, raising UserError('<name>: ...') when that is not possible."""
    if not data:
        raise UserError(f"{name}: empty file")
    size = image_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise UserError(f"{name}: image too large ({size[0]}x{size[1]} px, limit {MAX_PIXELS // 1_000_000} MP)")
    if _truncated(data):
        raise UserError(f"{name}: truncated image file (the end of the image data is missing)")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise UserError(f"{name}: not an image OpenCV can read")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise UserError(f"{name}: image too large ({img.shape[1]}x{img.shape[0]} px)")
    if min(img.shape[:2]) < 16:
        raise UserError(f"{name}: image too small ({img.shape[1]}x{img.shape[0]} px)")
    return img


def read_image(path: str | pathlib.Path) -> np.ndarray:
    p = pathlib.Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{p}: is a directory, not an image") from None
    except OSError as exc:
        raise UserError(f"{p}: cannot read ({exc.strerror or exc})") from None
    return decode_image(data, str(p))
