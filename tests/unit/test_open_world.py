"""A draft tree is an open world: what no node shows may be on the live screen or a screen a step leads to.
A complete tree (written by hand) is a closed world: what none of its screens has is refused up front."""
from __future__ import annotations

from dataclasses import replace

import yaml

from backend_core.executors.navigation import GOTO_SPEC
from backend_core.navigation.tree import NavigationTree
from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from shared.commands import CommandKind
from shared.models import ExecutorContext, PlanningContext
from shared.screen import ScreenObservation, UIElement
from tests.unit.conftest import DEMO_TREE, demo_context

HOME = ScreenObservation("web", "http://tv/#/home", "StreamTV", (
    UIElement("heading", name="StreamTV", level=1),
    UIElement("button", name="Live TV", selector="#menu-live"),
    UIElement("button", name="Guide", selector="#menu-guide"),
    UIElement("button", name="Recordings", selector="#menu-recordings"),   # on no screen of the tree
))


def context(complete: bool) -> PlanningContext:
    raw = yaml.safe_load(DEMO_TREE.read_text())
    raw["complete"] = complete
    for node in raw["nodes"]:
        node["keywords"] = []    # as a draft has them: only what the screens said, no "TV guide" by hand
    tree = NavigationTree.from_dict(raw, base_dir=DEMO_TREE.parent)
    assert tree.complete is complete
    base = demo_context("home")
    nav = ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()), "home", tree.entry,
                          tree.complete)
    return replace(base, navigation=nav, screen=HOME)


def plan(task: str, complete: bool):
    return BuiltinPlanner().plan(PlanRequest(task, context(complete), current_node="home"))


def test_the_context_says_a_draft_is_incomplete_on_the_wire() -> None:
    nav = context(False).navigation
    assert nav.to_dict()["complete"] is False and ExecutorContext.from_dict(nav.to_dict()).complete is False
    assert "complete" not in context(True).navigation.to_dict()       # a complete tree's context is unchanged
    assert context(True).fingerprint() != context(False).fingerprint()


def test_a_draft_defers_what_no_node_shows_a_complete_tree_refuses_it() -> None:
    closed = plan("open the Holiday Special recording", complete=True)
    assert not closed.feasible
    opened = plan("open the Holiday Special recording", complete=False)
    assert opened.feasible and opened.pending, opened.analysis     # Recordings first, then look for it there
    assert opened.steps[0].params.get("text") == "Recordings" or "menu-recordings" in str(opened.steps[0].params)


def test_a_qualified_screen_name_is_that_screen_not_an_item_of_it() -> None:
    # "the TV guide": "TV" names a screen (Live TV) of its own; it is not an item to look for in the guide
    p = plan("show me the TV guide", complete=False)
    assert p.feasible and not p.pending, p.analysis
    assert all(s.params.get("node") != "live" for s in p.steps)


def test_a_link_in_a_draft_is_proved_by_the_title_of_the_screen_it_opens() -> None:
    # "View and edit SQL" opens the SQL editor, which does not show the link's words: its own title proves it
    check = [{"command": "waitForElementToAppear", "params": {"selector": "h1"}}]
    raw = {"userinterface": "db", "entry": "table", "complete": False, "nodes": [
        {"id": "table", "label": "plants", "verifications": check, "elements": [
            {"name": "view and edit sql", "text": "View and edit SQL", "selector": "#edit-sql", "opens": "editor"}]},
        {"id": "editor", "label": "nursery", "verifications": check, "elements": [
            {"name": "title", "text": "Custom SQL query", "selector": "h1"}]}],
        "edges": [{"from": "table", "to": "editor",
                   "actions": [{"command": "click_element", "params": {"selector": "#edit-sql"}}]}]}
    tree = NavigationTree.from_dict(raw)
    nav = ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()), "table", "table", False)
    ctx = replace(demo_context("table"), navigation=nav, userinterface="db")
    p = BuiltinPlanner().plan(PlanRequest("click View and edit SQL", ctx, current_node="table"))
    assert [(s.command, s.params.get("text")) for s in p.steps][-1] == ("wait_for_element", "Custom SQL query")
