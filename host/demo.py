"""`tableref demo`: a whole game refereed end to end with no camera and no board.

A seeded simulated game (tableref.simulate) is chosen by searching seeds in order for the first
one with every feature the demo shows (game_script.find_game). Its pile video is rendered
frame by frame by the synthetic scene generator and watched by the real PileWatcher and
Recogniser; the referee (TableSession, journaled) judges each card; the board is the real
firmware on the MicroPython unix port behind a pty when `micropython` is installed, else the
in-process `sim://` board. A scripted person at the table presses the board's buttons for
what the camera cannot see (out, draw, pass, colour), types what has no button (UNO call,
catch, scores), and, like a person would, answers when the referee asks for an unreadable
card and corrects a misread one (undo, then type it). In the Ena game, every hand comes
from its player's side of the table and the camera alone credits each overtake (a card
played out of turn) to the seat it came from (tableref.seats).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile
import time
from typing import Any, Callable

from . import outputs
from .errors import UserError
from .game_script import (CAMERA_SEAT_GAMES, DEMO_SETUP, REQUIRED, Step, TableGame, find_game, game_scene,
                          seats_learned_first)
from .rules import canonical_game, ruleset_class

PRESS_TIMEOUT_S = 15.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="ono99_2022",
                        help=f"{' or '.join(DEMO_SETUP)} (default {next(iter(DEMO_SETUP))})")
    parser.add_argument("--seed", type=int, default=0, help="first seed of the search for a game to show (default 0)")
    parser.add_argument("--speed", type=float, default=0.0,
                        help="video pace: 1 = real time, 0 = as fast as it renders (default)")
    parser.add_argument("--board", choices=("auto", "firmware", "sim"), default="auto",
                        help="auto (default): the real firmware on the MicroPython unix port if installed, else sim://")
    parser.add_argument("--json", action="store_true", help="JSON lines of events and states")
    parser.add_argument("--journal", metavar="FILE", default=None,
                        help="keep the game's journal here, its evidence pictures beside it (default: a temporary file)")
    parser.add_argument("--report", metavar="FILE.html", default=None,
                        help="write the after-game report here at the end (the demo's frames are its pictures)")
    outputs.add_arguments(parser)


def demo_game(name: str) -> str:
    """The game id for --game (an id or an older alias such as ono99), if the demo has it."""
    game = canonical_game(name)
    if game not in DEMO_SETUP:
        raise UserError(f"the demo plays {' or '.join(DEMO_SETUP)}, not {game}")
    return game


def render_table_line(state: dict[str, Any], game: str) -> str:
    """What the table shows for `state` on one short line (also used by replay's tests)."""
    from .rules.describe import describe_state
    return describe_state(state, game)


def _norm(ev: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ev.items() if not (k == "seat" and v is None)}


class Person:
    """The scripted person at the table: presses, types, corrects."""

    def __init__(self, ctrl: Any, link: Any, firmware: Any) -> None:
        self.ctrl = ctrl
        self.link = link
        self.firmware = firmware
        self.presses = 0
        self.typed = 0
        self.corrections = 0

    def type(self, line: str) -> None:
        from .keyboard import parse_command
        cmd = parse_command(line)
        assert cmd is not None
        self.typed += 1
        self.ctrl.command(cmd)

    def press(self, step: Step) -> None:
        before = len(self.ctrl.session.records)
        button = step.button or ""
        if self.firmware is not None:
            if button == "COLOUR":
                self.firmware.press_colour(step.colour or "red", self.ctrl.session.snapshot().colour)
            else:
                self.firmware.press(button, "short")
        else:
            self.link.sim.press(button, "long" if button == "COLOUR" else "short", step.colour)
        deadline = time.monotonic() + PRESS_TIMEOUT_S
        while len(self.ctrl.session.records) == before:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the board's {button} press never arrived")
            self.ctrl.poll_board(timeout_s=0.02)
        self.presses += 1

    def reconcile(self, expected: list[dict[str, Any]]) -> None:
        """Make the referee's events equal `expected`, as a person would: undo what is wrong,
        then type what is missing (an unreadable card is named when the board shows CArd)."""
        session = self.ctrl.session
        actual = [_norm(e) for e in session.referee.events]
        want = [_norm(e) for e in expected]
        while actual != want[:len(actual)]:
            self.type("u")
            self.corrections += 1
            actual = [_norm(e) for e in session.referee.events]
        for ev in want[len(actual):]:
            self.corrections += 1
            if ev["type"] in ("card", "flip"):
                seat = ev.get("seat")  # a card out of turn the camera did not credit: say whose
                self.type(f"{seat} x {ev['card']}" if seat is not None else f"x {ev['card']}")
            else:
                from .game_script import _typed
                self.type(_typed(ev))


def _open_board(choice: str, on_status: Any) -> tuple[Any, Any, str]:
    from .firmware_board import FirmwareBoard, unavailable
    from .link import BoardLink
    firmware = None
    why = unavailable()
    if choice == "firmware" and why:
        raise UserError(f"--board firmware: {why}")
    if choice in ("auto", "firmware") and not why:
        firmware = FirmwareBoard()
        link = BoardLink.open(firmware.port, on_status=on_status, wait=True)
        return link, firmware, "the real firmware on the MicroPython unix port (pty)"
    link = BoardLink.open("sim://", on_status=on_status)
    return link, None, "sim:// (in-process simulated board)" + (f"; firmware not used: {why}" if why else "")


def _board_text(link: Any, firmware: Any) -> str | None:
    from .live_view import ring_text, sim_board_text
    if firmware is not None:
        # the firmware shows a new snapshot within a few of its 10 ms steps: let it catch up, so
        # the line shows the board as it is now rather than one event behind
        cur = link.session.current
        deadline = time.monotonic() + 0.3
        shown = firmware.shown()
        while cur is not None and time.monotonic() < deadline and (not shown or shown.get("snap") != [cur.epoch, cur.seq]):
            time.sleep(0.005)
            shown = firmware.shown()
        if not shown:
            return None
        return f"'{shown['digits']}' ring {ring_text(shown['ring'])}"
    return sim_board_text(link)


def run(args: argparse.Namespace) -> int:
    from .live_view import JsonView, LiveView
    from .table import TableSession
    from .table_app import TableController
    from .vision.recognise import Recogniser
    from .vision.watcher import PileWatcher
    from .evidence import EvidenceRecorder, evidence_dir, observe

    if args.speed < 0:
        raise UserError("--speed must be 0 (as fast as possible) or positive")
    outputs.check_arguments(args)
    if args.journal and pathlib.Path(args.journal).exists():
        raise UserError(f"{args.journal}: already exists (the demo starts a new journal)")
    game = demo_game(args.game)
    setup = DEMO_SETUP[game]
    started = time.monotonic()
    seats = game in CAMERA_SEAT_GAMES
    seed, tg = find_game(game, setup["players"], setup["options"], REQUIRED[game], start_seed=args.seed,
                         misplay_rate=setup["misplay_rate"], camera_seats=seats,
                         accept=seats_learned_first if seats else None)
    scene = game_scene(tg, seed)
    notices: list[str] = []
    link, firmware, board_desc = _open_board(args.board, notices.append)
    board_text = lambda: _board_text(link, firmware)  # noqa: E731
    view: Any = JsonView(board_text=board_text) if args.json else LiveView(board_text=board_text)
    out = sys.stdout
    intro = (f"{game}, {tg.header['players']} players, seed {seed} (first seed from {args.seed} with "
             f"{', '.join(sorted(REQUIRED[game]))}); {scene.n_frames} frames of pile video; board: {board_desc}")
    if args.json:
        out.write(json.dumps({"demo": intro, "header": tg.header}) + "\n")
    else:
        out.write(intro + "\n")
    with tempfile.TemporaryDirectory(prefix="tableref-demo-") as tmp:
        journal = pathlib.Path(args.journal) if args.journal else pathlib.Path(tmp) / "journal.jsonl"
        session = TableSession.new(tg.header, journal)
        ctrl = TableController(session, view, link, [])
        watcher = PileWatcher(Recogniser(ruleset_class(game).vision_deck(session.referee.options)))
        evidence = EvidenceRecorder(evidence_dir(journal), lambda: watcher.region_box)
        observe(ctrl, evidence)
        person = Person(ctrl, link, firmware)
        outs = None
        try:
            outs = outputs.open_outputs(args, ctrl, view.notice)
            ctrl.publish("start")  # the screen, the page and the broker show the table before the first card
            summary = _play(tg, scene, ctrl, watcher, person, args.speed, on_frame=evidence.frame)
            _settle_board(ctrl, firmware)
            if args.web and sys.stdin.isatty():
                view.notice("game over; the page stays up until Enter")
                sys.stdin.readline()
        finally:
            if outs is not None:
                outs.close()
            session.close()
            link.close()
            if firmware is not None:
                firmware.close()
        if args.report:
            from .report.cmd import write_report
            summary["report"] = write_report(journal, pathlib.Path(args.report))
    state = session.state
    summary.update({"seconds": round(time.monotonic() - started, 1), "winner": state.get("winner"),
                    "presses": person.presses, "typed": person.typed, "corrections": person.corrections,
                    "board": _board_text(link, firmware) if firmware is None else summary.get("board")})
    if args.json:
        out.write(json.dumps({"summary": summary, "final_state": state}) + "\n")
    else:
        for line in notices + ([summary["report"]] if args.report else []):
            out.write(f"  ({line})\n")
        out.write(f"winner: {ctrl.names[state['winner']] if state.get('winner') is not None else 'none'}; "
                  f"{summary['frames']} frames watched, {summary['landed']} cards seen, {person.presses} board presses, "
                  f"{person.typed} typed commands ({person.corrections} corrections of the camera); "
                  f"{summary['seconds']} s\n")
    return 0 if state.get("game_over") else 1


def _play(tg: TableGame, scene: Any, ctrl: Any, watcher: Any, person: Person, speed: float,
          on_frame: Callable[[Any], None] | None = None) -> dict[str, Any]:
    from .vision.sources import Frame
    steps = tg.steps
    truth = scene.ground_truth()["events"]
    cam_index = [i for i, s in enumerate(steps) if s.kind in ("land", "remove")]
    grace = int(1.5 * scene.fps)
    i = 0          # next step to do
    seen = 0       # camera steps accounted for
    landed = 0
    start = time.monotonic()

    def expected_through(step_no: int) -> list[dict[str, Any]]:
        return [s.event for s in steps[:step_no + 1] if s.event is not None]

    def do_due() -> None:
        nonlocal i
        while i < len(steps) and steps[i].kind in ("press", "type"):
            person.reconcile(expected_through(i - 1))
            if steps[i].kind == "press":
                person.press(steps[i])
            else:
                person.type(steps[i].line or "")
            i += 1

    def account(step_no: int) -> None:
        nonlocal i, seen
        seen += 1
        i = step_no + 1
        person.reconcile(expected_through(step_no))
        if steps[step_no].kind == "remove" and ctrl.session.illegal_id:
            ctrl.session.submit({"type": "taken_back"})  # the watcher missed the take-back: say it

    for f in range(scene.n_frames):
        do_due()
        if speed > 0:
            delay = f / scene.fps / speed - (time.monotonic() - start)
            if delay > 0:
                time.sleep(delay)
        frame = Frame(f, f / scene.fps, scene.frame(f))
        if on_frame is not None:
            on_frame(frame)  # the evidence pictures' frame hook, as in RunLoop.handle_frame
        for ev in watcher.feed(frame.index, frame.t, frame.image):
            if ev.event == "landed":
                landed += 1
                ctrl.landed(ev.card, ev.t, ev.frame, ev.confidence, ev.bearing, ev.bearing_confidence, ev.likely)
            else:
                ctrl.removed(ev.t, ev.frame)
            if seen < len(cam_index):
                account(cam_index[seen])
        # a landing the watcher did not report (well after it settled): the person types it
        while seen < len(cam_index) and f > truth[seen]["frame"] + grace:
            account(cam_index[seen])
        ctrl.poll_board()
    while seen < len(cam_index):
        account(cam_index[seen])
    do_due()
    person.reconcile(tg.expected_events)
    return {"frames": scene.n_frames, "landed": landed}


def _settle_board(ctrl: Any, firmware: Any, timeout_s: float = 5.0) -> None:
    """Wait until the board acked (and, for the firmware, showed) the final state."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ctrl.poll_board(timeout_s=0.02)
        if ctrl.link.session.acked:
            if firmware is None:
                return
            shown = firmware.shown()
            cur = ctrl.link.session.current
            if shown and cur is not None and shown.get("snap") == [cur.epoch, cur.seq]:
                return
