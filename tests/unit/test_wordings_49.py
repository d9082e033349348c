"""Settings pages, tabs, durations and testers' background sentences: each rule in words of its own."""
from __future__ import annotations

import pytest

from server.planners.asides import aside
from server.planners.language import VERBS, read_clause
from server.planners.phrasings import rephrase
from server.planners.restating import restate
from server.planners.saved_check import _holds
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan, steps


def _page(url: str, *els: UIElement, title: str = "") -> ScreenObservation:
    return ScreenObservation("web", url, title, tuple(els))


def _home() -> ScreenObservation:
    """A monitoring app's list page, with its settings one link away."""
    return _page("http://app.test/", UIElement("link", name="Dashboard", href="/", selected=True),
                 UIElement("link", name="Monitors", href="/monitors"), UIElement("link", name="Reports", href="/reports"),
                 UIElement("link", name="Settings", href="/settings"),
                 UIElement("heading", name="Monitors", level=1),
                 UIElement("row", text="Billing API up", clickable=True),
                 UIElement("cell", text="Billing API", container="Billing API up"),
                 UIElement("row", text="Login page down", clickable=True),
                 UIElement("cell", text="Login page", container="Login page down"))


def _settings() -> ScreenObservation:
    """A settings page with tabs: the probe interval in parts on its General tab, the rest on tabs not selected."""
    return _page("http://app.test/settings", UIElement("link", name="Settings", href="/settings", selected=True),
                 UIElement("heading", name="Settings", level=1),
                 UIElement("tab", name="General", selected=True), UIElement("tab", name="Alerts"),
                 UIElement("text", text="Probe interval"),
                 UIElement("textbox", name="Days", value="1", hint="number"),
                 UIElement("textbox", name="Hours", value="0", hint="number"),
                 UIElement("textbox", name="Minutes", value="30", hint="number"),
                 UIElement("textbox", name="Probe timeout in seconds", value="20", hint="number"),
                 UIElement("textbox", name="Team name", value="Ops"),
                 UIElement("checkbox", name="Quiet hours", checked=False, hidden=True),
                 UIElement("textbox", name="Alert e-mail", value="", hidden=True),
                 UIElement("button", name="Save settings"))


def test_a_setting_no_field_of_the_screen_names_is_looked_for_on_the_settings_page_first() -> None:
    for task in ("set the probe interval to 2 hours", "turn on quiet hours", "change the team name to Platform"):
        got = steps(plan(task, _home()))
        assert got[0] == ("click_element", {"text": "Settings", "role": "link"}), (task, got)


def test_two_kinds_of_settings_are_not_guessed_between() -> None:
    home = _home()
    two = _page(home.url, *home.elements, UIElement("link", name="Account settings", href="/account"))
    p = plan("set the probe interval to 2 hours", two)
    assert not any(params.get("text") in ("Settings", "Account settings") for _, params in
                   ([(s.command, s.params) for s in p.steps] if p.feasible else []))


def test_a_duration_said_whole_sets_its_part_and_empties_the_others_then_saves() -> None:
    got = steps(plan("set the probe interval to 2 hours", _settings()))
    assert got[:4] == [("input_text", {"text": "2", "field": "Hours", "clear": True}),
                       ("input_text", {"text": "0", "field": "Days", "clear": True}),
                       ("input_text", {"text": "0", "field": "Minutes", "clear": True}),
                       ("click_element", {"text": "Save settings", "role": "button"})]


def test_a_field_named_before_to_takes_the_number_of_a_quantity_not_the_box_of_its_unit() -> None:
    got = steps(plan("set the probe timeout to 45 seconds", _settings()))
    assert got[0] == ("input_text", {"text": "45", "field": "Probe timeout in seconds", "clear": True})


def test_a_switch_of_a_tab_not_selected_is_a_setting_never_a_record_to_look_for() -> None:
    got = steps(plan("enable quiet hours", _settings()))
    assert got[0] == ("set_checked", {"checked": True, "text": "Quiet hours", "role": "checkbox"})


