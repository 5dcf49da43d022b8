"""A whole game as the table plays it: what the camera sees, which board buttons are pressed,
what is typed — derived from a seeded full-information simulation (tableref.simulate).

`table_steps(sim_game)` translates the simulator's events into table inputs and checks, with
two referees in lockstep, that the table's inputs give exactly the simulator's game: a card
the camera sees carries no seat (the referee attributes it), so a game whose cards the
referee would attribute differently (an out-of-turn misplay, a jump-in) cannot be shown from
the camera alone and is refused, unless the camera names seats (`camera_seats`): then such
a card carries the seat the camera saw it come from (tableref.seats). Each landing's hand
comes from the seat that played it. `find_game` searches seeds in order for the first game that
can be shown and has every feature asked for. `game_scene` renders the pile video of it with
the synthetic scene generator (tableref.vision.synth), card by card as scripted.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection

from .actions import button_event, landed_event, refusal
from .referee import Referee
from .rules import ruleset_class
from .simulate import SimGame, simulate_game

# reasons for which an illegal card is not played: the table takes it back (the camera sees it go)
NOT_PLAYED_KEPT = ("ono99_unplayable",)  # a broken ONO set: the breaking card counts, nothing to take back


@dataclass(frozen=True)
class Step:
    kind: str                     # "land" | "remove" (camera), "press" (board), "type" (keyboard)
    card: str | None = None       # land
    button: str | None = None     # press: DRAW | PASS | UNDO | COLOUR
    colour: str | None = None     # press COLOUR
    line: str | None = None       # type
    event: dict[str, Any] | None = None  # the referee event this step gives (None for remove)
    seat: int | None = None       # land / remove: whose hand it is (None: the dealer's flip, any seat)


@dataclass
class TableGame:
    sim: SimGame
    steps: list[Step]
    features: set[str] = field(default_factory=set)

    @property
    def header(self) -> dict[str, Any]:
        return self.sim.header

    @property
    def expected_events(self) -> list[dict[str, Any]]:
        """The referee events the table's inputs give, in order (cards without seats)."""
        return [s.event for s in self.steps if s.event is not None]


class NotShowable(Exception):
    """The simulated game cannot be played through camera + buttons + keys as scripted."""


def _typed(ev: dict[str, Any]) -> str:
    """The keyboard line for an event the camera and the board cannot give."""
    seat = ev.get("seat")
    who = f"{seat} " if seat is not None else ""
    t = ev["type"]
    if t == "draw":
        return f"{who}d" + (f" {ev['count']}" if ev.get("count") else "")
    if t == "uno":
        return f"{who}n"
    if t == "catch":
        return f"{who}k {ev['target']}"
    if t == "target":
        return f"{who}t {ev['target']}"
    if t == "challenge":
        return f"{who}h"
    if t == "challenge_result":
        return "G" if ev["guilty"] else "I"
    if t == "reveal":
        return f"{who}v " + " ".join(ev["cards"]) if ev["cards"] else f"{who}v"
    if t == "new_hand":
        return f"w {ev.get('dealer', 0)}"
    if t in ("pass", "out", "end_turn"):
        return f"{who}{ {'pass': 'p', 'out': 'o', 'end_turn': 'e'}[t]}"
    if t == "color":
        return f"{who}c {ev['color']}"
    raise NotShowable(f"no key for {t}")


