"""Counts a check asks for: "3 items are left", "there are 11 products", "2 customers live in Lyon",
"3 issues are assigned to admin", "the Software releases group has 4 watches".

A counter the app shows is read in its own words; a count with a value counts the cells of the one column
that shows it (or whose header the verb names); otherwise the items of the page's main list are counted.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.language import quoted, words
from server.planners.list_search import on_list_of
from server.planners.matching import NUMBER_WORDS, STOPWORDS
from server.planners.page_names import is_this_page
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.screen import ROLE_LINK, ROLE_LISTITEM, ROLE_ROW


def count_of(text: str) -> int | None:
    m = re.match(r"^(\d+|" + "|".join(NUMBER_WORDS) + r")\b", text.strip().lower())
    if not m:
        return None
    raw = m.group(1)
    return int(raw) if raw.isdigit() else NUMBER_WORDS[raw]


# the participle of a record's person or maker: "assigned to admin", "written by Orwell", "paid by Bob"
DONE_BY = r"assigned|owned|written|created|reported|filed|paid|made|sent|posted|edited|opened|closed|sold|bought"
_QUALIFIED = re.compile(rf"^(?P<kind>[a-z][\w-]*(?:\s+(?!(?:{DONE_BY}|who|that|which|living|located|based|listed)\b)"
                        r"[a-z][\w-]*)?)\s+(?:(?:who|that|which)\s+(?:live|lives|are|is|come|comes)\s+|"
                        rf"living\s+|located\s+|based\s+|listed\s+|(?:(?:that|which)\s+(?:are|were)\s+)?(?P<by>{DONE_BY})\s+)?"
                        r"(?P<p>in|from|at|by|with|to|tagged|named|called)\s+(?P<q>.+)$", re.I)


def qualified(noun: str) -> tuple[str, str, str] | None:
    """"customers in Lyon" → (customers, Lyon): things of a kind that show a value. Only a value shaped like a
    record's (a capitalised word, a number, quoted) counts: "items in the list", "products in stock" name none."""
    m = _QUALIFIED.match(noun.strip())
    if m is None:
        return None
    value = quoted(m.group("q")) or re.sub(r"^with\s+", "", m.group("q").strip(), flags=re.I)
    # "in the Araceae family", "from the Sales team": the value, said between an article and its column's name
    value = re.sub(r"^(?:the|a|an)\s+((?-i:[A-Z0-9])\S*(?:\s+(?-i:[A-Z0-9])\S*)*)\s+[a-z]+$", r"\1", value, flags=re.I)
    # "tagged news", "assigned to admin": a value by the words that say it, lower-case or not
    said_as_value = bool(m.group("by")) or re.search(r"\b(?:tagged|named|called)(?:\s+with)?\s+\S+$", noun, re.I) is not None
    if m.group("p").lower() == "to" and not m.group("by"):
        return None   # "items to do", "sent to": no value said
    if not (quoted(m.group("q")) or said_as_value or re.match(r"(?-i:[A-Z0-9])", value)) or len(value.split()) > 4:
        return None
    return m.group("kind"), value, m.group("by") or ""


# states of a list's items that its counter says as "left" ("3 items left"): still to do
_STILL_TO_DO = dict.fromkeys(("open", "remaining", "unfinished", "outstanding", "incomplete", "to do"), "left")


_BADGE = re.compile(r"^(?P<base>\S.*?)\s*\((?P<n>\d+)\)$")


def _count_badge(st: State, noun: str) -> str:
    """The name of the element that counts *noun* in a badge after its name ("product:* (3)", "Inbox (12)",
    "Tags (5)"): its name's words, less signs, are all said, and at least one more word says what is counted
    ("product keys"), or its name is the kind itself ("Tags" for "tags"); "" where no one element does."""
    if st.live is None:
        return ""
    said = {w.rstrip("s") for w in words(noun)}
    found = []
    for e in st.live.elements:
        m = _BADGE.match((e.name or e.text or "").strip())
        if e.hidden or m is None:
            continue
        base = {w.rstrip("s") for w in words(m.group("base"))}
        if base and base <= said:
            found.append(m.group("base"))
    return found[0] if len(set(found)) == 1 else ""


