"""Starting, filling and saving a record the way testers say it, on captured screens of a Flask-Admin app
(bukuserver) and an old-school tracker (Roundup): the form asked for by what it makes, the app's own kind of
record said as a verb, a web address and a list of tags in a sentence, the check of a save planned on the
screen the save leads to, a record's Edit control in its row, and a search found on the home page. The
wordings are variations, not the corpus's own.
"""
from __future__ import annotations

from dataclasses import replace

from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from server.planners.records import parse_record
from server.planners.restating import restate
from server.planners.saved_check import saved_clause
from shared.screen import UIElement
from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

BOOKMARKS = "buku/bookmark/"
NEW_BOOKMARK = "buku/bookmark/new/"
HOME = "buku/"
TRACKER = "roundup/tracker/"
ISSUE = "roundup/tracker/issue3"


def test_the_form_for_a_new_record_is_the_control_that_starts_one_or_the_form_shown() -> None:
    for task in ("bring up the form for a new bookmark", "open the add bookmark page",
                 "go to the page for creating a bookmark", "show the bookmark creation dialog"):
        assert steps(plan(task, screen(BOOKMARKS))) == [("click_element", {"text": "Create", "role": "link"})], task
    # already on it, and it is empty: a check that it is shown, nothing clicked
    got = steps(plan("open the form for a new one", screen(NEW_BOOKMARK)))
    assert [c for c, _ in got] == ["wait_for_element"]
    # issue 3's own form holds issue 3: a new issue's form is another page
    assert steps(plan("take me to the new issue form", screen(ISSUE))) == [
        ("click_element", {"text": "Create New", "role": "link"})]
    # a form of another kind is not it either, and a screen with no way to one says so
    assert not plan("open the form for a new one", screen(ISSUE)).feasible


def test_the_app_s_kind_of_record_said_as_a_verb_adds_one() -> None:
    p = plan("pls bookmark https://example.org/bread as Bread basics, tag it baking and bread", screen(BOOKMARKS))
    assert steps(p) == [("click_element", {"text": "Create", "role": "link"})]
    assert p.pending[0].startswith('fill in name "Bread basics", url "https://example.org/bread", tags "baking, bread"')
    # a word that is no kind of record here stays an unknown verb
    assert "do not know how to 'frobnicate'" in plan("frobnicate Hacker News", screen(BOOKMARKS)).analysis


def test_a_web_address_and_a_list_of_tags_in_a_sentence_are_fields() -> None:
    rec = parse_record("a link to https://sqlite.org/lang.html called SQL syntax, tagged db and reference")
    assert (rec.name, rec.fields) == ("SQL syntax", [("url", "https://sqlite.org/lang.html"),
                                                     ("tags", "db, reference")])
    rec = parse_record("a site with url https://lobste.rs titled Lobsters")
    assert (rec.name, rec.fields) == ("Lobsters", [("url", "https://lobste.rs")])
    # an address inside a said text stays in it
    rec = parse_record("a bookmark with the description: mirrors https://x.org daily")
    assert rec.fields == [("description", "mirrors https://x.org daily")]
    # "to:" is "to"; a field word never starts with a small "of"
    assert restate("set the note of Lobsters to: read later") == "set the note of Lobsters to read later"


def test_a_save_is_checked_on_the_screen_it_leads_to() -> None:
    p = plan('fill in name "Bread basics", url "https://example.org/bread", then save, then '
             f'{saved_clause("Bread basics")}', screen(NEW_BOOKMARK))
    assert steps(p)[-1] == ("click_element", {"text": "Save", "role": "button"})
    assert p.pending == [saved_clause("Bread basics")]
    # after the save: the list's first page does not show the new record, the app's notice says it saved it
    listed = screen(BOOKMARKS)
    notice = UIElement(role="link", name="Record was successfully created.", href="/bookmark/details/?id=13")
    after = replace(listed, elements=[notice, *listed.elements])
    assert steps(plan(saved_clause("Bread basics"), after)) == [
        ("wait_for_element", {"text": "Record was successfully created.", "present": True, "exact": True})]
    # the name on the screen is checked itself; a notice that says it failed is no proof
    assert steps(plan(saved_clause("Hacker News"), listed)) == [
        ("wait_for_element", {"text": "Hacker News", "present": True})]
    failed = replace(listed, elements=[replace(notice, name="Record was not created: URL is required.")] +
                     list(listed.elements))
    assert steps(plan(saved_clause("Bread basics"), failed)) == [
        ("wait_for_element", {"text": "Bread basics", "present": True})]


