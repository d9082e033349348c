"""A statement about one record of a list, checked in that record's row: "the electricity bill was paid by
Dan", "Lavender needs full sun", "Beloved is a sci-fi book", "the rent is 1200".

The statement is not read by its grammar, which testers vary without end, but against the table shown:

- its *names* are the phrases a cell of the table shows (a name, a category, an amount), and every
  capitalised word, number or quoted text even when no cell shows it ("the rent is 1500");
- its *record* is the row one of those names picks out on its own (the earliest such name);
- every other name must be in that row: each becomes a check of the row, in the column a word of the
  statement names ("paid" → the column "Who paid?") when one does;
- the words no cell shows ("needs", "book", "bill", "was paid by") are the statement's own wording, and
  are not checked.

So a false statement fails (its value is in another row, or in no row), and a true one passes whatever
verb joins the record to its value. A statement with no name beyond its record is left to other intents.
"""
from __future__ import annotations

import itertools
import re
from typing import Any
from dataclasses import dataclass

from server.planners import checks, grounding, record_ids, records
from server.planners.checks import CannotCheck
from server.planners.intents_record_page import FALSE_WORDS, TRUE_WORDS
from server.planners.language import Act, Clause, clean, quoted, words
from server.planners.list_search import key_shaped, on_list_of, seek_record
from server.planners.matching import ORDINALS
from server.planners.state import Defer, State, Unplannable
from shared.screen import ROLE_LINK, UIElement

_CELL_ROLES = ("cell", "gridcell", "columnheader", "rowheader")
# a table's row and cell in a selector: by their tag, or (an ARIA grid of <div>s) by their role
_ROW = r"(?:\btr|[a-z]+\[role=row\])"
_CELL = r"(?:td|th|\[role=(?:gridcell|columnheader|rowheader)\])"
_FILLER = frozenset("a an the this that these those is are was were be been being has have had does do did of by "
                    "to for in on at with and its it their his her as also still really actually indeed".split())
_NUMBER = re.compile(r"^[+-]?[$€£]?\d[\d,]*(?:\.\d+)?%?$")
_MEANS = re.compile(r"\s(?:means|stands\s+for|indicates|signals|signifies)\s", re.I)
_NOBODY = re.compile(r"\b(?:no|nobody|none|nothing|no longer)\b", re.I)   # "no one paid": not one record's value
_NUMBERED = re.compile(r"^(?P<rec>(?:the\s+)?[a-z]+\s*#?\s*\d+)\s+(?P<rest>(?:is|was|has|have|had|does|did|should|"
                       r"must|shows?|says?|reads?|belongs?|needs?|n't|not)\b.*)$", re.I)
_MONTH = re.compile(r"^(?:the\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s", re.I)
# "there are 11 products", "the Competitors group should contain 3 watches": a count, not a fact about a row
_COUNT = re.compile(r"^(?:there\s+(?:is|are|'s)|(?:only\s+|exactly\s+)?\d+\s+[a-z]+|"
                    r"(?:i|we|you)\s*(?:have|'ve|’ve|got)(?:\s+got)?\s+(?:only\s+|exactly\s+)?(?:\d+|one|two|three|four|"
                    r"five|six|seven|eight|nine|ten|eleven|twelve)\s)\b|"
                    r"\s(?:has|have|contains?|holds?|lists?|shows?|includes?)\s+(?:only\s+|exactly\s+)?\d+\s+(?-i:[a-z]+)$",
                    re.I)
# "X is shown among the in-stock products", "X is listed", "X is there": where X is shown, not what its row says
_PRESENCE = re.compile(r"\b(?:shown|displayed|visible|listed|present|appears?|appearing|exists?|included|missing|hidden|"
                       r"gone|absent)\b|\b(?:there|on (?:the )?(?:screen|page|list))\s*[?.!]?$", re.I)


@dataclass(frozen=True)
class _Cell:
    el: UIElement
    row: str          # the row's text (its container)
    column: int       # its position in the row (0 when the page does not say)
    text: str


ROW_HEADER_COLUMN = 1000   # a row's one header cell ("tr > th", Django's name column): a column of its own


def _column(selector: str) -> int:
    m = re.search(_CELL + r":nth-of-type\((\d+)\)[^>]*$", selector or "")
    if m:
        return int(m.group(1))
    return ROW_HEADER_COLUMN if re.search(r"\btr(?::nth-of-type\(\d+\))?\s*>\s*th$", selector or "") else 0


def _table(st: State) -> tuple[list[_Cell], dict[int, str]]:
    """The data cells of the lists shown, and the header of each column."""
    assert st.live is not None
    heads: dict[int, str] = {}
    cells: list[_Cell] = []
    for e in st.live.elements:
        label = (e.name or e.text or "").strip()
        if not e.container or e.hidden or not label or e.role not in _CELL_ROLES:
            continue
        if records.in_header_row(st, e) or "thead" in (e.selector or ""):
            if _column(e.selector):
                heads.setdefault(_column(e.selector), label)
            continue
        cells.append(_Cell(e, e.container, _column(e.selector), label))
    return cells, heads


def headers(st: State) -> list[str]:
    """The headers of the columns of the lists shown."""
    return list(_table(st)[1].values()) if st.live is not None else []


def header_of_value(st: State, value: str) -> str:
    """The header of the one column with a cell that is *value* ("York": Depot); "" when none or several."""
    if st.live is None:
        return ""
    cells, heads = _table(st)
    columns = {(_table_of(cl.el.selector), cl.column) for cl in cells if cl.column and _norm(cl.text) == _norm(value)}
    if len(columns) != 1 or len({_table_of(cl.el.selector) for cl in cells if cl.column}) != 1:
        return ""   # headers are known by position only: with two tables, whose header it is is not known
    (_, column), = columns
    return heads.get(column, "")


