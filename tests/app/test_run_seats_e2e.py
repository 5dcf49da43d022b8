"""`tableref run` credits cards played out of turn by the camera alone: an Ena game with
overtakes and a UNO game with jump-ins and a card played out of turn, from a generated pile
video in which every hand comes from its player's side of the table. Nobody types a seat:
the person at the table only presses Enter after each camera event, names a card the camera
could not read or correct a misread one (without a seat), and types what the camera cannot
see (draws, colours, calls) as the game comes to them."""
from __future__ import annotations

import pathlib
import re
import sys
from typing import Any

import cv2
import pytest

from tableref.game_script import TableGame, _typed, find_game, game_scene, seats_learned_first
from tableref.record import read_record
from tableref.referee import Referee

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from app_run_driver import RunDriver, game_events, journal_records  # noqa: E402

GAMES = {
    # an Ena game in which players overtake (legal cards out of turn)
    "ena": ({"target_score": 1}, {"camera_seat_legal", "winner"}),
    # UNO with jump-ins allowed: a jump-in (legal) and a card played out of turn (flagged)
    "uno": ({"jump_in": True, "target_score": 1}, {"camera_seat_legal", "camera_seat_flagged", "winner"}),
}


class SeatDriver(RunDriver):
    """The person at the table: after each camera event, types what the game expects next
    that no camera can see, then presses Enter; never types a seat for a card."""

    def __init__(self, args: list[str], journal: pathlib.Path, tg: TableGame) -> None:
        super().__init__(args, journal, tg.expected_events)
        self.camera = [s.kind == "land" for s in tg.steps if s.event is not None]
        self.raw = tg.expected_events
        self.sent: list[str] = []

    def _send(self, text: str) -> None:
        self.sent += text.splitlines()
        super()._send(text)

    def _answer(self) -> None:
        done = game_events(journal_records(self.journal))
        self._send(f"x {self.expected[len(done)]['card']}\n")  # the card only: its seat is the camera's
        self.answers += 1

    def _confirm(self) -> None:
        done = game_events(journal_records(self.journal))
        n = len(done)
        if n and done[:n - 1] == self.expected[:n - 1] and done[-1] != self.expected[n - 1] \
                and self.expected[n - 1]["type"] == "card" and done[-1]["card"] != self.expected[n - 1]["card"]:
            self._send(f"u\nx {self.expected[n - 1]['card']}\n")  # misread: undo, name it (no seat)
            self.corrections += 1
        typed = []
        while n < len(self.raw) and not self.camera[n] and done == self.expected[:len(done)]:
            typed.append(_typed(self.raw[n]))
            n += 1
        self._send("".join(f"{line}\n" for line in typed) + "\n")


def _clip(folder: pathlib.Path, game: str) -> tuple[TableGame, pathlib.Path]:
    options, features = GAMES[game]
    seed, tg = find_game(game, 4, options, features, misplay_rate=0.1, max_landings=40, camera_seats=True,
                         accept=seats_learned_first)
    scene = game_scene(tg, seed, size=(640, 480))
    path = folder / f"{game}_{seed}.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), scene.fps, scene.size)
    for i in range(scene.n_frames):
        writer.write(scene.frame(i))
    writer.release()
    return tg, path


def _seat_cards(journal: pathlib.Path) -> list[tuple[dict[str, Any], Any]]:
    """(card record, verdict) for every card the journal credits to a seat out of turn."""
    header, records = read_record(journal)
    ref = Referee(header.game, header.players, header.options, header.setup)
    out = []
    for rec in records:
        if rec["type"] == "undo":
            ref.pop()
        elif rec["type"] not in ("taken_back", "seat_map"):
            verdict = ref.push({k: v for k, v in rec.items() if k not in ("t", "frame", "confidence", "bearing",
                                                                          "bearing_confidence", "src")})
            if rec["type"] == "card" and rec.get("seat") is not None:
                out.append((rec, verdict))
    return out


# The UNO clip lays a card while a Wild Draw Four is owed: with jump-ins allowed the video does
# not wait for the owed draw (tableref.awaited: PRE_EMPTABLE), so the camera sees it at once.
@pytest.mark.parametrize("game", ["ena", "uno"])
def test_out_of_turn_cards_are_credited_by_the_camera_alone(game: str, tmp_path: pathlib.Path) -> None:
    tg, video = _clip(tmp_path, game)
    journal = tmp_path / "game.jsonl"
    options = [a for k, v in GAMES[game][0].items() for a in ("--option", f"{k}={str(v).lower()}")]
    args = ["--source", str(video), "--port", "sim://", "--journal", str(journal), "--confirm", "--game", game,
            "--players", "4", *options]
    driver = SeatDriver(args, journal, tg)
    assert driver.drive(timeout_s=900) == 0, driver.stderr
    records = journal_records(journal)
    assert game_events(records) == driver.expected, "the journal differs from the game played"
    assert not [line for line in driver.sent if re.match(r"\d+ x ", line)], "a seat was typed for a card"
    credited = _seat_cards(journal)
    wanted = [e for e in tg.expected_events if e["type"] == "card" and e.get("seat") is not None]
    assert [r["card"] for r, _ in credited] == [e["card"] for e in wanted] and credited
    assert all("bearing" in r for r, _ in credited), "credited by the camera, not typed"
    assert any(r["type"] == "seat_map" for r in records)
    if "camera_seat_flagged" in GAMES[game][1]:
        assert any(v.illegal is not None for _, v in credited), "the card played out of turn is flagged"
    assert any(v.illegal is None for _, v in credited), "the jump-in / overtake is credited"
    print(f"{game}: {len(credited)} cards credited by the camera, {driver.corrections} corrections, "
          f"{driver.answers} named when asked")