def test_a_field_of_a_record_is_changed_through_its_row_s_edit_control() -> None:
    # the row's title links to the bookmarked site and "View Record" shows no form: "Edit Record" is the way
    for task in ("change the title of bookmark 5 to BBC", "set the description of Serious Eats to: weeknight food"):
        p = plan(task, screen(BOOKMARKS))
        (cmd, params), = steps(p)
        assert (cmd, params["text"]) == ("click_element", "Edit Record"), task
        assert p.pending[-1].startswith("check that"), task


def test_a_list_with_no_search_of_its_own_searches_from_the_home_page() -> None:
    p = plan("search for lentils", screen(BOOKMARKS))
    assert steps(p) == [("click_element", {"text": "buku server", "role": "link"})]
    assert p.pending == ["search for lentils"]
    assert steps(plan("search for lentils", screen(HOME)))[0] == (
        "input_text", {"text": "lentils", "field": "Search bookmark", "clear": True, "submit": True})


WATCHES = "changedetection/"


def test_a_verb_a_row_offers_is_its_control_and_a_toggle_is_told_from_its_opposite() -> None:
    """A website monitor's list (changedetection.io): each row has "Pause checks" / "UnPause checks" (one of
    the two shown), "Mute notification" and "Recheck". The verb picks the control of the named row."""
    row = "Wiggle road bikes"
    (cmd, params), = steps(plan("please suspend the Wiggle road bikes watch", screen(WATCHES)))
    assert (cmd, params["text"], params["row"].startswith(row), "index" in params) == \
        ("click_element", "Pause checks", True, False)   # "Pause checks" is not in "UnPause checks"
    (cmd, params), = steps(plan("restart checking for the nginx changelog", screen(WATCHES)))   # it is paused
    assert params["text"] == "UnPause checks" and "nginx changelog" in params["row"]
    (cmd, params), = steps(plan("recheck PostgreSQL news", screen(WATCHES)))   # a verb only the page knows
    assert params["text"] == "Recheck" and "PostgreSQL news" in params["row"]
    assert not plan("frobnicate PostgreSQL news", screen(WATCHES)).feasible
    # "edit X" keeps its own intent: the row's Edit control (not the "Watch" button that adds one), then its form
    assert steps(plan("edit the PostgreSQL news watch", screen(WATCHES))) == [
        ("click_element", {"text": "Edit", "role": "link",
                           "row": "PostgreSQL news Software releases"}),
        ("wait_for_element", {"text": "PostgreSQL news", "role": "textbox", "present": True})]


def test_a_row_with_no_delete_of_its_own_is_deleted_from_its_edit_page_and_proved_by_its_own_name() -> None:
    """A watch's row has Edit but no Delete (the delete is on its edit page). The proof that it went is the
    name its row shows, the kind said after it dropped; a group the page names elsewhere is never a watch's tag."""
    for task, shown in (("get rid of the PostgreSQL news watch", "PostgreSQL news"),
                        ("remove the Our shop homepage monitor", "Our shop homepage")):
        p = plan(task, screen(WATCHES))
        (cmd, params), = steps(p)
        assert (cmd, params["text"], shown in params["row"]) == ("click_element", "Edit", True), task
        assert p.pending == ["click delete", f'if asked confirm the deletion of the row "{shown}"'], task
    # "Suppliers" is a group (its filter link), shown in a watch's row only as that watch's tag
    p = plan("delete the Suppliers group", screen(WATCHES))
    assert not [s for s in p.steps if s.params.get("text") == "Edit"]


