"""One command vocabulary: old names still load from plans, trees and test cases, with a deprecation warning."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml

from backend_core.controllers.base import Controller
from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.navigation.tree import NavigationTree
from backend_core.verifications.element import DomVerifier
from backend_core.verifications.image import ImageVerifier
from backend_core.verifications.text import OcrVerifier
from backend_core.verifications.ui_elements import UiElementVerifier
from backend_core.verifications.video import VideoVerifier
from server.testcases import SavedTest
from shared import vocabulary as V
from shared.models import Plan, PlanStep
from shared.plan import validate_plan
from tests.fakes import FakeAdb
from tests.unit.conftest import demo_context


@pytest.fixture(autouse=True)
def fresh_warnings() -> None:
    V._warned.clear()  # each old name warns once per process; these tests want to see it


def test_verifiers_declare_canonical_snake_case_checks_only() -> None:
    for cls in (DomVerifier, UiElementVerifier, OcrVerifier, ImageVerifier, VideoVerifier):
        for name in cls._commands:
            assert name == name.lower() and name not in V.DEPRECATED, (cls.__name__, name)
    assert {V.WAIT_FOR_ELEMENT, V.WAIT_FOR_PAGE} <= set(DomVerifier._commands)
    assert V.WAIT_FOR_ELEMENT in UiElementVerifier._commands
    assert V.WAIT_FOR_TEXT in OcrVerifier._commands and V.WAIT_FOR_IMAGE in ImageVerifier._commands
    for cls in (DomVerifier, UiElementVerifier):  # one check with negation, same parameters everywhere
        assert [p.name for p in cls._commands[V.WAIT_FOR_ELEMENT].params] == \
            ["text", "role", "selector", "row", "label", "present", "state", "count", "exact", "timeout"]


def test_old_names_in_a_plan_are_mapped_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    plan = Plan("", True, [PlanStep(1, "waitForElementToAppear", {"selector": "#screen-home"}),
                           PlanStep(2, "waitForTextToDisappear", {"text": "Loading"})])
    with caplog.at_level(logging.WARNING, logger="shared.vocabulary"):
        valid = validate_plan(plan, demo_context())
    assert [(s.command, s.params) for s in valid.steps] == [
        ("wait_for_element", {"selector": "#screen-home", "present": True}),
        ("wait_for_text", {"text": "Loading", "present": False})]
    assert "'waitForElementToAppear' is deprecated: use 'wait_for_element'" in caplog.text
    assert "waitForTextToDisappear" in caplog.text
    assert "waitForElementToAppear" in demo_context().commands  # planners that still ask by old name


def test_old_names_in_a_tree_and_a_test_case_load(caplog: pytest.LogCaptureFixture) -> None:
    raw = {"userinterface": "x", "nodes": [
        {"id": "home", "verifications": [{"command": "waitForElementToAppear", "params": {"text": "Home"}}]},
        {"id": "menu", "verifications": [{"command": "waitForImageToDisappear", "params": {"image": "spinner"}}]}],
        "edges": [{"from": "home", "to": "menu", "actions": [{"command": "press_key", "params": {"key": "OK"}}]}]}
    with caplog.at_level(logging.WARNING, logger="shared.vocabulary"):
        tree = NavigationTree.from_dict(raw)
    checks = {n.id: n.verifications[0] for n in tree.nodes.values()} if isinstance(tree.nodes, dict) else \
        {n.id: n.verifications[0] for n in tree.nodes}
    assert (checks["home"].command, checks["home"].params) == ("wait_for_element", {"text": "Home", "present": True})
    assert (checks["menu"].command, checks["menu"].params) == \
        ("wait_for_image", {"reference": "spinner", "present": False})  # the renamed parameter too
    assert "deprecated" in caplog.text
    case = SavedTest.from_yaml(yaml.safe_dump({"name": "t", "device_model": "m", "userinterface": "x", "steps": [
        {"step": 1, "command": "waitForElementToDisappear", "params": {"text": "Loading"}}]}), "t.yaml")
    assert (case.steps[0].command, case.steps[0].params) == ("wait_for_element", {"text": "Loading", "present": False})


def test_a_controller_runs_an_old_name_it_was_sent(fake_adb: FakeAdb, tmp_path: Path) -> None:
    made = build_controllers([{"type": "adb", "params": {"serial": "phone-1"}}], BuildContext("phone-1", tmp_path))
    verifier: Controller = next(c for c in made if isinstance(c, UiElementVerifier))
    assert verifier.provides("waitForElementToAppear")
    assert "shown" in verifier.execute("waitForElementToAppear", {"text": "Camera", "timeout": 1})
    assert "not shown" in verifier.execute("waitForElementToDisappear", {"text": "Wi-Fi", "timeout": 1})
