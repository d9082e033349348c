"""Intents that narrow or order a web app's list: filters ("show only toys", "out of stock") and sorts."""
from __future__ import annotations

import re

from server.planners import checks, grounding, intents_statement, records
from server.planners.filter_builder import OPERATORS, Condition, condition_filter, flag_condition, named_column
from server.planners.language import ITEM_NOUNS, Act, Clause, quoted, words
from server.planners.list_search import go_to_list, on_list_of, open_contents
from server.planners.sorting import ANY, SortAsk, direction_in, parse_sort
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.models import PlanStep
from shared.screen import ROLE_BUTTON, ROLE_CHECKBOX, ROLE_COMBOBOX, ROLE_LINK, ROLE_TEXTBOX



# a state said in other words than the list's views: "still open" is its Active view, "finished" its Completed one
_OPEN_VIEWS = ("Active", "Open", "Pending", "Incomplete", "To do", "Todo")
_DONE_VIEWS = ("Completed", "Done", "Finished", "Closed")
_STATE_VIEWS = {**dict.fromkeys(("open", "active", "unfinished", "incomplete", "not done", "not completed", "pending",
                                 "outstanding", "remaining", "left", "to do", "undone"), _OPEN_VIEWS),
                **dict.fromkeys(("done", "finished", "complete", "completed", "ticked", "checked", "crossed off",
                                 "closed"), _DONE_VIEWS)}

def filter_intent(c: Clause, st: State) -> bool:
    """"filter products by category Garden": open the list, then choose the filter that names the value."""
    if c.act is not Act.FILTER or st.live is None:
        return False
    rest = re.sub(r"\s+(?:in|on|from)\s+(?:the\s+)?(?P<n>\w+)\s+(?:list|table|page)$", "", c.rest.strip(), flags=re.I)
    if re.match(r"^(?:out|away)\b", rest, re.I) or re.search(r"\bfilter\s+out\b", c.text, re.I):
        raise Unplannable(f"I cannot tell how to leave out {rest!r}: say what to show instead", rest)
    flagged_tail = re.match(rf"^(?:(?:the\s+)?(?P<noun>[\w ]+?)\s+(?:that\s+are\s+|which\s+are\s+)?)?(?P<v>{records.FLAG_PHRASES})$",
                            rest, re.I)   # "products in stock": the flag whole, never "in" and "stock"
    m = flagged_tail or re.match(r"^(?:(?:the\s+)?(?P<noun>[\w ]+?)\s+)?(?:by|on|with|to|for|where)\s+(?:the\s+)?(?P<v>.+)$", rest, re.I) \
        or re.match(r"^(?:the\s+)?(?P<noun>\w+)\s+(?:that are|which are|that have|in|from|of)\s+(?:the\s+)?(?P<v>.+?)"
                    r"(?:\s+(?:category|genre|group|type|status|kind|section))?$", rest, re.I) \
        or re.match(r"^(?P<noun>)(?P<v>.+)$", rest)
    if not m:
        return False
    noun, value = (m.group("noun") or "").strip(), m.group("v").strip()
    value = re.sub(r"^(?:the|all|my|only|just)\s+(?:the\s+)?(?=\w)", "", value, flags=re.I)   # "only the active todos"
    value = re.sub(r"(?<=\w)\s+only$", "", value, flags=re.I)   # "electric ones only"
    # "completed todos", "the active ones": the state is the filter, the noun is what the list holds
    value = re.sub(r"(?<=\w)\s+(\w+)$", lambda m: "" if m.group(1).lower() in ITEM_NOUNS else m.group(0), value)
    flagged = re.match(rf"^(?P<flag>{records.FLAG_PHRASES})\s+(?P<noun>\w+)$", value, re.I)   # "inactive customers"
    if flagged and not noun and flagged.group("noun").islower() \
            and flagged.group("noun") not in ("yes", "no", "all", "true", "false", "only"):
        noun, value = flagged.group("noun"), flagged.group("flag")
    list_noun = re.search(r"\b(?:in|on|from)\s+(?:the\s+)?(\w+)\s+(?:list|table|page)$", c.rest.strip(), re.I)
    if not noun and list_noun:
        noun = list_noun.group(1)
    if noun and records.entity_link(st, noun) is not None and not on_list_of(st, noun):
        return go_to_list(st, noun, [c.text])
    said = value.split()
    for n in (2, 1):   # "just the plants that need full sun" from the home page: the list of plants first
        kind = " ".join(said[:n])
        if not noun and len(said) > n and kind.islower() and kind.endswith("s") and not set(words(kind)) & _LINKING \
                and records.entity_link(st, kind) is not None and not on_list_of(st, kind):
            return go_to_list(st, kind, [c.text])
    return narrow_to(st, narrowed_value(st, value) or value)


