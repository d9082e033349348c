"""Tesseract OCR on real rendered screens: the adb shim's screencaps and frames read through ffmpeg."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.verifications.text import OcrEngine, OcrVerifier, prepare_for_ocr
from shared.errors import VerificationFailed
from tests.fakes import FakeAdb


def device(tmp_path: Path, controller: dict) -> dict[str, object]:
    made = build_controllers([controller, {"type": "ocr"}], BuildContext("dev", tmp_path))
    return {type(c).__name__: c for c in made}


def test_reads_the_phone_screen_after_navigation(fake_adb: FakeAdb, tmp_path: Path) -> None:
    parts = device(tmp_path, {"type": "adb", "params": {"serial": "phone-1"}})
    ocr: OcrVerifier = parts["OcrVerifier"]
    ocr.execute("wait_for_text", {"text": "play store", "timeout": 3})
    parts["AndroidRemote"].execute("click_element", {"text": "Settings"})
    ocr.execute("wait_for_text", {"text": "Wi-Fi", "timeout": 3})
    ocr.execute("wait_for_text", {"text": "Settings", "area": "0.1,0.03,0.8,0.08", "timeout": 3})
    ocr.execute("wait_for_text", {"present": False, "text": "Play Store", "timeout": 3})
    with pytest.raises(VerificationFailed) as failure:
        ocr.execute("wait_for_text", {"text": "Airplane mode", "timeout": 0.5})
    assert "battery" in str(failure.value).lower() and failure.value.screenshot[:4] == b"\x89PNG"


def test_reads_light_text_on_the_dark_tv_screen(fake_adb: FakeAdb, tmp_path: Path) -> None:
    parts = device(tmp_path, {"type": "android_tv", "params": {"serial": "tv-1"}})
    parts["OcrVerifier"].execute("wait_for_text", {"text": "YouTube", "timeout": 3})


def test_preprocessing_modes(tmp_path: Path) -> None:
    picture = np.zeros((360, 640, 3), np.uint8)
    picture[:, 320:] = (170, 170, 170)  # white text over a light half: one global threshold loses it
    cv2.putText(picture, "Boreal", (380, 260), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (255, 255, 255), 3, cv2.LINE_AA)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), picture)
    ocr = device(tmp_path, {"type": "hdmi", "params": {"input": str(path)}})["OcrVerifier"]
    with pytest.raises(VerificationFailed):
        ocr.execute("wait_for_text", {"text": "Boreal", "timeout": 0})
    ocr.execute("wait_for_text", {"text": "Boreal", "preprocess": "adaptive", "timeout": 0})
    assert prepare_for_ocr(picture, "none") is picture
    assert prepare_for_ocr(picture, "gray").shape == (400, 711)  # grayscale, small pictures upscaled
    assert set(np.unique(prepare_for_ocr(picture, "auto"))) <= {0, 255}
    assert "Boreal" in OcrEngine().read(picture, "adaptive")
