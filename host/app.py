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
import pathlib
import sys
import time
from typing import Any

from .errors import UserError
from .settings import RunSettings, default_journal_dir, parse_option, resolve

GAMES = ("ono99_classic", "ono99_2022", "uno", "uno_no_mercy", "ena")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=GAMES, default=None, help="the game being played")
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


def newest_journal(folder: pathlib.Path) -> pathlib.Path:
    found = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    if not found:
        raise UserError(f"--resume: no game journal in {folder}; name one with --journal FILE")
    return found[-1]


def settings_from_args(args: argparse.Namespace) -> tuple[RunSettings, dict[str, Any] | None]:
    """The merged settings, and the journal header when resuming."""
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
        if args.names is None and head.names:
            flags["names"] = head.names  # the names the game started with, unless renamed now
        header = head.to_json()
    settings = resolve(flags, config_path=config)
    if header is not None:
        settings.options = dict(header.get("options") or {})
    elif settings.origin.get("journal") == "default":
        stamp = time.strftime("%Y%m%d-%H%M%S")
        settings.journal = default_journal_dir() / f"{stamp}-{settings.game}.jsonl"
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
    from .keyboard import KeyReader
    from .live_view import LiveView
    from .referee import Referee
    from .run_loop import RunLoop
    from .table import TableSession, make_header
    from .table_app import TableController

    settings, header = settings_from_args(args)
    region = parse_region(settings.region)
    if args.speed < 0:
        raise UserError("--speed must be 0 (as fast as possible) or positive")
    if header is None:
        Referee(settings.game, settings.players, settings.options)  # bad game/option/players: say so now
        if settings.journal.exists():
            raise UserError(f"{settings.journal}: already exists (use --resume to continue it)")
    view = LiveView()
    session = TableSession.resume(settings.journal, view.notice) if header is not None else None
    source, link = open_devices(settings, session.applied if session else set(), view.notice)
    keys = None
    try:
        if session is None:
            settings.journal.parent.mkdir(parents=True, exist_ok=True)
            session = TableSession.new(make_header(settings.game, settings.players, settings.options,
                                                   names=settings.names), settings.journal)
        from .vision.watcher import PileWatcher
        deck = game_deck(settings.game, session.referee.options) if settings.deck == "auto" else settings.deck
        watcher = PileWatcher(_recogniser(deck), region=region)
        keys = KeyReader()
        ctrl = TableController(session, view, link, settings.names, min_confidence=args.min_confidence)
        if args.seats_calibrate and header is None:
            ctrl.calibrate_seats()
        view.prompt = lambda: f"> {keys.buffer}" if keys is not None else ""
        view.board_text = None
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
        loop = RunLoop(ctrl, source, watcher, keys, preview, speed=args.speed, skip_through_frame=skip,
                       wait_when_asking=replayable, confirm=args.confirm and replayable)
        try:
            loop.run()
        except ValueError as exc:  # the watcher's region is outside the frame
            raise UserError(f"{settings.source}: {exc}") from None
        state = session.state
        if state.get("game_over") and state.get("winner") is not None:
            view.notice(f"game over: {ctrl.names[state['winner']]} wins (journal {settings.journal})")
        else:
            view.notice(f"stopped; continue with: tableref run --resume --journal {settings.journal}")
    finally:
        if keys is not None:
            keys.restore()
        if view.interactive:
            print()  # leave the shell prompt below the prompt line
        source.close()
        link.close()
        if session is not None:
            session.close()
    return 0


def game_deck(game: str, options: dict[str, Any]) -> str:
    """The recogniser's deck for a game when --deck is auto: only codes the game can have."""
    if game.startswith("ono99"):
        return game
    if game == "uno_no_mercy":
        return "uno_no_mercy"
    return "uno" if str(options.get("deck", "108")) == "108" else "uno112"


def _recogniser(deck: str) -> Any:
    from .vision.recognise import Recogniser
    try:
        return Recogniser(deck=deck)
    except ValueError as exc:
        raise UserError(f"--deck: {exc}") from None