@pytest.mark.parametrize("task, said", [
    ("Omar Haddad signed up on Monday. Activate his account and make him an editor.",
     "Activate Omar Haddad's account and make him an editor."),
    ("Acme Trading just paid invoice 77. Add a payment of 120 from Acme Trading.",
     "Add a payment of 120 from Acme Trading."),
    ("The Kettle is discontinued. Delete the product.", "The Kettle is discontinued. Delete the product."),
    ("The nightly build failed twice. Is the Deploy button disabled?", "The nightly build failed twice. Is the Deploy button disabled?"),
])
def test_what_happened_before_a_request_is_dropped_only_where_the_request_says_what_it_is_about(task: str,
                                                                                               said: str) -> None:
    assert aside(task) == said


@pytest.mark.parametrize("task, said", [
    ("verify the basket shows a subtotal of 19.99 for the entire order", "verify subtotal is 19.99"),
    ("make sure the summary displays a balance of -40.00 EUR", "make sure balance is -40.00 EUR"),
    ("confirm that gpu-pool has a limit of 8", "confirm that gpu-pool has a limit of 8"),   # a record's fact, as said
])
def test_a_figure_a_screen_shows_under_its_label_is_that_label_s_value(task: str, said: str) -> None:
    assert restate(task) == said


def test_where_a_page_is_filed_says_no_more_than_its_name() -> None:
    assert restate("remove the Release Checklist page under QA Process") == "remove the Release Checklist page"
    assert restate("archive the Q3 Plan document in the Finance folder") == "archive the Q3 Plan document"
    # what is made goes where it is said to
    assert "Ops folder" in restate("create a page called Runbook inside the Ops folder")


@pytest.mark.parametrize("task, said", [
    ("list every order where Jane Roe is the customer", "list the order whose customer is Jane Roe"),
    ("show me all the #urgent tickets in the Inbox", 'go to the Inbox, then search for "#urgent"'),
    ("find all #q3 invoices", 'search for "#q3"'),
])
def test_a_value_said_before_its_field_or_as_a_tag_is_what_the_list_is_searched_for(task: str, said: str) -> None:
    assert rephrase(task, VERBS) == said


def test_a_list_with_no_column_filter_is_searched_for_the_value_a_condition_says() -> None:
    journal = _page("http://app.test/journal", UIElement("heading", name="Journal", level=1),
                    UIElement("textbox", name="Filter entries", hint="search"),
                    UIElement("row", text="2026-01-03 Jane Roe Repair 40.00"),
                    UIElement("row", text="2026-01-05 Ali Khan Parts 12.00"))
    got = steps(plan("show the entries whose payee is Jane Roe", journal))
    assert got[0] == ("input_text", {"text": "Jane Roe", "field": "Filter entries", "clear": True, "submit": True})


def test_a_place_said_alone_is_gone_to() -> None:
    got = steps(plan("Reports page -> check Billing API is listed", _home()))
    assert got[0] == ("click_element", {"text": "Reports", "role": "link"})


def test_a_number_is_never_read_as_a_misspelt_verb() -> None:
    assert read_clause("12.50 in total").text.startswith("12.50")


def test_a_saved_number_is_seen_as_a_whole_number_only() -> None:
    assert _holds("every 6 hours", "6") and not _holds("Updated 2026-01-06", "6") and not _holds("6.5 kg", "6")
    assert _holds("Total 4.50", "4.50") and _holds("Dune Messiah", "dune")


@pytest.mark.parametrize("task, said", [
    ("what's the balance of Assets:Bank:Savings? open its account page",
     "what's the balance of Assets:Bank:Savings? open the Assets:Bank:Savings account page"),
    ("Who owns OPS-212? Assign it to me.", "Who owns OPS-212? Assign OPS-212 to me."),
    ("Where is the Blue Lagoon listing? Delete it.", "Where is the Blue Lagoon listing? Delete Blue Lagoon."),
])
def test_what_a_question_named_is_what_the_request_after_it_refers_to(task: str, said: str) -> None:
    assert aside(task) == said


