"""What every verifier shares: areas, images, and turning a timed-out wait into a failure."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, TypeVar

import cv2
import numpy as np

from backend_core.controllers.base import ScreenController
from backend_core.wait import Timeout, WaitTimeout, wait_until
from shared.commands import P
from shared.errors import ControllerError, RequestError, VerificationFailed

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_INTERVAL_S = 0.25
AREA_PARAM = P("area", description="x,y,width,height in pixels or fractions of the screen")


@dataclass(frozen=True)
class Area:
    """A rectangle of the screen, in pixels or in fractions of the screen (all values <= 1)."""

    x: float
    y: float
    width: float
    height: float

    @classmethod
    def parse(cls, text: str) -> "Area | None":
        """``"x,y,w,h"`` → Area; an empty string → None (the whole screen)."""
        if not text or not str(text).strip():
            return None
        try:
            x, y, w, h = (float(v) for v in str(text).replace(" ", "").split(","))
        except ValueError:
            raise RequestError(f"area must be 'x,y,width,height', got {text!r}") from None
        if w <= 0 or h <= 0 or x < 0 or y < 0:
            raise RequestError(f"area must have positive size and origin, got {text!r}")
        return cls(x, y, w, h)

    def crop(self, image: np.ndarray) -> np.ndarray:
        ih, iw = image.shape[:2]
        fractional = max(self.x, self.y, self.width, self.height) <= 1.0
        sx, sy = (iw, ih) if fractional else (1, 1)
        x0, y0 = int(round(self.x * sx)), int(round(self.y * sy))
        x1, y1 = int(round((self.x + self.width) * sx)), int(round((self.y + self.height) * sy))
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(iw, x1), min(ih, y1)
        if x1 <= x0 or y1 <= y0:
            raise RequestError(f"area {self} lies outside the {iw}x{ih} screen")
        return image[y0:y1, x0:x1]


def decode_png(png: bytes) -> np.ndarray:
    """PNG/JPEG bytes → BGR image; a broken capture is a :class:`ControllerError`."""
    image = cv2.imdecode(np.frombuffer(png, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ControllerError("the screen capture is not a decodable image")
    return image


def encode_png(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ControllerError("could not encode image as PNG")
    return buf.tobytes()


def safe_screenshot(screen: ScreenController | None) -> bytes | None:
    """A screenshot for a failure report, or None if none can be taken."""
    if screen is None:
        return None
    try:
        return screen.screenshot()
    except Exception as exc:  # a failure report must not turn into an error because of its picture
        log.warning("could not take the failure screenshot: %s", exc)
        return None


def verify(
    probe: Callable[[], tuple[bool, T]],
    *,
    timeout: float,
    expected: str,
    screen: ScreenController | None,
    interval: float = DEFAULT_INTERVAL_S,
    describe: Callable[[T], str] = str,
    settled: Callable[[], bool] | None = None,
    busy: Callable[[], bool] | None = None,
) -> T:
    """Wait for *probe*; on timeout raise :class:`VerificationFailed` with the last screenshot.

    *settled* (see :func:`~backend_core.wait.wait_until`) ends the wait early once the screen has stopped changing;
    *busy* keeps it going while the screen is still being fetched.
    """
    try:
        return wait_until(probe, Timeout(timeout, interval), what=expected, settled=settled, busy=busy)
    except WaitTimeout as exc:
        seen = describe(exc.last) if exc.last is not None else "nothing"
        when = "still not so when the screen stopped changing" if exc.settled else f"not seen within {timeout:g}s"
        raise VerificationFailed(
            f"{expected}: {when} (last seen: {seen})",
            expected=expected,
            screenshot=safe_screenshot(screen),
        ) from None
