"""The table's seat map: which seat a bearing from the camera names, learned as the game goes.

Pure logic, no I/O. The camera reports, for each card that lands, the bearing from which the
hand came (degrees in the image, seen from the pile, counter-clockwise from the right edge)
and how sure it is of it. The map holds, for each seat, the mean direction of the reaches
that surely came from it:

* it learns from plays whose seat the turn order makes certain (a legal card that no other
  seat could have played out of turn), from the reaches of an explicit calibration (each
  player in seat order reaches over the pile once), and from cards it named itself;
* it names a seat only when the bearing is sure, lies near that seat's learned bearing and
  clearly nearer it than any other seat's; seats that sit close together, a low confidence
  or a bearing near no seat learned so far give "unsure" with the reason, and the table goes
  by turn order. It never names a seat it has not learned.

Seats may sit unevenly: each seat's own bearing is learned, and the tolerance around it is
a share of the gap to its nearest neighbour. The map is a plain dict (`as_record`) that the
journal keeps as a table record, so a resumed game starts from the map it had.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

SURE = 0.7            # the least bearing confidence that names a seat ...
LEARN = 0.7           # ... or teaches the map
TOLERANCE = 30.0      # the farthest (degrees) a bearing may lie from the seat it names ...
TOLERANCE_SHARE = 0.45  # ... and at most this share of the gap from that seat to its nearest neighbour
MARGIN = 8.0          # the named seat must be this much nearer than the next one
CLOSE = 16.0          # two seats learned this close together cannot be told apart
MEMORY = 12           # a seat's bearing follows its last dozen reaches (people shift in their chairs)
AGREE = 20.0          # reaches this close agree; the seat's bearing is the mean of the largest such group
KNOWN = 1.5           # the agreeing weight a seat needs before it is named: two plays, or one calibration reach
CALIBRATION_WEIGHT = 2.0  # a deliberate reach in the calibration counts as two plays
MOVED = 2.0           # the map is worth journaling again when a seat's bearing moved this far


def angle_gap(a: float, b: float) -> float:
    """The smaller angle (degrees, 0..180) between two bearings."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def nearest_seat(bearing: float, seat_bearings: list[float]) -> int:
    """The seat whose bearing lies nearest `bearing`."""
    return min(range(len(seat_bearings)), key=lambda s: angle_gap(bearing, seat_bearings[s]))


@dataclass
class SeatCall:
    """What the map says about one bearing: a seat, or None with the reason it is unsure."""
    seat: int | None
    why: str = ""


@dataclass
class _Seat:
    """The last reaches that surely came from one seat: (bearing, weight) each."""
    reaches: list[tuple[float, float]] = field(default_factory=list)

    def _cluster(self) -> list[tuple[float, float]]:
        """The reaches that agree with the best-supported one: a stray reach (the turn order
        was wrong about it) does not pull the seat's bearing away."""
        def support(b: float) -> float:
            return sum(w for c, w in self.reaches if angle_gap(b, c) <= AGREE)
        best = max((b for b, _ in self.reaches), key=support)
        return [(b, w) for b, w in self.reaches if angle_gap(b, best) <= AGREE]

    @property
    def bearing(self) -> float:
        near = self._cluster()
        x = sum(w * math.cos(math.radians(b)) for b, w in near)
        y = sum(w * math.sin(math.radians(b)) for b, w in near)
        return math.degrees(math.atan2(y, x)) % 360.0

    @property
    def support(self) -> float:
        return sum(w for _, w in self._cluster())


