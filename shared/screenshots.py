"""When a run's step carries a screenshot, and in which format.

A screenshot costs more than most steps (a 1280×720 PNG capture is 40–70 ms in
Chromium), so a run takes one only where it is evidence or where a person will
look: after a verification, when a step fails (lossless PNG, the evidence of
the failure), at the end of each plan, and every *every*-th step when a lab asks
for a cadence. The others are encoded in a compact format (JPEG or WebP at
*quality*) by the runtime's delivery thread, off the step's critical path.

Set per device (or for every device of a host) in the host config::

    screenshots: {every: 0, format: jpeg, quality: 80}
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from shared.errors import RequestError
from shared.policy import options


class ImageFormat(str, Enum):
    PNG = "png"
    JPEG = "jpeg"
    WEBP = "webp"

    @property
    def suffix(self) -> str:
        return {"png": ".png", "jpeg": ".jpg", "webp": ".webp"}[self.value]

    @property
    def mime(self) -> str:
        return f"image/{self.value}"


_MAGIC = ((b"\x89PNG", ImageFormat.PNG), (b"\xff\xd8\xff", ImageFormat.JPEG))


def sniff(data: bytes) -> ImageFormat | None:
    """The format of encoded image *data* from its first bytes; None when it is none of ours."""
    for magic, fmt in _MAGIC:
        if data.startswith(magic):
            return fmt
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ImageFormat.WEBP
    return None


class ShotReason(str, Enum):
    """Why a step carries a screenshot."""

    VERIFICATION = "verification"
    FAILURE = "failure"
    END = "end"
    CADENCE = "cadence"


@dataclass(frozen=True)
class ScreenshotPolicy:
    every: int = 0                          # also every N-th step of a plan (0: only where useful)
    format: ImageFormat = ImageFormat.JPEG   # of every screenshot but a failure's (always PNG)
    quality: int = 80                       # JPEG / WebP quality, 1–100

    def reason(self, index: int, *, last: bool, verification: bool) -> ShotReason | None:
        """Why step number *index* (1-based, within its plan) wants a screenshot, if it does.

        A failure is decided after the step ran: :meth:`ShotReason.FAILURE` is the runtime's.
        """
        if verification:
            return ShotReason.VERIFICATION
        if last:
            return ShotReason.END
        if self.every and index % self.every == 0:
            return ShotReason.CADENCE
        return None

    @classmethod
    def from_dict(cls, raw: Any, where: str = "screenshots") -> "ScreenshotPolicy":
        """Parse ``{every, format, quality}``; a bad value is a :class:`RequestError` naming it."""
        if raw is None:
            return cls()
        options(raw, ("every", "format", "quality"), where)
        every, quality = raw.get("every", 0), raw.get("quality", 80)
        if isinstance(every, bool) or not isinstance(every, int) or every < 0:
            raise RequestError(f"{where}.every must be a whole number of steps, 0 or more (0: only where useful)")
        if isinstance(quality, bool) or not isinstance(quality, int) or not 1 <= quality <= 100:
            raise RequestError(f"{where}.quality must be a whole number from 1 to 100")
        try:
            fmt = ImageFormat(str(raw.get("format", "jpeg")).lower().replace("jpg", "jpeg"))
        except ValueError:
            raise RequestError(f"{where}.format must be one of png, jpeg, webp; got {raw.get('format')!r}") from None
        return cls(every, fmt, quality)
