"""A filter built from a condition: "family is Lamiaceae", "city = Leeds", "name contains lily", "height over 100".

Many data apps filter a list with a row of controls rather than links: a dropdown
of columns, a dropdown of operators, a value field and an Apply button (Datasette,
admin tools, issue trackers). The condition the tester wrote is read as
column / operator / value; the column must be an option of a dropdown on the
screen, the operator (when the app offers a choice) an option of the dropdown
beside it. The value is typed in the field of the same row, then the row is
applied. A condition whose column no dropdown offers is not this kind of filter.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from server.planners import checks
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind, similarity
from server.planners.language import Act, Clause
from server.planners.state import State
from shared import vocabulary as V
from shared.screen import ROLE_BUTTON, ROLE_CELL, ROLE_COMBOBOX, ROLE_TEXTBOX, UIElement


@dataclass(frozen=True)
class Operator:
    words: tuple[str, ...]      # how testers write it
    options: tuple[str, ...]    # how apps label it, best first
    shows_value: bool = True    # the rows left show the value itself


OPERATORS = (
    Operator(("is not", "isn't", "is not equal to", "not equal to", "!=", "<>", "does not equal"),
             ("!=", "≠", "is not", "not equal", "does not equal", "not")),
    Operator(("starts with", "begins with", "start with", "begin with"), ("starts with", "begins with")),
    Operator(("ends with", "end with"), ("ends with",)),
    Operator(("contains", "contain", "includes", "include", "has", "like", "matches"),
             ("contains", "includes", "like", "matches")),
    Operator(("is at least", "at least", ">=", "≥", "is greater than or equal to"),
             ("≥", ">=", "at least", "greater than or equal"), shows_value=False),
    Operator(("is at most", "at most", "<=", "≤", "is less than or equal to"),
             ("≤", "<=", "at most", "less than or equal"), shows_value=False),
    Operator(("is greater than", "greater than", "is more than", "more than", "is over", "over", "above",
              "is above", "bigger than", "higher than", ">"), (">", "greater than", "more than", "after"),
             shows_value=False),
    Operator(("is less than", "less than", "is under", "under", "below", "is below", "smaller than", "lower than",
              "<"), ("<", "less than", "before"), shows_value=False),
    Operator(("is equal to", "equal to", "equals", "is", "=", "==", "eq"), ("=", "equals", "is", "exact", "==")),
)

_OPERATOR_WORDS = sorted(((w, op) for op in OPERATORS for w in op.words), key=lambda p: -len(p[0]))
_CONDITION = re.compile(
    r"^(?:the\s+|its\s+|their\s+)?(?P<col>[\w][\w .-]{0,40}?)\s*(?P<op>%s)\s*(?P<v>\S.*)$"
    % "|".join(re.escape(w) if not w[0].isalpha() else rf"\b{re.escape(w)}\b" for w, _ in _OPERATOR_WORDS),
    re.I)
_APPLY = re.compile(r"^(?:apply|filter|search|go|submit|ok|show|update|refresh)\b", re.I)


@dataclass(frozen=True)
class Condition:
    column: str
    operator: Operator
    value: str
    # a yes/no column's filter: the cells of the column, which must not show the other value once it applies
    cells: str = ""
    other: str = ""


_YES = ("1", "true", "yes", "y", "✓", "✔", "on")
_NO = ("0", "false", "no", "n", "✗", "✘", "off")


def flag_condition(st: State, text: str) -> Condition | None:
    """"indoor plants", "the plants that are indoor": a yes/no column of the list shown, said as the kind's
    adjective; the condition is the column's yes value."""
    text = re.sub(r"^(?:me\s+)?(?:(?:all|only|just)\s+)?(?:of\s+)?(?:the\s+)?", "", text.strip().strip(".?!"), flags=re.I)
    m = re.match(r"^(?P<flag>[\w-]+)\s+(?P<kind>[a-z][\w-]*)$", text, re.I) or \
        re.match(r"^(?P<kind>[a-z][\w-]*)\s+(?:that|which|who)\s+(?:are|is)\s+(?P<flag>[\w-]+)$", text, re.I)
    if m is None or st.live is None or not (_names_the_list(st, m.group("kind"))
                                            or m.group("kind").lower() in ("ones", "items", "rows", "entries", "records")):
        return None   # ("the indoor ones": of the list shown)
    from server.planners.intents_statement import column_cells

    found = column_cells(st, m.group("flag"))
    if found is None:
        return None
    selector, values = found
    folded = {v.strip().lower(): v.strip() for v in values}
    yes = next((folded[v] for v in _YES if v in folded), None)
    no = next((folded[v] for v in _NO if v in folded), None)
    if yes is None or not set(folded) <= set(_YES) | set(_NO):
        return None
    column = next((o for o in _columns(st) if _norm(o) == _norm(m.group("flag"))), m.group("flag"))
    return Condition(column, OPERATORS[-1], yes, cells=selector, other=no or "")


