"""Tasks planned with an explored draft of an admin site (an open world) and the live screen: which of several
searchable lists a search means, what a near match to a row leaves unsaid, a part of one item's screen, and a
record's yes/no field read from its row or its own page. Wordings are not the corpus's."""
from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from backend_core.executors.navigation import GOTO_SPEC
from backend_core.navigation.tree import NavigationTree
from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from shared.commands import CommandKind
from shared.models import ExecutorContext, Plan
from shared.plan import validate_plan
from shared.screen import ScreenObservation
from tests.unit.test_screen_planning import ctx_for

SCREENS = Path(__file__).resolve().parent.parent / "fixtures" / "screens" / "third_party.json"
PEOPLE = ["Alice Martin", "Bob Chen", "Carla Gomez", "Grace Kim"]
GOODS = ["Blue Mug", "Desk Lamp", "Rake"]


def _node(nid: str, label: str, *elements: dict, keywords: tuple[str, ...] = (), **extra) -> dict:
    return {"id": nid, "label": label, "keywords": [label.lower(), *keywords],
            "verifications": [{"command": "wait_for_element", "params": {"selector": "#content > h1", "text": label}}],
            "elements": [{"name": "title", "text": label, "selector": "#content > h1"}, *elements], **extra}


def _edge(a: str, b: str, selector: str, **extra) -> dict:
    return {"from": a, "to": b, "actions": [{"command": "click_element", "params": {"selector": selector}}],
            "reverse_actions": [{"command": "go_back", "params": {}}], "taken_at": "2026-11-25T19:00:00+00:00", **extra}


def _list(nid: str, label: str, item_node: str, names: list[str]) -> dict:
    rows = [{"name": n.lower(), "text": n, "selector": f"#result_list > tbody > tr:nth-of-type({i}) > th > a",
             "opens": item_node} for i, n in enumerate(names, 1)]
    return _node(nid, label, {"name": "searchbar q field", "selector": "#searchbar"}, *rows,
                 keywords=("changelist", "search"))


def draft() -> NavigationTree:
    raw = {"userinterface": "shop-admin", "entry": "home", "complete": False, "nodes": [
        _node("home", "Site administration",
              {"name": "customers", "text": "Customers", "selector": "#m-customer", "opens": "customers"},
              {"name": "products", "text": "Products", "selector": "#m-product", "opens": "products"},
              {"name": "groups", "text": "Groups", "selector": "#m-group", "opens": "groups"}),
        _list("groups", "Select group to change", "groups", []),
        _list("customers", "Select customer to change", "customer", PEOPLE),
        _list("products", "Select product to change", "product", GOODS),
        _node("customer", "Change customer", param="name", items=PEOPLE,
              param_verifications=[{"command": "wait_for_element",
                                    "params": {"selector": "#content > h2", "text": "{name}"}}]),
        _node("product", "Change product", param="name", items=GOODS,
              param_verifications=[{"command": "wait_for_element",
                                    "params": {"selector": "#content > h2", "text": "{name}"}}]),
    ], "edges": [
        _edge("home", "customers", "#m-customer"), _edge("home", "products", "#m-product"),
        _edge("home", "groups", "#m-group"),
        {**_edge("customers", "customer", ""), "param": "name", "items": PEOPLE,
         "actions": [{"command": "click_element", "params": {"selector": "#result_list > tbody > tr > th > a",
                                                             "text": "{name}"}}]},
        {**_edge("products", "product", ""), "param": "name", "items": GOODS,
         "actions": [{"command": "click_element", "params": {"selector": "#result_list > tbody > tr > th > a",
                                                             "text": "{name}"}}]},
    ]}
    return NavigationTree.from_dict(raw)


@lru_cache(maxsize=None)
def screen(key: str) -> ScreenObservation:
    return ScreenObservation.from_dict(json.loads(SCREENS.read_text())[key])


def plan(task: str, key: str, node: str | None = None, with_draft: bool = True) -> Plan:
    ctx = ctx_for(screen(key))
    if with_draft:
        tree = draft()
        nav = ExecutorContext(CommandKind.NAVIGATION, (GOTO_SPEC,), tuple(tree.node_infos()), node, tree.entry,
                              tree.complete)
        ctx = replace(ctx, navigation=nav, current_node=node)
    return validate_plan(BuiltinPlanner().plan(PlanRequest(task, ctx, current_node=node)), ctx)


def steps(p: Plan) -> list[tuple[str, dict]]:
    assert p.feasible, p.analysis
    return [(s.command, s.params) for s in p.steps]


# -- which list a search means -------------------------------------------------------------------

