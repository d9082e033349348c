"""Tasks on apps the planner had never seen, written before it first ran on them, planned against their real
screens (tests/fixtures/screens/new_apps.json): Supervisor's process table, whose rows change as the
processes run (an uptime, a state) and whose row controls sit in list items of their own; MailDev's inbox, a
list of links whose emails open on pages of their own; Radicale's sign-in form; a directory listing
(Python's http.server); a wiki (An Otter Wiki), whose pages keep their Edit / Rename / Delete controls in a menu of
their own; and an accounting app (Fava), a single-page app whose reports are a sidebar's links.

Before this work 5 of 15 Supervisor tasks and 5 of 14 MailDev tasks ended right in the real apps, and "delete all
emails" passed while every email was still there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.planners import grounding
from server.planners.intents_login import restate_login
from server.planners.restating import restate
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan, steps

SHOTS = Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "new_apps.json"
PROCESSES = "supervisor/"
STOPPED = "supervisor/index.html?processname=mail-relay&action=stop"   # after "stop mail-relay"
INBOX = "maildev/"
INVOICE = "maildev/ >Invoice for November"
ORDER = "maildev/ >Your order"


def screen(key: str) -> ScreenObservation:
    return ScreenObservation.from_dict(json.loads(SHOTS.read_text())[key])


@pytest.mark.parametrize("task, control, row", [
    ("restart billing-worker", "Restart", "billing-worker"),
    ("stop the mail relay", "Stop", "mail-relay"),                  # the name said with a space
    ("start nightly-backup", "Start", "nightly-backup"),            # not the name's own link
    ("kill billing-worker", "Stop", "billing-worker"),
    ("shut down the metrics agent", "Stop", "metrics-agent"),
    ("bring up the nightly-backup job", "Start", "nightly-backup"),
    ("clear the log of mail-relay", "Clear Log", "mail-relay"),     # a control of two words, in the named row
    ("clear mail-relay's log", "Clear Log", "mail-relay"),
])
def test_a_rows_control_is_found_in_its_own_list_item_and_the_row_is_named_by_what_stays(task: str, control: str,
                                                                                      row: str) -> None:
    (cmd, params), *_ = steps(plan(task, screen(PROCESSES)))
    # the row by its name: its whole text holds an uptime and a state, which change before the step runs
    assert (cmd, params["text"], params["row"]) == ("click_element", control, row), task


def test_looking_at_a_log_never_clears_it() -> None:
    got = steps(plan("look at the log of web-frontend", screen(PROCESSES)))
    assert all(p.get("text") != "Clear Log" for _, p in got), got


def test_everything_is_the_all_control_and_a_count_in_a_state_counts_that_column() -> None:
    assert steps(plan("stop everything", screen(PROCESSES))) == [("click_element", {"text": "STOP ALL"})]
    for task in ("how many processes are running? there should be 4", "4 processes are running",
                 "there are 4 running programs"):
        (cmd, params), = steps(plan(task, screen(PROCESSES)))
        assert (cmd, params["text"], params["count"]) == ("wait_for_element", "running", 4), task
        assert params["selector"].endswith("tr > td:nth-of-type(1)"), task   # the State column, not every row


def test_a_check_about_it_after_an_action_is_planned_on_the_next_screen_by_name() -> None:
    p = plan("please stop mail-relay and confirm it shows as stopped", screen(PROCESSES))
    assert steps(p) == [("click_element", {"text": "Stop", "role": "link", "row": "mail-relay"})]
    assert p.pending == ["confirm mail-relay is stopped"]
    # on the screen the action leads to: in that row, not "stopped" anywhere (nightly-backup is stopped too)
    assert steps(plan("confirm mail-relay is stopped", screen(STOPPED))) == [
        ("wait_for_element", {"text": "stopped", "row": "mail-relay", "present": True})]
    got = steps(plan("check mail-relay is no longer running", screen(STOPPED)))
    assert got[-1][1]["text"] == "running" and got[-1][1]["present"] is False and "tr:nth-of-type(2)" in \
        got[-1][1]["selector"]


def test_a_record_said_with_its_kind_and_its_subject_is_its_rows_link() -> None:
    for task, subject in (("open the email about lunch on Friday", "Lunch on Friday?"),
                          ("open the invoice email", "Invoice for November"),
                          ("open the email with the password reset code", "Password reset requested"),
                          ("open the email regarding the quarterly report", "Quarterly report draft")):
        (cmd, params), *_ = steps(plan(task, screen(INBOX)))
        # never "Refresh emails", which acts on the list and lists nothing
        assert cmd == "click_element" and params["text"].startswith(subject), (task, params)


def test_deleting_every_item_is_proved_by_an_empty_list() -> None:
    got = steps(plan("delete all emails", screen(INBOX)))
    assert got[0] == ("click_element", {"text": "Delete all emails", "role": "link"})
    assert got[1][0] == "wait_for_element" and got[1][1]["present"] is False and got[1][1]["selector"].endswith("ul > li")


def test_a_count_in_the_place_the_page_is_and_a_quoted_item_that_says_a_value() -> None:
    (cmd, params), = steps(plan("how many emails are in the inbox? should be 5", screen(INBOX)))
    assert (cmd, params["count"]) == ("wait_for_element", 5) and params["selector"].endswith("ul > li")
    (cmd, params), = steps(plan('check that "Your order #1042 has shipped" was sent to sam@home.example', screen(INBOX)))
    assert params["text"] == "sam@home.example" and params["row"].startswith("Your order #1042 has shipped")


@pytest.mark.parametrize("key, task, phrase", [
    (INVOICE, "check the amount due is 88.20 EUR", "Amount due: 88.20 EUR"),
    (INVOICE, "the due date is 2026-12-05", "Due date: 2026-12-05"),
    (INVOICE, "the due date is 88.20 EUR", "Due date: 88.20 EUR"),   # both in one text: still fails, as it should
    (ORDER, "verify the tracking number is ZX9913", "Tracking: ZX9913"),
])
def test_a_value_said_with_its_label_is_checked_as_the_text_says_them_together(key: str, task: str, phrase: str) -> None:
    (cmd, params), = steps(plan(task, screen(key)))
    assert (cmd, params["text"], params["present"]) == ("wait_for_element", phrase, True)


def test_go_back_to_a_place_no_control_names_is_the_page_before() -> None:
    assert steps(plan("go back to the inbox", screen("maildev/ >Lunch on Friday?"))) == [("go_back", {})]


def test_a_row_is_named_by_a_part_that_stays_else_by_its_whole_text() -> None:
    scr = screen(PROCESSES)
    rows = {e.container for e in scr.elements if e.container and "billing-worker" in e.container}
    assert {grounding.row_key(r, scr) for r in rows} == {"billing-worker"}
    # a balance row whose name other rows also show: only its amount is its own, and an amount changes
    balance = ScreenObservation("web", elements=[
        UIElement("cell", name="Chloe", container="Chloe -308.68"), UIElement("cell", name="-308.68", container="Chloe -308.68"),
        UIElement("cell", name="Chloe", container="Pizza Chloe 12.00"), UIElement("cell", name="Pizza", container="Pizza Chloe 12.00")])
    assert grounding.row_key("Chloe -308.68", balance) == "Chloe -308.68"
    assert grounding.row_key("Pizza Chloe 12.00", balance) == "Pizza"


@pytest.mark.parametrize("said, user, password", [
    ("log in as alice with password secret", "alice", "secret"),
    ("sign in with username bob and password hunter22", "bob", "hunter22"),
    ("login as admin/admin", "admin", "admin"),
    ("Log in as 'carol' (password: s3cret!)", "carol", "s3cret!"),
    ("sign in as dave", "dave", None),
])
def test_every_wording_of_signing_in_is_one_clause(said: str, user: str, password: str | None) -> None:
    want = f'log in as "{user}"' + (f' with password "{password}"' if password else "")
    assert restate_login(said) == want


def test_signing_in_fills_the_user_and_the_masked_field_sends_the_form_and_is_proved_by_the_form_gone() -> None:
    got = steps(plan("sign in with username bob and password hunter22, then open the calendars", screen("radicale/.web/")))
    assert got[:4] == [
        ("input_text", {"text": "bob", "field": "Username", "clear": True}),
        ("input_text", {"text": "hunter22", "field": "Password", "clear": True}),
        ("click_element", {"text": "Next", "role": "button"}),
        ("wait_for_element", {"selector": "#loginscene > form > input:nth-of-type(2)", "present": False})]
    p = plan("log in as alice with password secret", screen("radicale/.web/"))
    assert "secret" not in " ".join(s.description for s in p.steps)   # the steps say "the password"
    # "log in" alone is the page's own control, as before
    assert not plan("log in as alice with password secret", screen(INBOX)).feasible


def test_folders_of_a_listing_by_their_name_then_the_next_and_a_count_in_one_of_them() -> None:
    files = screen("files/")
    assert steps(plan("open the photos folder", files)) == [("click_element", {"text": "photos/", "role": "link"}),
                                                            ("wait_for_page", {"name": "photos", "present": True})]
    p = plan("go into docs, then api, and check index.html is there", files)
    assert steps(p)[0] == ("click_element", {"text": "docs/", "role": "link"}) and p.pending[0] == "go api"
    p = plan("how many items are in the reports folder? there should be 2", files)
    assert steps(p) == [("click_element", {"text": "reports/", "role": "link"})]
    assert p.pending == ["check there are 2 items"]


def test_a_sign_in_form_with_no_button_is_sent_with_enter_in_its_last_box() -> None:
    form = ScreenObservation("web", url="http://app.test/login", elements=[
        UIElement("textbox", name="Email", selector="#email"),
        UIElement("textbox", name="Password", hint="password", selector="#pw")])
    got = steps(plan("log in as ann@example.org with password letmein1", form))
    assert got[0] == ("input_text", {"text": "ann@example.org", "field": "Email", "clear": True})
    assert got[1][1]["text"] == "letmein1" and (got[1][1].get("submit") or got[2] == ("press_key", {"key": "OK"}))
    assert got[-1] == ("wait_for_element", {"selector": "#pw", "present": False})


# -- a wiki (An Otter Wiki): its pages' own Edit / Rename controls, a search box classed "search-query" ------
WIKI = "otterwiki/"
WIKI_PAGE = "otterwiki/Onboarding"


def test_a_search_box_whose_class_says_query_is_searched_not_refused_as_sql() -> None:
    (cmd, params), *_ = steps(plan("search the wiki for laptop", screen(WIKI)))
    assert (cmd, params["text"], params.get("submit")) == ("input_text", "laptop", True)


def test_a_label_said_whole_with_its_short_words_outranks_one_shared_word() -> None:
    (cmd, params), *_ = steps(plan("open the A-Z index", screen(WIKI)))
    assert (cmd, params["text"]) == ("click_element", "A - Z")   # not the "Page Index" section toggle


@pytest.mark.parametrize("task", ["make sure Release Process is in the sidebar",
                                  "check Coding Style appears in the navigation menu"])
def test_a_region_of_the_page_is_where_the_name_shows_not_the_text_to_find(task: str) -> None:
    (cmd, params), = steps(plan(task, screen(WIKI)))
    assert cmd == "wait_for_element" and params["text"] in ("Release Process", "Coding Style") \
        and not params.get("row"), params


def test_a_pages_own_verb_opens_the_page_first_then_uses_its_control() -> None:
    p = plan("edit the Coding Style page", screen(WIKI))
    assert steps(p) == [("click_element", {"text": "Coding Style", "role": "link"}),
                        ("wait_for_page", {"name": "Coding Style", "present": True})]
    assert p.pending == ["edit Coding Style"]
    (cmd, params), = steps(plan("edit this page", screen(WIKI_PAGE)))
    assert (cmd, params["text"]) == ("click_element", "Edit Page (e)")
    p = plan("rename Meeting Notes to Team Meetings", screen(WIKI))
    assert steps(p)[0][1]["text"] == "Meeting Notes" and p.pending == ["rename Meeting Notes to Team Meetings"]
    p = plan("rename Onboarding to Welcome", screen(WIKI_PAGE))
    assert steps(p) == [("click_element", {"text": "Rename", "role": "link"})]   # a menu item, opened by the remote
    assert p.pending == ["rename Onboarding to Welcome"]


@pytest.mark.parametrize("task, control", [("toggle dark mode", "Toggle dark mode"), ("log in", "Login")])
def test_a_clause_that_is_a_controls_name_clicks_it(task: str, control: str) -> None:
    (cmd, params), *_ = steps(plan(task, screen(WIKI)))
    assert (cmd, params["text"]) == ("click_element", control)


@pytest.mark.parametrize("task, link", [("check there is a link to Coding Style", "Coding Style"),
                                        ("verify this page links to Release Process", "Release Process"),
                                        ("make sure the page has a link to the Onboarding page", "Onboarding")])
def test_a_link_to_a_page_is_that_link_shown(task: str, link: str) -> None:
    (cmd, params), = steps(plan(task, screen(WIKI)))
    assert (cmd, params["text"], params.get("role")) == ("wait_for_element", link, "link")


@pytest.mark.parametrize("task, shown", [
    ("make sure the Password reset requested mail is present", "Password reset requested"),
    ("check the email Lunch on Friday? is listed", "Lunch on Friday"),
    # quoted, a word that says something of the record (a state), or a word left that only starts another
    # element's name: checked as said, never trimmed to a pass
    ("verify the text 'Invoice for November mail' is shown", "Invoice for November mail"),
    ("check Invoice for November archived is shown", "Invoice for November archived"),
    ("check Invoice email is shown", "Invoice email"),
])
def test_a_name_wrapped_in_the_testers_word_for_it_is_checked_as_the_screen_says_it(task: str, shown: str) -> None:
    (cmd, params), = steps(plan(task, screen(INBOX)))
    assert (cmd, params["text"]) == ("wait_for_element", shown)


def test_reading_a_record_opens_it() -> None:
    (cmd, params), *_ = steps(plan("read the invoice email", screen(INBOX)))
    assert cmd == "click_element" and params["text"].startswith("Invoice for November"), params


# -- an accounting app (Fava): a single-page app whose reports are links of a sidebar, filters typed into boxes --
LEDGER = "fava/"
RENAME_FORM = "otterwiki/Meeting Notes/rename"
DELETE_FORM = "otterwiki/Meeting Notes/delete"


def test_a_page_reached_is_proved_before_a_check_of_what_it_shows() -> None:
    # "GLD" is in the income statement's accounts too: the check alone passed there when the click went nowhere
    p = plan("open the Holdings report and check that GLD is listed", screen(LEDGER))
    assert [c for c, _ in steps(p)] == ["click_element", "wait_for_page"] and p.pending == ["check that GLD is listed"]


def test_a_link_named_whole_is_not_a_record_on_the_list_of_its_first_word() -> None:
    p = plan("open the balance sheet", screen(LEDGER))
    assert steps(p)[0] == ("click_element", {"text": "Balance Sheet", "role": "link"}) and not p.pending


def test_a_sidebar_entry_named_as_the_subject_of_a_check_is_its_page() -> None:
    p = plan("verify that the balance sheet shows Liabilities:US:Chase:Slate", screen(LEDGER))
    assert steps(p) == [("click_element", {"text": "Balance Sheet", "role": "link"}),   # that page, proved reached
                        ("wait_for_page", {"name": "Balance Sheet", "present": True})]
    assert p.pending == ['check "Liabilities:US:Chase:Slate" is shown']


@pytest.mark.parametrize("task, field, text", [("filter by account Expenses:Food", "Account", "Expenses:Food"),
                                               ("filter by Uncle Boons", "Filter by tag, payee, …", "Uncle Boons")])
def test_a_filter_with_no_control_of_its_own_is_typed_into_the_box_named_for_it(task: str, field: str,
                                                                                 text: str) -> None:
    (cmd, params), (check, holds) = steps(plan(task, screen(LEDGER)))
    assert (cmd, params["field"], params["text"], params["submit"]) == ("input_text", field, text, True)
    assert (check, holds["text"], holds["role"]) == ("wait_for_element", text, "combobox")   # what the box holds


def test_typing_into_a_combobox_is_checked_on_the_combobox() -> None:
    (_, typed), (cmd, check) = steps(plan("type Uncle Boons in the filter box", screen(LEDGER)))
    assert typed["field"] == "Filter by tag, payee, …" and (cmd, check["role"]) == ("wait_for_element", "combobox")


def test_a_rename_form_is_sent_by_its_own_button_and_a_deletion_asks_first() -> None:
    (_, typed), (cmd, sent) = steps(plan("rename Meeting Notes to Team Meetings", screen(RENAME_FORM)))
    assert typed["text"] == "Team Meetings" and (cmd, sent["text"]) == ("click_element", "Rename")   # not "Create page"
    p = plan('if asked confirm the deletion of the link "Meeting Notes"', screen(DELETE_FORM))
    assert steps(p) == [("click_element", {"text": "Delete", "role": "button"}),
                        ("wait_for_element", {"text": "Delete Meeting Notes ?", "role": "heading", "present": False}),
                        ("wait_for_element", {"text": "Meeting Notes", "role": "link", "present": False})]
    # from the wiki's page, the link as it shows is what must go ("the Meeting Notes page" is no link's name)
    p = plan("delete the Meeting Notes page", screen(WIKI))
    assert p.pending == ["click delete", 'if asked confirm the deletion of the link "Meeting Notes"']


def test_a_confirmation_is_planned_on_the_screen_the_delete_leads_to() -> None:
    # the Delete link opens a page that asks; the page shown before it has no button that confirms anything
    p = plan('click delete, if asked confirm the deletion of the link "Onboarding"', screen(WIKI_PAGE))
    assert steps(p) == [("click_element", {"text": "Delete", "role": "link"})]
    assert p.pending == ['if asked confirm the deletion of the link "Onboarding"']


@pytest.mark.parametrize("task", [
    "check Blue Mug is in the top 3 results", "verify Price appears in the header row",   # a region said last only
    "check Monstera is at the top", "check Melody TV is shown in the banner",           # a place in a list; an element
    "check the Alice Smith row has a link for Edit",                                    # a row's link keeps its row
])
def test_where_a_text_must_be_is_kept_unless_it_is_a_region_of_the_page(task: str) -> None:
    assert restate(task) == task


def test_a_link_check_never_swallows_the_actions_before_it() -> None:
    assert restate("Delete Meeting Notes and check the page has a link to Coding Style") == \
        "Delete Meeting Notes and check the Coding Style link is shown"


def test_a_pages_verb_is_done_only_on_that_page() -> None:
    # "Team" is only a part of the wiki's name in the page's title: the page shown is Onboarding, not Team
    assert ("click_element", {"text": "Edit Page (e)", "role": "button"}) not in steps(
        plan("edit the Team page", screen(WIKI_PAGE)))
    p = plan("edit the Coding Style page", screen(WIKI))   # its page is proved reached, then its own Edit
    assert [c for c, _ in steps(p)] == ["click_element", "wait_for_page"] and p.pending == ["edit Coding Style"]
