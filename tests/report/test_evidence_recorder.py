"""The evidence recorder beside a real table (TableSession, journal, TableController): which
pictures each input leaves, named by journal record index, appended to on resume."""
from __future__ import annotations

import pathlib

import cv2
import numpy as np

from tableref.evidence import EvidenceRecorder, evidence_dir, observe, picture_name
from tableref.keyboard import parse_command
from tableref.table import TableSession, make_header
from tableref.table_app import TableController
from tableref.vision.sources import Frame


class Quiet:
    def update(self, u) -> None:
        pass

    def notice(self, text: str) -> None:
        pass


def image(shade: int) -> np.ndarray:
    img = np.full((240, 320, 3), 40, np.uint8)
    cv2.rectangle(img, (120, 80), (200, 160), (shade, shade, shade), -1)  # "the pile"
    return img


def table(journal: pathlib.Path, resume: bool = False) -> tuple[TableController, EvidenceRecorder]:
    session = TableSession.resume(journal) if resume else TableSession.new(make_header("uno", 3), journal)
    ctrl = TableController(session, Quiet())
    rec = EvidenceRecorder(evidence_dir(journal), lambda: (120, 80, 200, 160))
    observe(ctrl, rec)
    return ctrl, rec


def shade_of(path: pathlib.Path) -> int:
    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    return int(img[img.shape[0] // 2, img.shape[1] // 2])


def test_each_input_leaves_its_pictures_named_by_record(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    ctrl, rec = table(journal)
    folder = evidence_dir(journal)
    frame = Frame(0, 0.0, image(100))
    rec.frame(frame)
    assert rec.latest is frame.image and not folder.exists()  # per frame: a reference, nothing written
    ctrl.landed("red-5", 0.0, 0, 1.0)                            # record 0: the flip -> pile thumbnail
    rec.frame(Frame(1, 0.1, image(160)))
    ctrl.landed(None, 0.1, 1)                                    # unreadable: asked, under the next record
    rec.frame(Frame(2, 0.2, image(170)))
    ctrl.command(parse_command("x green-5"))                     # record 1: the typed answer
    rec.frame(Frame(3, 0.3, image(220)))
    ctrl.command(parse_command("u"))                             # record 2: undo
    rec.frame(Frame(4, 0.4, image(250)))
    ctrl.landed("blue-7", 0.4, 4, 1.0)                           # record 3: matches nothing: flagged
    names = sorted(p.name for p in folder.iterdir())
    assert names == [picture_name(0, "pile"), picture_name(1, "after"), picture_name(1, "asked"),
                     picture_name(1, "before"), picture_name(2, "after"), picture_name(2, "before"),
                     picture_name(3, "after"), picture_name(3, "before")]
    assert ctrl.session.records[3]["card"] == "blue-7" and ctrl.session.state["illegal"]["reason"] == "no_match"
    # before = the pile at the last change, after = now (JPEG moves a flat grey by a step or two)
    shades = {n: shade_of(folder / n) for n in names}
    assert abs(shades[picture_name(1, "asked")] - 160) <= 3
    assert abs(shades[picture_name(1, "before")] - 100) <= 3 and abs(shades[picture_name(1, "after")] - 170) <= 3
    assert abs(shades[picture_name(2, "before")] - 170) <= 3 and abs(shades[picture_name(2, "after")] - 220) <= 3
    assert abs(shades[picture_name(3, "before")] - 220) <= 3
    # the pile region with its margin, scaled to the picture size
    assert cv2.imread(str(folder / picture_name(1, "after"))).shape[:2] == (120, 120)
    assert rec.written == len(names) and rec.bytes == sum((folder / n).stat().st_size for n in names)


def test_a_resumed_game_keeps_appending(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    ctrl, rec = table(journal)
    rec.frame(Frame(0, 0.0, image(100)))
    ctrl.landed("red-5", 0.0, 0, 1.0)
    ctrl.session.close()
    first = (evidence_dir(journal) / picture_name(0, "pile")).read_bytes()
    ctrl, rec = table(journal, resume=True)
    rec.frame(Frame(1, 0.1, image(200)))
    ctrl.landed("red-7", 0.1, 1, 1.0)
    ctrl.session.close()
    assert (evidence_dir(journal) / picture_name(0, "pile")).read_bytes() == first
    assert (evidence_dir(journal) / picture_name(1, "pile")).exists()


def test_a_typed_game_without_frames_writes_nothing(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    ctrl, _ = table(journal)
    ctrl.command(parse_command("x red-5"))
    assert not evidence_dir(journal).exists()


def test_a_folder_that_cannot_be_written_costs_the_pictures_not_the_game(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "j.jsonl"
    ctrl, rec = table(journal)
    evidence_dir(journal).write_text("a file where the folder should be")
    rec.frame(Frame(0, 0.0, image(100)))
    ctrl.landed("red-5", 0.0, 0, 1.0)
    assert rec.failed and "cannot write evidence pictures" in rec.failed
    assert len(ctrl.session.records) == 1  # the card still counts


def test_the_report_shows_each_correction_and_asked_card_with_its_pictures(tmp_path: pathlib.Path) -> None:
    from tableref.report.cmd import write_report
    journal = tmp_path / "j.jsonl"
    ctrl, rec = table(journal)
    steps = [lambda: ctrl.landed("red-5", 0.0, 0, 1.0),        # record 0: flip
             lambda: ctrl.landed(None, 0.1, 1),                # asked ...
             lambda: ctrl.command(parse_command("x green-5")),  # ... record 1: typed answer
             lambda: ctrl.command(parse_command("u")),          # record 2: undo
             lambda: ctrl.landed(None, 0.3, 3),                # asked ...
             lambda: ctrl.landed("red-7", 0.4, 4, 0.9)]        # ... record 3: read after all
    for i, step in enumerate(steps):
        rec.frame(Frame(i, i / 10, image(100 + 20 * i)))
        step()
    ctrl.session.close()
    line = write_report(journal, tmp_path / "r.html")
    assert "0 illegal plays" in line and "pictures missing" not in line
    page = (tmp_path / "r.html").read_text()
    typed = page[page.index("data-index='1' data-kind='typed'"):]
    typed = typed[:typed.index("</div>")]
    assert all(f"data-picture='{picture_name(1, k)}'" in typed for k in ("asked", "before", "after"))
    undo = page[page.index("data-index='2' data-kind='undo'"):]
    assert "record 1: card green-5" in undo[:undo.index("</div>")]
    assert "Cards the camera asked about, then read (1)" in page
    assert f"data-picture='{picture_name(3, 'asked')}'" in page and "before record 3" in page
