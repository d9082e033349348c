"""Filling in the form on the screen with what a task says of a record: which field each value goes in, and
what goes in it (a value's shape names its field; a list's column names it; a yes/no dropdown takes a flag).

``fill`` only plans the steps; the intents decide when a form is filled, sent and checked (intents_records).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from server.planners import form_values, grounding, records
from server.planners.language import words
from server.planners.records import Record
from server.planners.state import State, Unplannable
from shared import dates, vocabulary as V
from shared.screen import ROLE_CHECKBOX, ROLE_COMBOBOX, ROLE_TEXTBOX, UIElement


def fill(st: State, rec: Record, placed: list[str] | None = None) -> int:
    """Plan the steps that put *rec* into the form on the screen; return how many fields were filled. *placed*
    gets each value as it goes in (Bar, of "in the Bar team")."""
    used: set[int] = set()
    filled = 0
    mark = len(st.steps)
    chunks: list[tuple[int, int, int]] = []   # each field's steps: (its place in the form, first step, end)

    def put(el: UIElement, value: str) -> None:
        nonlocal filled
        start = len(st.steps)
        _put(el, value)
        chunks.append((st.live.elements.index(el) if st.live is not None and el in st.live.elements else 10**6,
                       start, len(st.steps)))

    def _put(el: UIElement, value: str) -> None:
        nonlocal filled
        label = el.name or el.placeholder or el.hint
        first = words(value)[:1]
        said = value.split()
        if el.role == ROLE_TEXTBOX and len(said) >= 2 and first and \
                any(grounding.similarity(first[0], w) >= 0.85 for w in words(label)) and \
                (len(said) == 2 or (said[0].islower() and (said[1][:1].isupper() or said[1][:1].isdigit()))):
            value = " ".join(said[1:])   # "book 1" in the book_id field is 1; "plate AB12 CDE" in Plate is AB12 CDE
        if grounding.is_dropdown(el):
            from server.planners.intents_form import _without_field_word

            value = _without_field_word(value, label)   # "in the Garden category": Garden, in Category
            opt = grounding.option_for(el.options, value) or value
            st.add(V.SELECT_OPTION, {"option": opt, "field": label, **_nth(st, el, label)}, f"Choose {opt!r} in {label}")
            if placed is not None:
                placed.append(grounding.option_shown(opt))
        elif el.role == ROLE_CHECKBOX:
            on = value.lower() in ("yes", "true", "on", "1", "checked")
            st.add(V.SET_CHECKED, {"checked": on, "text": label, "role": ROLE_CHECKBOX},
                   f"{'Tick' if on else 'Untick'} {label}")
        else:
            fill_textbox(st, el, value)   # an editor nothing names is typed into by where it is
            if placed is not None:
                placed.append(value)
        filled += 1

    def put_gated(key: str, value: str | bool) -> bool:
        """A field that a box must enable first (sqlite-web's "Allow updating this column")."""
        nonlocal filled
        gated = records.enabler_for(st, key)
        if gated is None:
            return False
        field, box = gated
        text = value if isinstance(value, str) else _flag_text(field.value, value)
        st.add(V.SET_CHECKED, {"checked": True, "selector": box.selector}, f"Allow changing {field.name or key}")
        label = field.name or field.placeholder or field.hint
        st.add(V.INPUT_TEXT, {"text": text, "field": label, "clear": True}, f"Type {text!r} in {label}")
        filled += 1
        return True

    name = rec.name
    # a field the task names by its own label ("first name Tom") is that value's, never the name's ("tom" of "a
    # user tom" goes in Username, not in First Name)
    claimed = set(used)
    for key, _ in rec.fields:
        own = records.field_for(st, key, set(claimed)) if key not in records.PREPOSITION_FIELDS else None
        if own is not None and grounding.similarity(key, grounding.bare_label(own.name or own.placeholder or "")) >= 0.9:
            claimed.add(st.live.elements.index(own))
    el = name_field(st, claimed) if name else None
    if el is not None:
        used.add(st.live.elements.index(el))
    boxes = [e for e in records.form_fields(st) if e.role == ROLE_TEXTBOX]
    # not a field kept for a value of a shape (a date, an amount, an email): the first free one
    free = [e for e in boxes if not set(words(" ".join(records.labels(e)))) & _SHAPED_FIELD_WORDS]
    if name and el is None and any(put_gated(k, name) for k in records.NAME_FIELDS):
        pass   # a name field that a box enables first (a database browser's row form)
    elif name and el is None and not free and (keyed := form_values.keyed_name(st, name, used)) is not None:
        put(*keyed)   # "a shift: day Fri, time …" on a form with no field for a name: Fri is the Day
    elif name and el is None and not free and (kind := form_values.kind_value(st, name, used)) is not None:
        put(*kind)   # "a Bar shift" on a form with no field for a name: Bar is the shift's team
    elif name:
        if el is None:
            # a box for a number (a temperature's target) takes no name of words
            if not re.fullmatch(r"[\d.,\s+-]+", name):
                free, boxes = [e for e in free if not _number_box(e)], [e for e in boxes if not _number_box(e)]
            el = (free or boxes)[0] if boxes else None
            if el is not None:
                used.add(st.live.elements.index(el))
        if el is None:
            raise Unplannable("the form on the screen has no field for a name", "name")
        put(el, name)
    for key, value in rec.fields:
        if put_gated(key, value):
            continue
        named = re.match(r"^(?P<k>[a-z][\w-]*)\s+(?P<v>\S.*)$", value) if key in records.PREPOSITION_FIELDS else None
        if named and records.field_for(st, named.group("k"), set(used)) is not None:
            key, value = named.group("k"), named.group("v")   # "for milestone release-1.0": the field is named
        # "from 1989": a preposition only guesses the field; the value's shape tells it better
        el = (_field_of_kind(st, value, used) if key in records.PREPOSITION_FIELDS else None) \
            or records.field_for(st, key, used) or _field_of_kind(st, value, used)
        if el is not None and el.role == ROLE_CHECKBOX and value.strip().lower() not in _YES_NO:
            el = None   # "due date 2026-12-15" is no box to tick ("Is this update public?" only looked like it)
        if el is None:
            pair = records.option_field(st, value, used)
            if pair is None:
                pair = form_values.field_for_value(st, value, used)   # "for Maya": the list shows her as a Person
            if pair is None and key in records.PREPOSITION_FIELDS:
                pair = _lone_dropdown(st, value, used)   # "to Tools": the form's one dropdown, its options unseen
            if pair is None:
                raise Unplannable(f"no field for {key!r} on the form", key)
            el, value = pair
        put(el, value)
    _confirm_password(st, rec, used, put)
    for flag, on in rec.flags:
        if put_gated(flag, on):
            continue
        el = records.field_for(st, flag, used)
        if el is not None and el.role == ROLE_TEXTBOX:   # a flag kept as text: in the style the field uses
            put(el, _flag_text(el.value, on))
            continue
        choice = _flag_option(el, on) if el is not None and el.role == ROLE_COMBOBOX else None
        if choice is not None:   # a flag kept as a dropdown of yes and no ("Available: True / False")
            put(el, choice)
            continue
        if el is None or el.role != ROLE_CHECKBOX:
            raise Unplannable(f"no checkbox for {flag!r} on the form", flag)
        if el.checked is None or bool(el.checked) != on:
            put(el, "yes" if on else "no")
    for value in rec.options:   # "a critical defect": only where a dropdown offers the word
        pair = records.option_field(st, value, used)
        if pair is not None:
            put(*pair)
    for value in rec.loose:
        pair = records.option_field(st, value, used)
        if pair is not None:
            put(*pair)
            continue
        el = _field_of_kind(st, value, used)
        if el is None:
            empties = [e for e in records.form_fields(st) if e.role == ROLE_TEXTBOX and not e.value
                       and st.live.elements.index(e) not in used]
            if not empties:
                raise Unplannable(f"no field left on the form for {value!r}", value)
            el = empties[0]
            used.add(st.live.elements.index(el))
        put(el, value)
    _in_form_order(st, mark, chunks)
    return filled


def _in_form_order(st: State, mark: int, chunks: list[tuple[int, int, int]]) -> None:
    """The fields filled top to bottom, as the form lays them out, whatever order the task said them in: a
    dropdown whose options hang on one above it (a case's Category on its Product) is chosen after that one."""
    if not chunks or sum(end - start for _, start, end in chunks) != len(st.steps) - mark:
        return   # steps of another kind among them (a box that enables a field): left as planned
    steps = [step for _, start, end in sorted(chunks, key=lambda c: c[0]) for step in st.steps[start:end]]
    st.steps[mark:] = steps
    for n, step in enumerate(st.steps, 1):
        step.step = n


_DATE_FIELD = re.compile(r"\b(?:date|dates|due|deadline|birthday|birth|dob|expiry|expires)\b|\b(?:yyyy|dd)\b", re.I)


def _as_field_takes(el: UIElement, value: str) -> str:
    """*value* as the field *el* takes it: a date said in words ("8 January 2027") in a date field is typed as
    its placeholder shows one ("YYYY-MM-DD"), else in ISO, which date fields and pickers read alike."""
    when = dates.parse(value)
    if when is None or not _DATE_FIELD.search(" ".join((el.name, el.placeholder, el.hint))):
        return value
    return dates.for_field(when, el.placeholder)


_YES_NO = frozenset("yes no true false on off 1 0 checked unchecked ticked unticked enabled disabled y n".split())


def fill_textbox(st: State, el: UIElement, value: str) -> None:
    """Type *value* into the text box *el* of the screen shown, named as the controller finds it."""
    label = el.name or el.placeholder or el.hint
    value = _as_field_takes(el, value)
    # nothing names it (a page's editor is called so by the observation alone, whatever its class says)
    if not el.name and not el.placeholder and el.selector and (not el.hint or "editor" in el.hint.split()):
        st.add(V.INPUT_TEXT, {"text": value, "selector": el.selector, "clear": True}, f"Type {value!r} in the field")
    else:
        st.add(V.INPUT_TEXT, {"text": value, "field": label, "clear": True, **_nth(st, el, label)},
               f"Type {value!r} in {label}")


def _nth(st: State, el: UIElement, label: str) -> dict[str, int]:
    """``index`` of *el* among the fields of its name, where several share it (a list's Team filter above it, the
    form's Team below); nothing when it is the first or the only one."""
    assert st.live is not None
    same = [e for e in st.live.elements if e.role in (ROLE_TEXTBOX, ROLE_COMBOBOX) and not e.hidden
            and (e.name or e.placeholder or e.hint) == label]
    at = next((i for i, e in enumerate(same) if e is el), 0)
    return {"index": at} if at else {}


# A value's shape names the field it belongs in when the task names none ("from 1989" is a year).
_KINDS: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (re.compile(r"^[^@\s]+@[^@\s]+\.\w+$"), ("email", "e-mail", "mail")),
    (re.compile(r"^https?://\S+$"), ("url", "website", "link", "homepage", "site")),
    (re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ][\d:]+)?$"), ("date", "due", "day", "when", "deadline")),
    (re.compile(r"^(?:1[5-9]\d\d|20\d\d)$"), ("year", "published", "released", "date")),
    (re.compile(r"^[$€£]?\d+[.,]\d{2}$|^[$€£]\d+$"), ("price", "cost", "amount", "total")),
    (re.compile(r"^\+?[\d ()-]{7,}$"), ("phone", "telephone", "tel", "mobile")),
    (re.compile(r"^\d{1,2}:\d{2}(?:\s*(?:-|–|to)\s*\d{1,2}:\d{2})?$"), ("time", "hours", "slot", "when")),
    (re.compile(rf"^{records.WEEKDAY}$", re.I),
     ("day", "weekday", "date", "when")),
    (re.compile(r"^\d+(?:[.,]\d+)?$"), ("amount", "price", "cost", "total", "quantity", "qty", "count")),
]
_SHAPED_FIELD_WORDS = {n for _, names in _KINDS for n in names} | {"password", "time", "number"}