def test_a_search_is_typed_in_a_search_box_never_in_a_box_that_adds() -> None:
    # the one box of the list adds a watch by its URL; the search box is behind the "Search" button
    p = plan("look up shimano", screen(WATCHES))
    assert steps(p) == [("click_element", {"text": "Search, or Use Alt+S Key", "role": "button"})]
    assert p.pending == ["look up shimano"]
    # "search the whole bookmark list for lentils": the term is what comes after "for"
    from server.planners.intents_search import search_intent
    from server.planners.language import read_clause
    from server.planners.state import State
    from tests.unit.test_screen_planning import ctx_for
    form = screen(HOME)
    st = State(ctx_for(form), None, form)
    assert search_intent(read_clause("search the whole bookmark list for lentils"), st)
    assert st.steps[0].params["text"] == "lentils"


def test_rename_types_over_the_field_that_holds_the_old_name() -> None:
    # from the list: the row's Edit control, then the same clause on the form
    p = plan("rename the Serious Eats bookmark to Serious Eats recipes", screen(BOOKMARKS))
    assert steps(p)[0][1]["text"] == "Edit Record" and p.pending == [
        "rename the Serious Eats bookmark to Serious Eats recipes"]
    # on the form of bookmark 2 its title holds "Flask tutorial": that field, then saved, then checked after
    p = plan("rename Flask tutorial to Flask guide", screen("buku/bookmark/edit/?id=2"))
    assert steps(p) == [("input_text", {"text": "Flask guide", "field": "Title", "clear": True}),
                        ("click_element", {"text": "Save", "role": "button"})]
    assert p.pending == [saved_clause("Flask guide")]
    # a bookmark's title links to its site: never the way to the record
    from server.planners import records
    from server.planners.state import State
    from tests.unit.test_screen_planning import ctx_for

    listed = screen(BOOKMARKS)
    link = records.record_link(State(ctx_for(listed), None, listed), "Real Python")
    assert link is None or "realpython.com" not in link.live.href


def test_a_view_of_the_list_with_its_count_and_a_record_s_own_page_in_its_row() -> None:
    # "Unread 2" is the list's view of what has unread changes
    assert steps(plan("only show watches that have unread changes", screen(WATCHES))) == [
        ("click_element", {"text": "Unread 2", "role": "link"})]
    # a row's History / Preview wait for a hover: this row's, then the page shows the record
    got = steps(plan("take me to the history of the Python downloads watch", screen(WATCHES)))
    assert got[0][1]["text"] == "History" and "Python downloads" in got[0][1]["row"]
    assert got[1] == ("wait_for_element", {"text": "Python downloads", "present": True})
    got = steps(plan("open PostgreSQL news's preview", screen(WATCHES)))
    assert got[0][1]["text"] == "Preview" and "PostgreSQL news" in got[0][1]["row"]


def test_a_word_said_as_a_verb_adds_only_a_kind_the_screen_lists_and_a_named_kind_is_renamed_on_its_list() -> None:
    # the Bookmarks list with its Create: "bookmark X" adds one; on Trac's start page "print" is no kind of record
    assert plan("bookmark https://example.org/tea as Tea", screen(BOOKMARKS)).feasible
    refused = plan("print the milestone list on the office printer", screen("trac/"))
    assert not refused.feasible and not refused.steps
    # "the recipes tag": the list of tags first, not a bookmark that carries the tag
    assert steps(plan("rename the recipes tag to food", screen(BOOKMARKS))) == [
        ("click_element", {"text": "Tags", "role": "link"})]


CUSTOMER = "django_admin/admin/store/customer/1/change/"
CUSTOMERS = "django_admin/admin/store/customer/"
ADMIN_HOME = "django_admin/admin/"