def count_check(st: State, count: int, noun: str, negative: bool) -> None:
    if negative:
        raise Unplannable("a check of how many things are NOT shown is ambiguous; say how many are")
    if st.moved and st.live is None and st.open_world and st.screen is not None:
        raise Defer(noun)   # "open device inventory; verify 3 devices are listed": counted on the page it opens
    literal = f"{count} {noun}"
    counter = re.compile(rf"(?<![\w.])\d+\s+{re.escape(noun)}(?!\w)", re.I)
    if any(counter.search(t) for t in (st.live.lines() if st.live else [])):
        # a counter the app shows ("3 items left"): it must show the number asked for
        st.prove(lambda: checks.text_shown(st.ctx, literal))
        return
    badge = _count_badge(st, noun)
    if badge:   # "3 product keys" where the folder says "product:* (3)": the app's own count, with the number asked
        st.prove(lambda: checks.text_shown(st.ctx, f"{badge} ({count})"))
        return
    state = re.match(r"^(?P<kind>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?P<s>left|completed|done|selected|active|pending|"
                     r"open|remaining|unfinished|outstanding|incomplete|to do)$", noun, re.I)
    said_state = _STILL_TO_DO.get(state.group("s").lower(), state.group("s")) if state else ""
    shown = _counter_of(st, said_state, count) if state else None
    if shown:   # "3 todos are left" where the app counts "3 items left": its counter, in its own words
        st.prove(lambda: checks.text_shown(st.ctx, shown))
        return
    if state and said_state.lower() == "left":
        if st.moved and st.live is None:
            raise Defer(noun)   # the counter is read on the screen the steps before lead to
        raise Unplannable(f"no count of what is left is on the screen; say how many {state.group('kind')} are shown",
                          noun)
    inside = _IN_VIEW.match(noun.strip())
    if inside and view_first(st, f"the {inside.group('v')} {inside.group('g')} has {count} {inside.group('k')}", count,
                             inside.group("k")):
        return   # "2 items in the reports folder": that folder's view, then the count there
    with_value = qualified(noun) or state_said(st, noun)
    if with_value is not None:   # "2 customers in Lyon": the rows that show Lyon, not every row of the list
        _count_showing(st, count, *with_value)
        return
    said = re.sub(r"\s+(?:(?:in|on)\s+(?:the|this|my|our)\s+(?:[\w-]+\s+)?(?:list|table|page|screen|results)|in\s+total|"
                  r"(?:are\s+)?(?:shown|listed))$",
                  "", noun.strip(), flags=re.I)
    # "emails in the inbox", "items in my cart": the place the page itself is
    place = re.search(r"\s+(?:in|on)\s+(?:the|this|my|our)\s+(?P<p>[a-z]+)$", said, re.I)
    screen = grounding.screens(place.group("p"), st.ctx, minimum=0.85) if place and st.ctx.navigation.nodes else []
    if screen:   # "8 channels in the guide": counted on the guide
        if st.node != screen[0].node.id:
            st.goto(screen[0].node)
        said = said[:place.start()]
    elif place and (place.group("p").lower() in _PLACES or on_list_of(st, place.group("p"))):
        said = said[:place.start()]
    if re.search(r"\s(?:that|which|who|whose|with|without|belong\w*|need\w*|have|has|from|in|by|of|for|on)\s", f" {said} "):
        # "plants that need full sun": some of the list's rows, said in words no column reads; counting every row
        # could pass by accident
        raise Unplannable(f"I cannot tell which {said.split()[0]} to count in {noun!r}: filter the list first, or say "
                          "the value its column shows", noun)
    listed = grounding.tree_elements(noun, st.ctx, prefer_node=st.node, many=True, minimum=0.6)
    if listed and listed[0].element.selector and "count" in st.param_names(V.WAIT_FOR_ELEMENT):
        t = listed[0]
        if st.node not in (None, t.node.id):
            st.goto(t.node)
        st.prove(lambda: checks.element(st.ctx, selector=t.element.selector, count=count,
                                        description=f"Check {count} {noun} are shown"))
        return
    if any(literal.lower() in t.lower() for t in (st.live.lines() if st.live else [])):
        st.prove(lambda: checks.text_shown(st.ctx, literal))
        return
    role = ROLE_LISTITEM
    rows_named = bool(set(words(noun)) & {"row", "rows", "record", "records", "entry", "entries", "line", "lines"})
    data_rows = [e for e in st.live.of_role(ROLE_ROW) if "header-row" not in e.hint.split()] if st.live else []
    items_named = bool(set(words(noun)) & {"item", "items", "entry", "entries", "todo", "todos", "task", "tasks"})
    if data_rows and not items_named:
        role = ROLE_ROW   # "8 books" on a page with a table: its rows of data, not the sidebar's list items
    elif st.live is not None and st.live.of_role(ROLE_ROW) and (rows_named or not st.live.of_role(ROLE_LISTITEM)):
        role = ROLE_ROW
    elif rows_named and st.live is None:
        role = ROLE_ROW
    main = list_of_kind(st, said, role)
    main = main if main is not None else main_list_selector(st, role)
    if main:   # the items of the page's main list, not its menus' and filters' items too
        st.prove(lambda: checks.element(st.ctx, selector=main, count=count,
                                        description=f"Check {count} {noun} are shown"))
        return
    st.prove(lambda: checks.element(st.ctx, role=role, count=count, description=f"Check {count} {noun} are shown"))


