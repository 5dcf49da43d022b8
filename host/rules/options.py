"""Every option of spec/rules.md sections 3-8 with its default, and their validation.

Each ruleset class names its own table (`Ruleset.option_specs`); nothing here knows a game id.
"""
from __future__ import annotations

from typing import Any

from ..errors import UserError


class ConfigError(UserError, ValueError):
    """Unknown game, unknown option, bad option value, bad player count or bad setup."""


# Option kinds: "bool", "int", "int_or_null", or a tuple of allowed strings.
OptSpec = tuple[Any, Any]  # (kind, default)

CLASSIC_OPTIONS: dict[str, OptSpec] = {
    "bust_threshold": ("int", 99),
    "bust_on": (("reach", "exceed"), "reach"),
    "allow_negative_total": ("bool", True),
    "tokens_per_player": ("int", 3),
    "elimination": (("loss_with_no_tokens", "last_token_lost"), "loss_with_no_tokens"),
    "next_hand_leader": (("loser", "left_of_dealer"), "loser"),
    "two_player_reverse": (("hold",), "hold"),
    "hold_reverse_pass_double_play": ("bool", True),
    "double_play_on_double_play": (("pass_on",), "pass_on"),
    "lead_must_be_number": ("bool", False),
}

ONO2022_OPTIONS: dict[str, OptSpec] = {
    "bust_threshold": ("int", 99),
    "bust_on": (("reach", "exceed"), "reach"),
    "minus10_floor": ("int_or_null", 0),
    "two_player_reverse": (("zero", "pass_play2_back"), "zero"),
    "zero_passes_play2": ("bool", False),
    "bust_card": (("not_counted", "counted"), "not_counted"),
    "reset_total_on_elimination": ("bool", False),
    "quad_ono99": (("counts_as_play", "free_then_play", "disabled"), "counts_as_play"),
    "play2_dies_with_eliminated_seat": ("bool", True),
}

# Options of section 5 that the other UNO-family games inherit ("anything not listed follows
# section 5"): only those that make sense there.
_UNO_COMMON: dict[str, OptSpec] = {
    "target_score": ("int", 500),
    "uno_penalty": ("int", 2),
    "false_catch_penalty": ("int", 0),
    "illegal_play_penalty": ("int", 0),
    "infer_color_from_next_card": ("bool", True),
}

UNO_OPTIONS: dict[str, OptSpec] = {
    "deck": (("108", "112_blank", "112_swap", "112_shuffle"), "108"),
    **_UNO_COMMON,
    "scoring": (("winner_collects", "cumulative_low"), "winner_collects"),
    "first_reverse": (("dealer_first", "dealer_right_first"), "dealer_first"),
    "first_wild": (("first_player_chooses", "reflip"), "first_player_chooses"),
    "first_special_wild": (("as_wild", "reflip"), "as_wild"),
    "wd4_challenge": ("bool", True),
    "wd4_guilty_next": (("challenger_plays", "challenger_skipped"), "challenger_plays"),
    "wd4_final_card_challenge": ("bool", False),
    "play_drawn_card": (("may", "must"), "may"),
    "shuffle_hands_last_card": (("redeal", "goes_out"), "redeal"),
    "swap_hands_last_card": (("goes_out", "swap"), "goes_out"),
    "custom_wild_effect": (("plain_wild",), "plain_wild"),
    # section 6 house rules, all off by default
    "stacking": (("none", "same_type", "draw2_into_draw4", "any_draw"), "none"),
    "stack_one_per_turn": ("bool", True),
    "wd4_challenge_in_stack": ("bool", False),
    "jump_in": ("bool", False),
    "jump_in_wilds": ("bool", False),
    "jump_in_action": (("cancel_and_replace", "cumulative"), "cancel_and_replace"),
    "seven_zero": ("bool", False),
    "draw_until_playable": ("bool", False),
    "multi_same_number": ("bool", False),
}

