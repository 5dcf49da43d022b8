"""Issue 25's acceptance: a person referees a whole recorded practice game with `tableref run
--confirm` at a real terminal (a pseudo-terminal, one key at a time with a person's pauses),
and the journal equals the game's truth.

UNO: owed and chosen draws, passes, wild colours, Wild Draw Four challenges, UNO calls, a
card the camera misreads (the clip shows another number there) corrected with u then x, and
the end of the hand scored by showing the hands to the camera (the clip shows each spread, as
`tableref synth` makes it): Enter accepts a hand read right; one hand is shown without one of
its cards, and the person types that hand instead.
ONO 99 (2022): a seat eliminated, illegal cards taken back, and the same misread correction."""
from __future__ import annotations

import pathlib

import pytest

from app_person import game_events, plain
from app_pty_person import PtyPerson
from app_run_driver import journal_records
from app_tableclip import game_clip
from tableref.game_script import find_game
from tableref.practice import hand_ends, reveals_in_seat_order
from tableref.referee import Referee

GAMES = {
    # game: (players, options, features the game must show, step types it must have)
    "uno": (3, {"target_score": 1}, {"draw", "colour_choice", "wild", "winner"}, {"challenge", "reveal"}),
    "ono99_2022": (3, {}, {"elimination", "illegal_taken_back", "winner"}, set()),
}


def shows_hands(tg) -> bool:
    """No card comes while the hands are scored (the camera looks for hands then), and some
    hand shown has two cards or more (one is shown short)."""
    h = tg.header
    ref = Referee(h["game"], h["players"], h.get("options") or {})
    for step in tg.steps:
        if step.kind == "land" and ref.state.get("hand_over"):
            return False
        if step.event is not None:
            ref.push(step.event)
    ends = hand_ends(tg.steps)
    return not ends or any(len(cards) > 1 for hands in ends.values() for _, cards in hands)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_referees_a_recorded_game_at_a_terminal(game: str, tmp_path: pathlib.Path) -> None:
    players, options, features, kinds = GAMES[game]
    seed, tg = find_game(game, players, options, features, max_landings=40, misplay_rate=0.05 if game == "uno" else 0.2,
                         accept=lambda tg: kinds <= {s.event["type"] for s in tg.steps if s.event} and shows_hands(tg))
    tg = reveals_in_seat_order(tg)
    video, misread, short_hand = game_clip(tmp_path, tg, seed)
    journal = tmp_path / "game.jsonl"
    expected = [plain(e) for e in tg.expected_events]
    person = PtyPerson(["--game", game, "--players", str(players), *sum((["--option", f"{k}={v}"] for k, v in options.items()), []),
                        "--source", str(video), "--port", "sim://", "--journal", str(journal), "--confirm"],
                       journal, expected, seed)
    rc = person.drive()
    assert rc == 0, (person.proc.stderr.read() if person.proc.stderr else b"").decode() + person.screen()
    records = journal_records(journal)
    assert game_events(records) == expected
    # the misread card: the camera's reading undone, then the right card typed (x), as the screen said
    assert "u" in person.typed and f"x {misread}" in person.typed
    print(f"{game}: {len(records)} records, typed {len(person.typed)} lines: {person.typed}")
    ref = Referee(game, players, options)
    for ev in expected:
        ref.push(ev)
    final = tg.sim.truth[-1]
    assert ref.state["game_over"] and ref.state["winner"] == final["winner"]
    if game == "uno":
        assert {"challenge", "challenge_result", "reveal", "color", "draw", "pass"} <= {r["type"] for r in records}
        # the hands shown: the one shown short typed, the others accepted as read (Enter)
        assert person.hands_typed == [short_hand] and person.hands_accepted, (person.hands_typed, person.hands_accepted)
        assert ref.state["scores"] == final["scores"]
    else:
        assert ref.state["eliminated"] and sorted(ref.state["eliminated"]) == sorted(final["eliminated"])
        assert any(r["type"] == "taken_back" for r in records)
