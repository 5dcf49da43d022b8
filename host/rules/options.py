"""Every option of spec/rules.md sections 3-8 with its default, and their validation."""
from __future__ import annotations

from typing import Any

from ..errors import UserError


class ConfigError(UserError):
    """Unknown game, unknown option, bad option value, bad player count or bad setup."""


GAME_IDS: tuple[str, ...] = ("ono99_classic", "ono99_2022", "uno", "uno_no_mercy", "ena")

# Option kinds: "bool", "int", "int_or_null", or a tuple of allowed strings.
OptSpec = tuple[Any, Any]  # (kind, default)

_CLASSIC: dict[str, OptSpec] = {
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

_ONO2022: dict[str, OptSpec] = {
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

_UNO: dict[str, OptSpec] = {
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

_NO_MERCY: dict[str, OptSpec] = {
    "mercy_limit": ("int", 25),
    "stack_rule": (("equal_or_higher", "any"), "equal_or_higher"),
    "roulette_chooser": (("victim", "player"), "victim"),
    "roulette_stackable": ("bool", False),
    "skip_dodges_stack": ("bool", False),
    "scoring": (("none", "winner_collects"), "none"),
    "first_card_action": (("reflip",), "reflip"),
    **_UNO_COMMON,
}

_ENA: dict[str, OptSpec] = {
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

OPTION_SPECS: dict[str, dict[str, OptSpec]] = {
    "ono99_classic": _CLASSIC,
    "ono99_2022": _ONO2022,
    "uno": _UNO,
    "uno_no_mercy": _NO_MERCY,
    "ena": _ENA,
}

PLAYER_RANGE: dict[str, tuple[int, int]] = {
    "ono99_classic": (2, 8),   # 24 tokens, 3 each
    "ono99_2022": (2, 10),
    "uno": (2, 10),
    "uno_no_mercy": (2, 10),
    "ena": (2, 10),
}


def check_game(game: object) -> str:
    if not isinstance(game, str) or game not in OPTION_SPECS:
        raise ConfigError(f"unknown game {game!r} (known: {', '.join(GAME_IDS)})")
    return game


def default_options(game: str) -> dict[str, Any]:
    """The options of `game` with their spec defaults."""
    return {name: default for name, (_, default) in OPTION_SPECS[check_game(game)].items()}


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


def resolve_options(game: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with `options`; ConfigError names the first bad option."""
    specs = OPTION_SPECS[check_game(game)]
    if options is not None and not isinstance(options, dict):
        raise ConfigError(f"options must be an object, not {type(options).__name__}")
    resolved = default_options(game)
    for name, value in (options or {}).items():
        if name not in specs:
            raise ConfigError(f"unknown option {name!r} for game {game}")
        kind = specs[name][0]
        if not _valid(kind, value):
            raise ConfigError(f"bad value {value!r} for option {name!r} of {game} "
                              f"(expected {_describe(kind)})")
        resolved[name] = value
    if game == "ena" and "ena_call_penalty" not in (options or {}):
        # C14: a caught missing call is a mistake like any other, so unless the call has a
        # penalty of its own it costs what mistake_penalty says (both default to 2)
        resolved["ena_call_penalty"] = resolved["mistake_penalty"]
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


def check_players(game: str, players: object) -> int:
    low, high = PLAYER_RANGE[check_game(game)]
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise ConfigError(f"bad number of players {players!r} for {game} (allowed {low}-{high})")
    return players
