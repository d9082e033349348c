"""Text verification by Tesseract OCR on the device's screen, with an optional area.

Registered as ``ocr``; params: ``lang`` (eng), ``timeout`` default (10 s).
Matching is case-insensitive; ``fuzzy`` (0..1, default 0.8) accepts OCR's
usual slips (``Me1ody`` for ``Melody``).
"""
from __future__ import annotations

import difflib
import logging
import re
import shutil
from typing import Any

import cv2
import numpy as np

from backend_core.controllers.base import Controller, ScreenController, VerificationController
from backend_core.controllers.registry import BuildContext, register_controller
from backend_core.verifications.common import AREA_PARAM, Area, decode_png, verify
from shared.commands import P, ParamType, command
from shared.errors import ConfigError, ControllerError

log = logging.getLogger(__name__)


def normalize_text(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


def text_matches(expected: str, seen: str, fuzzy: float = 0.8) -> bool:
    """True when *expected* occurs in *seen*, ignoring case and punctuation, within *fuzzy*."""
    want, have = normalize_text(expected), normalize_text(seen)
    if not want:
        return True
    if want in have:
        return True
    if fuzzy >= 1.0:
        return False
    want_words, have_words = want.split(), have.split()
    n = len(want_words)
    for size in {n - 1, n, n + 1} - {0}:
        for i in range(0, max(1, len(have_words) - size + 1)):
            window = " ".join(have_words[i:i + size])
            if difflib.SequenceMatcher(None, want, window).ratio() >= fuzzy:
                return True
    return False


PREPROCESS_CHOICES = ("auto", "adaptive", "gray", "none")


def prepare_for_ocr(image: np.ndarray, mode: str = "auto") -> np.ndarray:
    """Make an image easy for Tesseract.

    ``auto``: grayscale, upscale small crops, binarise with Otsu and make text
    dark on light (flat UIs); ``adaptive``: the same with a local threshold
    (text over photos, gradients, uneven video); ``gray``: grayscale and
    upscale only; ``none``: the image as captured.
    """
    if mode == "none":
        return image
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h = gray.shape[0]
    if h < 400:
        scale = min(3.0, 400 / max(h, 1))
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    if mode == "gray":
        return gray
    if mode == "adaptive":
        if np.median(gray) < 127:  # light text on a dark picture: make the text the darker side
            gray = cv2.bitwise_not(gray)
        return cv2.adaptiveThreshold(cv2.medianBlur(gray, 3), 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C,
                                     cv2.THRESH_BINARY, 31, 10)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if np.mean(binary) < 127:  # mostly dark: light text on a dark UI
        binary = cv2.bitwise_not(binary)
    return binary


class OcrEngine:
    """A thin wrapper over pytesseract that translates its errors."""

    def __init__(self, lang: str = "eng") -> None:
        if shutil.which("tesseract") is None:
            raise ConfigError("OCR needs Tesseract: install Debian's 'tesseract-ocr' package")
        self.lang = lang

    def read(self, image: np.ndarray, preprocess: str = "auto") -> str:
        import pytesseract

        try:
            return pytesseract.image_to_string(prepare_for_ocr(image, preprocess), lang=self.lang,
                                               config="--psm 11")
        except pytesseract.TesseractError as exc:
            raise ControllerError(f"Tesseract failed: {exc}") from exc


_TEXT_PARAMS = (
    P("text", required=True, description="the text to find (case-insensitive)"),
    P("present", ParamType.BOOL, default=True, description="true = must be read, false = must not be"),
    AREA_PARAM,
    P("timeout", ParamType.FLOAT, default=10.0, minimum=0, maximum=120, description="seconds"),
    P("fuzzy", ParamType.FLOAT, default=0.8, minimum=0.5, maximum=1.0, description="1.0 = exact"),
    P("preprocess", default="auto", choices=PREPROCESS_CHOICES,
      description="auto (Otsu), adaptive (text over pictures), gray, none"),
)


class OcrVerifier(VerificationController):
    """Reads the screen with Tesseract."""

    verifier_type = "text"

    def __init__(self, screen: ScreenController, engine: OcrEngine) -> None:
        self.screen = screen
        self.engine = engine

    def read_screen(self, area: str = "", preprocess: str = "auto") -> str:
        image = decode_png(self.screen.screenshot())
        region = Area.parse(area)
        return self.engine.read(region.crop(image) if region else image, preprocess)

    def _probe(self, text: str, area: str, fuzzy: float, present: bool, preprocess: str) -> tuple[bool, str]:
        seen = self.read_screen(area, preprocess)
        return text_matches(text, seen, fuzzy) == present, normalize_text(seen)[:200]

    @command("Check that OCR reads the text on screen (present=true) or no longer reads it (present=false), "
             "optionally within an area", *_TEXT_PARAMS)
    def wait_for_text(self, text: str, present: bool = True, area: str = "", timeout: float = 10.0,
                      fuzzy: float = 0.8, preprocess: str = "auto") -> str:
        expected = f"text {text!r} " + ("on screen" if present else "gone from screen")
        verify(lambda: self._probe(text, area, fuzzy, present, preprocess), timeout=timeout,
               expected=expected, screen=self.screen, interval=0.3)
        return f"read {text!r} on screen" if present else f"{text!r} no longer on screen"


@register_controller("ocr")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    return [OcrVerifier(ctx.require_screen("ocr"), OcrEngine(str(params.get("lang", "eng"))))]
