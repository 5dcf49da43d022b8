"""The cooperative loop of `tableref run`: one frame at a time, then the keyboard and the board.

Nothing here blocks for long: a camera read waits for the next frame (tens of ms), the keyboard
and the board link are polled without waiting. A video file is read as fast as it decodes
unless `speed` paces it (1.0 = as recorded).

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

import time
from typing import Any, Iterable, Iterator

from .keyboard import CommandError, KeyReader, parse_command
from .table_app import TableController

FLUSH_BOARD_S = 5.0  # at the end: how long to wait for the board to ack the final state (> the link's 4 s retry)


class RunLoop:
    def __init__(self, ctrl: TableController, frames: Iterable[Any] | None, watcher: Any = None,
                 keys: KeyReader | None = None, preview: Any = None, speed: float = 0.0,
                 skip_through_frame: int | None = None, wait_when_asking: bool = False,
                 confirm: bool = False) -> None:
        self.ctrl = ctrl
        self.frames = frames
        self.watcher = watcher
        self.keys = keys
        self.preview = preview
        self.speed = speed
        self.skip_through_frame = skip_through_frame
        self.wait_when_asking = wait_when_asking  # a video cannot be straightened: wait for the answer
        self.confirm = confirm  # review a recording: wait for Enter (or a correction) after each camera event
        self.confirming = False
        self.quit = False
        self.frames_seen = 0

    # -- the parts of one step -------------------------------------------------------------
    def handle_frame(self, frame: Any) -> None:
        self.frames_seen += 1
        before = len(self.ctrl.session.records)
        for ev in self.watcher.feed(frame.index, frame.t, frame.image):
            if self.skip_through_frame is not None and ev.frame <= self.skip_through_frame:
                continue
            if ev.event == "landed":
                self.ctrl.landed(ev.card, ev.t, ev.frame, ev.confidence, ev.bearing, ev.bearing_confidence)
            elif ev.event == "removed":
                self.ctrl.removed(ev.t, ev.frame)
        if self.preview is not None:
            self.preview.show(frame.image, self.watcher.region_box, self.ctrl.last_card)
        if self.confirm and len(self.ctrl.session.records) > before:
            self.ask_confirmation(self.ctrl.recent[-1] if self.ctrl.recent else "")

    def ask_confirmation(self, what: str) -> None:
        self.confirming = True
        self.ctrl.view.notice(f"confirm: {what} -- Enter if right; else u (undo) then x <card>, then Enter")

    def handle_keys(self, timeout: float = 0.0) -> None:
        if self.keys is None:
            return
        typed = self.keys.buffer
        lines = self.keys.read_lines(timeout)
        if self.keys.interactive and self.keys.buffer != typed:
            self.ctrl.view.update(self.ctrl, None)  # echo the line being typed in the prompt
        for line in lines:
            if not line.strip():
                self.confirming = False  # Enter: the person agrees with what the camera saw
                continue
            try:
                cmd = parse_command(line)
            except CommandError as exc:
                self.ctrl.view.notice(str(exc))
                continue
            if cmd is not None and not self.ctrl.command(cmd):
                self.quit = True
                return

    def idle(self, timeout: float = 0.0) -> None:
        self.handle_keys(timeout)
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
                self._wait_for_table()
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
                self._wait_for_table()
        self._after_source()
        self.flush_board()
        return 0

    def _wait_for_table(self) -> None:
        """A recording waits while the referee asks for a card or for a confirmation."""
        while ((self.wait_when_asking and self.ctrl.asking is not None) or self.confirming) and not self.quit:
            if self.keys is None or self.keys.closed:
                self.ctrl.view.notice("no answer (end of input): stopping here")
                self.quit = True
                return
            self.idle(0.05)

    def _after_source(self) -> None:
        """The video ended (or there is none): keep taking keys until quit or end of input."""
        if self.keys is None:
            return
        if self.frames is not None and not self.quit:
            self.ctrl.view.notice("end of the video; still taking commands (q or end of input to stop)")
        while not self.quit and not self.keys.closed:
            self.idle(0.05)

    def flush_board(self, timeout_s: float = FLUSH_BOARD_S) -> None:
        link = self.ctrl.link
        if link is None:
            return
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and not link.session.acked:
            self.ctrl.poll_board(timeout_s=0.02)
