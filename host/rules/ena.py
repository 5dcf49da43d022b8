"""Ena (`ena`, spec 8): UNO with overtaking by identical cards, in-turn stacking, two-card
penalties for every mistake, and low-score scoring."""
from __future__ import annotations

from typing import Any, Mapping

from ..cards import UNO_CODES, UnoCard, uno_card_set
from .options import ENA_OPTIONS
from .state import GameState
from .uno import UnoRules


class EnaRules(UnoRules):
    game = "ena"
    title = "Ena"
    codes = UNO_CODES
    option_specs = ENA_OPTIONS

    @classmethod
    def vision_deck(cls, options: Mapping[str, Any]) -> str:
        return "uno"

    @classmethod
    def resolve_options(cls, options: dict[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        if "ena_call_penalty" not in (options or {}):
            # C14, C25: a caught missing call is a mistake like any other, so unless the call
            # has a penalty of its own it costs what mistake_penalty says
            resolved["ena_call_penalty"] = resolved["mistake_penalty"]
        return resolved

    def deck(self) -> tuple[str, ...]:
        return uno_card_set("108")

    def stacking_mode(self) -> str:
        return self.opt["stack_in_turn"]

    def jump_enabled(self, card: UnoCard) -> bool:
        return self.opt["overtake"] and (card.colour is not None or self.opt["overtake_wilds"])

    def jump_adds_draws(self) -> bool:
        return self.opt["overtake_draw_stacks"]

    def jump_cancels(self) -> bool:
        return False  # overtaking applies the card on top of the current state (8.3)

    def seven_zero(self) -> bool:
        return False

    def must_play_drawn(self) -> bool:
        return False

    def catch_penalty(self) -> int:
        return self.opt["ena_call_penalty"]

    def misplay_penalty(self) -> int:
        return self.opt["mistake_penalty"]

    def out_of_turn_reason(self) -> str:
        return "not_identical_out_of_turn" if self.opt["overtake"] else "out_of_turn"

    def misplay(self, st: GameState, s: int, reason: str) -> None:
        super().misplay(st, s, reason)
        pend = st.pending
        if (self.opt["mistake_ends_turn"] and s == st.current
                and not (pend is not None and pend[1] == s)):
            st.drop_awaiting("play_or_pass", s)
            st.current = st.adv(s, 1)

    def reflips(self, card: UnoCard) -> bool:
        return False

    def first_reverse(self) -> str:
        return "dealer_right_first"

    def first_wild_chooser(self, st: GameState, first: int) -> int:
        return st.dealer
