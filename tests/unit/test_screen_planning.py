"""The built-in planner on a device with no navigation tree: grounded in the live screen only."""
from __future__ import annotations

import pytest

from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from shared.commands import CommandKind, CommandSpec, ControllerType, P, ParamType
from shared.models import ExecutorContext, Plan, PlanningContext
from shared.plan import validate_plan
from shared.screen import ScreenObservation, UIElement

TARGET = (P("text"), P("role"), P("selector"), P("row"), P("index", ParamType.INT, default=0, minimum=-1))


def _spec(name: str, *params, kind: CommandKind = CommandKind.ACTION) -> CommandSpec:
    ctype = ControllerType.VERIFICATION if kind is CommandKind.VERIFICATION else ControllerType.REMOTE
    return CommandSpec(name, name, tuple(params), ctype, kind)


ACTIONS = (
    _spec("click_element", *TARGET, P("id")),
    _spec("double_click", *TARGET), _spec("hover", *TARGET), _spec("scroll_to", *TARGET),
    _spec("input_text", P("text", required=True), P("field"), P("selector"), P("row"),
          P("index", ParamType.INT, default=0), P("clear", ParamType.BOOL, default=True),
          P("submit", ParamType.BOOL, default=False)),
    _spec("select_option", P("option", required=True), P("field"), P("selector"), P("index", ParamType.INT, default=0)),
    _spec("set_checked", P("checked", ParamType.BOOL, default=True), *TARGET),
    _spec("set_slider", P("value", ParamType.FLOAT, required=True), P("field"), P("selector"),
          P("index", ParamType.INT, default=0)),
    _spec("go_back"), _spec("reload"), _spec("navigate_to_url", P("url", required=True)),
    _spec("press_key", P("key", ParamType.KEY, required=True), P("repeat", ParamType.INT, default=1)),
    _spec("press_shortcut", P("keys", required=True)),
    _spec("scroll", P("direction", default="down", choices=("up", "down")), P("amount", ParamType.INT, default=400)),
    _spec("dump_elements"),
    _spec("sort_table", P("column", required=True), P("order", default="any", choices=("ascending", "descending", "any")),
          P("max_clicks", ParamType.INT, default=3)),
)
CHECKS = (
    _spec("wait_for_element", *TARGET, P("label"), P("present", ParamType.BOOL, default=True), P("state"),
          P("count", ParamType.INT, default=-1, minimum=-1), P("exact", ParamType.BOOL, default=False),
          P("timeout", ParamType.FLOAT, default=5.0), kind=CommandKind.VERIFICATION),
    _spec("wait_for_page", P("name", required=True), P("present", ParamType.BOOL, default=True),
          P("timeout", ParamType.FLOAT, default=5.0), kind=CommandKind.VERIFICATION),
    _spec("check_sorted", P("column", required=True), P("order", default="any", choices=("ascending", "descending", "any")),
          P("timeout", ParamType.FLOAT, default=5.0), kind=CommandKind.VERIFICATION),
)


def todo_screen(*todos: tuple[str, bool]) -> ScreenObservation:
    els = [UIElement("heading", name="todos", level=1),
           UIElement("textbox", name="", placeholder="What needs to be done?", hint="new todo", focused=True),
           UIElement("checkbox", name="Toggle All Input", hint="toggle all")]
    for text, done in todos:
        els += [UIElement("checkbox", hint="toggle", container=text, checked=done, clickable=True),
                UIElement("text", text=text, container=text),
                UIElement("button", hint="destroy", container=text, hidden=True, clickable=True)]
    els += [UIElement("text", text=f"{len(todos)} items left"),
            UIElement("link", name="All", href="#/"), UIElement("link", name="Active", href="#/active"),
            UIElement("link", name="Completed", href="#/completed")]
    return ScreenObservation("web", "http://127.0.0.1/#/", "TodoMVC", tuple(els))


def shop_screen() -> ScreenObservation:
    return ScreenObservation("web", "http://127.0.0.1/admin/", "Site admin", (
        UIElement("heading", name="Site administration", level=1),
        UIElement("link", name="Customers", href="/admin/customers/"),
        UIElement("link", name="Orders", href="/admin/orders/"),
        UIElement("combobox", name="Language", options=("English", "French", "German"), value="English"),
        UIElement("textbox", name="Notes", value="already here"),
        UIElement("checkbox", name="Remember me", checked=False),
        UIElement("button", name="Save"),
    ))


def ctx_for(screen: ScreenObservation) -> PlanningContext:
    return PlanningContext("browser", "app", ExecutorContext(CommandKind.ACTION, ACTIONS),
                           ExecutorContext(CommandKind.VERIFICATION, CHECKS),
                           ExecutorContext(CommandKind.NAVIGATION), None, screen)


def plan(task: str, screen: ScreenObservation) -> Plan:
    ctx = ctx_for(screen)
    return validate_plan(BuiltinPlanner().plan(PlanRequest(task, ctx)), ctx)


def steps(p: Plan) -> list[tuple[str, dict]]:
    assert p.feasible, p.analysis
    return [(s.command, s.params) for s in p.steps]


@pytest.mark.parametrize("task", [
    "add a todo called buy milk", "Add 'buy milk' to the list", "please create a new todo: buy milk",
    "I want to add buy milk", "could you add a task named \"buy milk\"?",
])
def test_adding_an_item_types_it_submits_and_checks_it_is_listed(task: str) -> None:
    got = steps(plan(task, todo_screen()))
    assert got[0][0] == "input_text"
    assert got[0][1]["text"] == "buy milk" and got[0][1]["submit"] is True and got[0][1]["clear"] is True
    assert got[-1] == ("wait_for_element", {"text": "buy milk", "present": True})