NO_MERCY_OPTIONS: dict[str, OptSpec] = {
    "mercy_limit": ("int", 25),
    "stack_rule": (("equal_or_higher", "any"), "equal_or_higher"),
    "roulette_chooser": (("victim", "player"), "victim"),
    "roulette_stackable": ("bool", False),
    "skip_dodges_stack": ("bool", False),
    "scoring": (("none", "winner_collects"), "none"),
    "first_card_action": (("reflip",), "reflip"),
    **_UNO_COMMON,
}

ENA_OPTIONS: dict[str, OptSpec] = {
    "overtake": ("bool", True),
    "overtake_wilds": ("bool", False),
    "overtake_draw_stacks": ("bool", True),
    "stack_in_turn": (("none", "same_type", "any_draw"), "same_type"),
    "mistake_penalty": ("int", 2),
    "ena_call_penalty": ("int", 2),
    "mistake_ends_turn": ("bool", False),
    "scoring": (("cumulative_low", "winner_collects"), "cumulative_low"),
    "target_score": ("int", 500),
    "first_reverse": (("dealer_right_first",), "dealer_right_first"),
    "first_wild": (("dealer_chooses",), "dealer_chooses"),
    "first_wd4": (("dealer_chooses_first_draws4",), "dealer_chooses_first_draws4"),
    # inherited from section 5 (8.2: the Wild Draw Four and its challenge follow UNO)
    "wd4_challenge": ("bool", True),
    "wd4_guilty_next": (("challenger_plays", "challenger_skipped"), "challenger_plays"),
    "false_catch_penalty": ("int", 0),
    "infer_color_from_next_card": ("bool", True),
    "shuffle_hands_last_card": (("redeal", "goes_out"), "redeal"),
    "swap_hands_last_card": (("goes_out", "swap"), "goes_out"),
}

def default_options(specs: dict[str, OptSpec]) -> dict[str, Any]:
    """The options of `specs` with their spec defaults."""
    return {name: default for name, (_, default) in specs.items()}


def _valid(kind: Any, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "int_or_null":
        return value is None or (isinstance(value, int) and not isinstance(value, bool))
    return isinstance(value, str) and value in kind


def _describe(kind: Any) -> str:
    if isinstance(kind, tuple):
        return " / ".join(kind)
    return {"int_or_null": "an integer or null"}.get(kind, f"a {kind}")


def resolve_options(game: str, specs: dict[str, OptSpec], options: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults of `specs` overlaid with `options`; ConfigError names the first bad option."""
    if options is not None and not isinstance(options, dict):
        raise ConfigError(f"options must be an object, not {type(options).__name__}")
    resolved = default_options(specs)
    for name, value in (options or {}).items():
        if name not in specs:
            raise ConfigError(f"unknown option {name!r} for game {game}")
        kind = specs[name][0]
        if not _valid(kind, value):
            raise ConfigError(f"bad value {value!r} for option {name!r} of {game} "
                              f"(expected {_describe(kind)})")
        resolved[name] = value
    if resolved.get("target_score", 1) <= 0:
        raise ConfigError(f"option 'target_score' must be positive, not {resolved['target_score']}")
    if resolved.get("tokens_per_player", 0) < 0:
        raise ConfigError("option 'tokens_per_player' must not be negative")
    if resolved.get("mercy_limit", 2) < 2:
        raise ConfigError("option 'mercy_limit' must be at least 2")
    for name in ("uno_penalty", "false_catch_penalty", "illegal_play_penalty",
                 "mistake_penalty", "ena_call_penalty"):
        if resolved.get(name, 0) < 0:
            raise ConfigError(f"option {name!r} must not be negative")
    return resolved


def check_players(game: str, allowed: tuple[int, int], players: object) -> int:
    low, high = allowed
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise ConfigError(f"bad number of players {players!r} for {game} (allowed {low}-{high})")
    return players