def _names_the_list(st: State, kind: str) -> bool:
    """*kind* is what the list shown lists: a word of its heading or of its page's address ("plants")."""
    assert st.live is not None
    said = {kind.lower(), kind.lower().rstrip("s")}
    shown = set(re.findall(r"[a-z]+", (st.live.url or "").lower()))
    for h in st.live.headings():
        shown |= set(re.findall(r"[a-z]+", h.label.lower()))
    return bool(said & (shown | {w.rstrip("s") for w in shown}))


def read_condition(text: str) -> Condition | None:
    """ "family is Lamiaceae" → (family, =, Lamiaceae); None when *text* is no condition."""
    m = _CONDITION.match(text.strip().strip(".?!"))
    if not m:
        return None
    op = next(o for w, o in _OPERATOR_WORDS if w.lower() == m.group("op").lower())
    value = m.group("v").strip().strip("\"'“”")
    return Condition(m.group("col").strip(), op, value) if value else None


def _norm(text: str) -> str:
    return re.sub(r"[\s_-]+", " ", text.strip().lower())


def _column_option(el: UIElement, column: str) -> str | None:
    best = max(((similarity(_norm(column), _norm(o)), o) for o in el.options), default=(0.0, ""))
    return best[1] if best[0] >= 0.88 else named_column(column, el.options)


def named_column(said: str, columns: list[str] | tuple[str, ...]) -> str | None:
    """The one column whose name the tester's words start, or hold, as whole words: "height" is "height_cm",
    "price" is "unit_price" (a unit or a prefix that a person drops). None when none, or more than one, does."""
    want = _norm(said).split()
    if not want:
        return None
    for fits in (lambda have: have[:len(want)] == want,
                 lambda have: any(have[i:i + len(want)] == want for i in range(len(have)))):
        found = [c for c in columns if fits(_norm(c).split())]
        if found:
            return found[0] if len(found) == 1 else None
    return None


# comparatives a tester writes for a column's value: "taller than 100 cm", "cheaper than 10", "under 50 cm tall"
_MORE, _LESS = (next(o for o in OPERATORS if sign in o.words) for sign in (">", "<"))
_COMPARATIVES = {
    "taller": ("height", _MORE), "higher": ("height", _MORE), "shorter": ("height length", _LESS),
    "longer": ("length", _MORE), "wider": ("width", _MORE), "narrower": ("width", _LESS),
    "heavier": ("weight", _MORE), "lighter": ("weight", _LESS), "older": ("age", _MORE), "younger": ("age", _LESS),
    "deeper": ("depth", _MORE), "bigger": ("size", _MORE), "larger": ("size", _MORE), "smaller": ("size", _LESS),
    "cheaper": ("price cost", _LESS), "pricier": ("price cost", _MORE), "more expensive": ("price cost", _MORE),
    "less expensive": ("price cost", _LESS), "dearer": ("price cost", _MORE),
}
_MEASURES = {"tall": "height", "high": "height", "long": "length", "wide": "width", "heavy": "weight",
             "old": "age", "deep": "depth", "big": "size", "large": "size"}
_NUMBER = r"(?P<v>[-+]?\d[\d,]*(?:\.\d+)?)"
_COMPARED = re.compile(rf"^(?P<adj>{'|'.join(sorted(_COMPARATIVES, key=len, reverse=True))})\s+than\s+{_NUMBER}"
                       r"(?:\s*[^\s\d]{1,4})?$", re.I)
_BOUNDED = re.compile(rf"^(?P<op>under|over|above|below|less than|more than|at least|at most)\s+{_NUMBER}"
                      rf"(?:\s*[^\s\d]{{1,4}})?\s+(?P<m>{'|'.join(_MEASURES)})$", re.I)


# a time said of a record: "published after 1950", "created before 2024-03-01", "released since 2000"
_DATED_VERBS = "published|released|written|created|made|born|founded|added|built|dated|issued|opened|started"
_DATED = re.compile(rf"^(?:(?P<verb>{_DATED_VERBS})\s+)?(?:from\s+)?"
                    r"(?P<op>after|before|since|prior to|later than|earlier than)\s+(?P<v>\d{4}(?:-\d\d(?:-\d\d)?)?)$",
                    re.I)
_AT_LEAST = next(o for o in OPERATORS if ">=" in o.words)
_DATED_OPS = {"after": _MORE, "later than": _MORE, "before": _LESS, "prior to": _LESS, "earlier than": _LESS,
              "since": _AT_LEAST}