# what a value said after the kind of thing listed is joined by, never itself a value: "the plants that need full
# sun", "the bookmarks tagged video", "tickets with priority high"
_PLACE_WORDS = {"page", "screen", "tab", "list", "menu", "section", "table", "view", "window", "dialog", "sidebar"}


_GENERIC = {"row", "rows", "record", "records", "entry", "entries", "item", "items", "details", "data", "page", "line"}
# words between a kind and a value that make the value no equality ("don't need", "other than", "over")
_NOT_EQUAL = {"not", "no", "t", "don", "doesn", "isn", "aren", "without", "except", "other", "than", "over", "under",
              "above", "below", "least", "most", "more", "less", "before", "after", "between", "out", "excluding"}
_ACTION_WORDS = {"drop", "delete", "remove", "clear", "stop", "restart", "move", "edit", "archive", "disable",
                 "enable", "kill", "reset", "empty", "purge", "destroy", "rename", "close", "logout", "log", "start",
                 "pause", "resume", "run", "cancel", "approve", "reject", "send", "unsubscribe"}
_LINKING = {"of", "for", "the", "a", "an", "in", "on", "with", "that", "which", "who", "by", "from", "to"}


def narrowed_value(st: State, subject: str) -> str:
    """"plants that need full sun" → "full sun": the kind the list shown lists (its first word or two), a few
    linking words, then a value the list shows as a whole cell of one column, or as a link, button or option
    of its own (the longest such tail). "" when the words name no list shown or no such value follows."""
    if st.live is None:
        return ""
    tokens = re.sub(r"^(?:me\s+)?(?:(?:all|only|just)\s+)?(?:of\s+)?(?:the\s+)?", "", subject.strip(),
                    flags=re.I).split()
    for n in (2, 1):
        noun = " ".join(tokens[:n])
        if len(tokens) <= n + 1 or not noun.islower() or not on_list_of(st, noun) \
                or tokens[n].lower() in ("of", "for", "'s") or set(words(noun)) & (_GENERIC | _LINKING):
            continue   # "the row of the plant Basil", "the details for Basil": one record's, no narrowing
        for k in range(n + 1, len(tokens)):   # at least one linking word between the kind and its value
            if set(words(" ".join(tokens[n:k]))) & _NOT_EQUAL:
                break   # "the plants that don't need full sun", "over 90": no equality to narrow to
            if not tokens[k - 1].islower():
                break   # "the page about Async Commands": a name is said whole, never its last word as the value
            value = " ".join(tokens[k:]).strip(".,;:!?\"'“”")
            if not value or value.split()[-1].lower() in _PLACE_WORDS or \
                    words(value) in (words(h) for h in intents_statement.headers(st)):
                continue   # a place, or a column ("sorted by name"): no value to narrow to
            cell, _ = intents_statement.value_and_header(st, value)   # "Lamiaceae family": a value, its column
            if cell:
                return cell
            said = words(value)
            if any(words(o) == said for e in st.live.elements if e.role == ROLE_COMBOBOX for o in e.options) or any(
                    e.role == ROLE_LINK and not e.hidden and words(e.name or e.text) == said
                    and "header-row" not in e.hint.split()   # a column's header sorts: no value
                    and not set(said) & _ACTION_WORDS   # "Drop", "Delete Record": an action, never a value
                    for e in st.live.elements):
                return value
    return ""