_STATE_FILLER = frozenset("that which who are is were currently still now being".split())


def state_said(st: State, noun: str) -> tuple[str, str] | None:
    """"running processes", "jobs that are stopped": one word of the noun is the whole text of cells of the list
    (a State column's "running"): (the kind, that word). The rows in that state are the ones counted."""
    if st.live is None:
        return None
    from server.planners.intents_statement import cell_values

    values = cell_values(st)
    said = [w for w in words(noun) if w not in _STATE_FILLER]
    hits = [w for w in said if w in values]
    kind = " ".join(w for w in said if w not in hits)
    return (kind, hits[0]) if len(hits) == 1 and kind else None


# the places a page of items is, as testers call it
_PLACES = frozenset("inbox mailbox folder cart basket queue feed board dashboard overview app site".split())


_IN_VIEW = re.compile(r"^(?P<k>[a-z]+)\s+(?:in|under|inside)\s+(?:the\s+)?(?P<v>[\w.-]+(?:\s+[\w.-]+)?)\s+"
                      r"(?P<g>group|tag|category|folder|directory|section|project|label)$", re.I)


_GENERIC_PLACES = frozenset("the this my our page screen list table view tab section results app site".split())


def view_first(st: State, said: str, count: int, things: str) -> bool:
    """"the Software releases group has 4 watches": a view of the list the screen links to (a tab, a group, a
    filter link), opened first; then the count, on it."""
    m = re.match(r"^(?:check\s+(?:that\s+)?)?(?:the\s+)?(?P<v>.+?)(?P<k>\s+(?:group|tag|category|folder|directory|view|tab|"
                 r"filter|section|project|list|page))?\s+(?:(?:should|must|does|will)\s+)?(?:has|have|shows?|lists?|"
                 r"contains?|holds?|includes?)\s+", said, re.I)
    if m is None or st.live is None:
        return False
    if not m.group("k"):   # "the device inventory has 3 devices": a page the screen links to, by its very name
        # a page named in common words only ("the menu") is still named; "the page", "the list" name none
        said = set(words(m.group("v"))) - STOPWORDS or set(words(m.group("v"))) - _GENERIC_PLACES
        if not said or is_this_page(st, m.group("v")):
            return False
        links = [t for t in grounding.live_elements(m.group("v"), st.live, roles=frozenset({ROLE_LINK}), minimum=0.6)
                 if t.live is not None and said <= set(words(t.label)) and not t.live.selected
                 and t.live.container in ("", t.live.name, t.live.text)]   # a row's own link is a record's
    else:
        links = [t for t in grounding.live_elements(m.group("v"), st.live,
                                                    roles=frozenset({ROLE_LINK, "tab", "button"}), minimum=0.9)
                 if t.live is not None and not t.live.selected
                 and t.live.container in ("", t.live.name, t.live.text)]   # a row's own link is no view
    if not links:
        return False
    st.click_live(links[0], f"Open {links[0].label!r}")
    raise Defer(m.group("v"), replace_with=[f"check there are {count} {things}"])


def counted_by_value(st: State, count: int, kind: str, owner: str) -> bool:
    """"the Hull depot has two vans": Hull is a value of the list's Depot column: the rows whose Depot cell
    shows Hull are counted (not the whole list, nor a counter of every van)."""
    from server.planners.intents_statement import value_and_header

    value, header = value_and_header(st, owner)
    if not header:
        return False
    from server.planners.intents_statement import rows_of_value

    # a column headed like the kind ("Open tickets") holds a number of the one row the value names; the value in
    # several rows (Priya's two loans, beside a Loan number column) names no one such row
    one_row = len(rows_of_value(st, value)) < 2
    if len(words(kind)) != 1 or (_a_header(st, kind) and one_row) or not _names_the_rows(st, kind):
        # "two electric vans": some of the rows that show Hull, which no one column says; "one open ticket" where
        # a column is headed Open tickets: a number Ann's row holds. Counting rows that show Hull would pass on
        # the wrong rows
        raise Unplannable(f"I cannot count {kind!r} of {value!r} from the rows: filter the list first, or check "
                          f"the value its column shows", kind)
    _count_showing(st, count, kind, value)
    return True


