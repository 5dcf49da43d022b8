"""`tableref run`: referee a real game. Camera -> pile watcher -> referee (journaled) -> board
and screen; the keyboard and the board's buttons for what the camera cannot see.

    tableref run --game ono99_2022 --players 4 --names Ana Bo Cy Dan
    tableref run --game uno --players 3 --option target_score=200 --source game.mp4 --port sim://
    tableref run --resume                      # continue the last game after a crash or a quit

Settings come from flags, then TABLEREF_* environment variables, then the TOML config file
(tableref.settings).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
from typing import Any

from . import outputs
from .errors import Exit, UserError
from .rules import GAME_IDS, ruleset_class
from .settings import RunSettings, default_journal_dir, parse_option, resolve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help=f"the game being played: {', '.join(GAME_IDS)}")
    parser.add_argument("--players", type=int, default=None, metavar="N", help="number of seats")
    parser.add_argument("--names", nargs="+", default=None, metavar="NAME",
                        help="player names, seat 0 first (seats go clockwise)")
    parser.add_argument("--option", action="append", default=None, metavar="KEY=VALUE",
                        help="a game option, e.g. --option bust_on=exceed (repeatable)")
    parser.add_argument("--source", default=None,
                        help="camera index (default 0), a video file, dir/%%04d.png, or synth:seed=3,deck=uno")
    parser.add_argument("--port", default=None,
                        help="board: auto (default), a device such as /dev/ttyACM0, a pyserial URL, or sim://")
    parser.add_argument("--journal", default=None, metavar="FILE",
                        help="game journal (default: a new file in the user data folder)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the game in the journal (default: the newest one) exactly where it stopped")
    parser.add_argument("--preview", action="store_true", help="show the camera view with the pile region in a window")
    parser.add_argument("--deck", default=None, help="deck the recogniser expects (default auto)")
    parser.add_argument("--region", default=None, metavar="x,y,w,h", help="where the pile is, in pixels")
    parser.add_argument("--config", default=None, metavar="FILE", help="TOML settings file")
    parser.add_argument("--min-confidence", type=float, default=0.0, metavar="C",
                        help="ask for any card read with a confidence below C (0..1; default 0: trust the recogniser)")
    parser.add_argument("--confirm", action="store_true",
                        help="review a recording: after each card the camera reads, wait for Enter (or a correction)")
    parser.add_argument("--seats-calibrate", action="store_true",
                        help="before the game, each player in seat order lays a card on the pile, so the camera "
                             "learns where each seat sits (otherwise it learns from the first plays)")
    parser.add_argument("--speed", type=float, default=0.0,
                        help="pace a video file: 1 = as recorded (default 0: as fast as it decodes)")
    outputs.add_arguments(parser)


def parse_region(text: str | None) -> tuple[int, int, int, int] | None:
    if not text:
        return None
    try:
        x, y, w, h = (int(v) for v in str(text).split(","))
    except ValueError:
        raise UserError(f"--region {text!r}: expected x,y,w,h in pixels") from None
    if w <= 0 or h <= 0 or x < 0 or y < 0:
        raise UserError(f"--region {text!r}: width and height must be positive")
    return x, y, w, h


def has_records(path: pathlib.Path) -> bool:
    """Whether a journal holds anything after its header (an empty game is nothing to resume)."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            return sum(1 for line in fh if line.strip()) > 1
    except (OSError, UnicodeDecodeError):
        return False


def newest_journal(folder: pathlib.Path) -> pathlib.Path:
    found = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    games = [p for p in found if has_records(p)]
    if not games:
        raise UserError(f"--resume: no game journal in {folder}; name one with --journal FILE")
    return games[-1]


def check_journal_path(path: pathlib.Path) -> None:
    """A journal that could not be created is refused before anything starts."""
    if path.is_dir():
        raise UserError(f"--journal {path}: is a folder; name a file in it")
    for folder in path.parents:
        if folder.exists():
            if not folder.is_dir():
                raise UserError(f"--journal {path}: {folder} is a file, not a folder")
            if not os.access(folder, os.W_OK):
                raise UserError(f"--journal {path}: cannot write in {folder}")
            return


