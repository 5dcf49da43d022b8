"""`tableref enroll --deck NAME SOURCE`: teach the recogniser a physical deck.

SOURCE is a folder of labelled shots (a `labels.csv` with columns file,label, or file names
that start with the card code: `red-7.jpg`, `red-7_2.jpg`, `wild_draw4 (1).png`), or a live
source (`camera:0` or just `0`; also a video or `dir/%04d.png` of the cards in turn): the
command then asks for each distinct face of `--cards` once and reads each shot back at once,
so a shot with no card, or of the wrong card, is taken again.
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
from typing import Any, Callable, Iterator

from tableref.errors import Exit, UserError

LIVE_DRAIN = 5  # frames read from a live camera per shot: the last one is the picture

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


def _next_frame(frames: Iterator[Any], live: bool) -> Any:
    """The picture to learn: the next frame of a video, the newest of a live camera (a webcam
    keeps a few frames queued, taken before the card was laid)."""
    frame = None
    for _ in range(LIVE_DRAIN if live else 1):
        frame = next(frames, None)
        if frame is None:
            break
    return None if frame is None else frame.image


def _from_stream(spec: str, codes: list[str], deck: str, learner: Any, ask: Callable[[str], str] = input) -> None:
    """Each distinct face of `codes` once, shot from a live source (a camera, or a video of
    the cards in turn), read back at once: a shot with no card or of the wrong card is taken
    again. Learns into `learner`."""
    from .enrolment import check_shot
    from .recognise import Recogniser
    from .sources import CameraSource, open_source

    source = open_source(spec)
    frames = iter(source)
    live = isinstance(source, CameraSource)
    answer = ""
    try:
        for i, code in enumerate(codes, start=1):
            pending = None  # a shot the read-back doubted, kept if the person says so (k)
            while True:
                try:
                    answer = ask(f"[{i}/{len(codes)}] put {code} under the camera, Enter to shoot "
                                 "(s = skip, q = stop): ").strip().lower()
                except EOFError:
                    answer = "q"
                if answer in ("s", "q"):
                    break
                said = f"kept as {code}"
                if answer == "k" and pending is not None:
                    frame = pending
                else:
                    frame = _next_frame(frames, live)
                    if frame is None:
                        print(f"{spec}: no more pictures; stopping at {code}", file=sys.stderr)
                        return
                    reading = Recogniser(deck, extra=learner.profile() if learner.xs else None).identify(frame)
                    found = reading.quad is not None  # the finder outlined something
                    check = check_shot(code, reading, found)
                    said = check.text
                    if not check.keep:
                        print(f"  {check.text}", file=sys.stderr)
                        pending = frame if found else None
                        continue
                try:
                    learner.add(frame, code)
                except LookupError as exc:  # what the finder outlined is table, not a card
                    print(f"  {exc}", file=sys.stderr)
                    pending = None
                    continue
                print(f"  {said}", file=sys.stderr)
                break
            if answer == "q":
                break
    finally:
        source.close()


def run(args: argparse.Namespace) -> int:
    from .cardface import DECKS, all_codes
    from .deck_inks import moved
    from .enrolment import Learner
    from .profiles import profile_path

    try:
        path = profile_path(args.deck)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.deck in ("auto", *DECKS):
        raise UserError(f"--deck {args.deck}: that name is a built-in deck; choose another name")
    if args.cards not in DECKS:
        raise UserError(f"--cards {args.cards}: unknown deck (known: {', '.join(DECKS)})")
    learner = Learner(args.deck)
    errors = 0
    folder = pathlib.Path(args.source)
    if folder.is_dir() and not any(ch in args.source for ch in "%"):
        shots, errors = _from_folder(folder, all_codes("all"))
        for n, (image, code, name) in enumerate(shots, start=1):
            try:
                learner.add(image, code)
            except LookupError as exc:
                print(f"tableref: error: {name}: {exc}", file=sys.stderr)
                errors += 1
                continue
            print(f"\rlearning {n}/{len(shots)} ({code})        ", end="", file=sys.stderr)
        print(file=sys.stderr)
    else:
        camera = re.fullmatch(r"camera:(\d+)", args.source)
        _from_stream(camera.group(1) if camera else args.source, all_codes(args.cards), args.cards, learner)
    if not learner.xs:
        raise UserError(f"{args.source}: no usable shots, profile not written")
    profile = learner.profile()
    profile.save(path)
    inks = learner.inks()
    odd = ", ".join(f"{c} (hue {inks[c]:.0f})" for c in moved(inks))
    # a deck printed in other shades than the readers know is read recoloured: say so
    print(f"deck {args.deck}: {len(set(learner.codes))} cards from {learner.shots} shots -> {path}"
          + (f"; its own inks, read recoloured: {odd}" if odd else ""))
    return Exit.SOME_FAILED if errors else Exit.OK
