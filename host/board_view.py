"""What the board should show for a referee state: state dict (spec 1.6) -> tablelink Snapshot.

Pure. The Snapshot comes back unstamped (tablelink.host.UNSTAMPED_EPOCH/SEQ); the link stamps
it with its epoch and next seq when it is sent, and sends nothing when it shows the same as
the last one.
"""
from __future__ import annotations

from typing import Any, Mapping

from tablelink.host import UNSTAMPED_EPOCH, UNSTAMPED_SEQ
from tablelink.messages import MAX_OFFER, Snapshot

from .rules import ruleset_class
MAX_PEND = 9999  # the wire carries up to four digits of a draw/play count


def _pend(pending: Mapping[str, Any] | None) -> str | None:
    if not pending:
        return None
    kind = pending.get("kind")
    if kind == "roulette":
        return "r"
    count = int(pending.get("count") or 0)
    if count < 1 or kind not in ("play", "draw"):
        return None
    return ("p" if kind == "play" else "d") + str(min(count, MAX_PEND))


def _mode(state: Mapping[str, Any], asking: bool) -> str:
    if state.get("game_over"):
        return "over"
    # "ask" shows CArd: only the app knows the camera could not read a card. Waiting for a
    # colour or a target is shown by the ring (no colour, seat blinking), not by CArd.
    return "ask" if asking else "play"


def board_snapshot(state: Mapping[str, Any], game: str, players: int, err_id: int = 0,
                   asking: bool = False, credit: int | None = None, offer: tuple[str, ...] = ()) -> Snapshot:
    """The Snapshot for `state` of `game` with `players` seats.

    err_id: the caller's id for the illegal play that state["illegal"] reports (any int > 0
    that differs from the previous illegal play's, e.g. a count of every event pushed so
    far); ignored when state["illegal"] is None, so the board's ErrC clears on the next event.
    asking: the table is asked to name a card the camera could not read (the board shows CArd).
    credit: the seat the camera credited with a card played out of turn (the ring flashes it).
    offer: while asking, the camera's likeliest code and its runner-up (the board shows the
    first; its PASS and COLOUR short presses take them); at most two are sent.
    Raises ValueError for an unknown game or a state the wire cannot carry.
    """
    if ruleset_class(game).family == "ninety_nine":  # ConfigError (a ValueError) if unknown
        total = int(state["total"])
        colour = None
    else:
        total = None
        colour = state.get("color")
    illegal = state.get("illegal")
    if illegal is not None and err_id < 1:
        raise ValueError("an illegal play needs an err_id >= 1")
    elim = 0
    for seat in state.get("eliminated") or ():
        elim |= 1 << int(seat)
    snap = Snapshot(
        UNSTAMPED_EPOCH, UNSTAMPED_SEQ, players,
        turn=state.get("current_seat"),
        direction=state.get("direction") or "cw",
        elim=elim,
        total=total,
        pend=_pend(state.get("pending")),
        colour=colour,
        err=err_id if illegal is not None else 0,
        winner=state.get("winner"),
        mode=_mode(state, asking),
        credit=credit,
        offer=tuple(offer[:MAX_OFFER]) if asking and not state.get("game_over") else (),
    )
    _check(snap)
    return snap


def _check(snap: Snapshot) -> None:
    """Validate everything but the stamp (epoch/seq are the link's)."""
    snap.stamped(UNSTAMPED_EPOCH, 1).validate()