def test_a_class_every_link_shares_names_none_of_them() -> None:
    tree = _page("http://app.test/report", *[UIElement("link", name=n, hint="account tree-link", href=f"/a/{n}")
                                             for n in ("Income", "Expenses", "Assets", "Liabilities")],
                 UIElement("combobox", name="Jump to account"))
    p = plan("go to its account page", tree)
    assert not p.feasible or all(s.params.get("text") not in ("Income", "Expenses", "Assets", "Liabilities")
                                 for s in p.steps)


def test_a_figure_asked_for_with_none_expected_is_its_row_shown() -> None:
    assert rephrase("open Accounts and check how much money is in the Savings account", VERBS) == \
        "open Accounts and check the Savings account is shown"
    accounts = _page("http://app.test/accounts", UIElement("row", text="Savings 1200.00"),
                     UIElement("link", name="Savings", container="Savings 1200.00"),
                     UIElement("row", text="Office lamp fund 40.00"))
    assert steps(plan("check the Savings account is shown", accounts)) == [
        ("wait_for_element", {"text": "Savings", "present": True})]
    # a word that is part of another name is no word for a kind: the whole name is checked
    assert steps(plan("check the Office lamp is shown", accounts)) == [
        ("wait_for_element", {"text": "Office lamp", "present": True})]


def _results() -> ScreenObservation:
    """A wiki's search results: its navigation, the search form (with its own buttons), then what it found."""
    return _page("http://wiki.test/-/search", UIElement("link", name="Home", href="/Home"),
                 UIElement("link", name="Create page", href="/-/create"),
                 UIElement("textbox", name="Search term", value="OPS-7", container="Search Match case"),
                 UIElement("button", name="Match case", container="Search Match case"),
                 UIElement("heading", name="Search matched 2 pages:"),
                 UIElement("link", name="Runbook", href="/Runbook"),
                 UIElement("text", text="[..] restart the encoder (OPS-7) [..]"),
                 UIElement("link", name="Release Notes", href="/Release%20Notes"),
                 UIElement("text", text="[..] fixed in 4.2 [..]"),
                 UIElement("link", name="Source code", href="https://example.org/src"))


@pytest.mark.parametrize("task, opened", [
    ("open the first result", "Runbook"), ("open the second hit", "Release Notes"),
    ("open the page it's on", "Runbook"), ('open the page "OPS-7" is on', "Runbook"),
    ("open the one that mentions fixed in 4.2", "Release Notes"),
])
def test_what_a_search_found_is_opened_by_its_place_or_what_it_says(task: str, opened: str) -> None:
    assert steps(plan(task, _results()))[0] == ("click_element", {"text": opened, "role": "link"})


def test_of_several_results_none_is_guessed_and_the_search_form_is_no_result() -> None:
    assert not plan("open the result", _results()).feasible        # two were found: which?
    assert not plan("open the last result", _results()).feasible or \
        steps(plan("open the last result", _results()))[0][1]["text"] != "Source code"   # another site is no result


def _processes() -> ScreenObservation:
    """A process supervisor's table: each row's name is an identifier "group:program", its controls links."""
    els = [UIElement("row", text="State Description Name Action")]
    for state, name in (("running", "capture:capture_rec1"), ("running", "capture:capture_rec2"),
                        ("running", "encoders:enc_hd1"), ("running", "encoders:enc_hd2"), ("running", "lab:ir_blasterd"),
                        ("stopped", "lab:snapshot_tool")):
        row = f"{state} {name} {'Restart Stop' if state == 'running' else 'Start'} Clear Log"
        els += [UIElement("row", text=row), UIElement("cell", text=state, container=row),
                UIElement("link", name=name, href=f"tail.html?processname={name}", container=row)]
        els += [UIElement("link", name=n, href=f"index.html?processname={name}&action={n.lower()}", container=row)
                for n in (["Restart", "Stop"] if state == "running" else ["Start"]) + ["Clear Log"]]
    return _page("http://sup.test/index.html", *els)


@pytest.mark.parametrize("task, row", [
    ("restart the HD2 encoder", "encoders:enc_hd2"),
    ("stop the IR blaster daemon", "lab:ir_blasterd"),
    ("please start snapshot_tool", "lab:snapshot_tool"),
])
def test_a_process_is_named_by_the_parts_of_its_identifier(task: str, row: str) -> None:
    got = steps(plan(task, _processes()))
    assert got[0][1]["row"] == row, got