def table_steps(game: SimGame, camera_seats: bool = False) -> TableGame:
    h = game.header
    sim_ref = Referee(h["game"], h["players"], h.get("options") or {})
    tab_ref = Referee(h["game"], h["players"], h.get("options") or {})
    steps: list[Step] = []
    features: set[str] = set()
    give_up = ruleset_class(h["game"]).give_up  # the event PASS sends: `pass` or `out`
    for ev in game.events:
        state = tab_ref.state
        t = ev["type"]
        if t not in ("card", "flip") and refusal(tab_ref, ev) is not None:
            sim_ref.push(ev)  # a slip the table refuses (a key that changes nothing): never journaled
            continue
        sim_v = sim_ref.push(ev)
        if t in ("card", "flip"):
            # whose hand lays it: a card without a seat is the seat on turn's, a flip the dealer's
            seat = ev.get("seat")
            if seat is None:
                seat = state.get("current_seat") if t == "card" else state.get("dealer")
            candidates = [Step("land", card=ev["card"], event=landed_event(state, ev["card"]), seat=seat)]
            if camera_seats and t == "card" and ev.get("seat") is not None and seat != state.get("current_seat"):
                # the camera saw the card come from its seat: the referee judges it as that seat's
                candidates.append(Step("land", card=ev["card"], event={"type": "card", "seat": seat,
                                                                      "card": ev["card"]}, seat=seat))
        else:
            candidates = []
            button = {"draw": "DRAW", give_up: "PASS", "color": "COLOUR"}.get(t)
            if button is not None:
                derived = button_event(h["game"], button, "long" if button == "COLOUR" else "short",
                                       ev.get("color") or "-", state, tab_ref.events)
                if isinstance(derived, dict):
                    candidates.append(Step("press", button=button, colour=ev.get("color"), event=derived))
            candidates.append(Step("type", line=_typed(ev), event=dict(ev)))
        for step in candidates:  # the first input that gives exactly the simulator's game
            assert step.event is not None
            tab_v = tab_ref.push(step.event)
            if sim_ref.state == tab_ref.state and sim_v == tab_v:
                break
            tab_ref.pop()
        else:
            raise NotShowable(f"event {len(steps)}: {ev} from the table gives another game")
        steps.append(step)
        if t == "card" and sim_v.illegal is not None and sim_v.illegal["reason"] not in NOT_PLAYED_KEPT:
            steps.append(Step("remove", seat=step.seat))
            features.add("illegal_taken_back")
        features |= _features(h["game"], ev, sim_v.illegal, state, tab_ref.state, step)
    if not game.finished:
        raise NotShowable("the game did not finish")
    features.add("winner")
    return TableGame(game, steps, features)


def _features(game: str, ev: dict[str, Any], illegal: Any, before: dict[str, Any], after: dict[str, Any],
              step: Step) -> set[str]:
    out: set[str] = set()
    ok = illegal is None
    card = ev.get("card") or ""
    if ev["type"] == "card" and ok:
        if card == "play2":
            out.add("play2")
        if card == "reverse" and after.get("direction") != before.get("direction"):
            out.add("reverse")
        if card == "minus10" and (before.get("total") or 0) < 10:
            out.add("minus10_low")
        if card.endswith("draw2"):
            out.add("draw2")
        if card.endswith("-skip"):
            out.add("skip")
        if card.startswith("wild"):
            out.add("wild")
    if len(after.get("eliminated") or []) > len(before.get("eliminated") or []):
        out.add("elimination")
    if ev["type"] == "draw" and step.kind == "press":
        out.add("draw")
    if ev["type"] == "color" and step.kind == "press":
        out.add("colour_choice")
    if step.kind == "land" and (step.event or {}).get("seat") is not None:
        out.add("camera_seat_legal" if ok else "camera_seat_flagged")  # out of turn: credited, or flagged
    return out


REQUIRED = {
    "ono99_2022": {"illegal_taken_back", "play2", "reverse", "minus10_low", "elimination", "winner"},
    "uno": {"draw", "colour_choice", "draw2", "skip", "wild", "winner"},
    # overtakes credited by the camera alone
    "ena": {"camera_seat_legal", "draw", "colour_choice", "winner"},
}
DEMO_SETUP: dict[str, dict[str, Any]] = {
    # a short UNO game: the first hand won decides it (the official 500 points take an evening)
    "ono99_2022": {"players": 4, "options": {}, "misplay_rate": 0.08},
    "uno": {"players": 4, "options": {"target_score": 1}, "misplay_rate": 0.03},
    "ena": {"players": 4, "options": {"target_score": 1}, "misplay_rate": 0.1},
}
LINGER_S = 2.0  # the pile lies still this long where a hand is scored (game_scene's linger)
CAMERA_SEAT_GAMES = ("ena",)  # demo games whose out-of-turn cards the camera credits (find_game camera_seats)
LEARN_PLAYS = 3  # in-turn cards each seat plays before the camera must credit one out of turn


