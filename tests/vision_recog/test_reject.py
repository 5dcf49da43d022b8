"""Card-free scenes made by the project: bare tables, a hand, card backs, another game's card
-> card None (target: at most 2 % reported as a card)."""
from __future__ import annotations

import numpy as np

from tableref.vision.classify_training import CARD_FREE_KINDS, card_free_scene


def test_card_free_scenes_are_rejected(recogniser) -> None:
    rng = np.random.default_rng(4321)
    n = 80
    said = [recogniser.identify(card_free_scene(rng, CARD_FREE_KINDS[i % 4])).card for i in range(n)]
    false = [c for c in said if c is not None]
    assert len(false) <= 3, false   # <= 3.75 %; tools/eval_reject.py --n 200 gives the figure


def test_blank_and_uniform_images() -> None:
    from tableref.vision.recognise import Recogniser
    rec = Recogniser("auto")
    for value in (0, 128, 255):
        r = rec.identify(np.full((480, 640, 3), value, np.uint8))
        assert r.card is None
