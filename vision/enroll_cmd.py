"""`tableref enroll --deck NAME SOURCE`: teach the recogniser a physical deck.

SOURCE is a folder of labelled shots (a `labels.csv` with columns file,label, or file names
that start with the card code: `red-7.jpg`, `red-7_2.jpg`, `wild_draw4 (1).png`), or a
camera (`camera:0`, or just `0`): the command then asks for each card of `--cards` in turn.
The profile is stored in the user data directory and selected with `identify --deck NAME`.
A shot that cannot be read, or that shows no card, gets one error line and is left out; the
exit status is then 1 (SOME_FAILED), and 2 when no shot was usable (STYLE.md E8).
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import re
import sys

from tableref.errors import Exit, UserError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", required=True, help="name for the new deck profile")
    parser.add_argument("source", metavar="SOURCE", help="folder of labelled shots, or camera:N")
    parser.add_argument("--cards", default="uno",
                        help="deck whose cards the camera mode asks for (uno, uno112, uno_no_mercy, "
                             "ono99_classic, ono99_2022); default uno")


def code_from_name(stem: str, codes: list[str]) -> str | None:
    """`red-7`, `red-7_2`, `red-7 (3)`, `wild_draw4-b` -> the code; longest code wins."""
    for code in sorted(codes, key=len, reverse=True):
        if stem == code or (stem.startswith(code) and re.match(r"[ _.(\-]", stem[len(code)])):
            return code
    return None


def labelled_shots(folder: pathlib.Path, codes: list[str]) -> list[tuple[pathlib.Path, str]]:
    labels = folder / "labels.csv"
    known = set(codes)
    out: list[tuple[pathlib.Path, str]] = []
    if labels.is_file():
        with open(labels, newline="") as fh:
            reader = csv.DictReader(fh)
            if not reader.fieldnames or "file" not in reader.fieldnames or "label" not in reader.fieldnames:
                raise UserError(f"{labels}: needs a header with columns file,label")
            for lineno, row in enumerate(reader, start=2):
                code = (row.get("label") or "").strip()
                if code not in known:
                    raise UserError(f"{labels}:{lineno}: unknown card code {code!r}")
                out.append((folder / (row.get("file") or "").strip(), code))
        return out
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        code = code_from_name(path.stem, codes)
        if code is None:
            raise UserError(f"{path}: file name does not start with a card code (e.g. red-7.jpg)")
        out.append((path, code))
    if not out:
        raise UserError(f"{folder}: no images found (and no labels.csv)")
    return out


def _from_folder(folder: pathlib.Path, codes: list[str]) -> tuple[list, int]:
    from .recognise_input import read_image

    shots = []
    errors = 0
    pairs = labelled_shots(folder, codes)
    for i, (path, code) in enumerate(pairs, start=1):
        try:
            shots.append((read_image(path), code, str(path)))
        except UserError as exc:
            print(f"tableref: error: {exc}", file=sys.stderr)
            errors += 1
        print(f"\rreading shots {i}/{len(pairs)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return shots, errors


def _from_camera(index: int, codes: list[str]) -> tuple[list, int]:
    import cv2

    from .find_card import find_cards

    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        raise UserError(f"camera {index}: cannot open it")
    shots = []
    try:
        for i, code in enumerate(codes, start=1):
            while True:
                answer = input(f"[{i}/{len(codes)}] put {code} under the camera, Enter to shoot (s = skip, q = stop): ")
                if answer.strip().lower() in ("s", "q"):
                    break
                ok, frame = cap.read()
                if not ok or frame is None:
                    raise UserError(f"camera {index}: no picture")
                if find_cards(frame):
                    shots.append((frame, code, f"camera:{index} {code}"))
                    break
                print("  no card found in the picture; try again", file=sys.stderr)
            if answer.strip().lower() == "q":
                break
    finally:
        cap.release()
    return shots, 0


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from .cardface import DECKS, all_codes
    from .profiles import enrol_samples, profile_path, Profile
    from .classify_symbol import rank_key

    try:
        path = profile_path(args.deck)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.deck in ("auto", *DECKS):
        raise UserError(f"--deck {args.deck}: that name is a built-in deck; choose another name")
    if args.cards not in DECKS:
        raise UserError(f"--cards {args.cards}: unknown deck (known: {', '.join(DECKS)})")
    camera = re.fullmatch(r"(?:camera:)?(\d+)", args.source)
    if camera:
        shots, errors = _from_camera(int(camera.group(1)), all_codes(args.cards))
    else:
        folder = pathlib.Path(args.source)
        if not folder.is_dir():
            raise UserError(f"{folder}: no such folder (give a folder of labelled shots or camera:N)")
        shots, errors = _from_folder(folder, all_codes("all"))
    rng = np.random.default_rng(7)
    xs, labels, codes = [], [], []
    for n, (image, code, name) in enumerate(shots, start=1):
        try:
            feats = enrol_samples(image, code, rng)
        except LookupError as exc:
            print(f"tableref: error: {name}: {exc}", file=sys.stderr)
            errors += 1
            continue
        xs += feats
        labels += [rank_key(code)] * len(feats)
        codes += [code] * len(feats)
        print(f"\rlearning {n}/{len(shots)} ({code})        ", end="", file=sys.stderr)
    print(file=sys.stderr)
    if not xs:
        raise UserError(f"{args.source}: no usable shots, profile not written")
    profile = Profile(args.deck, np.stack(xs), labels, codes, {"shots": len(shots) - errors})
    profile.save(path)
    print(f"deck {args.deck}: {len(set(codes))} cards from {len(shots) - errors} shots -> {path}")
    return Exit.SOME_FAILED if errors else Exit.OK
