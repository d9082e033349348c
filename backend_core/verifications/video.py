"""Video verification from successive frames: motion, freeze, black screen.

Registered as ``video``; params: ``fps`` (5) and ``clip_seconds`` (1.0) — how
densely a capture screen (``hdmi``) is sampled. Screens that cannot record a
clip are sampled by successive screenshots.

Measures, computed on a grayscale, slightly blurred copy of the area:

* *change* between two frames — the fraction of pixels whose brightness moved
  by more than :data:`PIXEL_DELTA` (so sensor noise and compression do not count);
* *black* — at least :data:`BLACK_RATIO` of the pixels darker than ``threshold``.

Every check is a wait through :func:`~backend_core.wait.wait_until` (via
``verify``): each look takes new frames and compares them with the last ones.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import cv2
import numpy as np

from backend_core.controllers.base import Controller, ScreenController, VerificationController
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.verifications.common import AREA_PARAM, Area, decode_png, verify
from shared.commands import P, ParamType, command
from shared.errors import ConfigError

log = logging.getLogger(__name__)

PIXEL_DELTA = 25          # brightness steps (0-255) a pixel must move to count as changed
BLACK_RATIO = 0.98        # share of dark pixels that makes a frame black
DEFAULT_MOTION = 0.01     # 1 % of the area changing between frames is motion
DEFAULT_BLACK_LEVEL = 24  # brightness below which a pixel is black (limited-range black is 16, plus noise)


def prepare(frame: np.ndarray, area: Area | None) -> np.ndarray:
    region = area.crop(frame) if area else frame
    gray = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY) if region.ndim == 3 else region
    return cv2.GaussianBlur(gray, (5, 5), 0)


def change(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of pixels that changed noticeably between two prepared frames."""
    if a.shape != b.shape:
        return 1.0  # the capture changed resolution: that is change
    return float(np.count_nonzero(cv2.absdiff(a, b) > PIXEL_DELTA)) / a.size


def black_ratio(frame: np.ndarray, level: int) -> float:
    return float(np.count_nonzero(frame < level)) / frame.size


@dataclass
class Sample:
    """Frames seen so far by one verification, with their capture times."""

    frames: list[tuple[float, np.ndarray]] = field(default_factory=list)

    def add(self, stamped: list[tuple[float, np.ndarray]]) -> list[tuple[float, float]]:
        """Append frames; return (time, change) between each new frame and the one before it."""
        changes = []
        for t, f in stamped:
            if self.frames:
                changes.append((t, change(self.frames[-1][1], f)))
            self.frames.append((t, f))
        del self.frames[:-2]
        return changes