def _dated_on(st: State, text: str) -> Condition | None:
    m = _DATED.match(text)
    if m is None:
        return None
    for measure in (m.group("verb") or "", "year", "date"):
        column = named_column(measure, _columns(st)) if measure else None
        if column is not None:
            return Condition(column, _DATED_OPS[m.group("op").lower()], m.group("v"))
    return None


def comparative_on(st: State, text: str) -> Condition | None:
    """ "taller than 100 cm" → (height_cm, >, 100); "under 50 cm tall" → (height_cm, <, 50): the column is the
    one the screen offers for that measure; None when it offers none."""
    text = text.strip().strip(".?!")
    dated = _dated_on(st, text)
    if dated is not None:
        return dated
    m = _COMPARED.match(text)
    if m:
        measures, op = _COMPARATIVES[m.group("adj").lower()]
    else:
        m = _BOUNDED.match(text)
        if not m:
            return None
        measures = _MEASURES[m.group("m").lower()]
        op = next(o for w, o in _OPERATOR_WORDS if w.lower() == m.group("op").lower())
    for measure in measures.split():
        column = named_column(measure, _columns(st))
        if column is not None:
            return Condition(column, op, m.group("v").replace(",", ""))
    return None


def _operator_option(el: UIElement, op: Operator) -> str | None:
    labels = {o.strip().lower(): o for o in el.options}
    return next((labels[c] for c in op.options if c in labels), None)


def _columns(st: State) -> list[str]:
    return [o for e in (st.live.elements if st.live else ()) if e.role == ROLE_COMBOBOX for o in e.options]


def _cells(st: State) -> list[UIElement]:
    return [e for e in (st.live.elements if st.live else ()) if e.role == ROLE_CELL and e.container]


def read_condition_on(st: State, text: str) -> Condition | None:
    """A condition in *text*, also without an operator where the screen offers the column:
    "family Araceae" and "full sun light" (a value, then its column) are equalities."""
    cond = read_condition(text) or flag_condition(st, text)
    if cond is not None:
        return cond
    columns = {_norm(o): o for o in _columns(st)}
    m = re.match(r"^(?:the\s+|a\s+)?(?P<a>[\w.-]+)\s+(?P<b>\S.*)$", text.strip().strip(".?!"))
    if m and _norm(m.group("a")) in columns:
        return Condition(columns[_norm(m.group("a"))], OPERATORS[-1], m.group("b").strip("\"'“”"))
    m = re.match(r"^(?:an?\s+|the\s+)?(?P<v>\S.*?)\s+(?P<col>[\w.-]+)$", text.strip().strip(".?!"))
    if m and _norm(m.group("col")) in columns:
        value = m.group("v").strip("\"'“”")
        whole = re.sub(r"^(?:an?|the)\s+", "", text.strip().strip(".?!"), flags=re.I)
        if any(_norm(e.name or e.text or "") == _norm(whole) for e in _cells(st)):
            value = whole   # "low light" is a value of the column light, not "low"
        return Condition(columns[_norm(m.group("col"))], OPERATORS[-1], value)
    return None


_WHOSE = re.compile(r"^(?:me\s+)?(?:(?:all|only|just)\s+)?(?:of\s+)?(?:the\s+)?(?P<noun>[\w ]+?)\s+"
                    r"(?:whose|where|with|that have|that has|which have|which has|having|that are|which are)\s+"
                    r"(?:the\s+|a\s+|an\s+)?(?P<cond>\S.*)$", re.I)


# "plants taller than 100 cm", "only plants under 50 cm tall": a list's noun, then a comparative of a measure
_COMPARED_NOUN = re.compile(
    rf"^(?:me\s+)?(?:(?:all|only|just)\s+)?(?:of\s+)?(?:the\s+)?(?P<noun>[\w ]+?)\s+(?:that\s+are\s+|which\s+are\s+)?"
    rf"(?P<cond>(?:{'|'.join(sorted(_COMPARATIVES, key=len, reverse=True))})\s+than\s+.+|"
    rf"(?:under|over|above|below|less than|more than|at least|at most)\s+\d.*\s(?:{'|'.join(_MEASURES)})|"
    rf"(?:(?:{_DATED_VERBS})\s+)?(?:from\s+)?(?:after|before|since|prior to|later than|earlier than)\s+\d{{4}}\S*)$",
    re.I)


