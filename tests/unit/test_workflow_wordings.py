"""A workflow server's single-page dashboard as testers word their tasks (never seen before), on captured screens.

Its sidebar's items are links drawn as buttons (``<a role="button" href="/variables">``); its records are keys
("batch_size", "etl-pool", "database-connections"); each row's actions are folded behind one unnamed icon (⋮)
whose menu opens in a pop-over outside the row; a row may hold one switch (on: active). Each case is a general
rule the batch showed missing.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

HOME, VARIABLES, MENU, LIMITS = "workflows/dashboard", "workflows/variables", "workflows/variables-menu", \
    "workflows/concurrency"


def test_a_record_on_no_screen_is_looked_for_in_the_lists_the_sidebar_links_to() -> None:
    # before: the sidebar's items, drawn as buttons, were no lists; the records' own links were looked through
    p = plan("Remove the database-connections concurrency limit.", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Concurrency", "role": "button"})]   # its kind names the list
    assert p.pending[0].startswith('look through the lists for "database-connections"')
    # a key's own parts hint at its list ("gpu-pool": the work pools)
    p = plan("Verify that gpu-pool is up", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Work Pools", "role": "button"})]


def test_a_key_set_to_a_value_is_that_records_value_on_its_form() -> None:
    # before: "no setting or field called 'batch_size'"
    p = plan("bump batch_size up to 1000", screen(HOME))
    assert p.feasible and p.pending[-1] == 'set the value of batch_size to "1000"'
    p = plan('set the value of batch_size to "1000"', screen(VARIABLES))
    assert steps(p)[0][1]["selector"].endswith("tr:nth-of-type(1) > td:nth-of-type(6) > div > div > button")
    assert p.pending == ['from the menu of "batch_size" pick edit', 'fill in value "1000"', "save",
                         'check that "1000" was saved for "batch_size"']
    # a key with no value said is no such record: read as before
    assert not plan("bump Batch Size", screen(HOME)).feasible


def test_a_rows_menu_in_a_pop_over_gives_the_action_asked_for() -> None:
    # before: the icon was clicked again each round (its menu sits outside the row), round and round
    p = plan("get rid of batch_size, nobody uses it anymore", screen(VARIABLES))
    assert p.pending == ['from the menu of "batch_size" pick delete', 'if asked confirm the deletion of the row "batch_size"']
    assert steps(plan(p.pending[0], screen(MENU))) == [("click_element", {"text": "Delete", "role": "button"})]
    assert steps(plan('from the menu of "batch_size" pick edit', screen(MENU))) == [
        ("click_element", {"text": "Edit", "role": "button"})]


def test_a_verb_of_on_or_off_is_the_one_switch_of_the_records_row() -> None:
    assert steps(plan("pause database-connections", screen(LIMITS))) == [
        ("set_checked", {"checked": False, "row": "database-connections", "role": "switch"}),
        ("wait_for_element", {"role": "switch", "row": "database-connections", "state": "unchecked", "present": True})]
    # how things stand is said first, then "it": one request about the thing named; a toggle said with its end state
    assert steps(plan("the api-calls limit is currently inactive - flip it to active please", screen(LIMITS))) == [
        ("set_checked", {"checked": True, "row": "api-calls", "role": "switch"}),
        ("wait_for_element", {"role": "switch", "row": "api-calls", "state": "checked", "present": True})]


def test_asides_and_a_check_said_with_can_u() -> None:
    p = plan("can u double check batch_size is 250?", screen(VARIABLES))
    assert steps(p) == [("wait_for_element", {"text": "250", "row": "batch_size", "present": True})]
    assert plan("delete batch_size, it is obsolete", screen(VARIABLES)).pending == [
        'from the menu of "batch_size" pick delete', 'if asked confirm the deletion of the row "batch_size"']


def test_an_unnamed_control_that_adds() -> None:
    # before: "no form or button to add variable on the screen" (the "+" beside the list's title has no name)
    p = plan("Create a new variable called region with value eu-west-1 and give it the tag infra", screen(VARIABLES))
    assert steps(p) == [("click_element", {"selector": "#app > div > div > div:nth-of-type(2) > div:nth-of-type(1) > "
                                                        "header > div:nth-of-type(1) > div > button"})]
    assert p.pending == ['fill in name "region", tags "infra", value "eu-west-1", if offered "variable"', "save",
                         'check that "region" was saved']
    # a key said with "=" is the record's name and its value; a typo in the kind is read through
    assert plan("pls add a varible owner_email = data-team@example.com", screen(VARIABLES)).pending[0] == \
        'fill in name "owner_email", value "data-team@example.com"'
    # one whose address ends in "create"; what the tester says is fine as it is asks for nothing
    p = plan("Set up a new work pool named staging-pool. Process type is fine, leave everything else at the defaults.",
             screen("workflows/work-pools"))
    assert steps(p)[0][1]["selector"].endswith("header > div:nth-of-type(1) > div > a")
    assert p.pending[1:] == ["save", 'check that "staging-pool" was saved']
    # an unnamed icon that follows no title of the list (here a panel of tabs): refused, never clicked on a guess
    p = plan("add a concurrency limit called s3-uploads with limit 8", screen(LIMITS))
    assert not p.feasible and "no form or button to add" in p.analysis


def test_a_records_switch_on_its_own_page_when_no_row_holds_one() -> None:
    # "etl-pool" shows as a link in a card with no switch: its page is opened, and the clause planned there
    p = plan("pause etl-pool and then open the deployements page", screen(HOME))
    assert steps(p) == [("click_element", {"text": "etl-pool", "role": "link"})]
    assert p.pending == ["pause etl-pool", "open the deployements page"]
    # "the gpu pool" for the record gpu-pool, said with how things stand first
    p = plan("The gpu pool is paused right now. Could you turn it back on?", screen("workflows/work-pools"))
    assert steps(p) == [("click_element", {"text": "gpu-pool", "role": "link"})] and p.pending == ["activate gpu-pool"]
    # a kind said in two words names its list; a purpose after "so it …" asks for nothing
    p = plan("Set up a new work pool named staging-pool.", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Work Pools", "role": "button"})]
    p = plan("Could you pause the sales-report-weekly deployment so it stops scheduling for now? Thanks!", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Deployments", "role": "button"})]
    assert p.pending[-1] == "pause the sales-report-weekly deployment"


def test_a_switch_is_checked_in_its_row_and_a_second_fact_keeps_its_subject() -> None:
    # before: "is switched on" alone could not be read; "api-calls is active" read the column "Active Slots"
    p = plan("confirm that database-connections has a limit of 10 and is switched on", screen(LIMITS))
    assert steps(p) == [
        ("wait_for_element", {"text": "10", "row": "database-connections", "present": True}),
        ("wait_for_element", {"role": "switch", "row": "database-connections", "state": "checked", "present": True})]
    assert steps(plan("verify api-calls isn't paused", screen(LIMITS))) == [
        ("wait_for_element", {"role": "switch", "row": "api-calls", "state": "checked", "present": True})]


def test_only_one_row_shown_is_that_row_and_none_of_the_others() -> None:
    p = plan("make sure only retry_limit shows up", screen(VARIABLES))
    assert steps(p) == [("wait_for_element", {"text": "retry_limit", "present": True})] + [
        ("wait_for_element", {"text": name, "exact": True, "present": False})
        for name in ("batch_size", "slack_channel", "warehouse_schema")]


def test_so_it_holds_the_new_value_instead_of_the_old() -> None:
    p = plan("Update warehouse_schema so it holds reporting instead of analytics, then check that the variables list "
             "shows the new value", screen(VARIABLES))
    assert p.pending == ['from the menu of "warehouse_schema" pick edit', 'fill in value "reporting"', "save",
                         'check that "reporting" was saved for "warehouse_schema"',
                         "check that the variables list shows the new value"]


def test_a_pick_from_a_menu_is_never_a_control_the_page_had_before() -> None:
    from shared.screen import ScreenObservation, UIElement

    # the icon was clicked but no menu opened: the page's own "Delete selected" is no item of the row's menu
    page = ScreenObservation(platform="web", url="http://app/variables", title="Variables", elements=[
        UIElement(role="row", text="batch_size 500", selector="tr:nth-of-type(1)"),
        UIElement(role="cell", text="batch_size", container="batch_size 500", selector="tr:nth-of-type(1) td"),
        UIElement(role="button", name="Delete", hint="btn btn-danger", selector="#bulk-delete", clickable=True)])
    p = plan('from the menu of "batch_size" pick delete', page)
    assert not p.feasible and "offer no delete" in p.analysis


def test_review_of_the_change_a_todos_box_is_no_switch_and_a_question_keeps_its_own_subject() -> None:
    # a todo's done box (a kit's "toggle" checkbox) is never set by "pause" or "start"
    p = plan("pause walk the dog", screen("todomvc/index.html#/"))
    assert not p.feasible or all(cmd != "set_checked" for cmd, _ in steps(p))
    # "is walk the dog gone?" after a check of another todo is a question of its own, never "buy milk is walk …"
    p = plan("check that buy milk is shown. is walk the dog gone?", screen("todomvc/index.html#/"))
    assert all("buy milk is" not in str(params.get("text", "")) for _, params in steps(p))


def test_review_of_the_change_a_menus_deactivate_is_no_delete() -> None:
    from shared.screen import ScreenObservation, UIElement

    menu = ScreenObservation(platform="web", url="http://app/users", title="Users", elements=[
        UIElement(role="row", text="ann ann@x.org", selector="tr:nth-of-type(1)"),
        UIElement(role="cell", text="ann", container="ann ann@x.org", selector="tr:nth-of-type(1) td"),
        *[UIElement(role="menuitem", name=n, selector=f"#m{i}", clickable=True)
          for i, n in enumerate(("Edit", "Deactivate", "Delete user"))]])
    assert steps(plan('from the menu of "ann" pick delete', menu)) == [
        ("click_element", {"text": "Delete user", "role": "menuitem"})]