def narrow_to(st: State, value: str) -> bool:
    """Narrow the list shown to *value*: a filter row, a yes/no filter group, a link, button or option that names
    it, a counted view, a filter field, a box, or a dropdown of its column. Put off until the screen a step
    before leads to; else refused."""
    assert st.live is not None
    if condition_filter(st, value):   # "family is Lamiaceae": a column / operator / value filter row
        return True
    flag = flag_condition(st, f"{value} rows") if len(value.split()) == 1 else None
    if flag is not None and condition_filter(st, flag):   # "the indoor ones": a yes/no column, filtered on yes
        return True
    header = intents_statement.header_of_value(st, value)
    if header and condition_filter(st, Condition(header, OPERATORS[-1], value)):   # "full sun": the light column
        return True
    headers = {e.name or e.text for e in st.live.elements if "header-row" in e.hint.split()}
    flag = records.FLAGS.get(value.lower())
    if flag is not None and _boolean_filter(st, *flag, headers):
        return True
    if _group_choice(st, value, headers):   # "In stock Yes": the filter group named, then its choice
        return True
    words_v = value.split()
    phrases = [value]
    if len(words_v) >= 2 and grounding.live_elements(words_v[0], st.live, minimum=0.8):
        phrases.append(" ".join(words_v[1:]))   # "category Garden": a filter group, then its value
    state = re.sub(r"^(?:still|not\s+yet|yet\s+to\s+be)\s+", "", value.strip().lower())
    phrases += list(_STATE_VIEWS.get(state, ()))   # "the todos that are still open": the view of the active ones
    grouped = re.sub(r"\s+(?:group|tag|category|label|folder|section|project|view|filter)$", "", value, flags=re.I)
    if grouped != value:
        phrases.append(grouped)   # "the Software releases group": the view named Software releases
    columns = {tuple(words(h)) for h in intents_statement.headers(st)} | {
        tuple(words(o)) for e in st.live.elements if e.role == ROLE_COMBOBOX for o in e.options}
    for phrase in phrases:
        found = [t for t in grounding.live_elements(phrase, st.live, roles=frozenset({ROLE_LINK, ROLE_BUTTON}),
                                                    minimum=0.9)
                 if (t.live.container not in headers or not t.live.container)   # a column header sorts, not filters
                 and tuple(words(t.label)) not in columns   # a column's name ("indoor", a facet's link): no value
                 # a row's action ("Stop" for "stopped") never filters; a link in a row only by its very words
                 and not set(words(t.label)) & _ACTION_WORDS
                 and (not t.live.container or words(t.label) == words(phrase))
                 and not records._leads_here(st.live.url, t.live.href)]   # the list's own link shows it unfiltered
        if found:
            st.click_live(found[0], f"Filter by {found[0].label!r}")
            st.expect_check(None)
            return True
        opts = [o for o in grounding.options(phrase, st.live, minimum=0.9)
                if tuple(words(o.option)) not in columns]   # a column's name is no value to filter on
        if opts:
            el = opts[0].live
            st.add(V.SELECT_OPTION, {"option": opts[0].option, "field": el.name or el.hint},
                   f"Filter by {opts[0].option!r}")
            return True
    view = _counted_view(st, value)
    if view is not None:   # "the watches with unread changes": the "Unread 2" view of the list
        st.click_live(view, f"Show {view.label!r}")
        st.expect_check(None)
        return True
    if _typed_filter(st, value):
        return True
    if _toggle_filter(st, phrases) or _column_dropdown(st, phrases + _without_kind(value)):
        return True
    if st.moved:
        raise Defer(value)
    raise Unplannable(f"no filter {value!r} on the screen", value)


def subset_intent(c: Clause, st: State) -> bool:
    """"show me the Hull vans": nothing is called that, but Hull is a value of the list's Depot column and a
    dropdown labelled Depot picks it (or an "Electric only" box, for "the electric vans")."""
    if c.act is not Act.OPEN or st.live is None:
        return False
    subject = re.sub(r"^(?:me\s+)?(?:the|all|my|only|just)\s+(?:the\s+)?", "", c.rest.strip(), flags=re.I)
    subject = re.sub(r"(?<=\w)\s+only$", "", subject, flags=re.I)
    if grounding.live_elements(subject, st.live, minimum=0.9):
        return False
    narrowed = narrowed_value(st, subject)
    if narrowed:   # "the plants that need full sun", "bookmarks tagged video": the list, narrowed to a value
        try:
            return narrow_to(st, narrowed)
        except Unplannable:
            return False   # no filter of that value here: a search of the list may still find it
    kind_free = _without_kind(subject)
    if not kind_free:
        return False
    # "the admin settings", "the user details": a place the page links to, not a kind of row to narrow to (the
    # tab that is open, "Vehicles", names the rows shown)
    if any(not t.live.selected for t in grounding.live_elements(
            subject.split()[-1], st.live, minimum=0.85, roles=frozenset({ROLE_LINK, ROLE_BUTTON, "tab", "menuitem"}))
           if t.live is not None):
        return False
    return _toggle_filter(st, kind_free) or _column_dropdown(st, kind_free)