def _names_the_rows(st: State, kind: str) -> bool:
    """*kind* is what the list's rows are, as the page says it outside them: its title, a heading, a tab, a counter
    ("8 vehicles shown"), a button ("Add shift"); "comments" of a list of tasks is not."""
    if st.live is None:
        return False
    stem = kind.lower().rstrip("s")
    said = [st.live.title] + [e.name or e.text for e in st.live.elements
                              if e.role not in ("cell", "row") and not e.container and not e.hidden]
    return any(w.rstrip("s") == stem for t in said if t for w in words(t))


def _a_header(st: State, kind: str) -> bool:
    from server.planners.records import header_words

    return bool(set(w.rstrip("s") for w in words(kind)) & {h.rstrip("s") for h in header_words(st)})


def _counter_of(st: State, state: str, count: int) -> str:
    """The app's counter of things in *state* ("2 items left"), said with *count*: "1 item left", "3 items left"."""
    counter = re.compile(rf"(?<![\w.])\d+\s+(?P<n>[a-z][\w-]*)\s+{re.escape(state)}(?!\w)", re.I)
    for text in st.live.lines() if st.live else []:
        m = counter.search(text)
        if m:
            one = re.sub(r"s$", "", m.group("n"))
            return f"{count} {one if count == 1 else one + 's'} {state}"
    return ""


def _count_showing(st: State, count: int, kind: str, value: str, participle: str = "") -> None:
    from server.planners.intents_statement import column_showing

    column = column_showing(st, value, participle=participle)
    if participle and not column and st.live is not None and st.live.of_role(ROLE_ROW):
        # "assigned to admin" where no column says who: counting rows that show admin anywhere (as creator, say)
        # could pass on the wrong column
        raise Unplannable(f"no column of the list says who the {kind} are {participle} by or to", participle)
    if column:   # "2 customers in Lyon": the city column's cells that show Lyon, one per customer
        st.prove(lambda: checks.element(st.ctx, text=value, selector=column, count=count,
                                        description=f"Check {count} {kind} show {value!r}"))
        return
    role = ROLE_ROW if st.live is None or st.live.of_role(ROLE_ROW) or not st.live.of_role(ROLE_LISTITEM) \
        else ROLE_LISTITEM
    main = main_list_selector(st, role)
    st.prove(lambda: checks.element(st.ctx, text=value, selector=main, role="" if main else role, count=count,
                                    description=f"Check {count} {kind} show {value!r}"))


_NTH = re.compile(r":nth-of-type\(\d+\)$")
_NUMBERED_ID = re.compile(r"#(?P<p>[A-Za-z][\w-]*?[-_])\d+")
# words of a list's ids and classes that say nothing about what it lists
_LAYOUT_WORDS = frozenset("""table tbody thead tr td th list lists row rows item items body main content container wrapper
data grid results result nav navbar menu ul ol li div section panel card cards col column columns page view box inner
outer left right top bottom wide full striped hover bordered responsive sm md lg xl active odd even first last
""".split())
_ITEM_STATES = frozenset("left open remaining unfinished outstanding incomplete completed done finished active pending "
                         "selected checked unchecked shown listed".split())
_ANY_KIND = frozenset("item items row rows entry entries record records line lines thing things one ones result results"
                      .split())


def _group_of(selector: str) -> str:
    """The selector of every item of the list that *selector*'s item is in: its ``:nth-of-type`` dropped, or a
    numbered id's prefix ("#bal-member-3" → ``[id^="bal-member-"]``); "" when it has neither."""
    if _NTH.search(selector):
        return _NTH.sub("", selector)
    m = _NUMBERED_ID.fullmatch(selector)
    return f'[id^="{m.group("p")}"]' if m else ""


def _clues(selector: str, hints: str) -> set[str]:
    """What a list's own ids and classes say it lists ("#bill_table" → bill)."""
    said = " ".join(re.findall(r"[#.]([A-Za-z][\w-]*)", selector)) + " " + hints
    return {w for w in re.split(r"[\W_]+|(?<=[a-z])(?=[A-Z])", said.lower())
            if len(w) > 2 and not w.isdigit() and w not in _LAYOUT_WORDS}


