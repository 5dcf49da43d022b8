"""Where the reading path leaves the slow classic reader out (recognise._combine): an outline
the learned reader is sure holds no card is read without it; with enrolled shots in the
profile a "no card" outline is still put to it (they teach it faces the model has never
seen). A card, however sure, is still put to it (see _combine). Real readers on rendered cards."""
from __future__ import annotations

import numpy as np

from tableref.vision.cardface import render_card
from tableref.vision.classify_training import card_free_scene
from tableref.vision.profiles import builtin_profile
from tableref.vision.recognise import Recogniser, RecogniserConfig


class Counted(Recogniser):
    """The real recogniser, counting how often its classic reader is asked."""
    classic_calls = 0

    def _classic(self, warped_bgr: np.ndarray):  # type: ignore[override]
        self.classic_calls += 1
        return super()._classic(warped_bgr)


def _card(code: str) -> np.ndarray:
    return render_card(code, "classic", 128, np.random.default_rng(3))[:, :, :3]


def _table() -> np.ndarray:
    return card_free_scene(np.random.default_rng(8), "table", (128, 200))


def test_a_sure_card_is_still_put_to_the_classic_reader() -> None:
    rec = Counted("uno")
    for code in ("red-7", "blue-skip", "green-draw2"):
        assert rec.read_cards([_card(code)])[0].card == code
    assert rec.classic_calls == 3


# veto 0: the older shortcut (every code all but ruled out: declined unasked) stays out of the way
ONLY_NO_CARD = RecogniserConfig(veto=0.0)


def test_a_sure_no_card_is_declined_unasked_unless_shots_are_enrolled() -> None:
    table = _table()
    rec = Counted("uno", config=ONLY_NO_CARD)
    probs = rec._learned_probs(rec.reader.probabilities([table])[0])
    assert probs["_none"] >= rec.config.no_card, "the learned reader must be sure a bare table is no card"
    assert rec.read_cards([table])[0].card is None
    assert rec.classic_calls == 0
    profile = builtin_profile()
    enrolled = Counted("uno", extra=profile, config=ONLY_NO_CARD)  # any extra samples count as enrolled shots
    assert enrolled.read_cards([table])[0].card is None
    assert enrolled.classic_calls == 1


def test_the_shortcut_can_be_turned_off() -> None:
    rec = Counted("uno", config=RecogniserConfig(veto=0.0, no_card=1.01))
    assert rec.read_cards([_table()])[0].card is None
    assert rec.classic_calls == 1