_TOGGLE_FILLER = {"only", "just", "show", "the", "with", "all"}
# a box that says the opposite of narrowing to what it names ("Hide electric", "Exclude archived")
_TOGGLE_AGAINST = {"hide", "hidden", "exclude", "excluding", "without", "no", "not", "except", "include", "including"}


def _toggle_filter(st: State, phrases: list[str]) -> bool:
    """"electric ones only" on a list with an "Electric only" checkbox (or switch): tick it, and check it is."""
    assert st.live is not None
    for phrase in phrases:
        want = [w for w in words(phrase) if w not in _TOGGLE_FILLER]
        boxes = [e for e in st.live.elements if e.role in (ROLE_CHECKBOX, "switch") and not e.hidden and not e.disabled
                 and want and not set(words(e.name or e.text)) & _TOGGLE_AGAINST and not records.in_sent_form(st, e)
                 and [w for w in words(e.name or e.text) if w not in _TOGGLE_FILLER] == want]
        if len(boxes) != 1:
            continue
        box = boxes[0]
        label = box.name or box.text
        st.add(V.SET_CHECKED, {"checked": True, "text": label, "role": box.role}, f"Filter by {label!r}")
        st.expect_check(checks.element(st.ctx, text=label, role=box.role, state="checked"))
        return True
    return False


def _without_kind(value: str) -> list[str]:
    """"York vehicles" → ["York"]: the filter's value without the plural that names what the list holds."""
    said = value.split()
    return [" ".join(said[:-1])] if len(said) >= 2 and re.fullmatch(r"[a-z]{3,}s", said[-1]) else []


def _column_dropdown(st: State, phrases: list[str]) -> bool:
    """"the York vehicles" where York is a cell of the Depot column and a dropdown is labelled Depot: choose
    York in it (its options are drawn only when it opens, so they are not known before); then the column must
    show no other value. Never a dropdown of a form that is sent: that sets a record, it filters nothing."""
    assert st.live is not None
    for said in phrases:
        phrase, header = intents_statement.value_and_header(st, said)
        if not header:
            continue
        boxes = [e for e in st.live.elements if e.role == ROLE_COMBOBOX and not e.hidden and not e.disabled
                 and words(e.name) == words(header) and not records.in_sent_form(st, e)
                 and (not e.options or any(words(o) == words(phrase) for o in e.options))]
        if len(boxes) != 1:
            continue
        st.add(V.SELECT_OPTION, {"option": phrase, "field": boxes[0].name}, f"Show only {header} {phrase!r}")
        column = intents_statement.column_cells(st, header)
        other = next((t for t in (column[1] if column else []) if words(phrase) != words(t)
                      and not set(words(phrase)) & set(words(t))), "")
        if column and other:   # a filter the app ignored leaves the other depots listed
            st.expect_check(checks.element(st.ctx, selector=column[0], text=other, present=False,
                                           description=f"Check no {header} {other!r} is listed"))
        else:
            st.expect_check(None)
        return True
    return False


# a year, a month or a date: a value of the list's time filter ("2024", "2024-03", "March 2024", "2024-03-01")
_TIME_SHAPED = re.compile(r"^(?:(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+"
                          r"(?:19|20)\d\d)$", re.I)
_TIME_FIELD = re.compile(r"\b(?:time|date|period|year|when)\b", re.I)