def value_and_header(st: State, said: str) -> tuple[str, str]:
    """The value *said* names and the header of its column: "York" → (York, Depot); "the Hull depot", a value
    then its column's name → (Hull, Depot); ("", "") when no one column shows it."""
    said = re.sub(r"^(?:the|this|that|our|my)\s+", "", said.strip(), flags=re.I)
    header = header_of_value(st, said)
    if header:
        return said, header
    named = said.rsplit(None, 1)
    if len(named) == 2 and (header := header_of_value(st, named[0])) and words(header) == words(named[1]):
        return named[0], header
    return "", ""


def row_of_values(st: State, phrase: str) -> str:
    """The one row whose cells show every value *phrase* says, with the kind of thing the page lists and small
    words between them: "the Tue kitchen shift of Omar" → the row "Tue 08:00-14:00 Omar Kitchen Assigned".
    "" when a word is neither (then it names something else), or when no row or several rows show them all."""
    if st.live is None:
        return ""
    cells, _ = _table(st)
    tokens = [t for t in re.sub(r"['’]s\b", "", phrase).split() if t.lower() not in _FILLER]
    rows: set[str] | None = None
    values = 0
    i = 0
    while i < len(tokens):
        for j in range(min(len(tokens), i + 4), i, -1):   # the longest run of words that a whole cell shows
            holding = {c.row for c in cells if _norm(c.text) == _norm(" ".join(tokens[i:j]))}
            if holding:
                rows = holding if rows is None else rows & holding
                values += 1
                i = j
                break
        else:
            if not (tokens[i].islower() and on_list_of(st, tokens[i])):
                return ""   # a word no cell shows and that is not the kind listed
            i += 1
    return next(iter(rows)) if rows is not None and len(rows) == 1 and values >= 2 else ""


def rows_of_value(st: State, phrase: str) -> list[str]:
    """The rows with a cell that is the value *phrase* says, its kind aside ("Bar shifts" on a list of shifts:
    every row whose cell is Bar), in the page's order; [] when a word is neither."""
    if st.live is None:
        return []
    kept = [t for t in phrase.split() if not (t.islower() and (t.lower() in _FILLER or on_list_of(st, t)))]
    if not kept:
        return []
    value = _norm(" ".join(kept))
    cells, _ = _table(st)
    return list(dict.fromkeys(c.row for c in cells if _norm(c.text) == value))


def cell_values(st: State) -> set[str]:
    """The whole texts of the data cells of the lists shown, lower case: the values their columns hold."""
    if st.live is None:
        return set()
    cells, _ = _table(st)
    return {_norm(cl.text) for cl in cells if cl.column and cl.text}


def _norm(text: str) -> str:
    return " ".join(words(text))


def _number(text: str) -> float | None:
    t = re.sub(r"[$€£,%+]", "", text)
    try:
        return float(t)
    except ValueError:
        return None


def _shows(cell: str, phrase: str) -> str:
    """The part of *cell* that shows *phrase*: the phrase as whole words, or a number equal to it ("1200" in
    "1200.00 (300.00 each)" is "1200.00"); "" when it does not."""
    want = _number(phrase) if _NUMBER.match(phrase) else None
    if want is not None:
        for token in re.findall(r"[+-]?[$€£]?\d[\d,]*(?:\.\d+)?", cell):
            if _number(token) == want:
                return token
        return ""
    n, c = _norm(phrase), _norm(cell)
    if not n or not re.search(rf"(?:^| ){re.escape(n)}(?: |$)", c):
        return ""
    # "heapq" is not shown by "_heapq": a name with another before it, joined by an underscore
    first, last = words(phrase)[0], words(phrase)[-1]
    return phrase if re.search(rf"(?<![^\W_]|_){re.escape(first)}", cell, re.I) and \
        re.search(rf"{re.escape(last)}(?!_)", cell, re.I) else ""


def shows(text: str, phrase: str) -> bool:
    """*text* shows *phrase*: as whole words, or a number equal to it ("1200" in "1,200.00")."""
    return bool(_shows(text, phrase))


def _spans(tokens: list[str]) -> list[tuple[int, int]]:
    """Every run of words, longest first."""
    return [(i, i + n) for n in range(min(len(tokens), 6), 0, -1) for i in range(len(tokens) - n + 1)]


def _is_name(token: str, first: bool) -> bool:
    return bool(_NUMBER.match(token)) or (token[:1].isupper() and not first and len(token) > 1)


def _record(tokens: list[str], cells: list[_Cell]) -> tuple[tuple[int, int], str] | None:
    """The earliest run of words that one row alone shows: the record the statement is about."""
    best: tuple[tuple[int, int], str] | None = None
    for i, j in _spans(tokens):
        phrase = " ".join(tokens[i:j])
        if _NUMBER.match(phrase) or len(phrase) < 3 or not set(words(phrase)) - _FILLER:
            continue
        holding = {c.row for c in cells if _norm(c.text) == _norm(phrase)}
        if not holding and len(_norm(phrase)) >= 4:
            holding = {c.row for c in cells if _shows(c.text, phrase)}   # "pizza" in the cell "Pizza night"
        if len(holding) == 1 and (best is None or i < best[0][0]):
            best = ((i, j), holding.pop())
    return best


def _record_among_rows(tokens: list[str], cells: list[_Cell]) -> tuple[tuple[int, int], str] | None:
    """Two names, neither of which picks one row alone ("Omar works on Tue": Omar has two shifts, and two people
    work on Tue): the record is the first name, in the first row that shows both; with no such row, in its own
    first row, where the check of the other name fails as the statement does."""
    if any(_NUMBER.match(t) for t in tokens):
        return None   # an amount besides: a relation of three values, read elsewhere
    found: list[tuple[tuple[int, int], set[str]]] = []
    covered: set[int] = set()
    for i, j in _spans(tokens):
        phrase = " ".join(tokens[i:j])
        if covered & set(range(i, j)) or _NUMBER.match(phrase) or len(phrase) < 3 \
                or not set(words(phrase)) - _FILLER:
            continue
        rows = {c.row for c in cells if _norm(c.text) == _norm(phrase)}
        if rows:
            found.append(((i, j), rows))
            covered |= set(range(i, j))
    if len(found) != 2:
        return None
    (first, rows), (_, others) = sorted(found, key=lambda f: f[0])
    pool = (rows & others) or rows
    return first, next(c.row for c in cells if c.row in pool)


