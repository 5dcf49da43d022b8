"""The cooperative loop of `tableref run`: one frame at a time, then the keyboard and the board.

Nothing here blocks for long: a camera read waits for the next frame (tens of ms), the keyboard
and the board link are polled without waiting. A video file is read as fast as it decodes
unless `speed` paces it (1.0 = as recorded).

The video waits for the table: while the referee waits for a person (tableref.awaited: a
colour, a draw owed, a challenge's outcome, the end of a hand; or an unreadable card, or a
confirmation in --confirm mode) a recording is not read on, so no card is judged before the
answer. An input a card on the pile may give instead (a pass or the drawn card, a draw that
may be stacked, or in a game with jump-ins or overtaking a draw, since any seat's card may come
and must be seen) holds the video until it comes or until a lone Enter lets the video go on. A
live camera cannot wait: it keeps watching while the screen and the board say what is awaited.

Resuming from a file: the journal's camera records carry the frame they came from. The loop
first feeds every frame up to the last journaled one to the watcher and drops its events, so
the watcher is primed on the pile exactly as it looked there (its reference image, the history
it needs to tell a take-back from a landing, the grown region, the card size it has read),
then watches live from the next frame. Nothing already journaled is seen twice and nothing
after it is missed. The recogniser stays attached while priming: the outline of each card
read sets the card size the watcher goes on with, so without it the watcher would come out
of priming in another state than the uninterrupted run, and could see later frames otherwise.
"""
from __future__ import annotations

import queue
import time
from typing import Any, Callable, Iterable, Iterator

from .awaited import describe
from .keyboard import CommandError, KeyReader, parse_command
from .table_app import TableController
from .terminal_view import CONFIRM_HELP, prompt_line

FLUSH_BOARD_S = 5.0  # at the end: how long to wait for the board to ack the final state (> the link's 4 s retry)