def _typed_filter(st: State, value: str) -> bool:
    """"account Expenses:Food" where a field is named Account, "Uncle Boons" where a box says "Filter by …":
    the value typed into that field, sent, and checked to be what the field holds. Never a field of a form a
    save button sends (a record's, a setting's): a filter is not a change."""
    from server.planners.intents_form import _field, type_into

    if st.live is None:
        return False
    roles = frozenset({ROLE_TEXTBOX, ROLE_COMBOBOX})
    said = value.split()
    picked: tuple[grounding.Target, str] | None = None
    if records.save_button(st) is None:
        for n in (2, 1):
            field = _field(st, " ".join(said[:n]), roles) if len(said) > n else None
            if field is not None and field.score >= 0.9:
                picked = field, " ".join(said[n:])
                break
    if picked is None and _TIME_SHAPED.match(value.strip()):   # "show only 2024": the Time filter, not the text one
        timed = [e for e in st.live.elements if e.role in roles and not e.hidden and not e.disabled
                 and _TIME_FIELD.search(" ".join((e.name, e.placeholder)))]
        if len(timed) == 1:
            picked = grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, timed[0].label, live=timed[0]), value
    if picked is None:
        boxes = [e for e in st.live.elements if e.role in roles and not e.hidden and not e.disabled
                 and re.match(r"^\s*filter\b", e.name or e.placeholder or "", re.I)]
        if len(boxes) != 1:
            return False
        picked = grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, boxes[0].label, live=boxes[0]), value
    field, text = picked
    type_into(st, text, field, submit=True)
    try:
        st.expect_check(checks.element(st.ctx, text=text, role=field.live.role if field.live else ROLE_TEXTBOX))
    except checks.CannotCheck:
        st.expect_check(None)
    return True


def _counted_view(st: State, value: str) -> grounding.Target | None:
    """A view of the list named by the filter's first word, with its count ("Unread 2", "Errors (3)")."""
    assert st.live is not None
    said = value.lower().split()
    if not said or len(said[0]) < 4:
        return None
    found = {}
    for e in st.live.elements:
        name = e.name or e.text or ""
        if e.role not in (ROLE_LINK, ROLE_BUTTON, "tab") or e.hidden or not re.search(r"\d\W*$", name):
            continue
        bare = re.sub(r"\s*[(\[]?\d+[)\]]?\s*$", "", name).strip().lower()
        if bare and bare in (value.lower(), said[0]):
            found.setdefault(e.href or name, e)
    if len(found) != 1:
        return None
    el = next(iter(found.values()))
    return grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.85, el.label, live=el)


_YES = ("yes", "true", "on", "enabled")
_NO = ("no", "false", "off", "disabled")


def _group_choice(st: State, value: str, headers: set[str]) -> bool:
    """"In stock Yes", "category Garden": a filter group's label holds the first words ("By in stock"), and one of
    the links after it is the rest."""
    assert st.live is not None
    said = value.split()
    elements = list(st.live.elements)
    for k in range(len(said) - 1, 0, -1):
        group, choice = words(" ".join(said[:k])), words(" ".join(said[k:]))
        for i, el in enumerate(elements):
            label = el.name or el.text
            if not label or el.container in headers or el.role in (ROLE_TEXTBOX, ROLE_CHECKBOX, ROLE_LINK, "cell") \
                    or len(words(label)) > 5 or not set(group) <= set(words(label)):
                continue
            for nxt in elements[i + 1:i + 12]:
                if nxt.role == ROLE_LINK and words(nxt.name or nxt.text) == choice:
                    st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, nxt.name or nxt.text,
                                                   live=nxt), f"Filter by {label!r}: {nxt.name or nxt.text}")
                    st.expect_check(None)
                    return True
    return False


def _boolean_filter(st: State, flag: str, on: bool, headers: set[str]) -> bool:
    """"out of stock": the filter group named like the flag ("By in stock"), then its No (or Yes) choice."""
    assert st.live is not None
    elements = list(st.live.elements)
    for i, el in enumerate(elements):
        label = el.name or el.text
        if not label or el.container in headers or flag not in words(label) or len(words(label)) > 5 \
                or el.role in (ROLE_TEXTBOX, ROLE_CHECKBOX, "cell"):
            continue
        for nxt in elements[i + 1:i + 12]:
            choice = (nxt.name or nxt.text).strip().lower()
            if nxt.role == ROLE_LINK and choice in (_YES if on else _NO):
                st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, nxt.name or nxt.text, live=nxt),
                              f"Filter by {label!r}: {nxt.name or nxt.text}")
                st.expect_check(None)
                return True
    return False