def _field_of_kind(st: State, value: str, used: set[int]) -> UIElement | None:
    for shape, names in _KINDS:
        if shape.match(value.strip()):
            for name in names:
                el = records.field_for(st, name, used)
                if el is not None:
                    return el
    return None


_FLAG_STYLES = (("1", "0"), ("true", "false"), ("yes", "no"), ("on", "off"), ("y", "n"), ("t", "f"))


def _lone_dropdown(st: State, value: str, used: set[int]) -> tuple[UIElement, str] | None:
    """The form's one dropdown not filled yet, whose options show only when it opens, for a name-like value."""
    if not re.match(r"(?-i:[A-Z\"'“])", value):
        return None
    assert st.live is not None
    found = [e for e in records.form_fields(st) if e.role == ROLE_COMBOBOX and not e.options
             and st.live.elements.index(e) not in used]
    if len(found) != 1:
        return None
    used.add(st.live.elements.index(found[0]))
    return found[0], value


_CONFIRMS = re.compile(r"\b(?:confirm\w*|repeat|again|re-?enter|retype|verif\w*)\b", re.I)


def _confirm_password(st: State, rec: Record, used: set[int], put: Callable[[UIElement, str], None]) -> None:
    """A password given once goes in the form's "Password confirmation" ("Confirm password", "Repeat password")
    too: the form asks for it twice."""
    assert st.live is not None
    given = [(k.lower(), v) for k, v in rec.fields if "password" in k.lower() and not _CONFIRMS.search(k)]
    password = next((v for k, v in given if "new" in k.split()), given[0][1] if len(given) == 1 else "")
    if not password:
        return
    for i, e in enumerate(st.live.elements):
        said = " ".join(records.labels(e))
        if i not in used and e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled \
                and re.search(r"password", said, re.I) and _CONFIRMS.search(said):
            used.add(i)
            put(e, password)
            return