def seats_learned_first(tg: TableGame, plays: int = LEARN_PLAYS) -> bool:
    """Whether every seat has laid `plays` cards in turn (which teach the camera's seat map)
    before the first card the camera must credit to a seat out of turn."""
    count = [0] * tg.header["players"]
    for step in tg.steps:
        if step.kind != "land" or step.seat is None or (step.event or {}).get("type") != "card":
            continue
        if (step.event or {}).get("seat") is not None:
            return min(count) >= plays
        count[step.seat] += 1
    return True


def find_game(game: str, players: int, options: dict[str, Any], required: set[str], start_seed: int = 0,
              max_landings: int = 60, misplay_rate: float = 0.05, tries: int = 2000,
              accept: Callable[[TableGame], bool] | None = None, camera_seats: bool = False) -> tuple[int, TableGame]:
    """The first seed from start_seed whose game can be shown and has every required feature."""
    for seed in range(start_seed, start_seed + tries):
        sim = simulate_game(game, players, seed, options, misplay_rate=misplay_rate, max_events=400)
        if not sim.finished or sum(1 for e in sim.events if e["type"] in ("card", "flip")) > max_landings:
            continue
        try:
            tg = table_steps(sim, camera_seats)
        except NotShowable:
            continue
        if required <= tg.features and (accept is None or accept(tg)):
            return seed, tg
    raise RuntimeError(f"no {game} game with {sorted(required)} among seeds {start_seed}..{start_seed + tries - 1}")


# -- the pile video ------------------------------------------------------------------------
def game_scene(tg: TableGame, seed: int, size: tuple[int, int] = (640, 480), fps: float = 15.0,
               linger: Collection[int] = ()) -> Any:
    """A SynthScene whose pile receives exactly the game's cards (and loses the taken-back ones).

    Returns the scene; `scene.ground_truth()["events"]` lists each landing/removal with the
    frame at which it has settled, and `scene.step_ends` the frame at which each camera
    step's hand has left. After the camera steps in `linger` (their indices) the pile lies
    still for LINGER_S (the table scores a hand there)."""
    import numpy as np

    from .vision.synth.scene import SceneParams, SynthScene
    from .vision.synth.script import Script, ScriptBuilder, truth_events

    h = tg.header
    deck = ruleset_class(h["game"]).vision_deck(h.get("options") or {})
    scene = SynthScene(SceneParams(seed=seed, deck=deck, size=size, fps=fps, cards=1))
    rng = np.random.default_rng(seed + 7919)
    b = ScriptBuilder(rng, scene.size, fps, scene.faces.codes, scene.homography, scene.unit,
                      players=tg.header["players"])
    f = b.frames(0.4, 0.8)
    camera = [s for s in tg.steps if s.kind in ("land", "remove")]
    ends: list[int] = []
    for i, step in enumerate(camera):
        if step.kind == "land":
            b.codes = [step.card]  # the builder picks its card from `codes`: give it the game's card
            a = b.add("land", f, seat=step.seat)
        else:
            a = b.add("remove", f, seat=step.seat)
        ends.append(a.end)
        if i in linger:
            f = a.end + round(LINGER_S * fps)
        elif i % 9 == 4:  # now and then a hand passes over the pile without playing
            f = b.add("pass", a.end + b.frames(0.1, 0.3)).end + b.frames(0.1, 0.3)
        else:
            f = a.end + b.frames(0.1, 0.35)
    n_frames = f + b.frames(0.8, 1.2)
    script = Script(fps, scene.size, scene.unit, b.centre, [], b.actions, [], [], n_frames, b.players,
                    (0.02, 8.0, 0.0), 0.5, 0.1)
    script.events = truth_events(b.actions, fps)
    script.seat_bearings = b.seats.bearings()
    scene.use_script(script)
    scene.step_ends = ends
    return scene
