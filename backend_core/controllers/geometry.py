"""Screen-relative positions: what tap and swipe commands take, and their conversion to pixels.

Plans never carry pixel coordinates: a point is a pair of fractions of the
screen (0..1), so the same plan works on every resolution.
"""
from __future__ import annotations

from shared.commands import P, ParamType

TAP_PARAMS = (
    P("x", ParamType.FLOAT, required=True, minimum=0, maximum=1),
    P("y", ParamType.FLOAT, required=True, minimum=0, maximum=1),
)
SWIPE_PARAMS = (
    P("x1", ParamType.FLOAT, required=True, minimum=0, maximum=1),
    P("y1", ParamType.FLOAT, required=True, minimum=0, maximum=1),
    P("x2", ParamType.FLOAT, required=True, minimum=0, maximum=1),
    P("y2", ParamType.FLOAT, required=True, minimum=0, maximum=1),
    P("duration_ms", ParamType.INT, default=300, minimum=10, maximum=10000),
)
TAP_HELP = "Tap a point given as fractions of the screen (0..1)"
SWIPE_HELP = "Swipe between two points given as fractions of the screen (0..1)"


def to_pixels(x: float, y: float, width: int, height: int) -> tuple[int, int]:
    """Fractions of a *width* x *height* screen → pixel coordinates, clamped inside the screen."""
    return min(width - 1, max(0, round(x * width))), min(height - 1, max(0, round(y * height)))