def name_field(st: State, used: set[int]) -> UIElement | None:
    """The field a record's name goes in: one labelled with a name word ("Name", "Title"); else the unlabelled one
    holding the name the app gave the new record ("New Tiddler"); else one whose label has a name word in it
    ("Item name" — but "tag name" beside a "New Tiddler" title names a tag)."""
    assert st.live is not None
    given = records.default_named(st, set(used))
    taken = set(used)
    named = next((e for e in (records.field_for(st, k, taken) for k in records.NAME_FIELDS) if e is not None), None)
    exact = named is not None and grounding.norm(grounding.bare_label(named.name or named.placeholder)) in \
        records.NAME_FIELDS
    el = named if named is not None and (exact or given is None) else given
    if el is not None:
        used.add(st.live.elements.index(el))
    return el


def _flag_option(el: UIElement, on: bool) -> str | None:
    """The option of a yes/no dropdown that says *on* ("True", "Yes", "On"); None unless it offers both."""
    low = {o.strip().lower(): o for o in el.options}
    said = {k for k in low if k and not re.fullmatch(r"[-—–\s]*|(?:select|choose|pick|unknown|any|none)\b.*", k)}
    for yes, no in _FLAG_STYLES:
        if said == {yes, no}:   # only yes and no, beside a blank: never a count's 1 among 0…9
            return low[yes if on else no]
    return None


def _flag_text(current: str, on: bool) -> str:
    """A yes/no written like the field's current value writes it (1/0 when it holds none)."""
    low = current.strip().lower()
    for yes, no in _FLAG_STYLES:
        if low in (yes, no):
            text = yes if on else no
            return text.upper() if current.strip().isupper() else text.capitalize() if current.strip()[:1].isupper() else text
    return "1" if on else "0"


def _number_box(el: UIElement) -> bool:
    return "number" in el.hint.split()


def free_box(st: State) -> bool:
    """The form has a text field kept for no value of a shape: a name may go in it."""
    return any(e.role == ROLE_TEXTBOX and not set(words(" ".join(records.labels(e)))) & _SHAPED_FIELD_WORDS
               for e in records.form_fields(st))
