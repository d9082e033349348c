"""Matching checks against a ScreenObservation: words, roles, rows, states, counts, and which page it is."""
from __future__ import annotations

import pytest

from backend_core.verifications.element import evaluate_check
from backend_core.verifications.matching import ElementQuery, page_names, state_holds, words_in
from shared.errors import RequestError
from shared.screen import ScreenObservation, UIElement

OBS = ScreenObservation("web", "http://app.test/docs/library/urllib.html?q=urllib#top", "Python: urllib", (
    UIElement("link", name="Classes", href="classes.html"),
    UIElement("tab", name="Functions", selected=True),
    UIElement("tab", name="Builtins", selected=False),
    UIElement("heading", name="urllib — URL handling modules", level=1),
    UIElement("heading", name="Deprecated helpers", level=4),
    UIElement("textbox", name="Search", value="urllib"),
    UIElement("listitem", text="buy milk"),
    UIElement("checkbox", container="buy milk", checked=True),
    UIElement("button", hint="destroy", container="buy milk", hidden=True),
    UIElement("listitem", text="walk the dog"),
    UIElement("checkbox", container="walk the dog", checked=False),
    UIElement("button", name="Save", disabled=True),
))


def test_whole_words_case_insensitive() -> None:
    assert words_in("milk", "Buy MILK") and not words_in("mil", "buy milk")
    assert words_in("wi-fi", "Wi-Fi calling") and not words_in("cat", "category")
    assert not words_in("", "anything")


def test_queries_by_text_role_row_and_state() -> None:
    # what a text field holds is shown only when the check asks for the field: "urllib is shown" must not pass
    # on the search box the plan typed it into
    assert [e.role for e in ElementQuery(text="urllib").matches(OBS.elements)] == ["heading"]
    assert ElementQuery(text="urllib", role="textbox").matches(OBS.elements)[0].value == "urllib"
    assert ElementQuery(text="urllib — URL handling modules", exact=True).matches(OBS.elements)
    assert not ElementQuery(text="urllib", exact=True, role="heading").matches(OBS.elements)
    boxes = ElementQuery(role="checkbox", row="buy milk", state="checked").matches(OBS.elements)
    assert len(boxes) == 1 and boxes[0].container == "buy milk"
    assert not ElementQuery(role="checkbox", row="walk the dog", state="checked").matches(OBS.elements)
    # a row's hover-only tool is the row's all the same ("Dan's row has no deactivate button" must see it)
    assert [e.hint for e in ElementQuery(role="button", row="buy milk").matches(OBS.elements)] == ["destroy"]
    assert not [e for e in ElementQuery(role="button").matches(OBS.elements) if e.hidden]   # not shown on its own
    assert len(ElementQuery(role="listitem").matches(OBS.elements)) == 2
    assert ElementQuery(text="Save", state="disabled").matches(OBS.elements)
    assert ElementQuery(row="walk the dog").matches(OBS.elements)[0].text == "walk the dog"
    with pytest.raises(RequestError):
        state_holds(OBS.elements[0], "blinking")


def test_present_and_count() -> None:
    two = ElementQuery(role="listitem").matches(OBS.elements)
    assert evaluate_check(two, True, -1) and not evaluate_check(two, False, -1)
    assert evaluate_check(two, True, 2) and not evaluate_check(two, True, 3)
    assert evaluate_check(two, False, 3)  # "not exactly 3"
    assert evaluate_check([], False, -1) and evaluate_check([], True, 0)


def test_which_page_this_is() -> None:
    assert page_names(OBS, "urllib").startswith("title")
    assert page_names(OBS, "URL handling").startswith("heading")
    assert page_names(OBS, "functions") == "current tab 'Functions'"
    assert page_names(OBS, "library") == "URL http://app.test/docs/library/urllib.html?q=urllib#top"
    assert page_names(OBS, "Classes") == ""      # only a link
    assert page_names(OBS, "Builtins") == ""     # a tab, not the selected one
    assert page_names(OBS, "Deprecated") == ""   # an h4 is not the page's name


def test_a_link_names_the_page_only_when_it_is_current_or_leads_here() -> None:
    obs = ScreenObservation("web", "http://app.test/admin/members/", "SQLite Web: live.sqlite3", (
        UIElement("link", name="Structure", href="/admin/members/", hint="nav link"),
        UIElement("link", name="Content", href="/admin/members/content/", hint="nav link"),
        UIElement("link", name="Query", href="/admin/members/query/", hint="nav link active"),
        UIElement("link", name="Shop administration", href="../"),
        UIElement("link", name="Top", href="#top"),
    ))
    assert page_names(obs, "Structure") == "link 'Structure' leads to this page"
    assert page_names(obs, "Query") == "current link 'Query'"          # the app marks it active
    assert page_names(obs, "Content") == ""                           # another page
    assert page_names(obs, "Shop administration") == ""               # leads up, not here
    assert page_names(obs, "Top") == ""                               # an anchor leads nowhere


def test_a_url_names_a_page_by_a_whole_segment_or_query_value() -> None:
    def named(url: str, name: str) -> str:
        return page_names(ScreenObservation("web", url, "", ()), name)

    assert named("http://docs.test/json.html", "json") and named("http://docs.test/search?key=urllib", "urllib")
    assert named("http://docs.test/topic?key=CLASSES", "classes")
    assert named("http://app.test/todo.html#/completed", "completed")   # a client-side route
    assert not named("http://docs.test/_json.html", "json")          # another module, named alike
    assert not named("http://docs.test/topic?key=FUNCTIONS", "classes")


def test_a_row_of_a_card_that_holds_every_row_is_not_in_another_row() -> None:
    """A data grid inside a card (Quasar's q-table): each row's container is the card, whose text holds every
    row. "Maya in the Monday row" passed on Maya's own Wednesday row, because its container held the Monday row's
    words; a row is in the row its own text names."""
    card = "Day Person Mon Omar Wed Maya"
    mon = UIElement("row", text="Mon Omar", container=card)
    wed = UIElement("row", text="Wed Maya", container=card)
    cells = [UIElement("cell", "Mon", container="Mon Omar"), UIElement("cell", "Omar", container="Mon Omar"),
             UIElement("cell", "Wed", container="Wed Maya"), UIElement("cell", "Maya", container="Wed Maya")]
    elements = [mon, *cells[:2], wed, *cells[2:]]
    assert ElementQuery("Maya", "", "Mon Omar", "", False, "").candidates(elements) == []
    assert ElementQuery("Omar", "", "Mon Omar", "", False, "").candidates(elements) == [mon, cells[1]]
    assert ElementQuery("", "", "Wed Maya", "", False, "").candidates(elements) == [wed, cells[2], cells[3]]


def test_words_joined_by_a_hyphen_are_the_same_words() -> None:
    from backend_core.verifications.matching import words_in

    # "in progress" is the status "in-progress"; still whole words only, and an underscore or a minus never joins
    assert words_in("in progress", "in-progress") and words_in("in-progress", "in progress")
    assert not words_in("batch_size", "max_batch_size 1000") and not words_in("batch size", "batch_size 500")
    assert not words_in("-20.00 EUR", "Alice: 20.00 EUR")
    assert not words_in("in progress", "progressive") and not words_in("cat", "category")