def source_to_keep(source: str) -> str:
    """The source as the journal keeps it: a file path made absolute, so a resume from another
    folder finds it; a camera index or a synth: spec as it is."""
    return source if source.isdigit() or source.startswith("synth") else os.path.abspath(source)


def settings_from_args(args: argparse.Namespace) -> tuple[RunSettings, dict[str, Any] | None]:
    """The merged settings, and the journal header when resuming."""
    if not 0.0 <= args.min_confidence <= 1.0:
        raise UserError(f"--min-confidence {args.min_confidence:g}: a confidence is between 0 and 1")
    options = dict(parse_option(o) for o in (args.option or []))
    flags: dict[str, Any] = {"game": args.game, "players": args.players, "names": args.names,
                             "source": args.source, "port": args.port, "journal": args.journal,
                             "deck": args.deck, "region": args.region, "options": options}
    config = pathlib.Path(args.config) if args.config else None
    header = None
    if args.resume:
        from .record import read_record
        path = pathlib.Path(args.journal) if args.journal else newest_journal(default_journal_dir())
        head, _ = read_record(path)
        for key, given, have in (("game", args.game, head.game), ("players", args.players, head.players)):
            if given is not None and given != have:
                raise UserError(f"--resume: {path} is a {head.game} game for {head.players} players, not --{key} {given}")
        if options:
            raise UserError("--resume: options come from the journal; --option cannot change them mid-game")
        flags.update(game=head.game, players=head.players, journal=str(path))
        for key in ("source", "port"):  # where the game was watched, unless given again now
            if flags[key] is None and head.table.get(key):
                flags[key] = head.table[key]
        if args.names is None and head.names:
            from .terminal_view import seat_names
            flags["names"] = seat_names(head.players, head.names)  # older journals may name fewer seats  # the names the game started with, unless renamed now
        header = head.to_json()
    settings = resolve(flags, config_path=config)
    if header is not None:
        settings.options = dict(header.get("options") or {})
    elif settings.origin.get("journal") == "default":
        stamp = time.strftime("%Y%m%d-%H%M%S")
        settings.journal = default_journal_dir() / f"{stamp}-{settings.game}.jsonl"
    check_journal_path(settings.journal)
    return settings, header


def open_devices(settings: RunSettings, applied: set, on_status: Any) -> tuple[Any, Any]:
    """The frame source and the board link; every missing device is one line, then UserError."""
    from .link import BoardLink
    problems: list[str] = []
    source = link = None
    try:
        from .vision.sources import open_source
        source = open_source(settings.source)
    except UserError as exc:
        hint = " -- to referee a recorded game instead, use --source FILE (a video of the pile)" \
            if settings.source.isdigit() else ""
        problems.append(f"{exc}{hint}")
    try:
        link = BoardLink.open(settings.port, applied=applied, on_status=on_status)
    except UserError as exc:
        hint = " -- to play without a board, use --port sim:// (a simulated board)" if settings.port != "sim://" else ""
        problems.append(f"board: {exc}{hint}")
    if problems:
        if source is not None:
            source.close()
        if link is not None:
            link.close()
        for line in problems[:-1]:
            print(f"tableref: error: {line}", file=sys.stderr)
        raise UserError(problems[-1])
    return source, link


def run(args: argparse.Namespace) -> int:
    from .journal_lock import JournalLock
    from .referee import Referee

    outputs.check_arguments(args)
    settings, header = settings_from_args(args)
    region = parse_region(settings.region)
    if args.speed < 0:
        raise UserError("--speed must be 0 (as fast as possible) or positive")
    if header is None:
        Referee(settings.game, settings.players, settings.options)  # bad game/option/players: say so now
        if settings.journal.exists():
            raise UserError(f"{settings.journal}: already exists (use --resume to continue it)")
    # a bad --deck is refused before anything opens (every setting is checked before the journal)
    rules = ruleset_class(settings.game)
    recogniser = _recogniser(rules.vision_deck(rules.resolve_options(settings.options)) if settings.deck == "auto"
                             else settings.deck)
    with JournalLock(settings.journal):
        return _referee(args, settings, header, region, recogniser)


