"""The illegal-event reason codes of spec/rules.md section 1.7, as the rule each one breaks.

The terminal's short hints (tableref.terminal_view.REASONS) speak to the player at the moment;
these say, for the report read after the game, which rule the play broke.
"""
from __future__ import annotations

RULES = {
    "out_of_turn": "a card may only come from the seat whose turn it is (no jump-in or overtake applied)",
    "no_match": "a card must match the active colour or the top card's rank or symbol, or be a wild",
    "must_draw": "a seat that owes a draw must take it: this card may not answer the draw (stacking off)",
    "cannot_stack": "this card may not be stacked on the pending draw",
    "stack_value_too_low": "a stacked draw card may not be worth less than the last draw card (No Mercy)",
    "ono99_unplayable": "an ONO 99 card may only be played as a complete set of four",
    "bust_should_declare_out": "a card may not take the total to the bust threshold: the seat should have "
                               "declared itself out, and is eliminated",
    "invalid_catch": "only a seat with one card that has not called UNO can be caught",
    "not_identical_out_of_turn": "an out-of-turn card must be identical to the top card (Ena overtaking)",
    "pass_not_allowed": "a pass must follow a draw, and a drawn card that must be played cannot be passed",
    "wrong_seat": "a button from a seat that has nothing to do now",
    "awaiting_input": "a card arrived while the referee still needed a colour or a target",
}


def rule_broken(reason: str) -> str:
    """The rule a reason code stands for (an unknown code is shown as it is)."""
    return RULES.get(reason, f"reason '{reason}'")
