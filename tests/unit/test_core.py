"""Keys, command declarations, the wait primitive and the controller registry."""
from __future__ import annotations

import pytest

from backend_core.controllers.base import RemoteController
from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.wait import Timeout, WaitTimeout, wait_until
from shared.commands import P, ParamType, command, coerce_param
from shared.errors import ConfigError, RequestError
from shared.keys import Key, digit_keys, parse_key


@pytest.mark.parametrize("name, key", [
    ("ok", Key.OK), ("ENTER", Key.OK), ("select", Key.OK), ("KEYCODE_DPAD_CENTER", Key.OK),
    ("ArrowDown", Key.DOWN), ("KEY_UP", Key.UP), ("back", Key.BACK), ("Escape", Key.BACK),
    ("channel up", Key.CHANNEL_UP), ("PageDown", Key.CHANNEL_DOWN), ("7", Key.DIGIT_7),
])
def test_one_key_vocabulary(name: str, key: Key) -> None:
    assert parse_key(name) is key


def test_unknown_key_and_digits() -> None:
    with pytest.raises(ValueError, match="unknown key"):
        parse_key("teleport")
    assert digit_keys(105) == [Key.DIGIT_1, Key.DIGIT_0, Key.DIGIT_5]


def test_declared_params_must_match_the_method() -> None:
    with pytest.raises(TypeError, match="do not match"):
        class Broken(RemoteController):
            @command("press", P("key", ParamType.KEY, required=True))
            def press_key(self, button: str) -> str:
                return button


def test_execute_coerces_and_defaults() -> None:
    class Remote(RemoteController):
        @command("press", P("key", ParamType.KEY, required=True), P("repeat", ParamType.INT, default=1, minimum=1))
        def press_key(self, key: str, repeat: int = 1) -> str:
            return f"{key}x{repeat}"

    r = Remote()
    assert r.execute("press_key", {"key": "enter"}) == "OKx1"
    assert r.execute("press_key", {"key": "up", "repeat": "3"}) == "UPx3"
    with pytest.raises(RequestError, match="repeat must be >= 1"):
        r.execute("press_key", {"key": "up", "repeat": 0})
    with pytest.raises(RequestError, match="missing required"):
        r.execute("press_key", {})


@pytest.mark.parametrize("spec, value, expected", [
    (P("n", ParamType.INT), "4", 4), (P("f", ParamType.FLOAT), "0.5", 0.5), (P("b", ParamType.BOOL), "yes", True),
    (P("s"), 12, "12"), (P("k", ParamType.KEY), "dpad_left", "LEFT"),
])
def test_coercion(spec, value, expected) -> None:  # type: ignore[no-untyped-def]
    assert coerce_param(spec, value) == expected


@pytest.mark.parametrize("spec, value", [
    (P("n", ParamType.INT), "4.5"), (P("n", ParamType.INT), True), (P("f", ParamType.FLOAT), "nan"),
    (P("s"), {"a": 1}), (P("c", choices=("a", "b")), "c"),
])
def test_coercion_rejects(spec, value) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        coerce_param(spec, value)


def test_wait_until_returns_the_observation_or_times_out_with_the_last() -> None:
    now = [0.0]
    calls = iter([(False, 1), (False, 2), (True, 3)])
    assert wait_until(lambda: next(calls), Timeout(5, 1), clock=lambda: now[0],
                      sleep=lambda s: now.__setitem__(0, now[0] + s)) == 3
    now[0] = 0.0
    with pytest.raises(WaitTimeout) as err:
        wait_until(lambda: (False, "seen"), Timeout(2, 0.5), what="banner", clock=lambda: now[0],
                   sleep=lambda s: now.__setitem__(0, now[0] + s))
    assert err.value.last == "seen" and err.value.attempts == 5 and "banner" in str(err.value)


def test_wait_until_ends_early_once_the_screen_has_settled_but_never_before_a_look() -> None:
    now = [0.0]
    asked = []

    def settled() -> bool:
        asked.append(now[0])
        return now[0] >= 1.5

    with pytest.raises(WaitTimeout) as err:
        wait_until(lambda: (False, "seen"), Timeout(5, 0.5), clock=lambda: now[0], settled=settled,
                   sleep=lambda s: now.__setitem__(0, now[0] + s))
    assert err.value.settled and err.value.last == "seen" and err.value.attempts == 4 and asked[-1] == 1.5
    calls = iter([(False, 1), (True, 2)])
    assert wait_until(lambda: next(calls), Timeout(5, 0.5), settled=lambda: False, sleep=lambda s: None) == 2


def test_wait_until_goes_on_while_the_screen_is_still_being_fetched_up_to_a_cap() -> None:
    now = [0.0]

    def tick(s: float) -> None:
        now[0] += s

    # the page the check reads arrives at 8 s (a slow search); the check holds on it at once
    assert wait_until(lambda: (now[0] >= 8, now[0]), Timeout(5, 0.5), clock=lambda: now[0], sleep=tick,
                      busy=lambda: now[0] < 8) == 8
    # a page that never arrives: the wait ends at the cap, with the last observation
    now[0] = 0.0
    with pytest.raises(WaitTimeout) as err:
        wait_until(lambda: (False, "blank"), Timeout(5, 0.5), clock=lambda: now[0], sleep=tick, busy=lambda: True,
                   busy_cap_s=10)
    assert err.value.last == "blank" and 15 <= now[0] <= 15.5
    # nothing loading: the timeout is the timeout
    now[0] = 0.0
    with pytest.raises(WaitTimeout):
        wait_until(lambda: (False, None), Timeout(5, 0.5), clock=lambda: now[0], sleep=tick, busy=lambda: False)
    assert now[0] == 5


def test_zero_timeout_still_probes_once() -> None:
    seen = []
    with pytest.raises(WaitTimeout):
        wait_until(lambda: (seen.append(1) or False, None), Timeout(0, 1))
    assert seen == [1]


def test_unknown_controller_type_is_a_config_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import backend_core.controllers  # noqa: F401

    with pytest.raises(ConfigError, match="unknown controller type 'teleporter'; known types: .*playwright"):
        build_controllers([{"type": "teleporter"}], BuildContext("d1", tmp_path))
    with pytest.raises(ConfigError, match="needs a screen"):
        build_controllers([{"type": "ocr"}], BuildContext("d1", tmp_path))
