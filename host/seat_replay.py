"""The seat map a journal amounts to: the table's learning replayed over its records.

Pure: a TableSession's records in, a SeatMap out. The journal keeps the map as a `seat_map`
record only when it moved enough to be worth writing, and writes it after the card that
taught it; so the last record alone is not the map a live run holds (the reaches since then
are missing), and a run killed between a card and its record would lose that reach for good.
Replaying every card that carries a bearing through the same rule the live table learns by
(SeatMap.name, then SeatMap.learn_play) gives back the live map exactly; a `seat_map` record
is taken as written (it also holds the calibration's reaches, which are no cards).
"""
from __future__ import annotations

from .referee import Referee
from .seats import SeatMap
from .table import TableSession


def replayed_seat_map(session: TableSession) -> tuple[SeatMap, bool]:
    """The map the run that wrote `session.records` held at its end, and whether it owes the
    journal a `seat_map` record (the map moved after the last one was written)."""
    ref = session.referee
    replay = TableSession(referee=Referee(ref.game, ref.players, ref.options, ref.setup))
    seat_map, owed = SeatMap(session.players), False
    for rec in session.records:
        if rec.get("type") == "seat_map":
            replay.apply_record(rec)
            seat_map, owed = SeatMap.from_record(session.players, rec), False
            continue
        bearing = rec.get("bearing")
        if rec.get("type") != "card" or not isinstance(bearing, (int, float)):
            replay.apply_record(rec)
            continue
        confidence = float(rec.get("bearing_confidence") or 0.0)
        before = replay.referee.state
        expected = before.get("current_seat")
        call = seat_map.name(float(bearing), confidence, expected)
        out = replay.apply_record(rec)
        legal = out.verdict is not None and out.verdict.ok
        if seat_map.learn_play(call, expected, before.get("top") == rec["card"], legal, float(bearing), confidence):
            owed = True
    return seat_map, owed
