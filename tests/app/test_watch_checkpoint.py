"""The resume checkpoint keeps the watcher's state bit for bit, in a fraction of its pickle."""
from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from tableref.vision.motion import View
from tableref.vision.recognise import Recogniser
from tableref.vision.sources import open_source
from tableref.vision.watcher import PileWatcher
from tableref.watch_checkpoint import KEEP_OUT, WatchCheckpoint

SPEC = "synth:seed=11,size=640x360,duration=12"


def _same(a: Any, b: Any, where: str) -> None:
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, where
        assert a.tobytes() == b.tobytes(), where  # bit for bit, not merely close
        assert b.flags.writeable, where
    elif isinstance(a, (list, tuple)) or type(a).__name__ == "deque":
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif hasattr(a, "__dict__") and not isinstance(a, type):
        assert type(a) is type(b), where
        _same(vars(a), vars(b), where)
    else:
        assert a == b, where


def _views(obj: Any, seen: set[int] | None = None) -> list[View]:
    """Every View in the watcher's state, however deep its stages keep it."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, View):
        return [obj]
    if isinstance(obj, dict):
        return [v for x in obj.values() for v in _views(x, seen)]
    if isinstance(obj, (list, tuple)) or type(obj).__name__ == "deque":
        return [v for x in obj for v in _views(x, seen)]
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return _views(vars(obj), seen)
    return []


def test_a_restored_state_is_the_saved_one_bit_for_bit_and_small(tmp_path) -> None:
    watcher = PileWatcher(Recogniser("uno"))
    events = 0
    for f in open_source(SPEC):
        found = watcher.feed(f.index, f.t, f.image)
        events += len(found)
        if events >= 3:
            break
    assert events >= 3
    state = {k: v for k, v in vars(watcher).items() if k not in KEEP_OUT}
    views = _views(state)
    assert len(views) >= 3 and all(isinstance(v.ratio, np.ndarray) for v in views)  # the pile and its history
    cp = WatchCheckpoint(tmp_path / "game.jsonl", SPEC)
    cp.save(watcher, f.index, f.index)
    cp.save(watcher, f.index, f.index)  # the second save reuses the first one's encodings
    restored = PileWatcher(watcher.recogniser)
    assert cp.restore(restored, f.index) == f.index
    _same(state, {k: v for k, v in vars(restored).items() if k not in KEEP_OUT}, "watcher")
    plain = len(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert cp.path.stat().st_size < plain / 3, (cp.path.stat().st_size, plain)