@pytest.mark.parametrize("task", ["delete buy milk", "remove the todo 'buy milk'", "Please delete buy milk.",
                                  "get rid of buy milk" if False else "trash buy milk"])
def test_deleting_a_row_uses_the_control_in_that_row_and_checks_it_is_gone(task: str) -> None:
    p = plan(task, todo_screen(("walk dog", False), ("buy milk", False)))
    assert steps(p) == [("click_element", {"text": "destroy", "role": "button", "row": "buy milk"})]
    # the next screen may ask for a confirmation; either way the row must then be gone
    assert p.pending == ['if asked confirm the deletion of the row "buy milk"']
    after = steps(plan(p.pending[0], todo_screen(("walk dog", False))))
    assert after == [("wait_for_element", {"row": "buy milk", "present": False})]


@pytest.mark.parametrize("task", ["mark buy milk as done", "complete buy milk", "check buy milk", "tick off buy milk"])
def test_ticking_a_row(task: str) -> None:
    got = steps(plan(task, todo_screen(("buy milk", False))))
    assert got[0] == ("set_checked", {"checked": True, "row": "buy milk", "role": "checkbox"})
    assert got[-1] == ("wait_for_element", {"row": "buy milk", "role": "checkbox", "state": "checked",
                                            "present": True})


def test_uncheck_a_row() -> None:
    got = steps(plan("uncheck buy milk", todo_screen(("buy milk", True))))
    assert got[0][1]["checked"] is False


@pytest.mark.parametrize("task", ["click customers", "open Customers", "go to the customers page",
                                  "navigate to customers", "Tap on the Customers link"])
def test_a_link_is_clicked_and_the_page_it_names_is_checked(task: str) -> None:
    got = steps(plan(task, shop_screen()))
    assert got[0] == ("click_element", {"text": "Customers", "role": "link"})
    assert got[-1] == ("wait_for_page", {"name": "Customers", "present": True})


@pytest.mark.parametrize("task", ["select French in the language dropdown", "choose French from Language",
                                  "set the language to French", "change language to french"])
def test_choosing_an_option(task: str) -> None:
    got = steps(plan(task, shop_screen()))
    assert got == [("select_option", {"option": "French", "field": "Language"})]


def test_typing_replaces_a_field_unless_told_to_append() -> None:
    assert steps(plan("type hello into notes", shop_screen()))[0] == (
        "input_text", {"text": "hello", "field": "Notes", "clear": True})
    assert steps(plan("append ' world' to the end of notes" if False else "type world into notes without clearing",
                      shop_screen()))[0][1]["clear"] is False
    assert steps(plan("fill notes with hello", shop_screen()))[0][1]["text"] == "hello"


def test_checkbox_by_label() -> None:
    got = steps(plan("tick the remember me checkbox", shop_screen()))
    assert got[0] == ("set_checked", {"checked": True, "text": "Remember me", "role": "checkbox"})


@pytest.mark.parametrize("task, expected", [
    ("check that Customers is shown", ("wait_for_element", {"text": "Customers", "present": True})),
    ("Customers is listed", ("wait_for_element", {"text": "Customers", "present": True})),
    ("is there an Orders link?", ("wait_for_element", {"text": "Orders", "role": "link", "present": True})),
    ("verify Invoices is not shown", ("wait_for_element", {"text": "Invoices", "present": False})),
    ("make sure the title is Site administration", ("wait_for_page", {"name": "Site administration",
                                                                       "present": True})),
    ("the page shows Site administration", ("wait_for_element", {"text": "Site administration", "present": True})),
])
def test_checks_phrased_many_ways(task: str, expected: tuple) -> None:
    assert steps(plan(task, shop_screen()))[-1] == expected


def test_count_check_uses_the_literal_text_when_shown_else_counts_items() -> None:
    screen = todo_screen(("a", False), ("b", False))
    assert steps(plan("check 2 items left", screen))[-1] == ("wait_for_element", {"text": "2 items left",
                                                                                  "present": True})
    assert steps(plan("there are 2 todos", screen))[-1] == ("wait_for_element", {"role": "listitem", "count": 2,
                                                                                 "present": True})


def test_a_clause_on_a_screen_not_yet_seen_is_planned_later() -> None:
    p = plan("open customers and click Bob", shop_screen())
    # the first clause's end state is proved before the rest is planned on the screen it leads to
    assert steps(p) == [("click_element", {"text": "Customers", "role": "link"}),
                        ("wait_for_page", {"name": "Customers", "present": True})]
    assert p.pending == ["click Bob"]


def test_pronouns_are_resolved_before_deferring() -> None:
    p = plan("click customers and then open it", shop_screen())
    assert p.feasible


def test_impossible_task_is_refused_with_close_names_and_no_step() -> None:
    p = plan("click invoices", shop_screen())
    assert not p.feasible and not p.steps
    p = plan("open the custmers page", shop_screen())   # a typo still finds it
    assert steps(p)[0] == ("click_element", {"text": "Customers", "role": "link"})
    p = plan("delete walk the cat", todo_screen(("buy milk", False)))
    assert not p.feasible and "walk the cat" in p.analysis


def test_did_you_mean() -> None:
    p = plan("press the Sav button", shop_screen())
    assert p.feasible   # typo grounded
    p = plan("click the Export button", shop_screen())
    assert not p.feasible and "Did you mean" in p.analysis


def test_typos_in_verbs() -> None:
    assert steps(plan("clik customers", shop_screen()))[0][0] == "click_element"
    assert steps(plan("opne customers", shop_screen()))[0][0] == "click_element"