@pytest.mark.parametrize("task, link, query", [
    ("find the product 'kettle'", "Products", "kettle"),
    ("search the products by name: lamp", "Products", "lamp"),
    ("search customers by their city Lyon", "Customers", "Lyon"),
])
def test_a_search_names_its_list_and_is_made_there(task: str, link: str, query: str) -> None:
    p = plan(task, "django_admin/admin/", "home")
    assert steps(p)[0] == ("click_element", {"text": link, "role": "link"})
    assert p.pending == [f'search for "{query}"']


def test_a_search_no_word_places_is_refused_when_several_lists_search() -> None:
    p = plan("search for kettle", "django_admin/admin/", "home")
    assert not p.feasible and "several screens can search" in p.analysis and "say which" in p.analysis


def test_a_search_after_a_step_to_an_unknown_screen_waits_for_that_screen() -> None:
    p = plan("within products, look up kettle", "django_admin/admin/", "home")
    assert steps(p) == [("click_element", {"text": "Products", "role": "link"})]
    assert p.pending and "kettle" in p.pending[0]


# -- a near match to a row, and a part of an item's screen -------------------------------------------

@pytest.mark.parametrize("task", ["send a reminder to Grace Kim", "open the invoices of Carla Gomez"])
def test_words_a_row_does_not_explain_are_not_dropped(task: str) -> None:
    p = plan(task, "django_admin/admin/", "home")
    opened_row_only = p.feasible and not p.pending and any(
        s.command == "click_element" and "tr:nth-of-type" in str(s.params.get("selector")) for s in p.steps)
    assert not opened_row_only, [(s.command, s.params) for s in p.steps]


def test_a_part_of_an_item_opens_the_item_then_looks_for_the_part_there() -> None:
    p = plan("show the change log of Carla Gomez", "django_admin/admin/", "home")
    assert steps(p) == [("goto", {"node": "customer", "param": "Carla Gomez"})]
    assert p.pending == ["open the change log"]
    whole = plan("bring up the info page for Desk Lamp", "django_admin/admin/", "home")
    assert steps(whole) == [("goto", {"node": "product", "param": "Desk Lamp"})] and not whole.pending


# -- a record's yes/no field ---------------------------------------------------------------------------

PRODUCTS = "django_admin/admin/store/product/"


@pytest.mark.parametrize("task, shown", [
    ("is Rake still in stock?", "True"),
    ("Rake shouldn't be in stock", "False"),
    ("is Rake in stock? it must not be", "False"),
    ("check whether Desk Lamp is out of stock", "False"),
    ('is Rake in stock? "Rake" must not be', "False"),     # as the closed loop carries it: "it" made its referent
])
def test_a_yes_no_field_is_read_in_the_records_row(task: str, shown: str) -> None:
    got = steps(plan(task.replace(" still", ""), PRODUCTS, with_draft=False))
    assert len(got) == 1 and got[0][0] == "wait_for_element"
    assert got[0][1]["text"] == shown and got[0][1]["selector"].endswith("td:nth-of-type(4)")
    row = "tr:nth-of-type(8)" if "Rake" in task else "tr:nth-of-type(3)"
    assert row in got[0][1]["selector"]


@pytest.mark.parametrize("task, state", [
    ("is this customer active?", "checked"),
    ("confirm the customer is inactive", "unchecked"),
    ("Alice Martin should not be active", "unchecked"),
])
def test_a_yes_no_field_on_the_records_own_page_is_its_checkbox(task: str, state: str) -> None:
    got = steps(plan(task, "django_admin/admin/store/customer/1/change/", with_draft=False))
    assert got == [("wait_for_element", {"selector": "#id_active", "state": state, "present": True})]


def test_a_record_on_no_screen_is_looked_for_before_its_field_is_read() -> None:
    p = plan("is Rake out of stock?", "django_admin/admin/", with_draft=False)
    assert p.feasible and p.pending and p.pending[-1] == "is Rake out of stock"
    # presence is not a field: "is X listed?" stays a check of what is shown
    assert steps(plan("is Rake listed?", PRODUCTS, with_draft=False)) == [
        ("wait_for_element", {"text": "Rake", "present": True})]


def test_make_sure_checks_a_field_already_so_and_sets_one_that_is_not() -> None:
    already = steps(plan("please make sure Desk Lamp is in stock", PRODUCTS, with_draft=False))
    assert already[0][0] == "wait_for_element" and already[0][1]["text"] == "True"
    change = plan("make sure Rake is out of stock", PRODUCTS, with_draft=False)
    assert steps(change) == [("click_element", {"text": "Rake", "role": "link"})]
    assert change.pending[-1] == "save" and '"no"' in change.pending[0]


def test_a_numbered_record_is_read_on_its_own_page_not_sought_as_a_name() -> None:
    p = plan("verify that ticket 4 is major", "trac/report", with_draft=False)
    assert p.feasible and p.pending == ["verify that ticket 4 is major"]
    assert "look through the lists" not in " ".join(p.pending)
