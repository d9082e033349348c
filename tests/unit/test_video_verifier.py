"""Motion, freeze and black-screen detection on generated clips read through ffmpeg."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.verifications.video import VideoVerifier, black_ratio, change, prepare
from shared.errors import ConfigError, VerificationFailed
from tests.fakes import FakeAdb
from tests.fakes.video import moving_frames, still_video, text_frame, write_video


def video_device(tmp_path: Path, screen: dict) -> VideoVerifier:
    made = build_controllers([screen, {"type": "video", "params": {"fps": 5, "clip_seconds": 0.6}}],
                             BuildContext("stb", tmp_path))
    return made[-1]


@pytest.fixture
def moving(tmp_path: Path) -> VideoVerifier:
    write_video(tmp_path / "moving.mkv", moving_frames(40), fps=10)
    return video_device(tmp_path, {"type": "hdmi", "params": {"input": "moving.mkv"}})


@pytest.fixture
def still(tmp_path: Path) -> VideoVerifier:
    still_video(tmp_path / "still.mkv", text_frame("Paused"))
    return video_device(tmp_path, {"type": "hdmi", "params": {"input": "still.mkv"}})


def test_measures() -> None:
    a = prepare(text_frame("A"), None)
    assert change(a, a) == 0.0
    assert change(a, prepare(text_frame("B"), None)) > 0.001
    assert change(a, a[:10]) == 1.0
    black = prepare(np.zeros((50, 50, 3), np.uint8), None)
    assert black_ratio(black, 32) == 1.0 and black_ratio(a, 32) == 0.0


def test_motion_is_seen_in_a_playing_video(moving: VideoVerifier) -> None:
    assert moving.execute("wait_for_motion", {"timeout": 5}).startswith("motion seen")


def test_a_still_picture_has_no_motion_and_the_failure_has_the_frame(still: VideoVerifier) -> None:
    with pytest.raises(VerificationFailed) as failure:
        still.execute("wait_for_motion", {"timeout": 1})
    assert failure.value.screenshot[:4] == b"\x89PNG" and "motion" in failure.value.expected


def test_freeze_is_seen_in_a_still_picture_not_in_a_playing_one(still: VideoVerifier,
                                                                 moving: VideoVerifier) -> None:
    assert still.execute("wait_for_freeze", {"duration": 1, "timeout": 4}) == "picture still for 1s"
    with pytest.raises(VerificationFailed, match="still for only"):
        moving.execute("wait_for_freeze", {"duration": 1, "timeout": 2})


def test_black_screen_and_picture(tmp_path: Path, moving: VideoVerifier) -> None:
    black = video_device(tmp_path, {"type": "hdmi", "params": {"input": "color=c=black:size=320x240:rate=10",
                                                               "format": "lavfi"}})
    assert black.execute("wait_for_black_screen", {"timeout": 3}).startswith("screen is black")
    with pytest.raises(VerificationFailed, match="black"):
        black.execute("wait_for_black_screen", {"present": False, "timeout": 0.5})
    assert moving.execute("wait_for_black_screen", {"present": False, "timeout": 3}).startswith("screen shows a picture")
    with pytest.raises(VerificationFailed):
        moving.execute("wait_for_black_screen", {"timeout": 0.5})


def test_area_limits_what_is_measured(tmp_path: Path) -> None:
    frame = np.zeros((360, 640, 3), np.uint8)
    frame[:60, 520:] = 255  # a channel logo on an otherwise black picture
    still_video(tmp_path / "logo.mkv", frame, seconds=2)
    verifier = video_device(tmp_path, {"type": "hdmi", "params": {"input": "logo.mkv"}})
    verifier.execute("wait_for_black_screen", {"area": "0,0.2,1,0.8", "timeout": 2})
    with pytest.raises(VerificationFailed):
        verifier.execute("wait_for_black_screen", {"area": "0.8,0,0.2,0.2", "timeout": 0.5})


def test_screens_without_clips_are_sampled_by_screenshots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeAdb(tmp_path)
    for name, value in fake.env().items():
        monkeypatch.setenv(name, value)
    verifier = video_device(tmp_path, {"type": "adb", "params": {"serial": "phone-1"}})
    assert verifier.execute("wait_for_freeze", {"duration": 0.5, "timeout": 5}) == "picture still for 0.5s"
    assert sum(1 for c in fake.calls("phone-1") if c == ["screencap", "-p"]) >= 2


def test_a_screen_slower_to_grab_than_the_timeout_is_still_sampled_twice(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeAdb(tmp_path)
    for name, value in fake.env().items():
        monkeypatch.setenv(name, value)
    verifier = video_device(tmp_path, {"type": "adb", "params": {"serial": "phone-1"}})
    grab = verifier.screen.screenshot

    def slow() -> bytes:
        time.sleep(0.5)
        return grab()

    monkeypatch.setattr(verifier.screen, "screenshot", slow)
    assert verifier.execute("wait_for_freeze", {"duration": 0.2, "timeout": 0.2}) == "picture still for 0.2s"
    assert sum(1 for c in fake.calls("phone-1") if c == ["screencap", "-p"]) >= 2


def test_video_needs_a_screen_and_sane_sampling(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="needs a screen"):
        build_controllers([{"type": "video"}], BuildContext("x", tmp_path))
    with pytest.raises(ConfigError, match="fps"):
        build_controllers([{"type": "hdmi", "params": {"input": "testsrc", "format": "lavfi"}},
                           {"type": "video", "params": {"fps": 0}}], BuildContext("x", tmp_path))