class VideoVerifier(VerificationController):
    """Is the picture moving, frozen, black?"""

    verifier_type = "video"

    def __init__(self, screen: ScreenController, fps: float = 5.0, clip_seconds: float = 1.0) -> None:
        self.screen = screen
        self.fps = fps
        self.clip_seconds = clip_seconds

    def grab(self, area: Area | None) -> list[tuple[float, np.ndarray]]:
        """New frames, timestamped: a short clip where the screen records, else one screenshot."""
        clip: Callable[[float, float], list[np.ndarray]] | None = getattr(self.screen, "clip", None)
        start = time.monotonic()
        if clip is not None:
            frames = clip(self.clip_seconds, self.fps)
            return [(start + i / self.fps, prepare(f, area)) for i, f in enumerate(frames)]
        return [(start, prepare(decode_png(self.screen.screenshot()), area))]

    @command("Wait until the picture moves (video playing, animation)",
             AREA_PARAM,
             P("threshold", ParamType.FLOAT, default=DEFAULT_MOTION, minimum=0.0001, maximum=1,
               description="share of pixels that must change between frames"),
             P("timeout", ParamType.FLOAT, default=10.0, minimum=0, maximum=300, description="seconds"))
    def wait_for_motion(self, area: str = "", threshold: float = DEFAULT_MOTION, timeout: float = 10.0) -> str:
        region, sample = Area.parse(area), Sample()

        def probe() -> tuple[bool, float]:
            most = max((c for _, c in sample.add(self.grab(region))), default=0.0)
            return most >= threshold, most

        seen = verify(probe, timeout=timeout, expected=f"motion (>= {threshold:.2%} of pixels changing)",
                      screen=self.screen, interval=0.1, describe=lambda c: f"at most {c:.2%} changing",
                      busy=lambda: len(sample.frames) < 2)  # motion too is seen between two frames
        return f"motion seen: {seen:.2%} of pixels changed"

    @command("Wait until the picture stays still for some seconds (paused or frozen video)",
             P("duration", ParamType.FLOAT, default=2.0, minimum=0.2, maximum=120,
               description="seconds the picture must not change"),
             AREA_PARAM,
             P("threshold", ParamType.FLOAT, default=DEFAULT_MOTION, minimum=0.0001, maximum=1,
               description="changes below this share of pixels count as still"),
             P("timeout", ParamType.FLOAT, default=10.0, minimum=0, maximum=300, description="seconds"))
    def wait_for_freeze(self, duration: float = 2.0, area: str = "", threshold: float = DEFAULT_MOTION,
                      timeout: float = 10.0) -> str:
        region, sample = Area.parse(area), Sample()
        still_since: list[float] = []

        def probe() -> tuple[bool, float]:
            stamped = self.grab(region)
            if not still_since:
                still_since.append(stamped[0][0])
            for t, c in sample.add(stamped):
                if c >= threshold:
                    still_since[0] = t  # it moved: stillness starts again from this frame
            still = sample.frames[-1][0] - still_since[0]
            return still >= duration, still

        # stillness needs two frames: a screen slower to grab than the timeout is still sampled twice
        verify(probe, timeout=max(timeout, duration), expected=f"picture still for {duration:g}s",
               screen=self.screen, interval=0.1, describe=lambda s: f"still for only {s:.1f}s",
               busy=lambda: len(sample.frames) < 2)
        return f"picture still for {duration:g}s"

    def _black(self, area: str, level: int, want: bool, timeout: float) -> float:
        region = Area.parse(area)

        def probe() -> tuple[bool, float]:
            ratio = min(black_ratio(f, level) for _, f in self.grab(region))
            return (ratio >= BLACK_RATIO) == want, ratio

        expected = "a black screen" if want else "a picture (not black)"
        return verify(probe, timeout=timeout, expected=expected, screen=self.screen, interval=0.2,
                      describe=lambda r: f"{r:.0%} of pixels black")

    @command("Check that the screen is black (present=true: no signal, device off, blank transition) or shows "
             "a picture (present=false)",
             P("present", ParamType.BOOL, default=True, description="true = black, false = a picture (not black)"),
             AREA_PARAM,
             P("threshold", ParamType.INT, default=DEFAULT_BLACK_LEVEL, minimum=1, maximum=128,
               description="brightness (0-255) under which a pixel is black"),
             P("timeout", ParamType.FLOAT, default=10.0, minimum=0, maximum=300, description="seconds"))
    def wait_for_black_screen(self, present: bool = True, area: str = "", threshold: int = DEFAULT_BLACK_LEVEL,
                              timeout: float = 10.0) -> str:
        ratio = self._black(area, threshold, present, timeout)
        if present:
            return f"screen is black ({ratio:.0%} of pixels)"
        return f"screen shows a picture ({ratio:.0%} of pixels black)"


@register_controller("video")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    fps, seconds = float(params.get("fps", 5)), float(params.get("clip_seconds", 1.0))
    if not (0 < fps <= 60) or not (0 < seconds <= 10):
        raise ConfigError(f"device {ctx.device_id!r}: video needs 0 < fps <= 60 and 0 < clip_seconds <= 10")
    return [VideoVerifier(ctx.require_screen("video"), fps, seconds)]