@dataclass
class SeatMap:
    players: int
    seats: list[_Seat | None] = field(default_factory=list)
    calibrating: int | None = None  # the seat whose reach the calibration waits for (None: not calibrating)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [None] * self.players

    # -- what it knows ---------------------------------------------------------------------
    def bearings(self) -> list[float | None]:
        """Each seat's bearing once it is known (enough reaches agree on it), else None."""
        return [s.bearing if s is not None and s.support >= KNOWN else None for s in self.seats]

    def known(self) -> list[int]:
        return [i for i, b in enumerate(self.bearings()) if b is not None]

    def name(self, bearing: float | None, confidence: float, expected: int | None = None) -> SeatCall:
        """The seat `bearing` names, or None and why not. `expected` is the seat on turn: a
        card is credited to another seat only once the map knows where the seat on turn
        sits (it may sit close to the other one and never have been learned)."""
        if bearing is None:
            return SeatCall(None, "the camera did not see the hand")
        if confidence < SURE:
            return SeatCall(None, f"the camera is unsure where the hand came from ({confidence:.2f})")
        known = self.known()
        if not known:
            return SeatCall(None, "no seat learned yet")
        bearings = self.bearings()
        ranked = sorted(known, key=lambda s: angle_gap(bearing, bearings[s]))  # type: ignore[arg-type]
        best = ranked[0]
        d1 = angle_gap(bearing, bearings[best])  # type: ignore[arg-type]
        neighbour = self._neighbour_gap(best)
        if neighbour < CLOSE:
            return SeatCall(None, f"two seats sit too close together ({neighbour:.0f} degrees)")
        if d1 > min(TOLERANCE, TOLERANCE_SHARE * neighbour):
            return SeatCall(None, f"the hand came from where no seat has been learned ({bearing:.0f} degrees)")
        if len(ranked) > 1 and angle_gap(bearing, bearings[ranked[1]]) - d1 < MARGIN:  # type: ignore[arg-type]
            return SeatCall(None, "the hand came from between two seats")
        if expected is not None and best != expected and bearings[expected] is None:
            return SeatCall(None, f"seat {expected} (on turn) has not been learned yet")
        return SeatCall(best)

    def _neighbour_gap(self, seat: int) -> float:
        bearings = self.bearings()
        own = bearings[seat]
        assert own is not None
        gaps = [angle_gap(own, b) for s, b in enumerate(bearings) if s != seat and b is not None]
        return min(gaps, default=360.0)

    # -- learning --------------------------------------------------------------------------
    def learn(self, seat: int, bearing: float | None, confidence: float, weight: float | None = None) -> bool:
        """Add a reach surely from `seat`; True when the map changed enough to journal it.

        A reach that lies near another seat's known bearing rather than this seat's teaches
        nothing: the turn order was wrong about it (a play out of turn)."""
        if bearing is None or confidence < LEARN or not 0 <= seat < self.players:
            return False
        bearings = self.bearings()
        others = [b for s, b in enumerate(bearings) if s != seat and b is not None]
        own = bearings[seat]
        near_other = min((angle_gap(bearing, b) for b in others), default=360.0)
        if near_other < (angle_gap(bearing, own) if own is not None else CLOSE):
            return False
        s = self.seats[seat] or _Seat()
        s.reaches = (s.reaches + [(round(bearing % 360.0, 1), round(confidence if weight is None else weight, 3))])[-MEMORY:]
        self.seats[seat] = s
        now = self.bearings()[seat]
        return now is not None and (own is None or angle_gap(own, now) >= MOVED)

    def learn_play(self, call: SeatCall, expected: int | None, covers_same: bool, legal: bool,
                   bearing: float | None, confidence: float) -> bool:
        """Teach the map a card just judged, if its seat is certain: a legal card the map named,
        or the seat on turn's when no other seat could have played it out of turn (it differs
        from the card it covers). True when the map is worth journaling again. The live table
        and the replay of a journal (tableref.seat_replay) both learn through here."""
        if not legal:
            return False
        seat = call.seat if call.seat is not None else (None if covers_same else expected)
        return seat is not None and self.learn(seat, bearing, confidence)

    # -- calibration: each player in seat order reaches over the pile once -------------------
    def start_calibration(self) -> None:
        self.seats = [None] * self.players
        self.calibrating = 0

    def calibrate(self, bearing: float | None, confidence: float) -> bool:
        """The reach of the seat the calibration waits for; True when it was taken."""
        seat = self.calibrating
        if seat is None or bearing is None or confidence < LEARN:
            return False
        if any(angle_gap(bearing, b) < CLOSE for b in self.bearings() if b is not None):
            return False  # the same seat again, or one too close to tell: ask again
        self.learn(seat, bearing, confidence, CALIBRATION_WEIGHT)
        self.calibrating = seat + 1 if seat + 1 < self.players else None
        return True

    # -- the journal's table record ----------------------------------------------------------
    def as_record(self) -> dict[str, Any]:
        bearings = self.bearings()
        return {"type": "seat_map", "seats": [
            None if s is None else {"bearing": None if b is None else round(b, 1), "reaches": [list(r) for r in s.reaches]}
            for s, b in zip(self.seats, bearings)]}

    @classmethod
    def from_record(cls, players: int, record: dict[str, Any]) -> "SeatMap":
        """The map a journaled record holds; a seat given only by its bearing counts as known."""
        seats: list[_Seat | None] = []
        for item in (record.get("seats") or [])[:players]:
            reaches = item.get("reaches") if isinstance(item, dict) else None
            if isinstance(reaches, list) and reaches:
                seats.append(_Seat([(float(b), float(w)) for b, w in reaches]))
            elif isinstance(item, dict) and isinstance(item.get("bearing"), (int, float)):
                seats.append(_Seat([(float(item["bearing"]), KNOWN)]))
            else:
                seats.append(None)
        return cls(players, seats + [None] * (players - len(seats)))

    def describe(self, names: list[str] | None = None) -> str:
        names = names or [f"seat {i}" for i in range(self.players)]
        parts = [f"{names[i]} {b:.0f}" if b is not None else f"{names[i]} ?" for i, b in enumerate(self.bearings())]
        return "seats (degrees): " + ", ".join(parts)