_TITLE_JOINERS = frozenset("of for the and a an in on to with at & de du la le von van".split())


def _title(tokens: list[str]) -> list[str]:
    """The name a statement starts with, as a title is written: capitalised words, and the small words between
    them ("Packing for Lisbon", "Lord of the Rings"), never a small word the name ends on."""
    def cap(t: str) -> bool:
        return t[:1].isupper() or t[:1].isdigit() and not _NUMBER.match(t)

    lead: list[str] = []
    for i, t in enumerate(tokens):
        if cap(t):
            lead.append(t)
            continue
        rest = list(itertools.takewhile(lambda u: u.lower() in _TITLE_JOINERS, tokens[i:]))
        after = tokens[i + len(rest):i + len(rest) + 1]
        if not lead or not rest or t.lower() not in _TITLE_JOINERS or not after or not cap(after[0]):
            break
        lead.append(t)
    return lead


def _seek(st: State, tokens: list[str], text: str) -> bool:
    """"Lavender needs full sun" with no Lavender on the screen: in an open world, look for it in the lists
    (the statement is read again where it is found). Only a statement that starts with the record's name."""
    if tokens and tokens[0].lower() == "the":
        tokens = tokens[1:]   # "the Chef Knife costs 42.00"
    lead = tokens[:1] if tokens and key_shaped(tokens[0]) else _title(tokens)   # "batch_size is 250"
    if not st.open_world or st.moved or not lead or len(lead) == len(tokens):
        return False
    name = " ".join(lead)
    if len(name) < 3 or grounding.live_elements(name, st.live, minimum=0.85) or grounding.rows(name, st.live, 0.8) \
            or any(_shows(e.label, name) for e in st.live.elements if e.label):
        return False     # it is on this screen, if not in a table: the check intents read it here
    return seek_record(st, name, text)


def _unnegated(tokens: list[str]) -> tuple[list[str], bool]:
    """The statement's words without its negation ("is not", "isn't", "never"), and whether it had one."""
    kept = [t for t in tokens if t.lower() not in ("not", "never")]
    kept = [re.sub(r"n['’]t$", "", t, flags=re.I) for t in kept]
    return kept, kept != tokens


def _names(tokens: list[str], covered: set[int], cells: list[_Cell]) -> list[str]:
    """The statement's names besides its record: phrases some cell shows, and capitalised words and numbers."""
    names: list[tuple[int, str]] = []
    for i, j in _spans(tokens):
        if covered & set(range(i, j)):
            continue
        phrase = " ".join(tokens[i:j])
        if not set(words(phrase)) - _FILLER:
            continue
        shown_somewhere = any(_shows(cl.text, phrase) for cl in cells) and (j - i > 1 or len(phrase) >= 2)
        if shown_somewhere or (j - i == 1 and _is_name(phrase, i == 0)):
            names.append((i, phrase))
            covered |= set(range(i, j))
    return [phrase for _, phrase in sorted(names)]


def _table_of(selector: str) -> str:
    return re.sub(_ROW + r"(?::nth-of-type\(\d+\))?\s*>.*$", "", selector or "")


# the headers of the column a participle names ("assigned to admin": Assigned To, Owner), by their words' starts
_HEADERS_OF = {"assign": ("assign", "owner"), "owned": ("owner", "assign"), "writt": ("author", "writer"),
               "creat": ("creat", "author", "report"), "repor": ("report",), "paid": ("paid", "payer", "who paid"),
               "filed": ("report", "creat"), "opene": ("open", "report", "creat"), "close": ("close",),
               "made": ("maker", "author", "creat"), "sold": ("seller", "sold"), "bough": ("buyer", "bought"),
               "sent": ("sender", "sent"), "poste": ("poster", "author", "post"), "edite": ("editor", "edit")}


def column_count(st: State, value: str) -> tuple[str, int]:
    """The selector of the one column with a cell that is *value* as a whole, and how many of its cells are;
    ("", 0) when no one column has such a cell."""
    selector = column_showing(st, value)
    if not selector:
        return "", 0
    cells, _ = _table(st)
    table, column = _table_of(selector), _column(selector)
    fold = " ".join(value.split()).casefold()
    n = sum(1 for cl in cells if cl.column == column and _table_of(cl.el.selector) == table
            and " ".join(cl.text.split()).casefold() == fold)
    return (selector, n) if n else ("", 0)


def column_showing(st: State, value: str, participle: str = "") -> str:
    """The selector of every cell of one column of the list shown: the column whose header the *participle*
    names ("assigned" → "Assigned To"), else the one column whose cells show *value* ("Lyon": the city column);
    e.g. "#list > tbody > tr > td:nth-of-type(3)". "" when no one column is found."""
    if st.live is None:
        return ""
    cells, heads = _table(st)
    columns: dict[tuple[str, int], str] = {}
    showing: set[tuple[str, int]] = set()   # the columns with a cell that shows *value*
    exactly: set[tuple[str, int]] = set()   # … as the whole cell ("Alice Martin", not alice.martin@example.com)
    for cl in cells:
        if cl.column and cl.el.selector:
            key = (_table_of(cl.el.selector), cl.column)
            columns.setdefault(key, cl.el.selector)
            if _shows(cl.text, value):
                showing.add(key)
                if _norm(cl.text) == _norm(value):
                    exactly.add(key)
    if participle:
        starts = _HEADERS_OF.get(participle.lower()[:5], (participle.lower()[:5],))
        found = {k: v for k, v in columns.items()
                 if any(" ".join(words(heads.get(k[1], ""))).startswith(h) or
                        any(w.startswith(h) for w in words(heads.get(k[1], ""))) for h in starts)}
    else:
        found = {k: v for k, v in columns.items() if k in showing}
        if len(found) > 1 and len(exactly & set(found)) == 1:
            found = {k: v for k, v in found.items() if k in exactly}
    if len(found) != 1:
        return ""
    selector, = found.values()
    return _every_row(selector)


