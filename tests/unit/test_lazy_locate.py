"""Locating the screen only where it is needed: not after every action of a run, nor after a remote-pad key.

A real :class:`DeviceRuntime` with a navigation tree drives a simulated two-screen app; the test
counts the node checks (each is a verification the device runs) and reads which node each step
and each run reports.
"""
from __future__ import annotations

from backend_core.controllers.base import RemoteController, VerificationController
from backend_core.device import Device
from backend_core.navigation.tree import NavigationTree
from backend_core.runtime import DeviceRuntime
from shared.commands import CommandKind, P, command
from shared.errors import DeviceFailure
from shared.models import Plan, PlanStep, RunStatus, StepStatus


class Screens:
    """home ⇄ guide: OK on home opens the guide, BACK returns; LEFT/RIGHT move the focus in place."""

    def __init__(self) -> None:
        self.screen = "home"
        self.checks = 0


class Pad(RemoteController):
    def __init__(self, app: Screens) -> None:
        self.app = app

    @command("Press a key", P("key", required=True))
    def press_key(self, key: str) -> str:
        if key == "OK" and self.app.screen == "home":
            self.app.screen = "guide"
        elif key == "BACK":
            self.app.screen = "home"
        return f"pressed {key}"


class Checks(VerificationController):
    def __init__(self, app: Screens) -> None:
        self.app = app

    @command("Check which screen is shown", P("screen", required=True), P("timeout", default=0))
    def check_screen(self, screen: str, timeout: float = 0) -> str:
        self.app.checks += 1
        if self.app.screen != screen:
            raise DeviceFailure(f"on {self.app.screen}, not {screen}", expected=screen)
        return f"on {screen}"


def runtime() -> tuple[DeviceRuntime, Screens]:
    app = Screens()
    tree = NavigationTree.from_dict({
        "userinterface": "sim", "entry": "home",
        "nodes": [{"id": n, "verifications": [{"command": "check_screen", "params": {"screen": n}}]}
                  for n in ("home", "guide")],
        "edges": [{"from": "home", "to": "guide", "actions": [{"command": "press_key", "params": {"key": "OK"}}],
                   "reverse_actions": [{"command": "press_key", "params": {"key": "BACK"}}]}],
    })
    device = Device("d1", "D", "m", "sim", [Pad(app), Checks(app)], tree=tree)
    return DeviceRuntime(device), app


def keys(*names: str) -> Plan:
    return Plan("keys", True, [PlanStep(i, "press_key", {"key": k}) for i, k in enumerate(names, 1)])


def test_a_run_locates_once_after_its_last_action_not_after_each() -> None:
    rt, app = runtime()
    results = []
    outcome = rt.run_plan(keys("LEFT", "RIGHT", "LEFT", "OK"), results.append)
    assert outcome.status is RunStatus.PASSED
    assert outcome.current_node == "guide"
    assert [r.current_node for r in results] == [None, None, None, "guide"]   # None: not located, not a guess
    assert app.checks <= 2      # the last known node (none yet), then the nodes until one matches


def test_a_goto_after_unlocated_actions_starts_from_where_the_device_really_is() -> None:
    rt, app = runtime()
    rt.run_plan(Plan("p", True, [PlanStep(1, "goto", {"node": "home"})]), lambda r: None)
    assert rt.navigation.known_node == "home"
    results = []
    plan = Plan("p", True, [PlanStep(1, "press_key", {"key": "OK"}), PlanStep(2, "goto", {"node": "guide"}),
                            PlanStep(3, "check_screen", {"screen": "guide"})])
    outcome = rt.run_plan(plan, results.append)
    assert outcome.status is RunStatus.PASSED, outcome.message
    assert results[0].current_node is None and results[1].current_node == "guide"
    assert app.screen == "guide"


def test_a_remote_pad_key_is_not_located_until_someone_asks() -> None:
    rt, app = runtime()
    rt.run_plan(Plan("p", True, [PlanStep(1, "goto", {"node": "home"})]), lambda r: None)
    before = app.checks
    result, _ = rt.execute_step(PlanStep(0, "press_key", {"key": "OK"}), with_screenshot=False, locate=False)
    assert result.status is StepStatus.PASSED and result.current_node is None
    assert app.checks == before
    assert rt.context(CommandKind.NAVIGATION).current_node is None   # not located, so unknown
    assert rt.located() == "guide" and app.checks > before
    assert rt.navigation.known_node == "guide"


def test_a_failed_run_reports_where_it_stopped() -> None:
    rt, app = runtime()
    plan = Plan("p", True, [PlanStep(1, "press_key", {"key": "OK"}),
                            PlanStep(2, "check_screen", {"screen": "home"})])
    outcome = rt.run_plan(plan, lambda r: None)
    assert outcome.status is RunStatus.FAILED
    assert outcome.current_node == "guide"
