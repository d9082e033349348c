"""OpenCV template matching on frames captured through ffmpeg: appear, disappear, appear-then-disappear."""
from __future__ import annotations

import threading
from pathlib import Path

import cv2
import pytest

from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.verifications.image import ImageVerifier
from shared.errors import RequestError, VerificationFailed
from tests.fakes.video import logo_reference, text_frame


@pytest.fixture
def screen_file(tmp_path: Path) -> Path:
    """A picture file the 'box' shows; tests redraw it while a verification waits."""
    path = tmp_path / "screen.png"
    cv2.imwrite(str(path), text_frame("Live TV"))
    return path


@pytest.fixture
def verifier(tmp_path: Path, screen_file: Path) -> ImageVerifier:
    refs = tmp_path / "references"
    refs.mkdir()
    logo_reference(refs / "logo.png")
    made = build_controllers([{"type": "hdmi", "params": {"input": str(screen_file)}},
                              {"type": "image", "params": {"references": "references"}}],
                             BuildContext("stb", tmp_path))
    return made[-1]


def show(path: Path, logo: bool) -> None:
    tmp = path.with_name("next.png")
    cv2.imwrite(str(tmp), text_frame("Live TV", logo=logo))
    tmp.replace(path)


def later(seconds: float, fn: object, *args: object) -> threading.Timer:
    timer = threading.Timer(seconds, fn, args)  # type: ignore[arg-type]
    timer.start()
    return timer


def test_logo_found_on_the_captured_frame_and_limited_by_area(verifier: ImageVerifier, screen_file: Path) -> None:
    show(screen_file, logo=True)
    assert "found: best match 1.00" in verifier.execute("wait_for_image", {"reference": "logo"})
    verifier.execute("wait_for_image", {"reference": "logo", "area": "0.75,0,0.25,0.3", "threshold": 0.95})
    with pytest.raises(VerificationFailed) as failure:
        verifier.execute("wait_for_image", {"reference": "logo", "area": "0,0.5,0.5,0.5", "timeout": 0.5})
    assert failure.value.screenshot[:4] == b"\x89PNG" and "logo" in failure.value.expected


def test_logo_disappears(verifier: ImageVerifier, screen_file: Path) -> None:
    show(screen_file, logo=True)
    with pytest.raises(VerificationFailed, match="gone"):
        verifier.execute("wait_for_image", {"present": False, "reference": "logo", "timeout": 0.5})
    timer = later(0.6, show, screen_file, False)
    try:
        assert verifier.execute("wait_for_image", {"present": False, "reference": "logo", "timeout": 5}) == "image 'logo' is gone"
    finally:
        timer.cancel()


def test_appear_then_disappear(verifier: ImageVerifier, screen_file: Path) -> None:
    # the logo goes away once a frame showing it has been captured (on a busy machine a capture through ffmpeg
    # can take longer than a fixed window would leave the logo shown)
    capture = verifier.screen.screenshot
    shown = threading.Event()
    seen: list[int] = []

    def screenshot() -> bytes:
        frame = capture()
        if shown.is_set():
            seen.append(1)
            if len(seen) == 2:
                show(screen_file, False)
        return frame

    def appear() -> None:
        show(screen_file, True)
        shown.set()

    verifier.screen.screenshot = screenshot  # type: ignore[method-assign]
    timer = later(0.5, appear)
    try:
        message = verifier.execute("wait_for_image_then_gone", {"reference": "logo", "timeout": 20})
    finally:
        timer.cancel()
    assert "appeared" in message and "went away" in message


def test_appear_then_disappear_fails_when_it_stays(verifier: ImageVerifier, screen_file: Path) -> None:
    show(screen_file, logo=True)
    with pytest.raises(VerificationFailed, match="gone after it appeared"):
        verifier.execute("wait_for_image_then_gone", {"reference": "logo", "timeout": 1.0})


def test_unknown_reference_is_a_request_error(verifier: ImageVerifier) -> None:
    with pytest.raises(RequestError, match="known references: logo"):
        verifier.execute("wait_for_image", {"reference": "banner"})