class RunLoop:
    def __init__(self, ctrl: TableController, frames: Iterable[Any] | None, watcher: Any = None,
                 keys: KeyReader | None = None, preview: Any = None, speed: float = 0.0,
                 skip_through_frame: int | None = None, wait_when_asking: bool = False,
                 confirm: bool = False, on_frame: Callable[[Any], None] | None = None,
                 remote: "queue.Queue[str] | None" = None) -> None:
        self.ctrl = ctrl
        self.on_frame = on_frame  # sees each live frame before the watcher (evidence pictures)
        self.remote = remote  # command lines from the live page's control (token checked there)
        self.frames = frames
        self.watcher = watcher
        self.keys = keys
        self.preview = preview
        self.speed = speed
        self.skip_through_frame = skip_through_frame
        self.wait_when_asking = wait_when_asking  # a video cannot be straightened: wait for the answer
        self.confirm = confirm  # review a recording: wait for Enter (or a correction) after each camera event
        self.confirming = False
        self.released_at: int | None = None  # journal length at which Enter let the video go on
        self.paused_for: str | None = None   # what the video waits for (shown once per pause)
        self.may_go_on = False               # ... and a lone Enter lets it go on (a card may answer)
        self.quit = False
        self.frames_seen = 0
        self.last_image: Any = None  # the newest frame: a hand spread for scoring is read from it

    def read_hand(self, seat: int) -> list[str] | None:
        """Every card in the camera's view now (a hand spread under it for scoring), or None
        when there is no frame or no recogniser to read it with."""
        recogniser = getattr(self.watcher, "recogniser", None)
        if self.last_image is None or recogniser is None:
            return None
        return [r.card for r in recogniser.identify_all(self.last_image) if r.card is not None]

    # -- the parts of one step -------------------------------------------------------------
    def handle_frame(self, frame: Any) -> None:
        self.frames_seen += 1
        self.last_image = frame.image
        if self.on_frame is not None:
            self.on_frame(frame)
        before = len(self.ctrl.session.records)
        for ev in self.watcher.feed(frame.index, frame.t, frame.image):
            if self.skip_through_frame is not None and ev.frame <= self.skip_through_frame:
                continue
            if ev.event == "landed":
                self.ctrl.landed(ev.card, ev.t, ev.frame, ev.confidence, ev.bearing, ev.bearing_confidence, ev.likely)
            elif ev.event == "removed":
                self.ctrl.removed(ev.t, ev.frame)
        if self.preview is not None:
            self.preview.show(frame.image, self.watcher.region_box, self.ctrl.last_card)
        if self.confirm and len(self.ctrl.session.records) > before:
            self.ask_confirmation(self.ctrl.recent[-1] if self.ctrl.recent else "")

    def ask_confirmation(self, what: str) -> None:
        self.confirming = True
        self.ctrl.notice(f"confirm: {what} -- {CONFIRM_HELP}")

    def handle_keys(self, timeout: float = 0.0) -> None:
        if self.keys is None:
            return
        typed = self.keys.buffer
        lines = self.keys.read_lines(timeout)
        if self.keys.interactive and self.keys.buffer != typed:
            self.ctrl.publish(None)  # echo the line being typed in the prompt
        for line in lines:
            self.handle_line(line)
            if self.quit:
                return

    def handle_line(self, line: str) -> None:
        """One typed line, from the keyboard or the page's control."""
        if not line.strip():
            # Enter: the person agrees with what the camera saw, and lets the video go on
            self.confirming = False
            self.released_at = len(self.ctrl.session.records)
            return
        try:
            cmd = parse_command(line)
        except CommandError as exc:
            self.ctrl.notice(str(exc))
            return
        if cmd is not None and not self.ctrl.command(cmd):
            self.quit = True

    def handle_remote(self) -> None:
        while self.remote is not None and not self.quit:
            try:
                line = self.remote.get_nowait()
            except queue.Empty:
                return
            self.ctrl.notice(f"from the page: {line}")
            self.handle_line(line)

    def idle(self, timeout: float = 0.0) -> None:
        self.handle_keys(timeout)
        self.handle_remote()
        self.ctrl.poll_board()

    # -- the whole run ---------------------------------------------------------------------
    def _fast_forward(self, it: Iterator[Any]) -> Any:
        """Prime the watcher on the frames already journaled; returns the first live frame."""
        for frame in it:
            if frame.index > self.skip_through_frame:  # type: ignore[operator]
                return frame
            self.watcher.feed(frame.index, frame.t, frame.image)
        return None

    def run(self) -> int:
        self.ctrl.publish("start" if not self.ctrl.session.records else "resumed")
        if self.frames is not None:
            it = iter(self.frames)
            first = self._fast_forward(it) if self.skip_through_frame is not None else None
            if self.confirm and self.ctrl.session.records:
                self.ask_confirmation("resumed here")
            self._wait_for_table()  # resumed where the referee waits for a person: answer first
            start = time.monotonic()
            t0: float | None = None
            pending = [first] if first is not None else []
            while not self.quit:
                frame = pending.pop() if pending else next(it, None)
                if frame is None:
                    break
                if self.speed > 0:
                    t0 = frame.t if t0 is None else t0
                    delay = (frame.t - t0) / self.speed - (time.monotonic() - start)
                    if delay > 0:
                        self.handle_keys(delay)
                self.handle_frame(frame)
                self.idle()
                waited = time.monotonic()
                self._wait_for_table()
                start += time.monotonic() - waited  # a pause does not count as video time
        self._after_source()
        self.flush_board()
        return 0

    def prompt(self) -> str:
        """The screen's prompt line: what the keys are for now and the line being typed."""
        typed = self.keys.buffer if self.keys is not None else ""
        return prompt_line(typed, self.paused_for is not None, self.may_go_on, self.confirming)

    def waiting_for(self) -> tuple[str, bool] | None:
        """What a recording waits for now, in words, and whether a lone Enter lets it go on;
        None: the video goes on."""
        if self.confirming:
            return "a confirmation", False
        if not self.wait_when_asking:
            return None
        if self.ctrl.asking is not None:
            return "the name of the card the camera cannot read", False
        items = self.ctrl.awaited()
        what = "; ".join(describe(item, self.ctrl.names) for item in items)
        if any(item.blocks for item in items):
            return what, False
        if items and self.released_at != len(self.ctrl.session.records):
            return what, True
        return None

    def _wait_for_table(self) -> None:
        """A recording waits while the referee waits for a person (see the module's docstring)."""
        waited = False
        while (wait := self.waiting_for()) is not None and not self.quit:
            waited = True
            if self.keys is None or self.keys.closed:
                self.ctrl.notice("no answer (end of input): stopping here")
                self.quit = True
                return
            what, self.may_go_on = wait
            if what != self.paused_for:
                self.paused_for = what
                if not self.confirming and not getattr(self.ctrl.view, "interactive", False):
                    go_on = " (or Enter alone: a card comes instead)" if self.may_go_on else ""
                    self.ctrl.notice(f"video paused, waiting for: {what}{go_on}")
                else:
                    self.ctrl.publish(None)  # a terminal shows it in the prompt
            self.idle(0.05)
        self.paused_for = None
        self.may_go_on = False
        if waited:
            self.ctrl.publish(None)  # the prompt no longer says the video waits

    def _after_source(self) -> None:
        """The video ended (or there is none): keep taking keys until quit or end of input."""
        if self.keys is None:
            return
        if self.frames is not None and not self.quit:
            self.ctrl.notice("end of the video; still taking commands (q or end of input to stop)")
        while not self.quit and not self.keys.closed:
            self.idle(0.05)

    def flush_board(self, timeout_s: float = FLUSH_BOARD_S) -> None:
        link = self.ctrl.link
        if link is None:
            return
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and not link.session.acked:
            self.ctrl.poll_board(timeout_s=0.02)
