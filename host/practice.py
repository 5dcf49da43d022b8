"""Practice material: `tableref synth --game GAME OUT_DIR` writes the pile video of a whole
simulated game and the input script a person at the table follows while `tableref run`
watches it, so anyone can try `run` without a table (and tests can use it).

The game comes from game_script (the same search the demo uses): every card that lands is
seen by the camera; everything else (a draw, a pass, a colour, an UNO call) is a key for the
person to type, listed after the card it follows, with that card's time in the video. At the
end of a hand the video shows each hand still to be scored spread under the camera, in the
order the referee asks for them (seat order), and the script says when: Enter accepts what
the camera read (or the person types the cards).
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

from dataclasses import replace

from .game_script import DEMO_SETUP, Step, TableGame, _typed, find_game, game_scene
from .rules import GAME_IDS
from .rules.describe import describe_event

LINGER_SETTLE_S = 1.0  # a hand's last card lies still this long before the hands are shown
GAMES = GAME_IDS  # every game has a deck the synthetic scenes can draw


def reveals_in_seat_order(tg: TableGame) -> TableGame:
    """The game with the hands of each hand's end scored in seat order (the order the referee
    lists them in, and the camera is shown them); the score does not depend on it."""
    steps: list[Step] = []
    run: list[Step] = []
    for step in [*tg.steps, None]:
        if step is not None and _is_reveal(step):
            run.append(step)
            continue
        steps += sorted(run, key=lambda s: (s.event or {})["seat"])
        run = []
        if step is not None:
            steps.append(step)
    return replace(tg, steps=steps)


def _is_reveal(step: Step) -> bool:
    return (step.event or {}).get("type") == "reveal"


def hand_ends(steps: list[Step]) -> dict[int, list[tuple[int, list[str]]]]:
    """For each hand scored by showing: the index of the camera step after which it ended,
    and the seat and cards of each hand shown there, in order."""
    out: dict[int, list[tuple[int, list[str]]]] = {}
    camera = -1
    for step in steps:
        if step.kind in ("land", "remove"):
            camera += 1
        elif _is_reveal(step) and (step.event or {}).get("cards"):
            out.setdefault(camera, []).append((step.event["seat"], list(step.event["cards"])))  # type: ignore[index]
    return out


def shown_hands(steps: list[Step], pile: Any) -> list[Any]:
    """The hands a pile video made with game_scene(linger=hand_ends(steps)) shows, each
    after the pile has lain still a while past its hand's last card."""
    from .vision.synth.hands_shown import ShownHand

    settle = round(LINGER_SETTLE_S * pile.fps)
    return [ShownHand(min(pile.step_ends[k] + settle, pile.n_frames - 1), seat, tuple(cards))
            for k, hands in hand_ends(steps).items() for seat, cards in hands]


def practice_scene(tg: TableGame, seed: int, size: tuple[int, int] = (640, 480), fps: float = 15.0) -> Any:
    """The pile video of the game with the hands shown at the end of each hand."""
    from .vision.synth.hands_shown import HandsShownScene

    pile = game_scene(tg, seed, size=size, fps=fps, linger=hand_ends(tg.steps))
    return HandsShownScene(pile, shown_hands(tg.steps, pile), seed)


def script_steps(tg: TableGame, truth: dict[str, Any]) -> list[dict[str, Any]]:
    """Each table step with what the person sees or does: camera steps carry the video frame
    and time at which the card has settled, or a hand is shown; keys are typed after the
    camera step before them."""
    out: list[dict[str, Any]] = []
    camera, hands = iter(truth["events"]), iter(truth.get("hands") or [])
    frame, t = 0, 0.0
    for step in tg.steps:
        if step.kind in ("land", "remove"):
            seen = next(camera)
            frame, t = seen["frame"], seen["t"]
            what = f"{step.card} lands on the pile" if step.kind == "land" else "the illegal card is taken back"
            out.append({"step": "camera", "frame": frame, "t": t, "what": what})
        elif _is_reveal(step) and (step.event or {}).get("cards"):
            shown = next(hands)
            frame, t = shown["frame"], shown["t"]
            out.append({"step": "hand", "frame": frame, "t": t, "seat": shown["seat"], "cards": shown["cards"],
                        "what": f"seat {shown['seat']} shows the hand: {' '.join(shown['cards'])} "
                                f"(Enter accepts the reading, else type {_typed(step.event or {})})"})
        else:
            assert step.event is not None
            out.append({"step": "key", "after_frame": frame, "t": t, "key": _typed(step.event),
                        "what": describe_event(step.event)})
    return out


def run_command(game: str, players: int, options: dict[str, Any], video: pathlib.Path) -> list[str]:
    opts = [a for k, v in sorted(options.items()) for a in ("--option", f"{k}={json.dumps(v)}")]
    return ["tableref", "run", "--game", game, "--players", str(players), *opts,
            "--source", str(video), "--port", "sim://"]


def script_text(command: list[str], steps: list[dict[str, Any]]) -> str:
    lines = ["# practice game for `tableref run`; start it with:", "#   " + " ".join(command),
             "# the camera reads the cards; type each key line when the video reaches its time",
             "# (seat numbers count from 0, clockwise)"]
    for s in steps:
        if s["step"] in ("camera", "hand"):
            lines.append(f"{s['t']:7.2f} s  {s['step']:<6}  {s['what']}")
        else:
            lines.append(f"{s['t']:7.2f} s  type    {s['key']:<16} # {s['what']}")
    return "\n".join(lines) + "\n"


def write_practice(game: str, players: int, seed: int, options: dict[str, Any], out: pathlib.Path,
                   size: tuple[int, int], fps: float, fmt: str) -> dict[str, Any]:
    """Write `game_<seed>.<fmt>`, `game_<seed>.script.txt` and `game_<seed>.json` (the header,
    the steps and the referee events the game must give) into `out`; returns a summary."""
    from .vision.synth.clip_writer import write_video

    options = {**DEMO_SETUP.get(game, {}).get("options", {}), **options}
    seed, tg = find_game(game, players, options, {"winner"}, start_seed=seed, misplay_rate=0.0)
    tg = reveals_in_seat_order(tg)
    scene = practice_scene(tg, seed, size=size, fps=fps)
    video = out / f"game_{seed:04d}.{fmt}"
    write_video(scene, video)
    steps = script_steps(tg, scene.ground_truth())
    command = run_command(game, players, tg.header.get("options") or {}, video)
    script = video.with_suffix(".script.txt")
    script.write_text(script_text(command, steps))
    truth = video.with_suffix(".json")
    truth.write_text(json.dumps({"seed": seed, "header": tg.header, "run": command, "steps": steps,
                                 "events": tg.expected_events, "final": tg.sim.truth[-1]}, indent=1) + "\n")
    return {"video": str(video), "script": str(script), "truth": str(truth), "frames": scene.n_frames,
            "cards": sum(1 for s in steps if s["step"] == "camera"),
            "hands": sum(1 for s in steps if s["step"] == "hand"), "keys": sum(1 for s in steps if s["step"] == "key")}
