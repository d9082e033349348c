"""Test pictures and clips, drawn with OpenCV and encoded by the real ffmpeg."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Iterable

import cv2
import numpy as np

SIZE = (640, 360)


def text_frame(text: str, size: tuple[int, int] = SIZE, bg: tuple[int, int, int] = (80, 40, 10),
               fg: tuple[int, int, int] = (255, 255, 255), logo: bool = False) -> np.ndarray:
    """A BGR frame with *text* in large letters (and a logo in the top-right corner)."""
    w, h = size
    img = np.full((h, w, 3), bg, dtype=np.uint8)
    if text:
        cv2.putText(img, text, (30, h // 2 + 20), cv2.FONT_HERSHEY_SIMPLEX, 1.6, fg, 3, cv2.LINE_AA)
    if logo:
        draw_logo(img)
    return img


def draw_logo(img: np.ndarray) -> None:
    """A small asymmetric emblem in the top-right corner, for template matching."""
    w = img.shape[1]
    x, y = w - 110, 20
    cv2.rectangle(img, (x, y), (x + 80, y + 60), (0, 200, 255), -1)
    cv2.circle(img, (x + 25, y + 30), 16, (200, 30, 30), -1)
    cv2.line(img, (x + 45, y + 10), (x + 75, y + 50), (20, 20, 20), 5)


def logo_reference(path: Path) -> Path:
    """The logo alone, cut from a rendered frame, saved as a reference PNG."""
    frame = text_frame("", logo=True)
    w = frame.shape[1]
    cv2.imwrite(str(path), frame[15:85, w - 115:w - 25])
    return path


def moving_frames(count: int, size: tuple[int, int] = SIZE) -> list[np.ndarray]:
    """A bar sweeping across a textured background."""
    w, h = size
    rng = np.random.default_rng(7)
    base = rng.integers(40, 200, size=(h, w, 3), dtype=np.uint8)
    frames = []
    for i in range(count):
        img = base.copy()
        x = (i * 37) % (w - 60)
        cv2.rectangle(img, (x, 0), (x + 60, h), (255, 255, 255), -1)
        frames.append(img)
    return frames


def write_video(path: Path, frames: Iterable[np.ndarray], fps: int = 10) -> Path:
    """Encode BGR frames losslessly (FFV1 in Matroska) with the ffmpeg command line."""
    frames = list(frames)
    h, w = frames[0].shape[:2]
    proc = subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24",
         "-s", f"{w}x{h}", "-r", str(fps), "-i", "-", "-c:v", "ffv1", str(path)],
        input=b"".join(f.tobytes() for f in frames), capture_output=True, timeout=60, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"ffmpeg could not write {path}: {proc.stderr.decode(errors='replace')}")
    return path


def still_video(path: Path, frame: np.ndarray, seconds: float = 3, fps: int = 10) -> Path:
    return write_video(path, [frame] * int(seconds * fps), fps)
