"""The IR remote against the irsend shim (tests/fakes/irsend) on PATH, and its keymaps."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from backend_core.controllers.ir import IrRemote
from backend_core.controllers.ir_keymaps import LIRC_NAMESPACE, IrKeymap
from backend_core.controllers.registry import BuildContext, build_controllers
from shared.errors import ConfigError, ControllerError, RequestError
from shared.keys import Key
from tests.fakes import FakeIrsend


@pytest.fixture
def irsend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeIrsend:
    fake = FakeIrsend(tmp_path)
    for name, value in fake.env().items():
        monkeypatch.setenv(name, value)
    return fake


def build_remote(tmp_path: Path, **params: object) -> IrRemote:
    made = build_controllers([{"type": "ir", "params": {"key_delay": 0, **params}}], BuildContext("stb", tmp_path))
    assert len(made) == 1 and isinstance(made[0], IrRemote)
    return made[0]


def test_keys_go_out_as_lirc_names(irsend: FakeIrsend, tmp_path: Path) -> None:
    remote = build_remote(tmp_path, remote="stb")
    assert remote.execute("press_key", {"key": "select"}) == "pressed OK (KEY_OK)"
    remote.execute("press_key", {"key": "channel up", "repeat": 3})
    remote.execute("press_key", {"key": "5"})
    assert irsend.calls() == [["SEND_ONCE", "stb", "KEY_OK"]] + [["SEND_ONCE", "stb", "KEY_CHANNELUP"]] * 3 + \
        [["SEND_ONCE", "stb", "KEY_5"]]


def test_inter_key_delay_spaces_repeated_presses(irsend: FakeIrsend, tmp_path: Path) -> None:
    remote = build_remote(tmp_path, remote="stb")
    start = time.monotonic()
    remote.execute("press_key", {"key": "DOWN", "repeat": 3, "delay": 0.25})
    assert time.monotonic() - start >= 0.75  # two gaps between presses plus the settle after the last
    assert len(irsend.calls()) == 3


def test_keymap_file_renames_keys_for_one_remote(irsend: FakeIrsend, tmp_path: Path) -> None:
    keymap = tmp_path / "keymaps.yaml"
    keymap.write_text("remotes:\n  humax:\n    keys: {ENTER: KEY_SELECT, back: KEY_EXIT, MUTE: null}\n")
    remote = build_remote(tmp_path, remote="humax", keymap="keymaps.yaml", socket="/run/lirc/lircd-tx")
    remote.execute("press_key", {"key": "OK"})
    remote.execute("press_key", {"key": "ESC"})
    assert irsend.calls() == [["--device=/run/lirc/lircd-tx", "SEND_ONCE", "humax", "KEY_SELECT"],
                              ["--device=/run/lirc/lircd-tx", "SEND_ONCE", "humax", "KEY_EXIT"]]
    with pytest.raises(RequestError, match="no MUTE key"):
        remote.execute("press_key", {"key": "MUTE"})
    other = IrKeymap.load(keymap, "unlisted")
    assert other.keys == LIRC_NAMESPACE


def test_inline_keys_and_bad_keymaps(tmp_path: Path) -> None:
    keymap = IrKeymap.build("tv", {"OK": "KEY_ENTER"}, base="none")
    assert keymap.keys == {Key.OK: "KEY_ENTER"} and keymap.choices == ("OK",)
    with pytest.raises(ConfigError, match="unknown key"):
        IrKeymap.build("tv", {"TELEPORT": "KEY_X"})
    with pytest.raises(ConfigError, match="base"):
        IrKeymap.build("tv", None, base="sony")
    (tmp_path / "bad.yaml").write_text("keys: {}\n")
    with pytest.raises(ConfigError, match="remotes"):
        IrKeymap.load(tmp_path / "bad.yaml", "tv")
    with pytest.raises(ConfigError, match="remote"):
        build_remote(tmp_path)


def test_hold_key_sends_start_and_stop(irsend: FakeIrsend, tmp_path: Path) -> None:
    remote = build_remote(tmp_path, remote="tv")
    message = remote.execute("hold_key", {"key": "VOLUME_DOWN", "seconds": 0.2})
    assert message == "held VOLUME_DOWN (KEY_VOLUMEDOWN) for 0.2s"
    assert irsend.calls() == [["SEND_START", "tv", "KEY_VOLUMEDOWN"], ["SEND_STOP", "tv", "KEY_VOLUMEDOWN"]]


def test_lirc_failures_are_controller_errors(irsend: FakeIrsend, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ControllerError, match='unknown remote: "nope"'):
        build_remote(tmp_path, remote="nope").execute("press_key", {"key": "OK"})
    with pytest.raises(ControllerError, match='unknown command: "KEY_OK"'):
        build_remote(tmp_path, remote="humax").execute("press_key", {"key": "OK"})  # humax calls it KEY_SELECT
    with pytest.raises(ControllerError, match="not found"):
        build_remote(tmp_path, remote="stb", irsend=str(tmp_path / "no-irsend")).execute("press_key", {"key": "OK"})
    monkeypatch.setenv("FAKE_IRSEND_DOWN", "1")
    with pytest.raises(ControllerError, match="could not connect"):
        build_remote(tmp_path, remote="stb").execute("press_key", {"key": "OK"})