_UP = re.compile(r"\b(?:a?s?c?ending|asc|oldest|earliest|a\s*(?:-|to)\s*z|increasing|lowest|smallest)\b", re.I)
_DOWN = re.compile(r"\b(?:de?s?c?ending|desc|newest|latest|most\s+recent|z\s*(?:-|to)\s*a|decreasing|highest|largest)\b", re.I)


def _sort_dropdown(st: State, said: str) -> bool:
    """"sort the study list ascending, oldest first" where the list has no column headers to sort by but a
    dropdown of how it is sorted ("Sort descending"): the option of that way round."""
    assert st.live is not None
    up, down = _UP.search(said), _DOWN.search(said)
    if bool(up) == bool(down):
        return False
    boxes = [e for e in st.live.elements if e.role == "combobox" and not e.disabled and not e.hidden
             and re.search(r"\b(?:sort|order)", f"{e.name} {e.value} {e.hint}", re.I)]
    if len(boxes) != 1:
        return False
    box = boxes[0]
    kin = ("asc", "oldest", "earliest", "a-z", "a to z", "increas", "lowest") if up else \
        ("desc", "newest", "latest", "z-a", "z to a", "decreas", "highest")
    option = next((o for o in box.options if any(k in o.lower() for k in kin)), "") or ("ascending" if up else "descending")
    from server.planners.intents_form import _select_option

    _select_option(st, grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 1.0, box.label, live=box), option)
    return True


def sort_intent(c: Clause, st: State) -> bool:
    """"sort the books by year, newest first": open the list (and its records), then sort by the column's
    header until the column reads in that order (``sort_table`` proves it from the values)."""
    if st.live is None:
        return False
    rest = c.rest
    shown = re.match(r"^(?P<noun>.*?)\s*\b(?:sorted|ordered|arranged|listed|in\s+order)\s+"
                     r"(?P<how>(?:by|on|from)\b.*|(?:alphabetic|asc|desc|newest|oldest)\w*.*)$", rest, re.I)
    if c.act is Act.OPEN and shown:   # "show the plants sorted by height"
        rest = f"{shown.group('noun')} {shown.group('how')}".strip()
    elif c.act is not Act.SORT:
        return False
    parsed = parse_sort(rest)
    if parsed is None:
        return _sort_dropdown(st, c.text)
    noun, ask = parsed
    noun = (quoted(noun) or noun).strip()
    if noun and records.entity_link(st, noun) is not None and not on_list_of(st, noun):
        return go_to_list(st, noun, [c.text])
    header = _sort_header(st, ask)
    if header is None and _sort_dropdown(st, c.text):
        return True
    if header is None:
        if open_contents(st, [c.text]):
            return True
        if st.moved:
            raise Defer(ask.column or noun)
        said = ask.column or f"the {' / '.join(ask.implied[:3])}"
        raise Unplannable(f"no column {said!r} to sort by on the screen", ask.column or noun)
    label = header.live.name or header.live.text or header.label
    order = "" if ask.order == ANY else f", {ask.order}"
    if st.has(V.SORT_TABLE):
        st.add(V.SORT_TABLE, {"column": label, "order": ask.order}, f"Sort by {label!r}{order}")
        return True
    if ask.order != ANY:   # a click alone cannot say which way the list now runs
        raise Unplannable(f"this device cannot sort by {label!r} and check the order ({ask.order})", label)
    st.click_live(header, f"Sort by {label!r}")
    st.expect_check(None)
    return True


