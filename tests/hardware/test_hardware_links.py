"""Links in the hardware READMEs lead somewhere: in-page anchors name a heading, relative links
name a file in the repository."""
from __future__ import annotations

import pathlib
import re

import pytest

from boardspec import HERE as HARDWARE

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(text: str) -> set[str]:
    in_code = False
    found = set()
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (m := _HEADING.match(line)):
            found.add(_slug(m.group(1)))
    return found


@pytest.mark.parametrize("doc", ["README.md", "wokwi/README.md"])
def test_links_resolve(doc: str) -> None:
    path = HARDWARE / doc
    text = path.read_text(encoding="utf-8")
    anchors = _anchors(text)
    broken = []
    for target in _LINK.findall(text):
        if target.startswith(("http://", "https://")):
            continue
        file_part, _, anchor = target.partition("#")
        if file_part:
            if not (path.parent / file_part).exists():
                broken.append(target)
        elif anchor not in anchors:
            broken.append(target)
    assert broken == []


def test_slug_rule() -> None:
    assert _slug("Raspberry Pi Pico / Pico W") == "raspberry-pi-pico--pico-w"
    assert _slug("Build step by step") == "build-step-by-step"