def _every_row(selector: str) -> str:
    """A cell's selector made one for that cell of every row ("… > tr:nth-of-type(3) > td:nth-of-type(2)" →
    "… > tr > td:nth-of-type(2)"); "" when the row is named by an id of its own (no one selector spans them)."""
    every = re.sub(rf"({_ROW}):nth-of-type\(\d+\)", r"\1", selector)
    return every if re.search(rf"(?:^|[\s>]){_ROW}\s*>", every) else ""


def column_cells(st: State, header: str) -> tuple[str, list[str]] | None:
    """The column whose header is *header* ("indoor"): the selector of its cells and what they show."""
    if st.live is None:
        return None
    cells, heads = _table(st)
    wanted = [k for k, h in heads.items() if _norm(h) == _norm(header)]
    if len(wanted) != 1:
        return None
    mine = [cl for cl in cells if cl.column == wanted[0] and cl.el.selector]
    if not mine:
        return None
    every = _every_row(mine[0].el.selector)
    return (every, [cl.text for cl in mine]) if every else None


def _usual_column(phrase: str, cells: list[_Cell], row: list[_Cell]) -> int:
    """The column where the record's table shows *phrase* most often (0 when none of its cells shows it)."""
    table = {_table_of(cl.el.selector) for cl in row}
    counts: dict[int, int] = {}
    for cl in cells:
        if cl.column and _table_of(cl.el.selector) in table and _shows(cl.text, phrase):
            counts[cl.column] = counts.get(cl.column, 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else 0


def _field_statement(st: State, tokens: list[str], negated: bool, rec: str, cells: list[_Cell]) -> bool:
    """"ticket 1 has critical priority", on the ticket's page: the field a word of the statement names
    (the label "Priority:"), and the value beside it. The values are the phrases some cell shows, else the
    words left over (a value no field shows now, "critical", must still be checked: the run then fails)."""
    labels = [(cl, nxt) for cl, nxt in zip(cells, cells[1:]) if cl.text.endswith(":") and cl.row == nxt.row
              and not nxt.text.endswith(":")]
    stems = {w.rstrip("s") for w in words(" ".join(tokens))}
    field = next(((label, value) for label, value in labels if {w.rstrip("s") for w in words(label.text)} <= stems), None)
    label_words = set(words(field[0].text)) if field else set()
    control = None if field is not None or st.live is None else next(
        (e for e in st.live.elements if e.role in ("combobox", "textbox") and e.name and e.selector and not e.hidden
         and {w.rstrip("s") for w in words(e.name)} <= stems), None)
    if control is not None:   # "issue 3 has status chatting": the form's Status box holds the value
        label_words = set(words(control.name))
    names = _names(tokens, {k for k, t in enumerate(tokens) if t.lower() in label_words}, cells)
    if not names:
        names = [t for t in tokens if t.lower() not in _FILLER | label_words and not re.fullmatch(r"[a-z]+s", t)] \
            if field or control else []
    if not names:
        return False
    try:
        for phrase in names:
            if control is not None:
                st.check(checks.element(st.ctx, selector=control.selector, text=phrase, present=not negated,
                                        description=f"Check the {control.name} of {rec} "
                                                    f"{'is not' if negated else 'is'} {phrase!r}"))
            elif field is not None and field[1].el.selector:
                st.check(checks.element(st.ctx, selector=field[1].el.selector, text=phrase, present=not negated,
                                        description=f"Check the {field[0].text.rstrip(':')} of {rec} "
                                                    f"{'is not' if negated else 'is'} {phrase!r}"))
            elif not negated:
                st.check(checks.text_shown(st.ctx, phrase))
            else:
                return False
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    st.explicit_check_last = True
    return True


def _yes_no(st: State, record: str, in_row: list[_Cell], cells: list[_Cell], columns: list[int],
            heads: dict[int, str], negated: bool) -> bool:
    """The record's cell in a yes/no column the statement names shows yes (or no, negated), as that column
    writes it in the other rows ("1" / "0", "True" / "False", "✓" / "✗")."""
    for col in columns:
        cell = next((cl for cl in in_row if cl.column == col and cl.el.selector), None)
        shown = [cl.text.strip() for cl in cells if cl.column == col and _table_of(cl.el.selector) ==
                 _table_of(cell.el.selector)] if cell is not None else []
        if not shown or not all(not t or t.lower() in TRUE_WORDS + FALSE_WORDS for t in shown):
            continue
        yes = next((t for t in shown if t.lower() in TRUE_WORDS), None)
        no = next((t for t in shown if t.lower() in FALSE_WORDS), None)
        pair = next(((y, n) for y, n in zip(TRUE_WORDS, FALSE_WORDS) if (yes or no or "").lower() in (y, n)), ("1", "0"))
        want = (no or pair[1]) if negated else (yes or pair[0])
        if not want:
            continue
        try:
            st.check(checks.element(st.ctx, selector=cell.el.selector, text=want,
                                    description=f"Check {record!r} is {'not ' if negated else ''}{heads[col]} ({want})"))
        except CannotCheck as exc:
            raise Unplannable(str(exc)) from exc
        st.explicit_check_last = True
        return True
    return False


# "the page title is Pydoc: Index of Modules": the page's own title, however its words read (the check intent's)
_TITLE_IS = re.compile(r"^(?:the\s+)?(?:page\s+|screen\s+|window\s+|tab\s+|browser\s+)?(?:title|heading|header)\s+"
                       r"(?:is|reads?|says?|shows?|=|(?:should|must|ought\s+to|has\s+to)\s+(?:be|read|say|show))\s+", re.I)


# "the Home page shows the Lab Setup link": what a page shows, never a row of its name
_PAGE_SAYS = re.compile(r"^(?:the\s+)?\S.*?\s+(?:page|tab|screen)\s+(?:shows?|lists?|says?|reads?|contains?|has|mentions?)\b",
                        re.I)


def statement_check(c: Clause, st: State) -> bool:
    """A statement about one record, checked in its row: see the module's docstring."""
    if c.act is not Act.CHECK or st.live is None:
        return False
    said = re.sub(r"^(?:that|whether|if)\s+", "", c.rest.strip(), flags=re.I).rstrip(" ?.!")
    said = re.sub(r"\s+(?:any\s*more)$", "", re.sub(r"\bno\s+longer\b", "not", said, flags=re.I), flags=re.I)
    # "blinking red means no internet connection": what it means is a value, its "no" included
    meaning = _MEANS.search(said)
    if not said or _NOBODY.search(said[:meaning.start()] if meaning else said) or _PRESENCE.search(said) \
            or _COUNT.search(said) or quoted(said) == said or _TITLE_IS.match(said) or _PAGE_SAYS.match(said):
        return False
    page = _NUMBERED.match(said)   # "ticket 1 has critical priority": on that record's own page
    if page is not None and _MONTH.match(page.group("rec")):
        page = None                  # "November 2026 shows 1,390.70": a month, in a row of a table
    if page is not None:
        where = record_ids.toward(st, page.group("rec")) if record_ids.parse(page.group("rec")) else None
        if where is None:
            return False
        if where is False:
            raise Defer(page.group("rec"), replace_with=[c.text])
        said = page.group("rest")
    cells, heads = _table(st)
    tokens = re.sub(r"['’]s\b|,(?=\s|$)", "", said).split()
    tokens, negated = _unnegated([t.strip("\"'“”‘’()") for t in tokens if t.strip("\"'“”‘’()")])
    # the kind of record the screen lists ("a plant called Basil" on the plants page) names no record or value,
    # though a cell may hold the word ("Snake Plant")
    tokens = [t for k, t in enumerate(tokens) if not (t.islower() and len(t) > 2 and t not in _FILLER and on_list_of(st, t)
                                                      and not (k and _NUMBER.match(tokens[k - 1])))]   # "3 hours": a unit
    if page is not None:
        return _field_statement(st, tokens, negated, page.group("rec"), cells)
    found = _record(tokens, cells) if cells else None
    among = found is None and bool(cells) and (found := _record_among_rows(tokens, cells)) is not None
    if found is None and not cells and _item_statement(st, said, negated):
        return True
    if found is None and not among and _fact_on_page(st, said):
        return True
    if found is None:
        return not negated and _seek(st, tokens, c.text)
    (ri, rj), row = found
    covered = set(range(ri, rj))
    # a word of a column's header says which column, and is no part of a name: "in the Araceae family"
    header_words = records.header_words(st)
    headers_said = {k for k, t in enumerate(tokens) if t.islower() and t.rstrip("s") in header_words} - covered
    blocked = covered | headers_said
    names = _names(tokens, blocked, cells)
    covered = blocked - headers_said
    relation = {w.rstrip("s") for w in words(" ".join(t for k, t in enumerate(tokens) if k not in covered))} - _FILLER
    named_columns = [col for col, head in heads.items() if {w.rstrip("s") for w in words(head)} & relation]
    if among and named_columns:
        return False   # "Chloe pays Bob": which of them pays is a relation in the row's order, read elsewhere
    record = " ".join(tokens[ri:rj])
    in_row = [cl for cl in cells if cl.row == row]
    # "the CSV export bug that drops the last row": words of the record's own name cell name it, they say
    # nothing of it ("has been resolved" must be read elsewhere, never passed on its title alone)
    own = [cl for cl in in_row if _shows(cl.text, record)]
    verb = next((k for k, t in enumerate(tokens) if k >= rj and t.lower() in _PREDICATE), len(tokens))
    names = [n for n in names if _NUMBER.match(n) or _at(tokens, n) > verb
             or not any(_shows(cl.text, n) for cl in own)]   # said after the verb: a fact, wherever it shows
    # "checked every 3 hours": a number said with its unit is that number of those, never a 3 in "3 minutes ago"
    names = [_with_unit(n, tokens, in_row) for n in names]
    tag = _tag_said(tokens, rj)
    if tag and not any(_shows(tag, n) for n in names):
        names.append(tag)   # "X is tagged sport": a tag is a value, shown anywhere or not (the check then fails)
    if not names:   # "The Hobbit is available": the row's cell under the yes/no column "available"
        return _yes_no(st, record, in_row, cells, named_columns, heads, negated)
    try:
        if negated:   # the record is there, and its cell does not show the value
            st.check(checks.element(st.ctx, row=row, text=record, description=f"Check {record!r} is listed"))
        for phrase in names:
            at = [cl for cl in in_row if _shows(cl.text, phrase)]
            usual = _usual_column(phrase, cells, in_row) if negated else 0   # 0: no cell shows it anywhere
            columns = named_columns or ([usual] if usual else [])
            in_column = [cl for cl in in_row if cl.column in columns and cl.el.selector]
            if in_column:
                # "paid by Bob": Bob under "Who paid?", not among those it was paid for
                target = next((cl for cl in at if cl in in_column), in_column[0])
                shown = _shows(target.text, phrase) or phrase
                head = heads.get(target.column) or f"column {target.column}"
                st.check(checks.element(st.ctx, selector=target.el.selector, text=shown, present=not negated,
                                        description=f"Check the {head!r} of {record!r} "
                                                    f"{'does not show' if negated else 'shows'} {shown!r}"))
                continue
            shown = _shows(at[0].text, phrase) if at else phrase
            st.check(checks.element(st.ctx, row=row, text=shown, present=not negated,
                                    description=f"Check the row of {record!r} "
                                                f"{'does not show' if negated else 'shows'} {shown!r}"))
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    st.explicit_check_last = True
    return True


_PREDICATE = frozenset("is are was were has have had been be does do did gets got should must needs reads says shows "
                       "costs belongs".split())


def _at(tokens: list[str], phrase: str) -> int:
    """Where *phrase* starts among *tokens* (the last place it does), -1 when it is not there word for word."""
    said = phrase.split()
    return max((k for k in range(len(tokens)) if tokens[k:k + len(said)] == said), default=-1)


_UNITS = frozenset("second seconds sec secs minute minutes min mins hour hours hr hrs h day days week weeks month months "
                   "year years cm mm m km kg g lb lbs oz ml l percent times items".split())


_TAG_WORDS = frozenset({"tagged", "labelled", "labeled"})


def _tag_said(tokens: list[str], after: int) -> str:
    """The tag a statement gives its record after the record's name ("is tagged sport", "labelled with
    to read"): the words to its end, or ""."""
    at = next((k for k in range(after, len(tokens)) if tokens[k].lower() in _TAG_WORDS), None)
    if at is None:
        return ""
    rest = tokens[at + 1:]
    if rest and rest[0].lower() in ("with", "as"):
        rest = rest[1:]
    return " ".join(rest) if 1 <= len(rest) <= 3 and set(w.lower() for w in rest) - _FILLER else ""


def _with_unit(name: str, tokens: list[str], in_row: list[_Cell]) -> str:
    """*name*, or with the unit said after it ("3 hours") where *name* is a number no cell of the row is as a
    whole: a cell "40" under "Height (cm)" is 40 cm; "3 minutes ago" is no interval of 3 hours."""
    if not _NUMBER.match(name) or any(cl.text.strip() == name for cl in in_row):
        return name
    at = [k for k, t in enumerate(tokens) if t == name]
    unit = tokens[at[0] + 1].lower() if at and at[0] + 1 < len(tokens) else ""
    return f"{name} {unit}" if unit in _UNITS else name


def _said(c: Clause) -> str:
    """What the check says, without a leading "that" and the closing mark."""
    return re.sub(r"^that\s+", "", c.rest.strip(), flags=re.I).rstrip(" ?.!")


# "there are plants in the Araceae family", "is there any ticket owned by bob", "there are no plants in the
# Cactaceae family": some row (or none) shows the value in its column
_SOME_ROW = re.compile(r"^there\s+(?:is|are|'s)\s+(?P<no>no\s+|not\s+any\s+|n['’]t\s+any\s+)?(?:a|an|any|some|"
                       r"at\s+least\s+one|still)?\s*(?P<kind>[a-z]+)\s+"
                       r"(?:(?:that\s+(?:is|are)\s+|which\s+(?:is|are)\s+)?(?P<part>[a-z]+ed|owned|written|paid)\s+(?:by|to|for)|"
                       r"(?:that\s+(?:is|are)\s+|which\s+(?:is|are)\s+)?(?P<tag>tagged|labell?ed|marked|titled|named|called)"
                       r"(?:\s+(?:with|as))?|in|from|with|of|at|under|for)\s+(?:the\s+|a\s+|an\s+)?(?P<v>.+?)$", re.I)


def some_row_check(c: Clause, st: State) -> bool:
    """"there are plants in the Araceae family": the one column that shows the value shows it in some row;
    "there are no plants in the Cactaceae family": the column its header names shows it in none."""
    if c.act is not Act.CHECK or st.live is None:
        return False
    said = _said(c)
    said = re.sub(r"^there\s+(is|are)n['’]t\s+(?:any\s+)?", r"there \1 no ", said, flags=re.I)
    m = _SOME_ROW.match(said)
    if m is None:
        return False
    none = bool(m.group("no"))
    kind = m.group("kind").lower()
    link = records.entity_link(st, kind) if not on_list_of(st, kind) else None
    if link is not None and link.score >= 0.88:
        return False   # "there are no customers from Lyon" on another list: that list first (scoped-check)
    if none and records.more_pages(st):
        return False   # none on this page says nothing of the next ones
    raw = quoted(m.group("v")) or m.group("v")
    value = quoted(m.group("v")) or records.without_header_word(raw, st)
    tagged = bool(m.group("tag")) and m.group("tag").lower() not in ("named", "called", "titled")
    selector = "" if tagged else column_showing(st, value, m.group("part") or "")
    if not selector and value != raw:   # "the Cactaceae family": the column headed "family"
        column = column_cells(st, raw.split()[-1])
        selector = column[0] if column else ""
    if tagged and not none:
        # "bookmarks tagged python": a tag shows as an element of its own, named exactly so (not a title's word)
        st.prove(lambda: checks.element(st.ctx, text=value, exact=True, description=f"Check {value!r} is shown"))
        return True
    if not selector:
        # no column to look in ("is there a watch for example.com?"): the value itself, shown or not; an absence of
        # words never shown together, where its name is shown, could never fail
        if none:
            from server.planners.intents_check import refuse_unfalsifiable
            refuse_unfalsifiable(st, value)
        st.prove(lambda: checks.element(st.ctx, text=value, present=not none,
                                        description=f"Check {value!r} is {'not ' if none else ''}shown"))
        return True
    st.prove(lambda: checks.element(st.ctx, selector=selector, text=value, present=not none,
                                    description=f"Check {'no' if none else 'some'} {m.group('kind')} shows {value!r}"))
    return True


# "the first row is Monstera", "the top plant should be Monstera", "Basil is the last one": a row by its place
_PLACE = r"(?P<place>first|top|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|bottom)"
_AT_PLACE = (re.compile(rf"^(?:the\s+)?{_PLACE}\s+(?:[a-z]+\s+)?(?:(?:listed|shown|displayed|in\s+the\s+\w+)\s+)?"
                        r"(?:(?:row|entry|item|line|result|record)\s+)?"
                        r"(?:is|should\s+be|must\s+be|shows?|reads?|says?|=)\s+(?P<v>.+)$", re.I),
             re.compile(rf"^(?P<v>.+?)\s+(?:is|should\s+be|must\s+be|comes?|appears?|is\s+listed|shows?\s+up)\s+"
                        rf"(?:the\s+|at\s+the\s+|on\s+)?{_PLACE}(?:\s+(?:one|row|entry|item|in\s+the\s+\w+|"
                        r"of\s+the\s+\w+|on\s+the\s+\w+|in\s+line|[a-z]+))?$", re.I))
_BEFORE = re.compile(r"^(?P<a>.+?)\s+(?:comes?|is|appears?|is\s+listed|shows?\s+up|should\s+(?:come|be))\s+"
                     r"(?:before|after|above|below|ahead\s+of|earlier\s+than|later\s+than)\s+(?P<b>.+)$", re.I)
_PLACE_INDEX = {**ORDINALS, "top": 0, "bottom": -1}   # 0 = first, -1 = last


def place_check(c: Clause, st: State) -> bool:
    """A row by its place in the table shown ("the first row is Monstera"): that row, by position, shows the
    value. Two records' order ("A comes before B") cannot be read by one check: refused, not guessed."""
    if c.act is not Act.CHECK or st.live is None:
        return False
    said = _said(c)
    if _BEFORE.match(said):
        raise Unplannable(f"the order of two records ({said!r}) is not one check; sort the list by the column "
                          "that orders them and check it is sorted, or check which row is first", said)
    m = next((p.match(said) for p in _AT_PLACE if p.match(said)), None)
    if m is None:
        return False
    value = quoted(m.group("v")) or clean(m.group("v"))
    if not value or len(value) > 80:
        return False
    first = _rows_selector(st)
    if not first:
        return False
    index = _PLACE_INDEX[m.group("place").lower()]
    row = f"{first}:last-of-type" if index < 0 else f"{first}:nth-of-type({index + 1})"
    st.prove(lambda: checks.element(st.ctx, selector=row, text=value,
                                    description=f"Check the {m.group('place').lower()} row shows {value!r}"))
    return True


def _rows_selector(st: State) -> str:
    """A selector of every row of the main list shown ("#list > tbody > tr", "#todo-list > li"): a table's
    rows, else the list whose items hold controls of their own (a todo's checkbox), else the longest."""
    assert st.live is not None
    cells, _ = _table(st)
    tables: dict[str, set[str]] = {}   # each table's rows: the list's, not a sidebar's
    for cl in cells:
        m = re.match(r"^(.*\btr):nth-of-type\((\d+)\)", cl.el.selector or "")
        if m:
            tables.setdefault(m.group(1), set()).add(m.group(2))
    if tables:
        return max(tables, key=lambda t: len(tables[t]))
    groups: dict[str, list[Any]] = {}
    for e in st.live.elements:
        m = re.match(r"^(.*\bli):nth-of-type\(\d+\)$", e.selector or "")
        if e.role == "listitem" and m and not e.hidden:
            groups.setdefault(m.group(1), []).append(e)
    holders = {e.container for e in st.live.elements if e.container}
    ranked = sorted(groups.items(), key=lambda kv: (-sum((x.text or x.name) in holders for x in kv[1]), -len(kv[1])))
    return ranked[0][0] if ranked and len(ranked[0][1]) >= 2 else ""


# "nothing is completed", "none of the todos are ticked", "every todo is done": the rows' boxes, all or none
_QUANTIFIED = re.compile(r"^(?P<q>nothing|none(?:\s+of\s+(?:the|my|our)\s+\w+)?|no\s+\w+|no\s+one|"
                         r"(?:all|every|each)(?:\s+(?:of\s+)?(?:the|my|our))?(?:\s+\w+)?)\s+(?:is|are|has\s+been|have\s+been|"
                         r"got|gets|get)\s+(?:now\s+|still\s+)?(?P<state>(?:not\s+)?(?:checked|ticked|done|completed|complete|"
                         r"finished|selected)|unchecked|unticked|undone|open|active|pending)$", re.I)
_DONE = re.compile(r"^(?:checked|ticked|done|completed|complete|finished|selected)$", re.I)


def quantified_state_check(c: Clause, st: State) -> bool:
    """"nothing is completed", "every todo is done": no box of the list's rows is in the other state."""
    if c.act is not Act.CHECK or st.live is None:
        return False
    m = _QUANTIFIED.match(_said(c))
    if m is None:
        return False
    state = m.group("state").lower()
    done = bool(_DONE.match(state.removeprefix("not ").strip())) != state.startswith("not ")
    everyone = m.group("q").split()[0].lower() in ("all", "every", "each")
    rows = _rows_selector(st)
    if not rows or not any(e.role == "checkbox" and e.container for e in st.live.elements):
        return False
    boxes = f"{rows} input[type=checkbox], {rows} [role=checkbox]"
    # every one done: none is left undone; none done: none is done
    unwanted = "unchecked" if (everyone and done) or (not everyone and not done) else "checked"
    st.prove(lambda: checks.element(st.ctx, selector=boxes, state=unwanted, present=False,
                                    description=f"Check no item of the list is {unwanted}"))
    return True


_ITEM_SAYS = re.compile(r"^(?P<rec>.+?)\s+(?:(?:is|are|was|were|has\s+been|have\s+been)\s+(?:not\s+)?(?:\w+ed|sent|written|"
                        r"paid|made|due|set|from|by|to|for|in|at|on)?|has|have|shows?|comes?\s+from)\s*(?:\b(?:to|by|from|"
                        r"in|at|on|for|with|as)\s+)?(?P<v>[^\s].{0,60})$", re.I)


def _item_statement(st: State, said: str, negated: bool) -> bool:
    """"\"Your order has shipped\" was sent to sam@home.example" on a list of items (no table): the item the
    statement names first, a quoted or whole name of one row, shows the value it ends with."""
    rec = quoted(said) if said.startswith(('"', "“", "'")) else ""
    rest = said[said.find(rec) + len(rec) + 1:].strip(" \"”'") if rec else ""
    m = _ITEM_SAYS.match(f"X {rest}" if rec else said)
    if m is None or st.live is None:
        return False
    rec = rec or m.group("rec")
    value = _said_value(m.group("v"))
    if not quoted(m.group("v")) and not re.search(r"[\d@A-Z]", value):
        return False   # "is not completed": a state, which the item's own box says (the state checks)
    rows = [r for r in grounding.rows(rec, st.live, minimum=0.75) if r.score >= 0.9 or rec.lower() in r.name.lower()]
    if not value or len(rows) != 1:
        return False
    page = _page_of_row(st, rows[0].name) if value.casefold() not in rows[0].name.casefold() else None
    if page is not None:   # "the balance sheet shows X": a menu's link to a page names that page, not an item
        return _on_page_check(st, page, value, negated)
    try:
        st.check(checks.element(st.ctx, row=rows[0].name, text=value, present=not negated,
                                description=f"Check the item {rec!r} {'does not show' if negated else 'shows'} {value!r}"))
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    st.explicit_check_last = True
    return True


def _page_of_row(st: State, row: str) -> UIElement | None:
    """The link a row holds and is nothing but, when it goes to a page (a menu's or a sidebar's entry)."""
    assert st.live is not None
    inside = [e for e in st.live.elements if e.container == row or e.label == row]
    links = [e for e in st.live.elements if e.role == ROLE_LINK and e.href and not grounding.stays_on_page(e.href)
             and grounding.norm(e.name or e.text) == grounding.norm(row)]
    if len(links) != 1 or any(e.role not in (ROLE_LINK, "listitem") for e in inside):
        return None
    return links[0]


def _on_page_check(st: State, link: UIElement, value: str, negated: bool) -> bool:
    """*value* shown on the page *link* goes to: here (the link says it is the current page), else after it."""
    here = bool(link.selected) or bool({"selected", "active", "current"} & set(link.hint.split())) \
        or record_ids.on_named_record(st, link.name or link.text)
    if not here:
        st.click_live(grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.95, link.label, live=link),
                      f"Open {link.label!r}")
        try:   # the page is proved reached: another page may show the value too, or not show it
            st.check(checks.page(st.ctx, link.name or link.text))
        except CannotCheck as exc:
            raise Unplannable(str(exc)) from exc
        raise Defer(link.label, replace_with=[f'check "{value}" is {"not " if negated else ""}shown'])
    try:
        st.check(checks.text_shown(st.ctx, value, present=not negated))
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    st.explicit_check_last = True
    return True


