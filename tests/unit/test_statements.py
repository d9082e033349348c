"""Statements about a record, checked in its row, and other wordings of the corpus's second batch' dev half
(written before the planner was run on it): "the electricity bill was paid by Dan", "Lavender needs full
sun", "get rid of the plumber todo", "look up the customers from Lyon", "I'd like to see the rows of books".

The wordings here are variations, not the corpus's own: what is tested is the rule, on the apps' real
captured screens.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

BILLS = "ihatemoney/flatshare/"
PLANTS = "datasette/nursery/plants"
BOOKS = "sqlite_web/books/content/"
RENT_ROW = "Rent"


def _cell(col: int, row: int) -> str:
    return f"#bill_table > tbody > tr:nth-of-type({row}) > td:nth-of-type({col})"


def test_a_statement_checks_its_names_in_the_row_of_its_record() -> None:
    bills = screen(BILLS)
    # the verb is the tester's own ("needs", "was paid by", "is a … book"): only what cells show is checked
    assert steps(plan("check that Lavender needs full sun", screen(PLANTS))) == [
        ("wait_for_element", {"text": "full sun", "row": "Lavender", "present": True})]
    assert steps(plan("confirm Beloved is a literary novel", screen(BOOKS))) == [
        ("wait_for_element", {"text": "literary", "row": "Beloved", "present": True})]
    # a number is compared as a number, and checked as the row shows it
    assert steps(plan("make sure the rent comes to 1200", bills)) == [
        ("wait_for_element", {"text": "1,200.00", "row": RENT_ROW, "present": True})]


def test_a_word_naming_a_column_checks_that_column() -> None:
    bills = screen(BILLS)
    # "paid" names the column "Who paid?": Dan must be there, not merely somewhere in the row
    assert steps(plan("verify that Dan paid the electricity", bills)) == [
        ("wait_for_element", {"text": "Dan", "selector": _cell(2, 2), "present": True})]
    # Bob is among those the pizza was for, but Chloe paid: the check reads the payer's cell, so it fails
    got = steps(plan("check that the pizza night was paid by Bob", bills))
    assert got == [("wait_for_element", {"text": "Bob", "selector": _cell(2, 3), "present": True})]


def test_a_false_statement_is_checked_where_it_would_be_true_so_it_fails() -> None:
    # the value is in no cell of the row: checked in that row all the same (the run fails, it is not refused)
    assert steps(plan("verify the rent amount is 950", screen(BILLS))) == [
        ("wait_for_element", {"text": "950", "row": RENT_ROW, "present": True})]
    assert steps(plan("check that Beloved is a thriller", screen(BOOKS)))[0][1]["text"] == "thriller"


def test_what_a_statement_does_not_cover_is_left_to_the_other_checks() -> None:
    bills = screen(BILLS)
    # presence, counts and negations are other checks
    assert steps(plan("check that Groceries is listed", bills)) == [
        ("wait_for_element", {"text": "Groceries", "present": True})]
    assert "row" not in steps(plan("check there are 9 plants", screen(PLANTS)))[-1][1]
    # "shown among …" says where the record is shown (a false pass when read as its row not showing "bills")
    among = plan("verify that Rent is not shown among the bills", bills)
    assert not among.feasible or all("row" not in s.params for s in among.steps)
    # a negation: the record is listed, and the cell where the value would be does not show it
    assert steps(plan("check that the rent was not paid by Alice", bills)) == [
        ("wait_for_element", {"text": "rent", "row": RENT_ROW, "present": True}),
        ("wait_for_element", {"text": "Alice", "selector": _cell(2, 5), "present": False})]


def test_a_statement_about_a_record_on_no_screen_looks_for_it_in_the_lists() -> None:
    p = plan("check that Rosemary needs full sun", screen("datasette/"))
    assert steps(p) == [("click_element", {"text": "plants", "role": "link"})]
    assert p.pending[-1] == "check that Rosemary needs full sun"


def test_a_row_named_by_some_of_its_words_and_a_word_of_kind() -> None:
    todos = screen("todomvc/index.html#/")
    p = plan("remove the plumber todo", todos)
    assert steps(p)[0] == ("click_element", {"text": "destroy", "role": "button", "row": "Call the plumber"})
    assert p.pending == ['if asked confirm the deletion of the row "Call the plumber"']
    # a word no row shows is dropped only when lowercase, and the words left must pick one row alone
    assert not plan("delete the Plumber Todo", todos).feasible


def test_a_search_that_names_its_list_opens_the_list_first() -> None:
    p = plan("look up the customers in Lyon", screen("django_admin/admin/"))
    assert steps(p) == [("click_element", {"text": "Customers", "role": "link"})]
    assert p.pending == ['search for "Lyon"']
    on_list = steps(plan("search Berlin among the customers", screen("django_admin/admin/store/customer/")))
    assert on_list[0][0] == "input_text" and on_list[0][1]["text"] == "Berlin"


def test_a_wish_to_see_something_shows_it() -> None:
    home = screen("sqlite_web/")
    assert steps(plan("I'd like to see the members table", home))[0] == \
        ("click_element", {"text": "members", "role": "link"})
    assert steps(plan("let me see the members", home))[0] == ("click_element", {"text": "members", "role": "link"})
    # "I want to see that X is …" stays a check
    assert steps(plan("I want to see that books is listed", home))[0][0] == "wait_for_element"


def test_an_edit_link_opens_a_form_whose_field_shows_the_record() -> None:
    got = steps(plan("edit the groceries", screen(BILLS)))
    assert got[0][1]["text"] == "edit" and got[0][1]["row"] == "Groceries"
    assert got[-1] == ("wait_for_element", {"text": "Groceries", "role": "textbox", "present": True})


def test_a_fact_told_as_news_is_the_record_to_add_or_the_edit_to_make() -> None:
    from server.planners.restating import restate

    assert restate("Could you record that Dan paid 9.99 for the cinema popcorn?") == \
        "add an expense 'cinema popcorn' of 9.99 paid by Dan"
    assert restate("Alice spent 20 on flowers, please log it") == "add an expense 'flowers' of 20 paid by Alice"
    assert restate("check that Alice paid 20 for flowers") == "check that Alice paid 20 for flowers"   # a check
    assert restate("the Stapler now costs 13, fix it") == "set the price of the Stapler to 13"
    assert restate("the groceries were paid by Bob") == "the groceries were paid by Bob"   # no request: a fact
    assert restate("add a new client, Ivy Nguyen, to the shop") == "add a client called Ivy Nguyen"


def test_an_expense_paid_by_someone_fills_the_payer_and_the_amount() -> None:
    p = plan("Could you record that Dan paid 9.99 for the cinema popcorn?", screen(BILLS))
    assert steps(p) == [("click_element", {"text": "Add a new bill", "role": "link"})]   # an expense is a bill
    form = steps(plan("add an expense 'cinema popcorn' of 9.99 paid by Dan", screen("ihatemoney/flatshare/add")))
    assert ("select_option", {"option": "Dan", "field": "Who paid?"}) in form
    assert ("input_text", {"text": "9.99", "field": "How much?", "clear": True}) in form


def test_a_channel_named_in_what_is_added_is_text() -> None:
    got = steps(plan("report a bug: no sound on channel 4", screen("trac/newticket")))
    assert got[0] == ("input_text", {"text": "no sound on channel 4", "field": "Summary:", "clear": True})


def test_a_statement_about_a_numbered_record_is_read_on_its_page() -> None:
    ticket = screen("trac/ticket/1")
    box = "#ticketbox > table > tbody > tr:nth-of-type({}) > td:nth-of-type({})"
    assert steps(plan("verify ticket 1 has minor priority", ticket)) == [
        ("wait_for_element", {"text": "minor", "selector": box.format(2, 1), "present": True})]
    assert steps(plan("check that ticket 1 belongs to the guide component", ticket)) == [
        ("wait_for_element", {"text": "guide", "selector": box.format(3, 1), "present": True})]
    assert steps(plan("ticket 1 must not be in milestone beta", ticket)) == [
        ("wait_for_element", {"text": "beta", "selector": box.format(2, 2), "present": False})]
    # from the start page: the ticket first, then the statement on its page
    p = plan("verify ticket 1 has minor priority", screen("trac/"))
    assert p.pending == ["verify ticket 1 has minor priority"]


def test_news_then_a_request_about_it() -> None:
    from server.planners.restating import restate

    assert restate("I paid the rent, tick it off") == "tick the rent off"
    assert restate("we finished the report, so delete it") == "delete the report"
    assert restate("I want the milk, add it") == "I want the milk, add it"       # a wish is no news
    assert restate("add these todos: wash car, call mom and feed cat") == \
        'add "wash car", then add "call mom", then add "feed cat"'
    assert restate("verify that pay rent is still open") == "verify that pay rent is open"
    assert restate("switch to channel 4 and check it's Kids Planet") == \
        "switch to channel 4 and check that Kids Planet"
    assert restate("check it's on") == "check it's on"   # no name after it: left as said


def test_a_record_then_its_field() -> None:
    got = plan("update the groceries amount to 45", screen(BILLS))
    assert steps(got)[0][1]["text"] == "edit" and steps(got)[0][1]["row"] == "Groceries"
    assert got.pending[0] == 'fill in amount "45"'


def test_a_field_name_before_the_value_is_not_the_value() -> None:
    from server.planners.records import parse_record

    rec = parse_record("a new member: name Tara Singh, email tara@example.org")
    assert rec.name == "Tara Singh" and rec.fields == [("email", "tara@example.org")]
    assert parse_record("a product called Name Tag").name == "Name Tag"


def test_a_yes_no_column_named_by_the_statement() -> None:
    books = screen(BOOKS)
    cell = "#content > div > form > div:nth-of-type(1) > table > tbody > tr:nth-of-type(3) > td:nth-of-type(7)"
    # "available" was read as "is shown" (a false pass on a row that says 0); it names the column
    assert steps(plan("check that The Hobbit is marked as available", books)) == [
        ("wait_for_element", {"text": "1", "selector": cell, "present": True})]
    assert steps(plan("verify The Hobbit isn't available", books)) == [
        ("wait_for_element", {"text": "0", "selector": cell, "present": True})]


def test_a_kind_no_list_is_called_is_not_added_to_the_first_list() -> None:
    # Customers, Groups, Products and Users each have an Add: "a toy" is none of them, and guessing the first
    # made a record of another kind whose own check then passed
    p = plan("add a toy called Red Kite", screen("django_admin/admin/"))
    assert not p.feasible and "say which" in p.analysis and "Products" in p.analysis
    assert steps(plan("add a product called Red Kite", screen("django_admin/admin/")))[0][1]["row"] == \
        "Products"


def test_what_is_told_first_names_what_the_request_refers_to() -> None:
    from server.planners.restating import restate

    # "it", "her", "that issue" in the request: the thing the first sentence is about, and that sentence no step
    assert restate("Emma moved in this week. Add her as a participant") == "Add Emma as a participant"
    assert restate("Sam Lee cancelled his membership, remove him from the members table") == \
        "remove Sam Lee from the members table"
    assert restate("The Hobbit came back today, so mark it as available again") == "mark The Hobbit as available"
    assert restate("nobody owns the crash when uploading a big photo yet - assign it to bob") == \
        "assign the crash when uploading a big photo to bob"
    # another thing named after the verb could be "it": left whole, never guessed ("delete Alice" for her bill)
    for task in ("Alice paid for the Cinema tickets, delete them", "Alice paid the pizza night bill twice, delete it",
                 "Issue 3 (CSV export) also has a security angle. Add the security keyword to it"):
        assert restate(task) == task
    assert restate("The Leeds roadworks watch only shows its URL. Give it the title Leeds roadworks") == \
        "set the title of The Leeds roadworks watch to Leeds roadworks"
    # a reason told first, where the request names the thing itself
    assert restate("Dan wants his full name shown, rename the participant Dan to Daniel") == \
        "rename the participant Dan to Daniel"
    # a first sentence with a value of its own, said by the tester of the tester, or a check asked: left whole
    for task, kept in (("Omar Farouk has a new email adress, omar.f@example.net - could you update his member record?",
                        "omar.f@example.net"),
                       ("We're finished with the printer for today, please disconnect it.", "disconnect it"),
                       ("there should be exactly 4 bookmarks tagged docs, can you confirm?", "4 bookmarks")):
        assert kept in restate(task)
