"""`--preview`: an OpenCV window with the pile region and the last card read drawn on the frame.

The default install has OpenCV without windows (opencv-python-headless, which works on servers
and in CI); `pip uninstall -y opencv-python-headless && pip install opencv-python` brings the build that can open them.
"""
from __future__ import annotations

import os
import sys
from typing import Any

WINDOW = "tableref"


def why_no_window() -> str | None:
    """None when a preview window can open, else the reason in one sentence."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display (DISPLAY/WAYLAND_DISPLAY not set)"
    import cv2
    info = cv2.getBuildInformation()
    gui = next((ln.split(":", 1)[1].strip() for ln in info.splitlines() if ln.strip().startswith("GUI:")), "")
    if not gui or gui.upper() == "NONE":
        return "this OpenCV has no window support (opencv-python-headless); for windows: pip uninstall -y opencv-python-headless && pip install opencv-python"
    return None


class Preview:
    def __init__(self) -> None:
        import cv2
        self.cv2 = cv2
        cv2.namedWindow(WINDOW, cv2.WINDOW_NORMAL)

    def show(self, image: Any, region: tuple[int, int, int, int] | None, card: str | None) -> None:
        cv2 = self.cv2
        img = image.copy()
        if region is not None:
            x0, y0, x1, y1 = region
            cv2.rectangle(img, (x0, y0), (x1, y1), (0, 255, 255), 2)
        if card:
            cv2.putText(img, card, (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 5, cv2.LINE_AA)
            cv2.putText(img, card, (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 2, cv2.LINE_AA)
        cv2.imshow(WINDOW, img)
        cv2.waitKey(1)

    def close(self) -> None:
        self.cv2.destroyAllWindows()


def open_preview(say: Any) -> Preview | None:
    """The preview window, or None after saying clearly why there is none."""
    reason = why_no_window()
    if reason is None:
        try:
            return Preview()
        except Exception as exc:  # cv2.error: the window system refused
            reason = f"OpenCV could not open a window ({exc.__class__.__name__})"
    say(f"--preview: no window: {reason}; refereeing goes on without it")
    return None
