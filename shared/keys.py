"""One vocabulary of remote-control key names across every kind of device.

Plans, navigation trees and the dashboard speak canonical names (``OK``,
``BACK``, ``CHANNEL_UP``…); each controller maps them to its own backend
(Playwright key names, Android keycodes, LIRC key names). Synonyms such as
``ENTER``/``SELECT`` for ``OK`` are folded here, once.
"""
from __future__ import annotations

import re
from enum import Enum


class Key(str, Enum):
    UP = "UP"
    DOWN = "DOWN"
    LEFT = "LEFT"
    RIGHT = "RIGHT"
    OK = "OK"
    BACK = "BACK"
    HOME = "HOME"
    MENU = "MENU"
    CHANNEL_UP = "CHANNEL_UP"
    CHANNEL_DOWN = "CHANNEL_DOWN"
    VOLUME_UP = "VOLUME_UP"
    VOLUME_DOWN = "VOLUME_DOWN"
    MUTE = "MUTE"
    PLAY_PAUSE = "PLAY_PAUSE"
    PLAY = "PLAY"
    PAUSE = "PAUSE"
    STOP = "STOP"
    FAST_FORWARD = "FAST_FORWARD"
    REWIND = "REWIND"
    POWER = "POWER"
    DIGIT_0 = "DIGIT_0"
    DIGIT_1 = "DIGIT_1"
    DIGIT_2 = "DIGIT_2"
    DIGIT_3 = "DIGIT_3"
    DIGIT_4 = "DIGIT_4"
    DIGIT_5 = "DIGIT_5"
    DIGIT_6 = "DIGIT_6"
    DIGIT_7 = "DIGIT_7"
    DIGIT_8 = "DIGIT_8"
    DIGIT_9 = "DIGIT_9"


_ALIASES: dict[str, Key] = {
    "ENTER": Key.OK,
    "SELECT": Key.OK,
    "RETURN": Key.OK,
    "CENTER": Key.OK,
    "DPAD_CENTER": Key.OK,
    "ESC": Key.BACK,
    "ESCAPE": Key.BACK,
    "BACKSPACE": Key.BACK,
    "EXIT": Key.BACK,
    "ARROWUP": Key.UP,
    "ARROWDOWN": Key.DOWN,
    "ARROWLEFT": Key.LEFT,
    "ARROWRIGHT": Key.RIGHT,
    "DPAD_UP": Key.UP,
    "DPAD_DOWN": Key.DOWN,
    "DPAD_LEFT": Key.LEFT,
    "DPAD_RIGHT": Key.RIGHT,
    "PAGEUP": Key.CHANNEL_UP,
    "PAGE_UP": Key.CHANNEL_UP,
    "CH_UP": Key.CHANNEL_UP,
    "CHANNELUP": Key.CHANNEL_UP,
    "PAGEDOWN": Key.CHANNEL_DOWN,
    "PAGE_DOWN": Key.CHANNEL_DOWN,
    "CH_DOWN": Key.CHANNEL_DOWN,
    "CHANNELDOWN": Key.CHANNEL_DOWN,
    "VOL_UP": Key.VOLUME_UP,
    "VOL_DOWN": Key.VOLUME_DOWN,
    "PLAYPAUSE": Key.PLAY_PAUSE,
    "MEDIA_PLAY_PAUSE": Key.PLAY_PAUSE,
    "FF": Key.FAST_FORWARD,
    "FORWARD": Key.FAST_FORWARD,
    "RW": Key.REWIND,
    "REW": Key.REWIND,
}


def parse_key(name: str) -> Key:
    """Return the canonical :class:`Key` for *name*, folding case and synonyms.

    >>> parse_key("enter"), parse_key("KEYCODE_DPAD_DOWN"), parse_key("5")
    (<Key.OK: 'OK'>, <Key.DOWN: 'DOWN'>, <Key.DIGIT_5: 'DIGIT_5'>)

    Raises ``ValueError`` for a name that is not a key.
    """
    raw = str(name).strip()
    norm = re.sub(r"[\s\-]+", "_", raw.upper())
    for prefix in ("KEYCODE_", "KEY_"):
        if norm.startswith(prefix):
            norm = norm[len(prefix):]
    if re.fullmatch(r"\d", norm):
        norm = f"DIGIT_{norm}"
    if norm in Key.__members__:
        return Key[norm]
    squashed = norm.replace("_", "")
    for alias in (norm, squashed):
        if alias in _ALIASES:
            return _ALIASES[alias]
    raise ValueError(f"unknown key {name!r}; known keys: {', '.join(k.value for k in Key)}")


def digit_keys(number: int | str) -> list[Key]:
    """The digit keys that type *number* on a remote: ``12`` → DIGIT_1, DIGIT_2."""
    return [Key[f"DIGIT_{d}"] for d in str(number) if d.isdigit()]
