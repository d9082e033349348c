"""The hdmi capture screen: frames and clips through the real ffmpeg, and its errors."""
from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from backend_core.controllers.capture import CaptureScreen, split_pngs
from backend_core.controllers.registry import BuildContext, build_controllers
from shared.errors import ConfigError, ControllerError
from tests.fakes.video import moving_frames, text_frame, write_video


def capture(tmp_path: Path, **params: object) -> CaptureScreen:
    made = build_controllers([{"type": "hdmi", "params": params}], BuildContext("stb", tmp_path))
    assert len(made) == 1 and isinstance(made[0], CaptureScreen)
    return made[0]


def decode(png: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def test_frame_from_a_test_source_and_scaled(tmp_path: Path) -> None:
    screen = capture(tmp_path, input="testsrc=size=320x240:rate=10", format="lavfi")
    assert decode(screen.screenshot()).shape == (240, 320, 3)
    small = capture(tmp_path, input="testsrc=size=320x240:rate=10", format="lavfi", size="160x120")
    assert decode(small.screenshot()).shape == (120, 160, 3)


def test_frame_from_a_file_relative_to_the_config(tmp_path: Path) -> None:
    write_video(tmp_path / "boot.mkv", [text_frame("Welcome")] * 10)
    screen = capture(tmp_path, input="boot.mkv")
    frame = decode(screen.screenshot())
    expected = text_frame("Welcome")
    assert frame.shape == expected.shape
    assert float(np.mean(cv2.absdiff(frame, expected))) < 3  # lossless up to the YUV round trip


def test_clip_returns_successive_frames(tmp_path: Path) -> None:
    write_video(tmp_path / "moving.mkv", moving_frames(30), fps=10)
    screen = capture(tmp_path, input="moving.mkv")
    frames = screen.clip(1.0, 5)
    assert len(frames) == 5 and frames[0].shape == (360, 640, 3)
    assert float(np.mean(cv2.absdiff(frames[0], frames[1]))) > 1  # the bar moved


def test_missing_device_and_bad_input_carry_ffmpegs_message(tmp_path: Path) -> None:
    with pytest.raises(ControllerError, match="/dev/video97: No such file or directory") as err:
        capture(tmp_path, device="/dev/video97", video_size="1920x1080", input_format="mjpeg").screenshot()
    assert "ffmpeg_stderr" in err.value.details
    (tmp_path / "broken.mkv").write_bytes(b"not a video")
    with pytest.raises(ControllerError, match="could not capture"):
        capture(tmp_path, input="broken.mkv").screenshot()
    with pytest.raises(ControllerError, match="not found"):
        capture(tmp_path, input="testsrc", format="lavfi", ffmpeg=str(tmp_path / "no-ffmpeg")).screenshot()


def test_a_source_that_never_delivers_times_out(tmp_path: Path) -> None:
    fifo = tmp_path / "silent.fifo"
    os.mkfifo(fifo)  # ffmpeg blocks opening it: like a grabber with no signal
    with pytest.raises(ControllerError, match="within 1s"):
        capture(tmp_path, input=str(fifo), format="mjpeg", timeout=1).screenshot()


def test_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="exactly one"):
        capture(tmp_path)
    with pytest.raises(ConfigError, match="exactly one"):
        capture(tmp_path, device="/dev/video0", input="x.mkv")
    with pytest.raises(ConfigError, match="size"):
        capture(tmp_path, input="testsrc", format="lavfi", size="big")


def test_split_pngs() -> None:
    ok, a = cv2.imencode(".png", text_frame("A", size=(64, 32)))
    ok, b = cv2.imencode(".png", text_frame("B", size=(64, 32)))
    parts = split_pngs(a.tobytes() + b.tobytes())
    assert [decode(p).shape for p in parts] == [(32, 64, 3), (32, 64, 3)]
