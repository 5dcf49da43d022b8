"""Which options the simulator models, their defaults (spec 3.7, 4.6, 5.6, 6, 7.3, 8.7), and the
seat counts it plays.

An option value the simulator does not model is refused rather than silently ignored: a
simulated game must follow exactly the rules the referee is told about.
"""
from __future__ import annotations

from typing import Any

# name -> (default, allowed): allowed is a tuple of values, or a type for free values
Spec = dict[str, tuple[Any, Any]]

_BOOL = (True, False)

SUPPORTED: dict[str, Spec] = {
    "ono99_classic": {
        "bust_threshold": (99, int),
        "bust_on": ("reach", ("reach", "exceed")),
        "allow_negative_total": (True, _BOOL),
        "tokens_per_player": (3, int),
        "elimination": ("loss_with_no_tokens", ("loss_with_no_tokens", "last_token_lost")),
        "next_hand_leader": ("loser", ("loser", "left_of_dealer")),
        "two_player_reverse": ("hold", ("hold",)),
        "hold_reverse_pass_double_play": (True, _BOOL),
        "double_play_on_double_play": ("pass_on", ("pass_on",)),
        "lead_must_be_number": (False, (False,)),
    },
    "ono99_2022": {
        "bust_threshold": (99, int),
        "bust_on": ("reach", ("reach", "exceed")),
        "minus10_floor": (0, (int, type(None))),
        "two_player_reverse": ("zero", ("zero", "pass_play2_back")),
        "zero_passes_play2": (False, _BOOL),
        "bust_card": ("not_counted", ("not_counted",)),
        "reset_total_on_elimination": (False, _BOOL),
        "quad_ono99": ("counts_as_play", ("counts_as_play", "free_then_play", "disabled")),
        # false is left undefined by the spec (the engine's code and notes differ): not modelled
        "play2_dies_with_eliminated_seat": (True, (True,)),
    },
    "uno": {
        "deck": ("108", ("108", "112_blank", "112_swap", "112_shuffle")),
        "target_score": (500, int),
        "scoring": ("winner_collects", ("winner_collects", "cumulative_low")),
        "first_reverse": ("dealer_first", ("dealer_first", "dealer_right_first")),
        "first_wild": ("first_player_chooses", ("first_player_chooses", "reflip")),
        "first_special_wild": ("as_wild", ("as_wild", "reflip")),
        "wd4_challenge": (True, _BOOL),
        "wd4_guilty_next": ("challenger_plays", ("challenger_plays", "challenger_skipped")),
        "wd4_final_card_challenge": (False, (False,)),
        "uno_penalty": (2, int),
        "false_catch_penalty": (0, int),
        "illegal_play_penalty": (0, int),
        "play_drawn_card": ("may", ("may",)),
        "custom_wild_effect": ("plain_wild", ("plain_wild",)),
        "infer_color_from_next_card": (True, _BOOL),
        "shuffle_hands_last_card": ("redeal", ("redeal",)),
        "swap_hands_last_card": ("goes_out", ("goes_out",)),
        # house rules (spec 6)
        "stacking": ("none", ("none", "same_type", "draw2_into_draw4", "any_draw")),
        "stack_one_per_turn": (True, (True,)),
        "wd4_challenge_in_stack": (False, (False,)),
        "jump_in": (False, _BOOL),
        "jump_in_wilds": (False, _BOOL),
        "jump_in_action": ("cancel_and_replace", ("cancel_and_replace", "cumulative")),
        "seven_zero": (False, _BOOL),
        "draw_until_playable": (False, _BOOL),
        "multi_same_number": (False, _BOOL),
    },
    "uno_no_mercy": {
        "mercy_limit": (25, int),
        "stack_rule": ("equal_or_higher", ("equal_or_higher", "any")),
        "roulette_chooser": ("victim", ("victim", "player")),
        "roulette_stackable": (False, (False,)),
        "skip_dodges_stack": (False, (False,)),
        "scoring": ("none", ("none",)),
        "first_card_action": ("reflip", ("reflip",)),
    },
    "ena": {
        "overtake": (True, (True,)),
        "overtake_wilds": (False, (False,)),
        "overtake_draw_stacks": (True, (True,)),
        "stack_in_turn": ("same_type", ("none", "same_type", "any_draw")),
        "mistake_penalty": (2, int),
        "ena_call_penalty": (None, int),  # None: a caught call is a mistake (C14), mistake_penalty
        "mistake_ends_turn": (False, _BOOL),
        "infer_color_from_next_card": (True, _BOOL),
        "scoring": ("cumulative_low", ("cumulative_low", "winner_collects")),
        "target_score": (500, int),
        "first_reverse": ("dealer_right_first", ("dealer_right_first",)),
        "first_wild": ("dealer_chooses", ("dealer_chooses",)),
        "first_wd4": ("dealer_chooses_first_draws4", ("dealer_chooses_first_draws4",)),
    },
}

GAMES: tuple[str, ...] = tuple(SUPPORTED)

# Seats the simulator deals for (the deck must cover the deal with cards to spare).
PLAYERS: dict[str, tuple[int, int]] = {
    "ono99_classic": (2, 8), "ono99_2022": (2, 8), "uno": (2, 10),
    "uno_no_mercy": (2, 6), "ena": (2, 10),
}


def resolve_options(game: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in; ValueError for an unknown game, option or unmodelled value."""
    if game not in SUPPORTED:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    spec = SUPPORTED[game]
    out = {name: default for name, (default, _) in spec.items()}
    for name, value in (options or {}).items():
        if name not in spec:
            raise ValueError(f"{game}: the simulator does not model option {name!r}")
        allowed = spec[name][1]
        ok = (isinstance(value, allowed) and not isinstance(value, bool)) if isinstance(allowed, type) \
            else (isinstance(value, allowed) if all(isinstance(a, type) for a in allowed)
                  else any(value == a and type(value) is type(a) for a in allowed))
        if not ok:
            raise ValueError(f"{game}: the simulator does not model {name}={value!r}")
        out[name] = value
    return out