def test_a_change_to_a_record_s_form_is_saved_unless_the_task_goes_on_editing_it() -> None:
    """An existing record's form (its fields hold its values): "change the city to Chicago" means the change is to
    last, so it is saved and the new value checked on the screen the save leads to. The task saves itself, or
    edits more, and it waits; a new record's empty form is only filled."""
    for task in ("change the city to Chicago", "pls update the city to Chicago", "set city = Chicago"):
        p = plan(task, screen(CUSTOMER))
        assert steps(p) == [("input_text", {"text": "Chicago", "field": "City:", "clear": True}),
                            ("click_element", {"text": "Save", "role": "button"})], task
        assert p.pending == [saved_clause("Chicago")], task
    # more edits follow: the first waits for them, and the last one saves
    p = plan("change the city to Chicago, then set the email to c@example.org", screen(CUSTOMER))
    assert [c for c, _ in steps(p)] == ["input_text", "wait_for_element", "input_text", "click_element"]
    assert p.pending == [saved_clause("c@example.org")]
    # the task says to save: it is saved there, and what was typed last is checked after it
    for task in ("change the city to Chicago and save", "set the city to Chicago, then save it"):
        p = plan(task, screen(CUSTOMER))
        assert steps(p)[-1] == ("click_element", {"text": "Save", "role": "button"}), task
        assert p.pending == [saved_clause("Chicago")], task
    # a new record's form is filled, and the field is checked to hold the value
    assert steps(plan("set the title to Bread", screen(NEW_BOOKMARK))) == [
        ("input_text", {"text": "Bread", "field": "Title", "clear": True}),
        ("wait_for_element", {"text": "Bread", "role": "textbox", "present": True})]


def test_it_was_saved_is_checked_like_the_planner_s_own_save_check() -> None:
    listed = screen(CUSTOMERS)
    # the name "it" stood for, quoted while the clause waited for the screen the save led to
    for task in ('check "Emma Schmidt" was saved', 'make sure that "Emma Schmidt" got updated'):
        # (as the record's row shows it: the list's box to select her row is named so too, and proves nothing)
        assert steps(plan(task, listed)) == [("wait_for_element", {"text": "Emma Schmidt", "role": "row",
                                                                   "present": True})], task
    # nothing named, and nothing on the screen says it saved: the tester is asked to say what
    p = plan("verify it was saved", listed)
    assert not p.feasible and "name it" in p.analysis


def test_a_record_the_deletion_proved_gone_is_not_checked_again_as_text() -> None:
    """After a deletion the app's notice may name the record ("The customer "Bob Chen" was deleted"); the
    deletion's own check (its row or link is gone) is the proof the tester's "no longer listed" asks for."""
    p = plan('if asked confirm the deletion of the row "Bob Chen", then check Bob Chen is no longer listed',
             screen(CUSTOMERS))
    assert steps(p) == [("wait_for_element", {"row": "Bob Chen", "present": False})]
    # "he", "she" and "they" refer back like "it" when the clause waits for its screen
    p = plan("delete Bob Chen and check he is gone", screen(CUSTOMERS))
    assert p.pending[-1] == 'check "Bob Chen" is gone'
    # "verify it" after a check is that check; "check she is listed" with no one named before is refused
    assert [c for c, _ in steps(plan("there should be 15 bookmarks in total, verify it", screen(BOOKMARKS)))] == [
        "wait_for_element"]
    p = plan("check she is listed", screen(CUSTOMERS))
    assert not p.feasible and "nothing named before" in p.analysis
    # another name is checked as text
    p = plan('if asked confirm the deletion of the row "Bob Chen", then check Carla Gomez is not shown',
             screen(CUSTOMERS))
    assert steps(p)[-1] == ("wait_for_element", {"text": "Carla Gomez", "present": False})


def test_a_record_named_like_one_that_no_screen_shows_is_looked_for_in_the_app_s_lists() -> None:
    p = plan("open Emma Schmidt", screen(ADMIN_HOME))
    assert p.pending[0].startswith('look through the lists for "Emma Schmidt"') and p.pending[-1] == "open Emma Schmidt"
    # a word that names no record (no capitalised name) is still refused at once
    for task in ("open the billing page", "open Billing"):
        assert not plan(task, screen(ADMIN_HOME)).feasible, task


MEMBER_FORM = "sqlite_web/members/update/WzNd/"   # sqlite-web's row form: each column enabled by its own box