def sorted_check(c: Clause, st: State) -> bool:
    """"check the plants are sorted by height, tallest first": the column's values run in that order."""
    if c.act is not Act.CHECK or st.live is None or not st.has(V.CHECK_SORTED):
        return False
    m = re.search(r"\b(?:(?:are|is|be|being|were|get|gets|got|appear|appears)\s+)?(?:now\s+)?"
                  r"(?:(?:sorted|ordered|arranged|in\s+order)\s+(?P<rest>(?:by|on)\s+.+|(?:asc|desc|alphabetic|from\s)\w*.*)"
                  r"|listed\s+(?P<listed>by\s+.+|(?:asc|desc|alphabetic|from\s)\w*.*))$", c.rest, re.I)
    # ("listed on the home page" says where, not in what order)
    if not m:
        return False
    rest = m.group("rest") or m.group("listed")
    parsed = parse_sort(rest)
    ask = parsed[1] if parsed else None
    if ask is None:
        order, _ = direction_in(rest)
        ask = SortAsk("", order, ("name", "title")) if order != ANY else None
    header = _sort_header(st, ask) if ask else None
    if header is None or ask is None:
        raise Unplannable(f"no column to check the order of in {c.rest!r}", c.rest)
    label = header.live.name or header.live.text or header.label
    st.prove(lambda: PlanStep(0, V.CHECK_SORTED, {"column": label, "order": ask.order},
                              f"Check the list is sorted by {label!r}" + ("" if ask.order == ANY else f", {ask.order}")))
    return True


def _sort_header(st: State, ask: SortAsk) -> grounding.Target | None:
    """The header (a link or button in a table's header row) of the column *ask* names or implies."""
    assert st.live is not None
    header_rows = {e.name or e.text for e in st.live.elements if "header-row" in e.hint.split()}
    heads = [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_BUTTON) and e.container in header_rows
             and not e.hidden] or \
            [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_BUTTON) and e.container and not e.hidden]
    if st.has(V.SORT_TABLE):   # the device finds a header's sort control itself (a data grid's icon) and proves the order
        named = {grounding.norm(e.name or e.text) for e in heads}
        heads += [e for e in st.live.elements if e.role == "cell" and e.container in header_rows and not e.hidden
                  and (e.name or e.text) and grounding.norm(e.name or e.text) not in named]
    said = list(ask.columns())
    if ask.column and len(ask.column.split()) > 1:   # "by last checked" where the header is CHECKED
        said += [w for w in reversed(ask.column.split()) if len(w) > 3]
    for column in said:
        found = [t for t in grounding.live_elements(column, st.live, roles=frozenset({ROLE_LINK, ROLE_BUTTON}),
                                                    minimum=0.9) if t.live.container]
        if found:
            return found[0]
        named = named_column(column, [e.name or e.text for e in heads])
        for e in heads:   # "by height" where the column is "height_cm": the one header the words name
            if named is not None and (e.name or e.text) == named:
                return grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, e.label, live=e)
    return None


_ONLY = re.compile(r"^(?:that\s+)?(?:only|just)\s+(?P<x>\S.*?)\s+(?:shows?\s+up|is\s+(?:shown|listed|left|displayed|returned|"
                   r"there|found)|appears|remains|comes\s+up|is\s+in\s+the\s+(?:list|results))\s*[?.!]?$"
                   r"|^(?:that\s+)?(?P<y>\S.*?)\s+is\s+the\s+only\s+(?:one|row|result|item|entry)(?:\s+(?:shown|listed|left|"
                   r"there))?\s*[?.!]?$", re.I)


def only_shown_check(c: Clause, st: State) -> bool:
    """"make sure only retry_limit shows up": that row is shown, and every other row the list shows now is gone
    (each checked by its name; the list may be filtered by the steps before the check)."""
    if c.act is not Act.CHECK or st.live is None:
        return False
    m = _ONLY.match(c.rest.strip())
    if m is None:
        return False
    name = quoted(m.group("x") or m.group("y")) or (m.group("x") or m.group("y")).strip()
    rows = [e for e in st.live.elements if e.role in ("row", "listitem") and not e.hidden
            and "header-row" not in e.hint.split() and (e.name or e.text).strip()]
    if not rows:
        return False
    others: list[str] = []
    for row in rows:
        label = row.name or row.text
        first = next((e.name or e.text for e in st.live.elements if e.container == label and not e.hidden
                      and e.role in ("cell", "text", "link") and (e.name or e.text).strip()), "")
        # the row named so exactly is the one; "batch_size_max" is another
        if first and grounding.norm(first) != grounding.norm(name) and first.strip() not in others:
            others.append(first.strip())
    st.check(checks.text_shown(st.ctx, name))
    for other in others:
        st.check(checks.element(st.ctx, text=other, exact=True, present=False,
                                description=f"Check {other!r} is no longer shown (only {name!r} is)"))
    st.explicit_check_last = True
    st.last_object = name
    return True
