"""The built-in profile's cache key follows the code that makes it: an upgrade never loads a
profile built by older renders or features."""
from __future__ import annotations

import pathlib
import shutil

import numpy as np

from tableref.vision import profiles


def test_the_cache_key_changes_with_the_render_code(tmp_path: pathlib.Path) -> None:
    here = pathlib.Path(profiles.__file__).parent
    for name in profiles._PROFILE_SOURCES:
        shutil.copy(here / name, tmp_path / name)
    assert profiles.sources_digest(tmp_path) == profiles.sources_digest()
    assert profiles.sources_digest() in profiles.BUILTIN_VERSION
    art = tmp_path / "cardface.py"
    art.write_text(art.read_text() + "\n# a changed render\n")
    assert profiles.sources_digest(tmp_path) != profiles.sources_digest()


def test_a_new_profile_replaces_the_cached_ones_of_older_code(tmp_path, monkeypatch) -> None:
    # the caching alone: a tiny profile stands in for the real build (tens of seconds)
    tiny = profiles.Profile("builtin", np.eye(2, dtype=np.float32), ["1", "2"], ["red-1", "red-2"])
    monkeypatch.setenv("TABLEREF_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(profiles, "_BUILTIN", None)
    monkeypatch.setattr(profiles, "build_builtin", lambda **_: tiny)
    (tmp_path / "builtin-f7-r23.npz").write_bytes(b"from older code")
    assert profiles.builtin_profile() is tiny
    assert [p.name for p in tmp_path.glob("builtin-*.npz")] == [f"builtin-{profiles.BUILTIN_VERSION}.npz"]
    monkeypatch.setattr(profiles, "_BUILTIN", None)
    assert profiles.builtin_profile().labels == ["1", "2"]   # read back from the cache


def test_another_opencv_s_profile_is_kept_apart(tmp_path, monkeypatch) -> None:
    # two environments with different OpenCV builds may share one cache folder: each reads
    # and keeps its own (their renders differ), and a build by one deletes only its own old ones
    import cv2
    assert profiles.BUILTIN_VERSION.endswith(f"-cv{cv2.__version__}")
    tiny = profiles.Profile("builtin", np.eye(2, dtype=np.float32), ["1", "2"], ["red-1", "red-2"])
    monkeypatch.setenv("TABLEREF_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(profiles, "_BUILTIN", None)
    monkeypatch.setattr(profiles, "build_builtin", lambda **_: tiny)
    other = tmp_path / "builtin-f7-r23-cv0.0.1.npz"
    mine_older = tmp_path / f"builtin-f7-r23-cv{cv2.__version__}.npz"
    for path in (other, mine_older):
        path.write_bytes(b"a profile")
    assert profiles.builtin_profile() is tiny
    assert sorted(p.name for p in tmp_path.glob("builtin-*.npz")) == sorted(
        [other.name, f"builtin-{profiles.BUILTIN_VERSION}.npz"])
