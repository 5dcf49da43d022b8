"""A game's journal replayed by the referee into what the report shows. Pure: no files, no plots.

`game_figures(header, records)` replays the records with tableref.replay_cmd.replay (the
Referee; no rule is re-implemented here) and returns the series (the total, or the cards in
each hand, after every record), the markers on them, the per-player figures, every flagged
play and every correction, and the hands with their scores.

Per-player counts are of what stands at the end: a record later taken back by an undo is not
counted (it was a misreading or a slip, corrected at the table); the list of flagged plays
still shows it, saying it was undone. The x axis is the journal record: 0 is the start, k the
state after record k-1 (records are numbered from 0, the first line after the header).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..evidence import PILE_CHANGES, pictures_for
from ..record import TABLE_RECORD_TYPES, RecordHeader
from ..referee import Referee, Verdict
from ..replay_cmd import replay
from ..rules import ruleset_class
from ..rules.describe import describe_event
from ..table import Outcome
from ..terminal_view import seat_names
from .reasons import rule_broken

State = Mapping[str, Any]


@dataclass(frozen=True)
class Marker:
    kind: str        # bust | elimination | reverse | play2 | draw | penalty | new_hand
    x: int           # position on the x axis (record index + 1)
    y: float         # the value at that point of the series marked
    seat: int | None = None


@dataclass
class PlayerFigures:
    name: str
    cards_played: int = 0
    illegal: Counter = field(default_factory=Counter)  # reason code -> count
    drawn: int = 0          # cards taken from the draw pile
    penalty_drawn: int = 0  # ... of which side penalties paid
    penalties: int = 0      # penalty cards imposed on this seat
    calls: int = 0          # UNO / Ena calls
    catches: int = 0        # valid catches of another seat
    caught: int = 0         # times caught by another seat
    turn_times: list[float] = field(default_factory=list)  # seconds from the previous timed record to each card


@dataclass
class Incident:
    """A flagged play or a correction, with the pictures the evidence recorder keeps for it."""
    index: int
    kind: str               # "illegal" | "undo" | "typed"
    what: str               # the record in words
    seat: int | None
    reason: str | None = None   # illegal: the reason code
    rule: str = ""              # illegal: the rule broken, in words
    action: str = ""            # what the referee did
    pictures: tuple[str, ...] = ()  # picture kinds expected under this index


@dataclass
class HandResult:
    number: int
    ended_at: int           # record index that ended it
    winner: int | None      # hand winner (UNO family)
    loser: int | None       # seat that lost or was eliminated (99 games)
    points: list[int]       # points gained in this hand (UNO family; empty for the 99 games)
    scores: list[int]       # running scores (UNO family) or tokens (classic) after it
    total: int = 0          # 99 games: the total when it ended


@dataclass
class GameFigures:
    game: str
    names: list[str]
    x: list[int]                        # 0..len(records)
    total: list[int]                    # 99 games: the running total at each x
    hand_counts: list[list[int]]        # UNO family: per seat, cards in hand at each x
    markers: list[Marker]
    players: list[PlayerFigures]
    incidents: list[Incident]
    hands: list[HandResult]
    winner: int | None
    game_over: bool
    records: int

    @property
    def ninety_nine(self) -> bool:
        return ruleset_class(self.game).family == "ninety_nine"

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "the table"


def record_source(rec: Mapping[str, Any]) -> str:
    """Where a journaled record came from: camera cards carry a confidence, board presses a src."""
    if "confidence" in rec:
        return "camera"
    if rec.get("src"):
        return "board"
    return "camera" if rec.get("type") in ("undo", "taken_back") and "frame" in rec else "key"


def expected_pictures(rec: Mapping[str, Any], illegal: Any) -> tuple[str, ...]:
    """The evidence pictures the recorder writes for this record (tableref.evidence.pictures_for)."""
    kind = str(rec["type"]) if rec.get("type") in ("undo", "taken_back") else "event"
    by = record_source(rec)
    kinds = pictures_for(Outcome(kind, dict(rec), Verdict(illegal)), by)
    if by == "key" and rec.get("type") in PILE_CHANGES and "frame" in rec:
        kinds = ("asked",) + kinds  # a typed answer to the camera's question keeps its frame
    return kinds


def _seat_of(rec: Mapping[str, Any], before: State, after: State) -> int | None:
    if after.get("illegal"):
        return after["illegal"].get("seat")
    seat = rec.get("seat")
    return before.get("current_seat") if seat is None else seat


def game_figures(header: RecordHeader, records: list[dict[str, Any]]) -> GameFigures:
    names = seat_names(header.players, header.names)
    players = [PlayerFigures(n) for n in names]
    ninety_nine = ruleset_class(header.game).family == "ninety_nine"
    fig = GameFigures(header.game, names, [0], [], [[] for _ in names], [], players, [], [], None, False, len(records))
    # (index, contributions) per event the referee holds, so that an undo takes its figures back
    stack: list[tuple[int, list[tuple[str, int, Any]]]] = []
    undone: dict[int, int] = {}  # record index -> index of the undo that took it back
    taken_back: dict[int, int] = {}
    last_t: float | None = None
    last_illegal: int | None = None
    before: State = Referee(header.game, header.players, header.options, header.setup).state
    _append_point(fig, before)
    hand_start_scores = list(before.get("scores") or [])
    camera = any("confidence" in r for r in records)  # else every card was typed: none is a correction
    for index, rec, after in replay(header, records):
        x = index + 1
        kind = rec.get("type")
        if kind == "undo":
            popped = stack.pop()[0] if stack else None
            if popped is not None:
                undone[popped] = index
            fig.incidents.append(Incident(index, "undo", f"undo ({_undone_text(records, popped)})", None,
                                          action="took back the last event", pictures=expected_pictures(rec, None)))
        elif kind == "taken_back":
            if last_illegal is not None:
                taken_back[last_illegal] = index
            last_illegal = None
        elif kind in TABLE_RECORD_TYPES:
            pass  # another table record (the camera's seat map): no play, nothing to count
        else:
            illegal = after.get("illegal")
            seat = _seat_of(rec, before, after)
            contrib = _contributions(rec, seat, illegal, before, after, last_t)
            stack.append((index, contrib))
            if illegal:
                last_illegal = index
                fig.incidents.append(Incident(index, "illegal", _event_text(rec, seat, names), seat, illegal.get("reason"),
                                              rule_broken(str(illegal.get("reason"))), _action(rec, before, after, names),
                                              expected_pictures(rec, illegal)))
            elif camera and record_source(rec) == "key" and kind in PILE_CHANGES:
                fig.incidents.append(Incident(index, "typed", _event_text(rec, seat, names), seat,
                                              action="took the typed card as played", pictures=expected_pictures(rec, None)))
            fig.markers.extend(_markers(rec, x, seat, illegal, before, after, ninety_nine))
            hand = _hand_result(header.game, index, rec, before, after, hand_start_scores)
            if hand is not None:
                fig.hands.append(hand)
            if kind == "new_hand" and not illegal:
                hand_start_scores = list(after.get("scores") or [])
        if isinstance(rec.get("t"), (int, float)):
            last_t = float(rec["t"])
        fig.x.append(x)
        _append_point(fig, after)
        before = after
    for _, contrib in stack:  # what still stands: undone records count for nobody
        for name, seat, value in contrib:
            _add(players[seat], name, value)
    for inc in fig.incidents:
        if inc.index in undone:
            inc.action += f"; undone at record {undone[inc.index]}"
        if inc.index in taken_back:
            inc.action += f"; the card was taken back (record {taken_back[inc.index]})"
    _close_hands(fig, header.game, len(records), before, hand_start_scores)
    fig.winner = before.get("winner")
    fig.game_over = bool(before.get("game_over"))
    return fig


def _append_point(fig: GameFigures, state: State) -> None:
    fig.total.append(int(state.get("total") or 0))
    counts = state.get("hand_counts") or []
    for seat, series in enumerate(fig.hand_counts):
        series.append(int(counts[seat]) if seat < len(counts) else 0)


def _event_text(rec: Mapping[str, Any], seat: int | None, names: list[str]) -> str:
    ev = {k: v for k, v in rec.items() if k in ("type", "card", "count", "color", "target", "guilty", "cards", "dealer")}
    text = describe_event({**ev, "seat": None})
    if seat is not None and 0 <= seat < len(names):
        text = f"{names[seat]} {text}"
    target = rec.get("target")
    if isinstance(target, int) and 0 <= target < len(names):
        text = text.replace(f"seat {target}", names[target])
    return text


def _undone_text(records: list[dict[str, Any]], index: int | None) -> str:
    return "nothing" if index is None else f"record {index}: {describe_event(records[index])}"


def _action(rec: Mapping[str, Any], before: State, after: State, names: list[str]) -> str:
    """What the referee did about a flagged record, read from the state before and after it."""
    done: list[str] = []
    for seat in sorted(set(after.get("eliminated") or []) - set(before.get("eliminated") or [])):
        done.append(f"eliminated {names[seat]}")
    owed_before, owed_after = before.get("penalty_draws") or {}, after.get("penalty_draws") or {}
    for key, count in sorted(owed_after.items()):
        extra = count - owed_before.get(key, 0)
        if extra > 0:
            done.append(f"{names[int(key)]} owes {extra} penalty card{'s' if extra != 1 else ''}")
    if rec.get("type") in PILE_CHANGES:
        if all(before.get(k) == after.get(k) for k in ("total", "top", "hand_counts", "direction")):
            done.insert(0, "card not played (total, top card and hands unchanged); the table was signalled to take it back")
        else:  # e.g. the card that breaks an ONO 99 set: it counts, and the set's cards stay
            done.insert(0, f"the card counts (total {before.get('total')} -> {after.get('total')})"
                        if after.get("total") != before.get("total") else "the card counts")
    elif not done:
        done.append("ignored the input (nothing changed)")
    return "; ".join(done)


def _contributions(rec: Mapping[str, Any], seat: int | None, illegal: Any, before: State, after: State,
                   last_t: float | None) -> list[tuple[str, int, Any]]:
    """(figure, seat, value) this record adds to the per-player figures."""
    out: list[tuple[str, int, Any]] = []
    kind = rec.get("type")
    if illegal:
        if seat is not None:
            out.append(("illegal", seat, illegal.get("reason")))
    elif seat is not None:
        if kind == "card":
            out.append(("cards_played", seat, 1))
            t = rec.get("t")
            if isinstance(t, (int, float)) and last_t is not None and t >= last_t:
                out.append(("turn_times", seat, round(float(t) - last_t, 3)))
        elif kind == "draw":
            out.append(("drawn", seat, _drawn(rec, seat, before, after)))
            paid = (before.get("penalty_draws") or {}).get(str(seat), 0) - (after.get("penalty_draws") or {}).get(str(seat), 0)
            if paid > 0:
                out.append(("penalty_drawn", seat, paid))
        elif kind == "uno":
            out.append(("calls", seat, 1))
        elif kind == "catch":
            out.append(("catches", seat, 1))
            target = rec.get("target")
            if isinstance(target, int):
                out.append(("caught", target, 1))
    owed_before, owed_after = before.get("penalty_draws") or {}, after.get("penalty_draws") or {}
    for key, count in owed_after.items():
        extra = count - owed_before.get(key, 0)
        if extra > 0:
            out.append(("penalties", int(key), extra))
    return out


def _drawn(rec: Mapping[str, Any], seat: int, before: State, after: State) -> int:
    """Cards a draw took: what the hand grew by, unless the draw put the seat out (No Mercy's
    mercy rule empties its hand), when it is the count drawn or owed."""
    counts_b, counts_a = before.get("hand_counts") or [], after.get("hand_counts") or []
    if seat >= len(counts_a) or seat >= len(counts_b):
        return 0
    if seat in (after.get("eliminated") or []) and seat not in (before.get("eliminated") or []):
        pending = before.get("pending") or {}
        owed = pending.get("count") if pending.get("kind") == "draw" and pending.get("seat") == seat else None
        return int(rec.get("count") or owed or 1)
    return max(0, counts_a[seat] - counts_b[seat])


def _add(player: PlayerFigures, name: str, value: Any) -> None:
    if name == "illegal":
        player.illegal[value] += 1
    elif name == "turn_times":
        player.turn_times.append(value)
    else:
        setattr(player, name, getattr(player, name) + value)


def _markers(rec: Mapping[str, Any], x: int, seat: int | None, illegal: Any, before: State, after: State,
             ninety_nine: bool) -> list[Marker]:
    out: list[Marker] = []
    kind, card = rec.get("type"), rec.get("card")
    total = float(after.get("total") or 0)
    if ninety_nine:
        lost_token = list(after.get("tokens") or []) != list(before.get("tokens") or [])
        if (illegal and illegal.get("reason") == "bust_should_declare_out") or (not illegal and lost_token):
            out.append(Marker("bust", x, float(before.get("total") or 0), seat))
        for s in sorted(set(after.get("eliminated") or []) - set(before.get("eliminated") or [])):
            out.append(Marker("elimination", x, total, s))
        if kind == "card" and not illegal:
            if card == "reverse":
                out.append(Marker("reverse", x, total, seat))
            elif card in ("play2", "double_play"):
                out.append(Marker("play2", x, total, seat))
        return out
    counts = after.get("hand_counts") or []
    if kind == "draw" and not illegal and seat is not None and seat < len(counts):
        out.append(Marker("draw", x, float(counts[seat]), seat))
    owed_before, owed_after = before.get("penalty_draws") or {}, after.get("penalty_draws") or {}
    for key, count in owed_after.items():
        s = int(key)
        if count > owed_before.get(key, 0) and s < len(counts):
            out.append(Marker("penalty", x, float(counts[s]), s))
    if kind == "new_hand" and not illegal:
        out.append(Marker("new_hand", x, 0.0))
    return out


def _hand_result(game: str, index: int, rec: Mapping[str, Any], before: State, after: State,
                 start_scores: list[int]) -> HandResult | None:
    """A hand that ends at this record (99 games: a seat loses or is eliminated). UNO-family
    hands are closed at the next new_hand or the end, once their reveals are scored."""
    if ruleset_class(game).family == "ninety_nine":
        gone = sorted(set(after.get("eliminated") or []) - set(before.get("eliminated") or []))
        lost = after.get("hand", 1) != before.get("hand", 1) or (
            ruleset_class(game).token_hands and list(after.get("tokens") or []) != list(before.get("tokens") or []))
        if not gone and not lost:
            return None
        loser = after.get("last_hand_loser") if lost and ruleset_class(game).token_hands else (gone[0] if gone else None)
        return HandResult(int(before.get("hand") or 1), index, None, loser, [], list(after.get("tokens") or []),
                          int(before.get("total") or 0))
    if rec.get("type") == "new_hand" and not after.get("illegal"):
        scores = list(before.get("scores") or [])
        return HandResult(int(before.get("hand") or 1), index - 1, before.get("hand_winner"), None,
                          [s - s0 for s, s0 in zip(scores, start_scores)], scores)
    return None


def _close_hands(fig: GameFigures, game: str, records: int, final: State, start_scores: list[int]) -> None:
    """The UNO family's last hand, scored by the end of the journal."""
    if ruleset_class(game).family == "ninety_nine" or not final.get("hand_over"):
        return
    scores = list(final.get("scores") or [])
    fig.hands.append(HandResult(int(final.get("hand") or 1), records - 1, final.get("hand_winner"), None,
                                [s - s0 for s, s0 in zip(scores, start_scores)], scores))
