#!/usr/bin/env python3
"""How high the camera may hang over the pile so the recogniser still gets enough pixels.

    python hardware/camera_height.py --fov 70 --width 1280   your camera: horizontal FOV, image width
    python hardware/camera_height.py --write                 refresh the table in hardware/README.md
    python hardware/camera_height.py --check                 exit 1 if that table is out of date

The recogniser needs a card about 100 px on its short side (docs: DESIGN.md section 4). A
camera of horizontal field of view F and W pixels across sees a strip 2·d·tan(F/2) wide at
distance d, so its density is W / (2·d·tan(F/2)) px/mm; the highest distance that keeps the
density at MIN_CARD_PX / CARD_SHORT_MM is d = W·CARD_SHORT_MM / (MIN_CARD_PX·2·tan(F/2)).
"""
from __future__ import annotations

import argparse
import math
import sys

import readme_blocks
from boardspec import README_PATH

CARD_SHORT_MM = 56.0   # UNO cards are 56 x 87 mm (poker-size decks: 63 mm, easier)
MIN_CARD_PX = 100.0    # what the recogniser needs on the card's short side
PILE_ZONE_MM = 150.0   # the taped square / mat the cards land on
ASPECT_W, ASPECT_H = 16, 9   # webcams give their diagonal field of view for a 16:9 image


def horizontal_fov(diagonal_deg: float) -> float:
    """Horizontal field of view of a 16:9 camera from the diagonal one on its box."""
    ratio = ASPECT_W / math.hypot(ASPECT_W, ASPECT_H)
    return math.degrees(2 * math.atan(math.tan(math.radians(diagonal_deg) / 2) * ratio))


CAMERAS = (            # (what, image width px, horizontal field of view in degrees)
    ("720p, 55° diagonal (e.g. Logitech C270)", 1280, horizontal_fov(55.0)),
    ("720p, 78° diagonal (e.g. Logitech C920 set to 720p)", 1280, horizontal_fov(78.0)),
    ("1080p, 78° diagonal (e.g. Logitech C920)", 1920, horizontal_fov(78.0)),
    ("720p wide-angle, 90° horizontal", 1280, 90.0),
)
BLOCK, SCRIPT = "camera-height", "hardware/camera_height.py"


def density_needed() -> float:
    """px/mm the card needs."""
    return MIN_CARD_PX / CARD_SHORT_MM


def max_distance_mm(width_px: int, fov_deg: float) -> float:
    """Largest lens-to-pile distance that keeps the card's short side >= MIN_CARD_PX."""
    return width_px / density_needed() / (2 * math.tan(math.radians(fov_deg) / 2))


def pile_px(width_px: int, fov_deg: float, distance_mm: float) -> float:
    """How many pixels the pile zone spans at `distance_mm`."""
    return PILE_ZONE_MM * width_px / (2 * distance_mm * math.tan(math.radians(fov_deg) / 2))


def markdown() -> str:
    begin, end = readme_blocks.markers(BLOCK, SCRIPT)
    need = density_needed()
    rows = ["| Camera | Image width | Horizontal FOV | Highest lens-to-pile distance | "
            "Pile zone at that distance | View width at that distance |",
            "| --- | --- | --- | --- | --- | --- |"]
    for what, width, fov in CAMERAS:
        d = max_distance_mm(width, fov)
        view = 2 * d * math.tan(math.radians(fov) / 2)
        rows.append(f"| {what} | {width} px | {fov:.1f}° | {d / 10:.0f} cm | "
                    f"{pile_px(width, fov, d):.0f} px | {view / 10:.0f} cm |")
    example_w, example_f = 1280, 70.0
    tan_half = math.tan(math.radians(example_f) / 2)
    text = [
        begin,
        f"Needed: {MIN_CARD_PX:g} px ÷ {CARD_SHORT_MM:g} mm = {need:.3f} px/mm. "
        f"Example, 720p camera with a {example_f:g}° horizontal field of view: "
        f"d = {example_w} px ÷ {need:.3f} px/mm ÷ (2 × tan {example_f / 2:g}°) = "
        f"{example_w / need:.0f} mm ÷ {2 * tan_half:.3f} = {max_distance_mm(example_w, example_f):.0f} mm.",
        "",
        *rows,
        "",
        f"The pile zone ({PILE_ZONE_MM / 10:g} cm square) is then {PILE_ZONE_MM * need:.0f} px across "
        "whatever the camera: comfortably over the 200 px the watcher wants.",
        end,
    ]
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fov", type=float, help="horizontal field of view, degrees")
    parser.add_argument("--dfov", type=float, help="diagonal field of view (what the box says), degrees")
    parser.add_argument("--width", type=int, default=1280, help="image width in pixels (default 1280)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="update hardware/README.md")
    group.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    args = parser.parse_args(argv)
    if args.dfov is not None and args.fov is None:
        args.fov = horizontal_fov(args.dfov)
    if args.fov is not None:
        if not 10 <= args.fov < 170 or args.width <= 0:
            print("camera_height: --fov must be 10..170 degrees and --width positive", file=sys.stderr)
            return 2
        d = max_distance_mm(args.width, args.fov)
        print(f"highest lens-to-pile distance: {d / 10:.0f} cm "
              f"(card short side {MIN_CARD_PX:g} px, pile zone {pile_px(args.width, args.fov, d):.0f} px)")
        return 0
    block = markdown()
    return readme_blocks.publish(README_PATH, BLOCK, SCRIPT, block, args.write, args.check, "camera table")


if __name__ == "__main__":
    sys.exit(main())
