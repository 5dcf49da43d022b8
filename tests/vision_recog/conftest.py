"""Fixtures of the recogniser tests. The built-in profile is regenerated from renders into a
per-session cache directory, so the tests also prove that it can be rebuilt from scratch."""
from __future__ import annotations

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def _isolated_dirs(tmp_path_factory: pytest.TempPathFactory):
    cache = os.environ.get("TABLEREF_TEST_CACHE") or str(tmp_path_factory.mktemp("cache"))
    data = str(tmp_path_factory.mktemp("data"))
    old = {k: os.environ.get(k) for k in ("TABLEREF_CACHE_DIR", "TABLEREF_DATA_DIR")}
    os.environ["TABLEREF_CACHE_DIR"] = cache
    os.environ["TABLEREF_DATA_DIR"] = data
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="session")
def recogniser(_isolated_dirs):
    from tableref.vision.recognise import Recogniser
    return Recogniser("auto")


@pytest.fixture(scope="session")
def eval_photos_module():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import eval_photos
    finally:
        sys.path.pop(0)
    return eval_photos


@pytest.fixture(scope="session")
def photos(shared_dir: pathlib.Path, eval_photos_module):
    root = shared_dir / "data" / "photos"
    if not (root / "labels.csv").is_file():
        pytest.skip("../shared/data/photos is not present")
    return eval_photos_module.load_photos(root)
