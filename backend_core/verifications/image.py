"""Image verification: OpenCV template matching against reference images.

Registered as ``image``; params: ``references`` — a folder of reference PNGs,
relative to the device config. A reference is named by file stem
(``logo`` → ``references/logo.png``) or by path.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from backend_core.controllers.base import Controller, ScreenController, VerificationController
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.verifications.common import AREA_PARAM, Area, decode_png, verify
from shared.commands import P, ParamType, command
from shared.errors import RequestError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Match:
    score: float
    x: int
    y: int

    def __str__(self) -> str:
        return f"best match {self.score:.2f} at ({self.x}, {self.y})"


def match_template(screen: np.ndarray, template: np.ndarray) -> Match:
    """Best normalised-correlation match of *template* in *screen* (both BGR)."""
    sh, sw = screen.shape[:2]
    th, tw = template.shape[:2]
    if th > sh or tw > sw:
        raise RequestError(f"reference image {tw}x{th} is larger than the searched area {sw}x{sh}")
    scores = cv2.matchTemplate(screen, template, cv2.TM_CCOEFF_NORMED)
    _, best, _, loc = cv2.minMaxLoc(scores)
    best = 0.0 if not np.isfinite(best) else float(best)
    return Match(best, int(loc[0]), int(loc[1]))


_IMAGE_PARAMS = (
    P("reference", required=True, description="reference image name or path"),
    P("present", ParamType.BOOL, default=True, description="true = must be on screen, false = must be gone"),
    P("threshold", ParamType.FLOAT, default=0.8, minimum=0.1, maximum=1.0, description="match score 0..1"),
    AREA_PARAM,
    P("timeout", ParamType.FLOAT, default=5.0, minimum=0, maximum=120, description="seconds"),
)


class ImageVerifier(VerificationController):
    """Finds reference images on the screen."""

    verifier_type = "image"

    def __init__(self, screen: ScreenController, references: Path | None) -> None:
        self.screen = screen
        self.references = references
        self._cache: dict[str, np.ndarray] = {}

    def reference_names(self) -> list[str]:
        if self.references is None or not self.references.is_dir():
            return []
        return sorted(p.stem for p in self.references.glob("*.png"))

    def load(self, image: str) -> np.ndarray:
        if image in self._cache:
            return self._cache[image]
        candidates = [Path(image).expanduser()]
        if self.references is not None:
            candidates = [self.references / image, self.references / f"{image}.png", *candidates]
        path = next((p for p in candidates if p.is_file()), None)
        if path is None:
            known = ", ".join(self.reference_names()) or "none"
            raise RequestError(f"no reference image {image!r}; known references: {known}")
        ref = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if ref is None:
            raise RequestError(f"reference image {path} is not a readable image")
        self._cache[image] = ref
        return ref

    def find(self, image: str, area: str = "") -> Match:
        template = self.load(image)
        shot = decode_png(self.screen.screenshot())
        region = Area.parse(area)
        return match_template(region.crop(shot) if region else shot, template)

    @command("Check that a reference image is on screen (present=true) or gone (present=false); OpenCV "
             "template match", *_IMAGE_PARAMS)
    def wait_for_image(self, reference: str, present: bool = True, threshold: float = 0.8, area: str = "",
                       timeout: float = 5.0) -> str:
        def probe() -> tuple[bool, Match]:
            m = self.find(reference, area)
            return (m.score >= threshold) == present, m

        if present:
            m = verify(probe, timeout=timeout, expected=f"image {reference!r} (score >= {threshold})",
                       screen=self.screen)
            return f"image {reference!r} found: {m}"
        verify(probe, timeout=timeout, expected=f"image {reference!r} gone (score < {threshold})", screen=self.screen)
        return f"image {reference!r} is gone"

    @command("Wait until a reference image appears and then goes away (a popup, a banner, a loading spinner)",
             *_IMAGE_PARAMS[:1], *_IMAGE_PARAMS[2:])
    def wait_for_image_then_gone(self, reference: str, threshold: float = 0.8, area: str = "",
                                 timeout: float = 5.0) -> str:
        """Both within *timeout* seconds in all: first seen, then gone."""
        deadline = time.monotonic() + timeout

        def appeared() -> tuple[bool, Match]:
            m = self.find(reference, area)
            return m.score >= threshold, m

        def gone() -> tuple[bool, Match]:
            m = self.find(reference, area)
            return m.score < threshold, m

        shown = verify(appeared, timeout=timeout, expected=f"image {reference!r} (score >= {threshold})",
                       screen=self.screen)
        verify(gone, timeout=max(0.0, deadline - time.monotonic()),
               expected=f"image {reference!r} gone after it appeared (score < {threshold})", screen=self.screen)
        return f"image {reference!r} appeared ({shown}) and went away"


@register_controller("image")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    refs = params.get("references")
    return [ImageVerifier(ctx.require_screen("image"), ctx.path(str(refs)) if refs else None)]
