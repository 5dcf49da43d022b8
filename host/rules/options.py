"""Every option of spec/rules.md sections 3-8 with its default, and their validation.

Each ruleset class names its own table (`Ruleset.option_specs`); nothing here knows a game id.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import UserError


class ConfigError(UserError, ValueError):
    """Unknown game, unknown option, bad option value, bad player count or bad setup."""


# Option kinds: "bool", "int", "int_or_null", or a tuple of allowed strings.
class Option(NamedTuple):
    """One option of spec sections 3-8: what it accepts, its default, what it changes."""

    kind: Any
    default: Any
    meaning: str  # one line, for `tableref options`


CLASSIC_OPTIONS: dict[str, Option] = {
    "bust_threshold": Option("int", 99, "the total that loses the hand (see bust_on)"),
    "bust_on": Option(("reach", "exceed"), "reach",
                      "reach: reaching the threshold busts; exceed: only going past it"),
    "allow_negative_total": Option("bool", True, "a Minus 10 may take the total below 0"),
    "tokens_per_player": Option("int", 3, "tokens each seat starts with"),
    "elimination": Option(("loss_with_no_tokens", "last_token_lost"), "loss_with_no_tokens",
                          "out when losing with no token left, or as the last token goes"),
    "next_hand_leader": Option(("loser", "left_of_dealer"), "loser",
                               "who leads a new hand: the loser, or left of the next dealer"),
    "two_player_reverse": Option(("hold",), "hold", "with two seats a Reverse is a Hold"),
    "hold_reverse_pass_double_play": Option(
        "bool", True, "a Hold or Reverse as the first of two owed plays passes the two on"),
    "double_play_on_double_play": Option(("pass_on",), "pass_on",
                                         "a Double Play answering one passes two on, never four"),
    "lead_must_be_number": Option("bool", False, "the first card of a hand must be a number"),
}

ONO2022_OPTIONS: dict[str, Option] = {
    "bust_threshold": Option("int", 99, "the total that puts a seat out (see bust_on)"),
    "bust_on": Option(("reach", "exceed"), "reach",
                      "reach: reaching the threshold busts; exceed: only going past it"),
    "minus10_floor": Option("int_or_null", 0,
                            "lowest total a -10 can leave (null: negative totals allowed)"),
    "two_player_reverse": Option(("zero", "pass_play2_back"), "zero",
                                 "with two seats a Reverse counts as a 0, or sends a Play 2 back"),
    "zero_passes_play2": Option("bool", False, "a 0 as the first of two owed plays passes them on"),
    "bust_card": Option(("not_counted", "counted"), "not_counted",
                        "whether a card that busts still counts in the total"),
    "reset_total_on_elimination": Option("bool", False, "the total goes back to 0 when a seat is out"),
    "quad_ono99": Option(("counts_as_play", "free_then_play", "disabled"), "counts_as_play",
                         "four ONO 99 cards: one play worth 0, a free discard, or not allowed"),
    "play2_dies_with_eliminated_seat": Option(
        "bool", True, "plays owed by a seat that goes out are not passed on"),
}

# Options of section 5 that the other UNO-family games inherit ("anything not listed follows
# section 5"): only those that make sense there.
_UNO_COMMON: dict[str, Option] = {
    "target_score": Option("int", 500, "points that end the game at the end of a hand"),
    "uno_penalty": Option("int", 2, "cards drawn by a seat caught without its UNO call"),
    "false_catch_penalty": Option("int", 0, "cards drawn by a seat that catches wrongly"),
    "illegal_play_penalty": Option("int", 0, "cards drawn for an illegal card (taken back)"),
    "infer_color_from_next_card": Option(
        "bool", True, "a colour never named for a wild is read from the next card"),
}

UNO_OPTIONS: dict[str, Option] = {
    "deck": Option(("108", "112_blank", "112_swap", "112_shuffle"), "108",
                   "the deck: 108 cards, or 112 with the blank, Swap or Shuffle wilds"),
    **_UNO_COMMON,
    "scoring": Option(("winner_collects", "cumulative_low"), "winner_collects",
                      "the hand winner scores the others' cards, or each its own (lowest wins)"),
    "first_reverse": Option(("dealer_first", "dealer_right_first"), "dealer_first",
                            "a Reverse turned up first: the dealer plays, or the dealer's right"),
    "first_wild": Option(("first_player_chooses", "reflip"), "first_player_chooses",
                         "a Wild turned up first: the first player names the colour, or reflip"),
    "first_special_wild": Option(("as_wild", "reflip"), "as_wild",
                                 "a Shuffle/Swap/Custom wild turned up first: a plain Wild, or reflip"),
    "wd4_challenge": Option("bool", True, "the victim of a Wild Draw Four may challenge it"),
    "wd4_guilty_next": Option(("challenger_plays", "challenger_skipped"), "challenger_plays",
                              "after a guilty verdict the challenger plays, or is skipped"),
    "wd4_final_card_challenge": Option("bool", False,
                                       "a Wild Draw Four that ends the hand may be challenged"),
    "play_drawn_card": Option(("may", "must"), "may",
                              "a playable drawn card may be kept, or must be played (not checked)"),
    "shuffle_hands_last_card": Option(("redeal", "goes_out"), "redeal",
                                      "Shuffle Hands as the last card: redealt to all, or goes out"),
    "swap_hands_last_card": Option(("goes_out", "swap"), "goes_out",
                                   "Swap Hands as the last card: goes out, or swaps first"),
    "custom_wild_effect": Option(("plain_wild",), "plain_wild",
                                 "the customizable wild is refereed as a plain Wild"),
    # section 6 house rules, all off by default
    "stacking": Option(("none", "same_type", "draw2_into_draw4", "any_draw"), "none",
                       "a pending draw may be answered with a draw card, passing the sum on"),
    "stack_one_per_turn": Option("bool", True, "a stacking seat adds one draw card, not several"),
    "wd4_challenge_in_stack": Option("bool", False, "a Wild Draw Four in a stack may be challenged"),
    "jump_in": Option("bool", False, "a card identical to the top card may be played out of turn"),
    "jump_in_wilds": Option("bool", False, "wilds may be jumped in too"),
    "jump_in_action": Option(("cancel_and_replace", "cumulative"), "cancel_and_replace",
                             "a jump-in on an action card cancels it, or adds to it"),
    "seven_zero": Option("bool", False, "a 7 swaps hands with a chosen seat, a 0 passes every hand on"),
    "draw_until_playable": Option("bool", False,
                                  "a seat that draws keeps drawing until it can play (no pass)"),
    "multi_same_number": Option("bool", False,
                                "after a number card, the same seat may add cards of that number"),
}

NO_MERCY_OPTIONS: dict[str, Option] = {
    "mercy_limit": Option("int", 25, "a seat holding this many cards is out (mercy rule)"),
    "stack_rule": Option(("equal_or_higher", "any"), "equal_or_higher",
                         "a stacked draw card must be worth at least the last one, or any"),
    "roulette_chooser": Option(("victim", "player"), "victim",
                               "who names the Color Roulette's colour"),
    "roulette_stackable": Option("bool", False,
                                 "the roulette's victim may pass it on with another roulette"),
    "skip_dodges_stack": Option("bool", False,
                                "a Skip passes a pending stack unchanged to the next seat"),
    "scoring": Option(("none", "winner_collects"), "none",
                      "going out wins the game, or the winner scores the others' cards"),
    "first_card_action": Option(("reflip",), "reflip", "an action or wild turned up first is reflipped"),
    **_UNO_COMMON,
}

ENA_OPTIONS: dict[str, Option] = {
    "overtake": Option("bool", True, "a card identical to the top card may be played out of turn"),
    "overtake_wilds": Option("bool", False, "wilds may overtake too"),
    "overtake_draw_stacks": Option("bool", True,
                                   "a Draw Two overtaking an unanswered one adds to its draw"),
    "stack_in_turn": Option(("none", "same_type", "any_draw"), "same_type",
                            "which draw cards the victim of a draw may answer with in turn"),
    "mistake_penalty": Option("int", 2, "cards drawn for any mistake (a wrong card, a missed call)"),
    "ena_call_penalty": Option("int", 2, "cards drawn for a caught missing call "
                                          "(unless set: mistake_penalty)"),
    "mistake_ends_turn": Option("bool", False, "a mistake in turn also ends that turn"),
    "scoring": Option(("cumulative_low", "winner_collects"), "cumulative_low",
                      "each seat scores its own cards (lowest wins), or the winner collects"),
    "target_score": Option("int", 500, "points that end the game at the end of a hand"),
    "first_reverse": Option(("dealer_right_first",), "dealer_right_first",
                            "a Reverse turned up first: the dealer's right plays first"),
    "first_wild": Option(("dealer_chooses",), "dealer_chooses",
                         "a Wild turned up first: the dealer names the colour"),
    "first_wd4": Option(("dealer_chooses_first_draws4",), "dealer_chooses_first_draws4",
                        "a Wild Draw Four turned up first: dealer names it, first player draws 4"),
    # inherited from section 5 (8.2: the Wild Draw Four and its challenge follow UNO)
    "wd4_challenge": UNO_OPTIONS["wd4_challenge"],
    "wd4_guilty_next": UNO_OPTIONS["wd4_guilty_next"],
    "false_catch_penalty": _UNO_COMMON["false_catch_penalty"],
    "infer_color_from_next_card": _UNO_COMMON["infer_color_from_next_card"],
    "shuffle_hands_last_card": UNO_OPTIONS["shuffle_hands_last_card"],
    "swap_hands_last_card": UNO_OPTIONS["swap_hands_last_card"],
}


def default_options(specs: dict[str, Option]) -> dict[str, Any]:
    """The options of `specs` with their spec defaults."""
    return {name: opt.default for name, opt in specs.items()}


def _valid(kind: Any, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "int_or_null":
        return value is None or (isinstance(value, int) and not isinstance(value, bool))
    return isinstance(value, str) and value in kind


def describe_kind(kind: Any) -> str:
    """The values an option takes, as a person types them after --option NAME=."""
    if isinstance(kind, tuple):
        return " / ".join(kind)
    return {"bool": "true / false", "int": "an integer",
            "int_or_null": "an integer or null"}[kind]


def resolve_options(game: str, specs: dict[str, Option], options: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults of `specs` overlaid with `options`; ConfigError names the first bad option
    and what would be valid instead."""
    if options is not None and not isinstance(options, dict):
        raise ConfigError(f"options must be an object, not {type(options).__name__}")
    resolved = default_options(specs)
    for name, value in (options or {}).items():
        if name not in specs:
            raise ConfigError(f"unknown option {name!r} for {game} (its options: {', '.join(specs)}; "
                              f"see `tableref options {game}`)")
        kind = specs[name].kind
        if isinstance(kind, tuple) and _valid("int", value) and str(value) in kind:
            value = str(value)  # deck=108 typed on a command line reads as a number
        if not _valid(kind, value):
            raise ConfigError(f"bad value {value!r} for option {name!r} of {game} "
                              f"(expected {describe_kind(kind)})")
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
