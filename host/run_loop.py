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

The end of a hand is scored by showing the hands: while the referee waits for the hands
still to be scored, the frames go to no pile watcher (hands spread on the table are no pile)
but to a look-out for a new view that has settled (tableref.vision.settled_view); each is
read whole (vision.spread_read) and offered as the next seat's hand, and the video waits
until Enter accepts it or the person types the cards. `<seat> v` alone reads the newest frame
for that seat.

Resuming from a file: the journal's camera records carry the frame they came from, and the
watcher's state is saved beside the journal after each frame that journals one
(tableref.watch_checkpoint). A resume restores that state, seeks the video to the frame after
it and reads on: nothing already journaled is seen twice and nothing after it is missed. If
the saved state is older than the journal's last camera record (a kill between the two
writes), the frames from it up to that record are fed to the watcher and its events dropped
(priming); without a saved state (an older journal) priming starts at the first frame. The
recogniser stays attached while priming: the outline of each card read sets the card size
the watcher goes on with, so without it the watcher would come out of priming in another
state than the uninterrupted run, and could see later frames otherwise.
"""
from __future__ import annotations

import queue
import time
from typing import Any, Callable, Iterable, Iterator

from .awaited import describe
from .keyboard import CommandError, KeyReader, parse_command
from .table_app import TableController
from .terminal_view import CONFIRM_HELP, prompt_line
from .vision.settled_view import SettledViews
from .watch_checkpoint import WatchCheckpoint

FLUSH_BOARD_S = 5.0  # at the end: how long to wait for the board to ack the final state (> the link's 4 s retry)


class RunLoop:
    def __init__(self, ctrl: TableController, frames: Iterable[Any] | None, watcher: Any = None,
                 keys: KeyReader | None = None, preview: Any = None, speed: float = 0.0,
                 skip_through_frame: int | None = None, wait_when_asking: bool = False,
                 confirm: bool = False, on_frame: Callable[[Any], None] | None = None,
                 remote: "queue.Queue[str] | None" = None, checkpoint: WatchCheckpoint | None = None) -> None:
        self.ctrl = ctrl
        self.on_frame = on_frame  # sees each live frame before the watcher (evidence pictures)
        self.remote = remote  # command lines from the live page's control (token checked there)
        self.frames = frames
        self.watcher = watcher
        self.keys = keys
        self.preview = preview
        self.speed = speed
        self.skip_through_frame = skip_through_frame
        self.checkpoint = checkpoint  # the watcher's state saved after each camera record (seek on resume)
        self.wait_when_asking = wait_when_asking  # a video cannot be straightened: wait for the answer
        self.confirm = confirm  # review a recording: wait for Enter (or a correction) after each camera event
        self.confirming = False
        self.released_at: int | None = None  # journal length at which Enter let the video go on
        self.paused_for: str | None = None   # what the video waits for (shown once per pause)
        self.may_go_on = False               # ... and a lone Enter lets it go on (a card may answer)
        self.quit = False
        self._saved_for: int | None = None  # the journal's last camera frame when the watcher was last saved
        self.resumed_at: int | None = None  # the frame a resume sought to (None: read from the start)
        self.frames_seen = 0
        self.last_image: Any = None  # the newest frame: a hand spread for scoring is read from it
        self.hand_views: SettledViews | None = None  # at the end of a hand: when a spread hand has settled

    def read_hand(self, seat: int) -> list[str] | None:
        """Every card in the camera's view now (a hand spread under it for scoring), or None
        when there is no frame or no recogniser to read it with."""
        if self.last_image is None or not self.reads_hands:
            return None
        return self._read_cards(self.last_image)

    @property
    def reads_hands(self) -> bool:
        return getattr(self.watcher, "recogniser", None) is not None

    def _read_cards(self, image: Any) -> list[str]:
        """Every card read in `image`, listed by code (a journal's hand does not depend on
        where each card lay)."""
        from .vision.spread_read import read_spread  # only where a camera reads hands: the readers load late
        # a whole hand takes a few seconds to read (1-2 s at 1280x720, more on a slow machine):
        # the table is told before the screen goes still
        self.ctrl.notice("reading the cards under the camera ...")
        return sorted(r.card for r in read_spread(self.watcher.recogniser, image) if r.card is not None)

    def scoring_hands(self) -> bool:
        """Whether the camera looks for hands now (the referee waits for hands to be shown)."""
        return self.reads_hands and any(a.kind == "reveal" for a in self.ctrl.awaited())

    def _look_for_hands(self, image: Any) -> bool:
        """At the end of a hand, the frame goes to the look-out for spread hands, not the pile
        watcher; a new spread, once still, is read and offered. False: not the end of a hand."""
        if not self.scoring_hands():
            self.hand_views = None
            return False
        if self.hand_views is None:
            self.hand_views = SettledViews()
        if self.hand_views.feed(image) and self.ctrl.offered is None:
            cards = self._read_cards(image)
            if cards:
                self.ctrl.offer_hand(cards)
        return True

    # -- the parts of one step -------------------------------------------------------------
    def handle_frame(self, frame: Any) -> None:
        self.frames_seen += 1
        self.last_image = frame.image
        if self.on_frame is not None:
            self.on_frame(frame)
        if self._look_for_hands(frame.image):
            return
        before = len(self.ctrl.session.records)
        self._take(self.watcher.feed(frame.index, frame.t, frame.image))
        notice = self.watcher.fresh_notice()  # how the camera sees the pile (the frame cutting it)
        if notice:
            self.ctrl.notice(notice)
        if self.checkpoint is not None and len(self.ctrl.session.records) > before:
            last = self.ctrl.session.last_frame
            if last is not None and last > (self.skip_through_frame or -1) and last != self._saved_for:
                self.checkpoint.save(self.watcher, frame.index, last)
                self._saved_for = last
        if self.preview is not None:
            self.preview.show(frame.image, self.watcher.region_box, self.ctrl.last_card)
        if self.confirm and len(self.ctrl.session.records) > before:
            self.ask_confirmation(self.ctrl.recent[-1] if self.ctrl.recent else "")

    def _take(self, events: list[Any]) -> None:
        """The watcher's events to the referee (those a resume has journaled already go)."""
        for ev in events:
            if self.skip_through_frame is not None and ev.frame <= self.skip_through_frame:
                continue
            if ev.event == "landed":
                self.ctrl.landed(ev.card, ev.t, ev.frame, ev.confidence, ev.bearing, ev.bearing_confidence, ev.likely)
            elif ev.event == "removed":
                self.ctrl.removed(ev.t, ev.frame)

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
        if not line.strip() and self.ctrl.offered is not None and not self.confirming:
            self.ctrl.accept_hand()  # Enter: the hand shown is as the camera read it
            return
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
    def _seek_saved(self) -> None:
        """A resume: restore the watcher saved with the journal and seek to the frame after it."""
        seek = getattr(self.frames, "seek", None)
        if self.checkpoint is None or seek is None:
            return
        saved = self.checkpoint.restore(self.watcher, self.skip_through_frame)
        if saved is not None:
            seek(saved + 1)
            self.resumed_at = saved + 1
            self.ctrl.notice(f"resumed: the video goes on from frame {saved + 1} "
                             f"(the journal's last camera record: frame {self.skip_through_frame})")

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
            if self.skip_through_frame is not None:
                self._seek_saved()
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
                    self._take(self.watcher.finish())  # a card still being read as the video ended
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
        return prompt_line(typed, self.paused_for is not None, self.may_go_on, self.confirming, self.ctrl.offer_text())

    def waiting_for(self) -> tuple[str, bool] | None:
        """What a recording waits for now, in words, and whether a lone Enter lets it go on;
        None: the video goes on."""
        if self.confirming:
            return "a confirmation", False
        if not self.wait_when_asking:
            return None
        if self.ctrl.asking is not None:
            return "the name of the card the camera cannot read", False
        offer = self.ctrl.offer_text()
        if offer is not None:
            return offer, False
        items = self.ctrl.awaited()
        if self.scoring_hands():  # the video goes on to the hands shown under the camera (the next
            items = [item for item in items if item.kind not in ("reveal", "new_hand")]  # hand after them)
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