def test_a_second_name_takes_the_verb_and_is_planned_on_the_page_the_first_action_leads_to() -> None:
    p = plan("stop encoders:enc_hd1 and the IR blaster daemon", _processes())
    assert steps(p)[0] == ("click_element", {"text": "Stop", "role": "link", "row": "encoders:enc_hd1"})
    assert p.pending == ["stop the IR blaster daemon"]


@pytest.mark.parametrize("task", ["clear the IR blaster daemon's log", "clear the log of lab:ir_blasterd",
                                  "Clear Log for the IR blaster daemon"])
def test_a_control_said_as_verb_and_object_is_clicked_in_the_row_of_its_record(task: str) -> None:
    assert steps(plan(task, _processes()))[0] == ("click_element", {"text": "Clear Log", "role": "link",
                                                                     "row": "lab:ir_blasterd"})


def test_everything_in_a_group_is_each_row_of_that_group() -> None:
    got = steps(plan("stop everything in the capture group", _processes()))
    assert got == [("click_element", {"text": "Stop", "role": "link", "row": "capture:capture_rec1"}),
                   ("click_element", {"text": "Stop", "role": "link", "row": "capture:capture_rec2"})]


@pytest.mark.parametrize("task, said", [
    ("We need the backup box for tonight's soak test - please start lab:snapshot_tool.", "please start lab:snapshot_tool."),
    ("capture tests are over for today: stop capture:capture_rec1", "stop capture:capture_rec1"),
    ("Restart the encoders, we're rewiring the rack after lunch", "Restart the encoders"),
    ("snapshot_tool looks frozen, the preview is black. Restart it.", "Restart snapshot_tool."),
    ("Steps: 1) open Status 2) click Refresh. Expected: all green", "Steps: 1) open Status 2) click Refresh. Expected: all green"),
])
def test_what_led_to_the_request_before_a_dash_a_colon_or_after_a_comma_is_no_step(task: str, said: str) -> None:
    assert aside(task) == said


@pytest.mark.parametrize("task, said", [
    ("restart lab:ir_blasterd but leave the other lab services alone", "restart lab:ir_blasterd"),
    ("give snapshot_tool one more start and see whether it stays up",
     "start snapshot_tool, check that it stays up"),
    ("give the project a start date of 2026-05-01", "set the start of the project to date of 2026-05-01"),
    ("give the encoder a quick restart", "restart the encoder"),
])
def test_ops_turns_of_phrase(task: str, said: str) -> None:
    assert rephrase(task, VERBS) == said


def test_a_card_s_own_delete_control_says_its_kind_and_background_before_a_named_record_is_dropped() -> None:
    cards = _page("http://app.test/dashboard", *[e for n, name in enumerate(("nightly-soak-uk", "ota-canary-eu"), 1)
                                                 for row in [f"{n}. {name} Direction: MINIMIZE"]
                                                 for e in (UIElement("link", name=row, href=f"/studies/{n}", container=row),
                                                           UIElement("heading", name=f"{n}. {name}", container=row),
                                                           UIElement("button", name="rename study", container=row),
                                                           UIElement("button", name="delete study", container=row))])
    got = steps(plan("The canary study was abandoned last sprint. Delete ota-canary-eu.", cards))
    assert got[0] == ("click_element", {"text": "delete study", "role": "button", "row": "2. ota-canary-eu"})


@pytest.mark.parametrize("task, said", [
    ("Can you check that the snapshot tool (lab:snapshot_tool) is stopped?", "Can you check that lab:snapshot_tool is stopped?"),
    ("Restart the encoders. Don't stop the others, just restart them.", "Restart the encoders."),
    ("open the Settings page (Preferences)", "open the Settings page (Preferences)"),
])
def test_the_name_in_brackets_and_a_request_said_again_after_a_dont(task: str, said: str) -> None:
    assert rephrase(task, VERBS) == said