def condition_intent(c: Clause, st: State) -> bool:
    """"find plants whose name contains lily", "list suppliers where city is Leeds", "show only plants
    with full sun light": open the list named, then filter it by the condition."""
    if c.act not in (Act.SEARCH, Act.OPEN, Act.FILTER, Act.NONE) or st.live is None:
        return False
    rest = c.rest if c.act is not Act.NONE else re.sub(r"^(?:list|which|what|show)\s+", "", c.text, flags=re.I)
    m = _WHOSE.match(rest.strip()) or _COMPARED_NOUN.match(rest.strip())
    if not m:
        return False
    from server.planners import records
    from server.planners.list_search import go_to_list, on_list_of

    noun = m.group("noun").strip()
    if records.entity_link(st, noun) is not None and not on_list_of(st, noun):
        return go_to_list(st, noun, [c.text])
    cond = read_condition_on(st, m.group("cond")) or comparative_on(st, m.group("cond"))
    if cond is not None and condition_filter(st, cond):
        return True
    said = _FIELD_IS.match(m.group("cond").strip()) if m.re is _WHOSE else None
    if said is None:
        return False
    # "find the transactions whose payee is Maria Lopez" where no filter takes a column: the list's search, for
    # the value
    from server.planners.intents_search import search_intent

    value = said.group("v").strip(" .!?\"'“”")
    if re.match(r"(?:not|no|none|neither|without|the\s+(?:lowest|highest|largest|smallest|biggest|most|least|same|best|worst)|"
                r"(?:above|below|over|under|more|less|greater|fewer|at\s+least|at\s+most)\b)", value, re.I):
        return False   # a negation, a superlative or a comparison is no word to search for
    return search_intent(Clause(f'search for "{value}"', Act.SEARCH, f'"{value}"'), st)


_FIELD_IS = re.compile(r"^(?P<f>[a-z][\w ]{0,24}?)\s+(?:is|=|equals|was)\s+(?P<v>\S.*)$", re.I)


def condition_filter(st: State, text: str | Condition) -> bool:
    """Plan a column / operator / value filter for *text*; False when the screen has no such filter row."""
    cond = text if isinstance(text, Condition) else read_condition_on(st, text)
    if cond is None or st.live is None:
        return False
    elements = list(st.live.elements)
    table = bool(_cells(st))   # read now: the screen after Apply is not known yet
    for i, el in enumerate(elements):
        if el.role != ROLE_COMBOBOX or el.disabled:
            continue
        column = _column_option(el, cond.column)
        if column is None:
            continue
        near = elements[i + 1:i + 8]
        op_box = next((e for e in near if e.role == ROLE_COMBOBOX and _operator_option(e, cond.operator)), None)
        equality = cond.operator is OPERATORS[-1]
        if op_box is None and not equality:
            continue   # the app cannot say "contains" / "over": not this filter
        field = next((e for e in near if e.role == ROLE_TEXTBOX and not e.disabled), None)
        if field is None:
            continue
        _choose(st, el, column, f"Filter on the {column!r} column")
        if op_box is not None:
            _choose(st, op_box, _operator_option(op_box, cond.operator) or "", "Choose the comparison")
        from server.planners.intents_form import type_into

        apply = next((e for e in elements[i + 1:i + 12] if e.role == ROLE_BUTTON and _APPLY.match(e.name or e.text)),
                     None)
        type_into(st, cond.value, Target(TargetKind.LIVE_ELEMENT, 1.0, field.label, live=field), submit=apply is None)
        if apply is not None:
            st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, apply.label, live=apply), f"Apply the filter "
                          f"({column} {cond.operator.words[0]} {cond.value})")
        st.summary.append(f"filter {column} {cond.operator.words[0]} {cond.value}")
        if cond.cells and cond.other:
            # "indoor plants": no row left says no in that column (waited for while the page reloads), then
            # the rows left say yes there (the column is still where it was: an absence alone could be vacuous)
            st.check(checks.element(st.ctx, text=cond.other, selector=cond.cells, exact=True, present=False,
                                    description=f"Check no row left has {column} = {cond.other!r}"))
            st.expect_check(checks.element(st.ctx, text=cond.value, selector=cond.cells, exact=True,
                                           description=f"Check the rows left have {column} = {cond.value!r}"))
            return True
        try:
            # the rows left show the value in a cell: the value typed in the filter's own field, or echoed in
            # the page's description of the filter, proves nothing
            st.expect_check((checks.element(st.ctx, text=cond.value, role=ROLE_CELL,
                                            description=f"Check the rows left show {cond.value!r}")
                             if table else checks.text_shown(st.ctx, cond.value))
                            if cond.operator.shows_value else None)
        except CannotCheck:
            st.expect_check(None)
        return True
    return False


def _choose(st: State, box: UIElement, option: str, description: str) -> None:
    params = {"option": option, "field": box.name or box.hint} if (box.name or box.hint) else \
        {"option": option, "selector": box.selector}
    st.add(V.SELECT_OPTION, params, f"{description}: {option!r}")
