"""The referee's game state and the seat/turn helpers shared by every game.

The state is a small mutable object. Fields that are tuples (pending, awaiting, eliminated,
tokens) are replaced, never mutated, so a snapshot only has to copy the three lists and the
penalty dict: that keeps `push` cheap while `pop` stays exact.
"""
from __future__ import annotations

from typing import Any

Pending = tuple[str, int, int]  # (kind, seat, count); count 0 for "roulette"
Awaiting = tuple[str, int]      # (kind, seat)


class GameState:
    __slots__ = (
        "n", "dealer", "total", "current", "direction", "pending", "awaiting", "penalty",
        "eliminated", "tokens", "hand", "last_hand_loser", "illegal", "top", "color",
        "hand_counts", "uno_vulnerable", "hand_over", "hand_winner", "scores", "game_over",
        "winner",
        # internals (not in spec 1.6)
        "quad", "lead", "multi_seat", "absorb", "uno_called", "last_flip", "stack_rank",
        "stack_value", "stacked", "stack_seat", "wd4_by", "challenge", "revealed", "flipped",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.dealer = 0
        self.total = 0
        self.current: int | None = None
        self.direction = 1
        self.pending: Pending | None = None
        self.awaiting: tuple[Awaiting, ...] = ()
        self.penalty: dict[int, int] = {}
        self.eliminated: tuple[int, ...] = ()
        self.tokens: tuple[int, ...] = ()
        self.hand = 1
        self.last_hand_loser: int | None = None
        self.illegal: dict[str, Any] | None = None
        self.top: str | None = None
        self.color: str | None = None
        self.hand_counts: list[int] = []
        self.uno_vulnerable: int | None = None
        self.hand_over = False
        self.hand_winner: int | None = None
        self.scores: list[int] = []
        self.game_over = False
        self.winner: int | None = None
        self.quad: tuple[int, int] | None = None       # 2022: (seat, ONO cards so far)
        self.lead = True                                # no card played yet this hand
        self.multi_seat: int | None = None              # may add same-number cards
        self.absorb: tuple[int, str] | None = None      # Discard All: (seat, colour)
        self.uno_called: int | None = None              # seat whose call covers its turn
        self.last_flip = False                          # last accepted card flipped direction
        self.stack_rank: str | None = None              # rank of the last draw card stacked
        self.stack_value = 0                            # its draw value (No Mercy order)
        self.stacked = False                            # the pending draw is a stack (2+ cards)
        self.stack_seat: int | None = None              # may add draw cards (stack_one_per_turn off)
        self.wd4_by: int | None = None                 # who played the pending Wild Draw Four
        self.challenge: tuple[int, int] | None = None   # (challenger, WD4 player)
        self.revealed: tuple[int, ...] = ()             # seats that revealed this hand
        self.flipped = False                            # UNO family: hand has a starting card

    def copy(self) -> "GameState":
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(new, name, getattr(self, name))
        new.penalty = dict(self.penalty)
        new.hand_counts = list(self.hand_counts)
        new.scores = list(self.scores)
        return new

    # --- seats ----------------------------------------------------------------------------

    def active(self, seat: int) -> bool:
        return seat not in self.eliminated

    def active_count(self) -> int:
        return self.n - len(self.eliminated)

    def active_seats(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.eliminated]

    def adv(self, seat: int, k: int = 1, direction: int | None = None) -> int:
        """The k-th active seat after `seat` in `direction` (default: current direction)."""
        step = self.direction if direction is None else direction
        s = seat
        if k <= 0:
            return seat
        found = 0
        for _ in range(self.n * k + self.n):
            s = (s + step) % self.n
            if s not in self.eliminated:
                found += 1
                if found == k:
                    return s
        return seat  # nobody active: callers end the game before this matters

    def flag(self, seat: int | None, reason: str) -> None:
        self.illegal = {"seat": seat, "reason": reason}

    def add_penalty(self, seat: int, count: int) -> None:
        if count > 0:
            self.penalty[seat] = self.penalty.get(seat, 0) + count

    def set_awaiting(self, kind: str, seat: int) -> None:
        if (kind, seat) not in self.awaiting:
            self.awaiting = self.awaiting + ((kind, seat),)

    def drop_awaiting(self, kind: str, seat: int | None = None) -> None:
        self.awaiting = tuple(a for a in self.awaiting
                              if not (a[0] == kind and (seat is None or a[1] == seat)))

    def awaits(self, kind: str, seat: int | None = None) -> bool:
        return any(a[0] == kind and (seat is None or a[1] == seat) for a in self.awaiting)

    def eliminate(self, seat: int) -> None:
        if seat not in self.eliminated:
            self.eliminated = tuple(sorted(self.eliminated + (seat,)))
        self.penalty.pop(seat, None)

    # --- output ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        pending: dict[str, Any] | None = None
        if self.pending is not None:
            kind, seat, count = self.pending
            pending = {"kind": kind, "seat": seat}
            if kind != "roulette":
                pending["count"] = count
        return {
            "total": self.total,
            "current_seat": self.current,
            "direction": "cw" if self.direction == 1 else "ccw",
            "pending": pending,
            "awaiting": [{"kind": k, "seat": s} for k, s in self.awaiting],
            "penalty_draws": {str(s): c for s, c in sorted(self.penalty.items()) if c > 0},
            "eliminated": list(self.eliminated),
            "tokens": list(self.tokens),
            "hand": self.hand,
            "last_hand_loser": self.last_hand_loser,
            "illegal": dict(self.illegal) if self.illegal else None,
            "top": self.top,
            "color": self.color,
            "hand_counts": list(self.hand_counts),
            "uno_vulnerable": self.uno_vulnerable,
            "hand_over": self.hand_over,
            "hand_winner": self.hand_winner,
            "scores": list(self.scores),
            "game_over": self.game_over,
            "winner": self.winner,
            "dealer": self.dealer,
        }