def _stem(word: str) -> str:
    return re.sub(r"(?:ies|es|s)$", "", word.lower())


# words of one kind of record, as testers and apps name it differently
_SAME_KIND = [frozenset(g.split()) for g in (
    "todo task item entry", "participant member person people user", "bill expense payment transaction",
    "customer client", "ticket issue bug", "bookmark link", "product item article", "post article entry",
    "watch monitor", "book title", "movie film", "channel station")]


def _kind_words(kind: str) -> set[str]:
    """The stems a list of *kind* may be named by: its own, and those of its kind's other names."""
    stem = _stem(kind)
    return {stem} | {_stem(w) for g in _SAME_KIND if stem in {_stem(x) for x in g} for w in g}


def list_of_kind(st: State, noun: str, role: str) -> str | None:
    """The selector of the items of the list of *noun*'s kind, where the page's lists say what they list.

    None when nothing ties a kind to a list (the page's main list is counted). A page whose main list says it
    lists another kind ("#bill_table" for "4 participants") must not be counted for this one: the one other
    list, or a refusal that says which lists there are."""
    if st.live is None:
        return None
    said = words(noun)
    if len(said) > 1 and said[-1] in _ITEM_STATES:
        said = said[:-1]   # "todos open", "items left": the kind, then its state
    kind = (said or [""])[-1]
    if not kind or kind in _ANY_KIND or kind.isdigit():
        return None
    groups: dict[str, list[str]] = {}
    headed: set[str] = set()
    for e in st.live.of_role(role):
        if "header-row" in e.hint.split():
            headed.add(_group_of(e.selector))
        else:
            groups.setdefault(_group_of(e.selector), []).append(e.hint)
    groups.pop("", None)
    if not groups:
        return None

    def data_rows(g: str) -> str:   # a group's title rows in the table's body are no rows of data
        return f"{g}:has(> td)" if g in headed and g.endswith("tr") else g

    said_as = _kind_words(kind)
    clues = {g: _clues(g, " ".join(hints[:1])) for g, hints in groups.items()}
    tied = [g for g, said in clues.items() if any(_stem(w) in said_as for w in said)]
    if tied:
        return data_rows(max(tied, key=lambda g: len(groups[g])))
    main = max(groups, key=lambda g: len(groups[g]))
    if not clues[main] or len(groups) < 2:
        return None
    raise Unplannable(f"the page's main list shows {'/'.join(sorted(clues[main]))} records, not {noun}: say which "
                      f"list to count, or open the page that lists the {noun}", noun)


_NAV_REGION = re.compile(r"\b(?:nav|aside|sidebar|side-bar|menu|footer|header)\b", re.I)
_CONTENT_REGION = re.compile(r"\b(?:main|article|content)\b", re.I)


def _region(selector: str) -> int:
    """1 for a list the selector places in the page's content (main, article, #content), -1 in its navigation
    (nav, aside, a sidebar, a menu), else 0."""
    return -1 if _NAV_REGION.search(selector) else 1 if _CONTENT_REGION.search(selector) else 0


def main_list_selector(st: State, role: str) -> str:
    """The selector of every item of the page's largest list of *role* ("#todo-list > li"), when the page
    has other items of that role besides (a menu, filters); "" when its items are all one list."""
    if st.live is None:
        return ""
    groups: dict[str, int] = {}
    headed: set[str] = set()
    for e in st.live.of_role(role):
        parent = _NTH.sub("", e.selector) if e.selector and _NTH.search(e.selector) else ""
        if "header-row" in e.hint.split():
            headed.add(parent)
            continue
        groups[parent] = groups.get(parent, 0) + 1
    if len(groups) < 2 and not (groups and headed & set(groups)):
        return ""
    # the page's own content before its navigation: a wiki's checklist of 3 over the sidebar's 6 pages
    ranked = sorted(groups.items(), key=lambda kv: (-_region(kv[0]), -kv[1]))
    best, n = ranked[0]
    if not best or len(ranked) > 1 and _region(ranked[1][0]) == _region(best) and n <= ranked[1][1]:
        return ""
    # a table whose body also holds heading rows (a group's title, "critical"): its rows of data only
    return f"{best}:has(> td)" if best in headed and best.endswith("tr") else best
