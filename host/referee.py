"""The referee: a game's state plus push/pop/check over observable events (ENGINE_API.md).

Shape borrowed from python-chess's Board: `push` applies an event and returns a Verdict,
`pop` undoes exactly (each push keeps the state it replaced), `check` answers "what would
push say" without applying. All the rules live in `tableref.rules`; this class only keeps
history and validates input.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .errors import UserError
from .rules import GameState, make_ruleset, validate_event


@dataclass(frozen=True)
class Verdict:
    """The referee's judgement of one event: `illegal` is None or {"seat", "reason"}."""

    illegal: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.illegal is None


class Referee:
    def __init__(self, game: str, players: int, options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None) -> None:
        self._rules = make_ruleset(game, players, dict(options or {}))
        self.game = game
        self.players = players
        self.options: dict[str, Any] = dict(self._rules.opt)
        self.setup: dict[str, Any] = dict(setup or {})
        self._st: GameState = self._rules.initial_state(self.setup)
        self._history: list[tuple[dict[str, Any], GameState]] = []

    # --- events ---------------------------------------------------------------------------
    def _validate(self, event: Any) -> dict[str, Any]:
        return validate_event(event, self.players, self._rules.codes, self.game)

    def _apply(self, st: GameState, ev: dict[str, Any]) -> None:
        st.illegal = None
        self._rules.apply(st, ev)

    def push(self, event: Mapping[str, Any]) -> Verdict:
        """Apply one event (spec 1.5). EventError for an unreadable event, state unchanged."""
        ev = self._validate(event)
        before = self._st.copy()
        self._apply(self._st, ev)
        self._history.append((ev, before))
        return Verdict(self._st.illegal)

    def check(self, event: Mapping[str, Any]) -> Verdict:
        """The verdict push(event) would give, without applying it."""
        ev = self._validate(event)
        trial = self._st.copy()
        self._apply(trial, ev)
        return Verdict(trial.illegal)

    def pop(self) -> dict[str, Any]:
        """Undo the last pushed event and return it."""
        if not self._history:
            raise UserError("nothing to undo")
        ev, before = self._history.pop()
        self._st = before
        return dict(ev)

    def legal_cards(self) -> list[str]:
        """Sorted codes the seat to act may legally play now."""
        seat = self._st.current
        if seat is None:
            return []
        legal = []
        for code in self._rules.deck():
            trial = self._st.copy()
            self._apply(trial, {"type": "card", "seat": seat, "card": code})
            if self._rules.playable(self._st, trial):
                legal.append(code)
        return sorted(legal)

    # --- views ----------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        return self._st.to_dict()

    @property
    def events(self) -> list[dict[str, Any]]:
        return [dict(ev) for ev, _ in self._history]

    def __len__(self) -> int:
        return len(self._history)