def test_a_field_a_box_enables_is_enabled_first_whatever_the_wording() -> None:
    for task, field, value in (("rename Paula Reyes to Paula Ortiz", "name", "Paula Ortiz"),
                               ("change the email to p@example.org", "email", "p@example.org"),
                               ("Paula Reyes changed her name to Paula Reyes-Ortiz; update the member", "name",
                                "Paula Reyes-Ortiz")):
        p = plan(task, screen(MEMBER_FORM))
        (tick, allow), typed, save = steps(p)
        assert (tick, allow["checked"], typed) == (
            "set_checked", True, ("input_text", {"text": value, "field": field, "clear": True})), task
        assert save == ("click_element", {"text": "Update", "role": "button"}) and p.pending == [saved_clause(value)]


def test_a_record_named_by_its_kind_first_is_renamed_from_its_list_and_else_looked_for() -> None:
    p = plan("rename the member Paula Reyes to Paula Ortiz", screen("sqlite_web/members/content/"))
    (cmd, params), = steps(p)
    assert (cmd, params["text"], "Paula Reyes" in params["row"]) == ("click_element", "Edit", True)
    p = plan("rename Paula Reyes to Paula Ortiz", screen("sqlite_web/"))
    assert p.pending[0].startswith('look through the lists for "Paula Reyes"')


def test_this_one_on_a_record_s_own_form_is_deleted_with_the_page_s_own_control() -> None:
    """"delete this one" on a record's form: the page's Delete (in no row), then its name, read from the form,
    must be gone from the list that follows; not a search of the lists for a record called "one"."""
    for key, control, name in (("buku/bookmark/edit/?id=2", ("Delete", "button"), "Flask tutorial"),
                               (CUSTOMER, ("Delete", "link"), "Alice Martin")):
        for task in ("delete this one", "remove this record", "please delete the current one"):
            p = plan(task, screen(key))
            (cmd, params), = steps(p)
            assert (cmd, params["text"], params["role"]) == ("click_element", *control), (key, task)
            assert p.pending == [f'if asked confirm the deletion of the row "{name}"'], (key, task)
    # a list shows no one record: "this one" is not read there
    p = plan("delete this one", screen(CUSTOMERS))
    assert not [s for s in p.steps if s.params.get("text") == "Delete"]


def test_a_record_added_through_a_form_of_its_own_page_is_counted_when_its_list_shows_its_name_already() -> None:
    # Django's customer list shows Bob Chen: after the save comes back to it, seeing the name proves nothing
    p = plan("add a customer named Bob Chen with email bob2@example.com", screen("django_admin/admin/store/customer/"))
    assert steps(p) == [("click_element", {"text": "ADD CUSTOMER", "role": "link"})]
    assert p.pending[-1] == 'check that "Bob Chen" was saved (1 in "#result_list > tbody > tr > th" before)'
    p = plan("add a new customer Zed Park", screen("django_admin/admin/store/customer/"))
    assert p.pending[-1] == 'check that "Zed Park" was saved'


def test_a_name_the_list_shows_already_with_no_column_to_count_it_in_is_refused() -> None:
    from tests.unit.test_record_planning import customer_list
    from tests.unit.test_screen_planning import ctx_for

    p = BuiltinPlanner().plan(PlanRequest("add a customer called David Okafor from Paris", ctx_for(customer_list())))
    assert not p.feasible and "shown already" in p.analysis


def test_a_save_the_app_announces_by_name_is_checked_by_its_notice() -> None:
    from shared.screen import ScreenObservation

    after = ScreenObservation("web", "http://x/admin/store/customer/", "Select customer to change", (
        UIElement("text", text="The customer “Bob Chen” was added successfully."),
        UIElement("link", name="Bob Chen", container="Bob Chen bob@example.com"),
        UIElement("link", name="Bob Chen", container="Bob Chen bob2@example.com")))
    got = steps(plan('check that "Bob Chen" was saved', after))
    assert len(got) == 1 and got[0][1].get("text") == "The customer “Bob Chen” was added successfully."