# "the tomato soup serves 4", "the Pancakes page doesn't need butter": a fact about the page a link on the
# screen names, whatever its verb; what it says is read on that page
_KIND_AFTER = re.compile(r"^(?:page|note|entry|article|post|item|record|card|recipe|document|doc)\s+", re.I)
_NOT = re.compile(r"^(?:(?:does|do|did|should|must|will|would|can|could|may)\s+not|cannot|no\s+longer|never|not|"
                  r"(?:does|do|did|should|must|wo|would|ca|could)n['’]t)\s+", re.I)
_MODAL = re.compile(r"^(?:should|must|will|can|would|does|do)\s+", re.I)
_NO_FACT_VERBS = frozenset("is are was were be been being am isn aren wasn weren has have had the a an and or "
                           "of in on at to for with by from not no never cannot longer".split())
_SAYING_VERBS = re.compile(r"^(?:says?|shows?|lists?|contains?|mentions?|includes?|reads?|has|have)$", re.I)


def _fact_on_page(st: State, said: str) -> bool:
    """A statement whose subject is what a link on the screen names, its predicate a verb and what it says:
    the page is opened and the object checked there ("serves 4" with its verb, where a number alone says little).
    Copulas ("is", "has been") are statements about a row, left to the table's reading."""
    assert st.live is not None
    text = re.sub(r"^(?:the|a|an)\s+", "", said.strip(), flags=re.I)
    low = grounding.norm(text)
    links = [e for e in st.live.elements if e.role == ROLE_LINK and not e.hidden and (e.name or e.text)
             and low.startswith(grounding.norm(e.name or e.text) + " ")]
    if not links:
        return False
    link = max(links, key=lambda e: len(e.name or e.text))
    subject = grounding.norm(link.name or link.text)
    if any(e.role != ROLE_LINK and grounding.norm(e.name or e.text or "") == subject for e in st.live.elements):
        return False   # a label of this page ("Status" above "Failed"): read here, no page to leave for
    pred = " ".join(text.split()[len((link.name or link.text).split()):])
    pred = _KIND_AFTER.sub("", pred)
    negated = bool(_NOT.match(pred))
    bare = negated or bool(_MODAL.match(pred))   # "should serve 4", "doesn't need": the verb's bare form
    pred = _MODAL.sub("", _NOT.sub("", pred))
    verb, _, obj = pred.partition(" ")
    obj = re.sub(r"^(?:the|a|an)\s+", "", obj.strip(), flags=re.I).rstrip(" .!?")
    if not verb.isalpha() or not verb.islower() or verb in _NO_FACT_VERBS or not obj \
            or not re.search(r"\d|[a-z]{3,}", obj, re.I) or set(words(obj)) <= _FILLER:
        return False
    value = quoted(obj) or obj.strip("\"'“”")
    if re.fullmatch(r"[\d.,]+", value) and not _SAYING_VERBS.match(verb):
        # "serves 4": a bare 4 is found in any page's text; "should serve 4" reads "serves 4" on the page
        third = verb + ("es" if re.search(r"(?:sh|ch|x|ss|o)$", verb) else "s") if bare and not verb.endswith("s") \
            else verb
        value = f"{third} {value}"
    return _on_page_check(st, link, value, negated)


def _said_value(text: str) -> str:
    return quoted(text) or text.strip().rstrip(" .!?").strip("\"'“”")