def _referee(args: argparse.Namespace, settings: RunSettings, header: dict[str, Any] | None,
             region: tuple[int, int, int, int] | None, recogniser: Any) -> int:
    from .keyboard import KeyReader
    from .live_view import LiveView, sim_board_text
    from .run_loop import RunLoop
    from .table import TableSession, make_header
    from .table_app import TableController

    view = LiveView()
    session = TableSession.resume(settings.journal, view.notice) if header is not None else None
    source, link = open_devices(settings, session.applied if session else set(), view.notice)
    keys = outs = None
    interrupted = False
    try:
        if session is None:
            table = {"source": source_to_keep(settings.source), "port": settings.port}
            session = TableSession.new(make_header(settings.game, settings.players, settings.options,
                                                   names=settings.names, table=table),
                                       settings.journal, on_first_record=True)
        from .vision.watcher import PileWatcher
        watcher = PileWatcher(recogniser, region=region)
        keys = KeyReader()
        ctrl = TableController(session, view, link, settings.names, min_confidence=args.min_confidence)
        outs = outputs.open_outputs(args, ctrl, view.notice, control=True)
        view.board_text = lambda: sim_board_text(link)  # a real board shows itself; sim:// is shown here
        if args.seats_calibrate and header is None:
            ctrl.calibrate_seats()
        preview = None
        if args.preview:
            from .preview import open_preview
            preview = open_preview(view.notice)
        replayable = not settings.source.isdigit()
        skip = session.last_frame if (header is not None and replayable) else None
        view.notice(f"journal: {settings.journal}")
        if keys.interactive:
            from .actions import HELP
            view.notice(HELP)
        from .evidence import EvidenceRecorder, evidence_dir, observe
        evidence = EvidenceRecorder(evidence_dir(settings.journal), lambda: watcher.region_box)
        observe(ctrl, evidence)
        from .watch_checkpoint import WatchCheckpoint
        loop = RunLoop(ctrl, source, watcher, keys, preview, speed=args.speed, skip_through_frame=skip,
                       wait_when_asking=replayable, confirm=args.confirm and replayable, on_frame=evidence.frame,
                       remote=outs.commands,
                       checkpoint=WatchCheckpoint(settings.journal, source.description) if replayable else None)
        view.prompt = loop.prompt
        ctrl.read_hand = loop.read_hand
        from .vision.pile_region import RegionError
        try:
            loop.run()
        except RegionError as exc:
            raise UserError(f"{settings.source}: {exc}") from None
        except KeyboardInterrupt:
            interrupted = True  # Ctrl-C: the same way out as q, with the same hint
        if evidence.failed:
            view.notice(evidence.failed)
        view.notice(closing_line(session, ctrl.names, settings.journal))
    finally:
        if outs is not None:
            outs.close()
        if keys is not None:
            keys.restore()
        if view.interactive:
            print()  # leave the shell prompt below the prompt line
        source.close()
        link.close()
        if session is not None:
            session.close()
    return Exit.INTERRUPTED if interrupted else Exit.OK


def closing_line(session: Any, names: list[str], journal: pathlib.Path) -> str:
    """What the person reads when `run` stops: the winner, or how to go on."""
    state = session.state
    if state.get("game_over") and state.get("winner") is not None:
        return f"game over: {names[state['winner']]} wins (journal {journal})"
    if session.journal is None:
        return "stopped before anything happened: no journal written"
    return f"stopped; continue with: tableref run --resume --journal {journal}"


def _recogniser(deck: str) -> Any:
    from .vision.recognise import Recogniser
    try:
        return Recogniser(deck=deck)
    except ValueError as exc:
        raise UserError(f"--deck: {exc}") from None
