"""Canonical remote keys → Android keycodes (``KeyEvent.KEYCODE_*``), for adb and Appium alike."""
from __future__ import annotations

from shared.keys import Key

ANDROID_KEYCODES: dict[Key, int] = {
    Key.UP: 19, Key.DOWN: 20, Key.LEFT: 21, Key.RIGHT: 22,
    Key.OK: 23,                      # KEYCODE_DPAD_CENTER: selects on phones and TVs alike
    Key.BACK: 4, Key.HOME: 3, Key.MENU: 82,
    Key.CHANNEL_UP: 166, Key.CHANNEL_DOWN: 167,
    Key.VOLUME_UP: 24, Key.VOLUME_DOWN: 25, Key.MUTE: 164,   # KEYCODE_VOLUME_MUTE
    Key.PLAY_PAUSE: 85, Key.PLAY: 126, Key.PAUSE: 127, Key.STOP: 86,
    Key.FAST_FORWARD: 90, Key.REWIND: 89,
    Key.POWER: 26,
    **{Key[f"DIGIT_{d}"]: 7 + d for d in range(10)},          # KEYCODE_0 = 7 … KEYCODE_9 = 16
}

ANDROID_KEY_CHOICES: tuple[str, ...] = tuple(k.value for k in ANDROID_KEYCODES)
