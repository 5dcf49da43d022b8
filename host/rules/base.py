"""What every ruleset shares: the setup of spec 1.3, the apply() interface, and the facts a
game's class states about itself (title, family, what the no-play button sends, its cards,
its options, its recogniser deck), which the rest of tableref asks instead of testing a game
id (found through `tableref.rules.ruleset_class`)."""
from __future__ import annotations

from typing import Any, ClassVar, Mapping

from ..cards import COLOURS
from . import options as _options
from .options import ConfigError, Option
from .state import GameState

SETUP_KEYS = ("dealer", "current_seat", "direction", "total", "pending", "eliminated", "tokens",
              "hand", "top", "color", "hand_counts", "scores")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Ruleset:
    """One game's rules. Subclasses implement `start` (after the common setup) and `apply`."""

    game: ClassVar[str] = ""               # the game id of spec 1.1
    title: ClassVar[str] = ""              # the name on the box
    family: ClassVar[str] = ""             # "ninety_nine" (a running total) | "uno" (a discard pile)
    give_up: ClassVar[str] = "pass"        # what the no-play button sends ("out" in the 99 games)
    token_hands: ClassVar[bool] = False    # a 99 game of hands that each cost the loser a token (O'NO 99)
    codes: ClassVar[frozenset[str]] = frozenset()   # every card code an event may carry
    option_specs: ClassVar[dict[str, Option]] = {}
    player_range: ClassVar[tuple[int, int]] = (2, 10)

    def __init__(self, options: dict[str, Any], players: int) -> None:
        self.opt = options
        self.players = players

    # --- the game's facts -----------------------------------------------------------------
    @classmethod
    def vision_deck(cls, options: Mapping[str, Any]) -> str:
        """The recogniser's deck (vision.cardface.all_codes) holding only this game's cards."""
        return cls.game

    @classmethod
    def resolve_options(cls, options: dict[str, Any] | None) -> dict[str, Any]:
        """Every option with its default, overlaid with `options` (ConfigError if bad)."""
        return _options.resolve_options(cls.game, cls.option_specs, options)

    @classmethod
    def check_players(cls, players: object) -> int:
        return _options.check_players(cls.game, cls.player_range, players)

    def playable(self, before: GameState, after: GameState) -> bool:
        """Does a card that took `before` to `after` count as playable (legal_cards)?"""
        return after.illegal is None

    # --- cards the seat to act could play (legal_cards iterates over these) ---------------
    def deck(self) -> tuple[str, ...]:
        raise NotImplementedError

    def apply(self, st: GameState, ev: dict[str, Any]) -> None:
        """Process one validated event, mutating `st` (st.illegal was reset by the caller)."""
        raise NotImplementedError

    def start(self, st: GameState, setup: dict[str, Any]) -> None:
        raise NotImplementedError

    # --- setup ----------------------------------------------------------------------------
    def _seat(self, setup: dict[str, Any], key: str) -> int:
        value = setup[key]
        if not _is_int(value) or not 0 <= value < self.players:
            raise ConfigError(f"bad setup {key} {value!r} (seats are 0..{self.players - 1})")
        return value

    def _int_list(self, setup: dict[str, Any], key: str) -> list[int]:
        value = setup[key]
        if (not isinstance(value, list) or len(value) != self.players
                or not all(_is_int(v) and v >= 0 for v in value)):
            raise ConfigError(f"bad setup {key} {value!r} (a list of {self.players} "
                              "non-negative integers)")
        return list(value)

    def initial_state(self, setup: dict[str, Any] | None) -> GameState:
        setup = dict(setup or {})
        if not isinstance(setup, dict):
            raise ConfigError("setup must be an object")
        for key in setup:
            if key not in SETUP_KEYS:
                raise ConfigError(f"unknown setup key {key!r}")
        st = GameState(self.players)
        if "dealer" in setup:
            st.dealer = self._seat(setup, "dealer")
        if "eliminated" in setup:
            elim = setup["eliminated"]
            if (not isinstance(elim, list) or not all(_is_int(s) and 0 <= s < self.players
                                                      for s in elim)
                    or len(set(elim)) >= self.players):
                raise ConfigError(f"bad setup eliminated {elim!r}")
            st.eliminated = tuple(sorted(set(elim)))
        if "direction" in setup:
            if setup["direction"] not in ("cw", "ccw"):
                raise ConfigError(f"bad setup direction {setup['direction']!r} (cw or ccw)")
            st.direction = 1 if setup["direction"] == "cw" else -1
        if "hand" in setup:
            if not _is_int(setup["hand"]) or setup["hand"] < 1:
                raise ConfigError(f"bad setup hand {setup['hand']!r}")
            st.hand = setup["hand"]
        if "total" in setup:
            if not _is_int(setup["total"]):
                raise ConfigError(f"bad setup total {setup['total']!r}")
            st.total = setup["total"]
        if setup.get("color") is not None and setup["color"] not in COLOURS:
            raise ConfigError(f"bad setup color {setup['color']!r}")
        self.start(st, setup)
        if "current_seat" in setup and setup["current_seat"] is not None:
            st.current = self._seat(setup, "current_seat")
        if "pending" in setup and setup["pending"] is not None:
            st.pending = self._pending(setup["pending"])
        return st

    def _pending(self, value: Any) -> tuple[str, int, int]:
        if not isinstance(value, dict) or value.get("kind") not in ("play", "draw", "roulette"):
            raise ConfigError(f"bad setup pending {value!r}")
        seat = value.get("seat")
        count = value.get("count", 0)
        if (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
                or not isinstance(count, int) or isinstance(count, bool) or count < 0):
            raise ConfigError(f"bad setup pending {value!r}")
        return (value["kind"], seat, count)
