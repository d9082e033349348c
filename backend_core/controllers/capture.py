"""Video capture through ffmpeg as a device's screen: HDMI grabbers (v4l2), files, test sources.

Registered as ``hdmi``; params:

* ``device`` — a v4l2 device such as ``/dev/video0`` (read with ``-f v4l2``), or
* ``input`` — any ffmpeg input: a file, a stream URL, a ``lavfi`` graph
  (``$VARS`` are expanded in ``device`` and ``input``);
* ``format`` — ffmpeg's input format (``v4l2``, ``lavfi``, ``image2``…); guessed for ``/dev/video*``;
* ``video_size`` / ``input_format`` / ``framerate`` — v4l2 capture settings (``1920x1080``, ``mjpeg``, ``30``);
* ``input_options`` — more ffmpeg input options, as a list or a string;
* ``size`` — scale every frame to ``WIDTHxHEIGHT``;
* ``timeout`` — seconds for one capture (15).

A set-top box has no screenshot API; its HDMI output through a USB grabber is
its screen. Each screenshot runs ffmpeg once for one frame; :meth:`FfmpegCapture.clip`
reads a short clip for the video verifications. ffmpeg's failures (no such
device, device busy, a timeout) become :class:`~shared.errors.ControllerError`
carrying ffmpeg's own message.
"""
from __future__ import annotations

import logging
import os
import re
import shlex
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from backend_core.controllers.process import last_lines, run_tool
from backend_core.controllers.base import Controller, ScreenController
from backend_core.controllers.registry import BuildContext, register_controller
from shared.errors import ConfigError, ControllerError

log = logging.getLogger(__name__)

PNG_END = b"IEND\xaeB`\x82"
STILL_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
_SIZE = re.compile(r"^\d{2,5}x\d{2,5}$")


@dataclass(frozen=True)
class CaptureSource:
    """What ffmpeg reads and how."""

    input: str
    format: str = ""
    input_options: tuple[str, ...] = ()
    size: str = ""
    timeout: float = 15.0

    @property
    def is_still(self) -> bool:
        """A picture file (redrawn by whatever shows the screen), not a stream."""
        return self.format in ("image2", "png_pipe") or self.input.lower().endswith(STILL_SUFFIXES)

    def input_args(self, clip: bool = False) -> list[str]:
        fmt = ["-f", self.format] if self.format else []
        loop = ["-loop", "1"] if clip and self.is_still and "-loop" not in self.input_options else []
        return [*fmt, *loop, *self.input_options, "-i", self.input]

    def scale_filter(self) -> list[str]:
        if not self.size:
            return []
        w, h = self.size.split("x")
        return [f"scale={w}:{h}"]


def split_pngs(stream: bytes) -> list[bytes]:
    """Cut a stream of concatenated PNG files (ffmpeg's ``image2pipe``) into single images."""
    images, start = [], 0
    while True:
        end = stream.find(PNG_END, start)
        if end < 0:
            return images
        images.append(stream[start:end + len(PNG_END)])
        start = end + len(PNG_END)


class FfmpegCapture:
    """Frames and clips from one ffmpeg input."""

    def __init__(self, source: CaptureSource, ffmpeg: str = "ffmpeg") -> None:
        self.source = source
        self.ffmpeg = ffmpeg

    def _run(self, output_args: list[str], what: str, timeout: float, clip: bool = False) -> bytes:
        argv = [self.ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", *self.source.input_args(clip),
                *output_args]
        proc = run_tool(argv, timeout=timeout,
                        missing=f"{self.ffmpeg!r} not found: install Debian's 'ffmpeg' package",
                        timeout_message=f"ffmpeg did not deliver {what} from {self.source.input} within "
                                        f"{timeout:g}s (no signal, or the device is busy?)")
        if proc.returncode != 0 or not proc.stdout:
            reason = last_lines(proc.stderr, 1) or f"exit status {proc.returncode}, no output"
            raise ControllerError(f"ffmpeg could not capture {what} from {self.source.input}: {reason}",
                                  ffmpeg_stderr=last_lines(proc.stderr, 10))
        return proc.stdout

    def frame(self) -> bytes:
        """One frame as PNG bytes."""
        vf = self.source.scale_filter()
        return self._run(["-frames:v", "1", *(["-vf", ",".join(vf)] if vf else []),
                          "-f", "image2pipe", "-c:v", "png", "-"], "a frame", self.source.timeout)

    def clip(self, seconds: float, fps: float) -> list[np.ndarray]:
        """About ``seconds * fps`` frames (BGR) of the next *seconds* of video."""
        vf = [f"fps={fps:g}", *self.source.scale_filter()]
        count = max(1, int(round(seconds * fps)))
        data = self._run(["-t", f"{seconds:g}", "-vf", ",".join(vf), "-frames:v", str(count),
                          "-f", "image2pipe", "-c:v", "png", "-"], f"a {seconds:g}s clip",
                         self.source.timeout + seconds, clip=True)
        frames = [cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR) for png in split_pngs(data)]
        frames = [f for f in frames if f is not None]
        if not frames:
            raise ControllerError(f"ffmpeg returned no decodable frames from {self.source.input}")
        return frames


class CaptureScreen(ScreenController):
    """The screen of a device seen through a capture input."""

    def __init__(self, capture: FfmpegCapture) -> None:
        self.capture = capture

    def screenshot(self) -> bytes:
        return self.capture.frame()

    def clip(self, seconds: float, fps: float) -> list[np.ndarray]:
        return self.capture.clip(seconds, fps)


def _options(value: Any, where: str) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return tuple(shlex.split(value))
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    raise ConfigError(f"{where}: input_options must be a list or a string")


def source_from_params(ctx: BuildContext, params: dict[str, Any]) -> CaptureSource:
    where = f"device {ctx.device_id!r}: controller 'hdmi'"
    device = os.path.expandvars(str(params.get("device") or ""))
    given = os.path.expandvars(str(params.get("input") or ""))
    if bool(device) == bool(given):
        raise ConfigError(f"{where} needs exactly one of params.device (/dev/video0) or params.input")
    fmt = str(params.get("format") or "")
    options: list[str] = []
    if device:
        fmt = fmt or "v4l2"
        source = device
        for name, flag in (("video_size", "-video_size"), ("input_format", "-input_format"),
                           ("framerate", "-framerate")):
            if params.get(name):
                options += [flag, str(params[name])]
    else:
        source = given.format(**ctx.variables)
        if fmt not in ("lavfi",) and "://" not in source and not source.startswith("/dev/"):
            source = str(ctx.path(source))  # a file, relative to the config
    options += list(_options(params.get("input_options"), where))
    size = str(params.get("size") or "")
    if size and not _SIZE.match(size):
        raise ConfigError(f"{where}: size must look like 1280x720, got {size!r}")
    return CaptureSource(source, fmt, tuple(options), size, float(params.get("timeout", 15)))


@register_controller("hdmi")
def _build(ctx: BuildContext, params: dict[str, Any]) -> list[Controller]:
    return [CaptureScreen(FfmpegCapture(source_from_params(ctx, params), str(params.get("ffmpeg") or "ffmpeg")))]
