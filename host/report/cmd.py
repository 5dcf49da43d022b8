"""`tableref report JOURNAL [--out FILE.html] [--png DIR]`: the after-game report of a journal.

Reads the journal (tableref.record: every bad line is one clear error), replays it, finds the
evidence pictures beside it (tableref.evidence), draws the plots and writes one HTML file.
Pictures the journal calls for but the folder lacks are named in the report; a journal kept
without pictures (a simulated or typed game) gives a report without them.
"""
from __future__ import annotations

import argparse
import pathlib

from ..errors import UserError
from ..evidence import evidence_dir, picture_name
from ..record import read_record
from .html import Pictures, report_html
from .series import GameFigures, game_figures


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", metavar="JOURNAL", help="game journal (.jsonl) written by tableref run or demo")
    parser.add_argument("--out", metavar="FILE.html", default=None,
                        help="where to write the report (default: the journal's name with .html, beside it)")
    parser.add_argument("--png", metavar="DIR", default=None, help="also write the plots as PNG files into DIR")


def run(args: argparse.Namespace) -> int:
    journal = pathlib.Path(args.journal)
    out = pathlib.Path(args.out) if args.out else journal.with_suffix(".html")
    print(write_report(journal, out, pathlib.Path(args.png) if args.png else None))
    return 0


def write_report(journal: pathlib.Path, out: pathlib.Path, png_dir: pathlib.Path | None = None) -> str:
    """Write the report of `journal` to `out` (and its plots into `png_dir`); one line saying what was done."""
    from .plots import game_plots, png_bytes  # matplotlib only once the journal has been read

    fig = figures_of(journal)
    pictures = find_pictures(evidence_dir(journal), fig)
    plots = {name: png_bytes(figure) for name, figure in game_plots(fig).items()}
    written = [_write(out, report_html(fig, plots, pictures, journal.name).encode("utf-8"))]
    if png_dir is not None:
        written += [_write(png_dir / f"report-{name}.png", png) for name, png in plots.items()]
    missing = (f"; {len(pictures.missing)} pictures missing" if pictures.missing else "") if pictures.exists else \
        ("; no evidence pictures" if any(i.pictures for i in fig.incidents) else "")
    return (f"report: {', '.join(map(str, written))} ({fig.records} records, "
            f"{sum(1 for i in fig.incidents if i.kind == 'illegal')} illegal plays, {len(pictures.found)} pictures{missing})")


def figures_of(journal: pathlib.Path) -> GameFigures:
    header, records = read_record(journal)
    try:
        return game_figures(header, records)
    except UserError as exc:  # e.g. an undo with nothing to undo: not a journal tableref wrote
        raise UserError(f"{journal}: cannot be replayed: {exc}") from None


def find_pictures(folder: pathlib.Path, fig: GameFigures) -> Pictures:
    """The pictures the report shows: every incident's, and each settled pile's thumbnail."""
    pictures = Pictures(str(folder), folder.is_dir())
    if not pictures.exists:
        return pictures
    for inc in fig.incidents:
        for kind in inc.pictures:
            name = picture_name(inc.index, kind)
            data = _read(folder / name)
            if data is None:
                pictures.missing.append(name)
            else:
                pictures.found[name] = data
    for kind, into in (("pile", pictures.piles), ("asked", pictures.asked)):
        for path in sorted(folder.glob(f"*-{kind}.jpg")):
            index = path.name.split("-", 1)[0]
            data = _read(path)
            if index.isdigit() and data is not None:
                pictures.found[path.name] = data
                into.append((int(index), path.name))
    return pictures


def _read(path: pathlib.Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _write(path: pathlib.Path, data: bytes) -> pathlib.Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror})") from None
    return path
