"""Where a value said with no field's name goes in a form, read from what the screen shows.

"add a shift for Maya in the Bar team": the list above the form shows Maya in its Person column and Bar in
its Team column, and the form has a Person and a Team field: Maya goes in Person, Bar in Team. Dropdowns
drawn by a kit (Quasar, Dash) show their options only when opened, so the options cannot tell this.
"""
from __future__ import annotations

import re

from server.planners import intents_statement, records
from server.planners.language import words
from server.planners.state import State
from shared.screen import ROLE_COMBOBOX, ROLE_TEXTBOX, UIElement


def field_for_value(st: State, value: str, used: set[int]) -> tuple[UIElement, str] | None:
    """The form field for *value* and what goes in it: the field labelled like the column of the list that shows
    the value ("Maya": Person); else, for a value then a dropdown's name ("the Bar team"), that dropdown."""
    phrase, header = intents_statement.value_and_header(st, value)
    if header:
        el = _form_field(st, header, phrase, used)
        if el is not None:
            return el, phrase
    said = re.sub(r"^(?:the|this|that|our|my)\s+", "", value.strip(), flags=re.I).rsplit(None, 1)
    if len(said) == 2 and said[1].islower():
        el = _form_field(st, said[1], said[0], used)
        if el is not None and el.role == ROLE_COMBOBOX:
            return el, said[0]
    return None


def keyed_name(st: State, name: str, used: set[int]) -> tuple[UIElement, str] | None:
    """"day Fri" taken for a name where the form has no field for one but a field labelled Day: Fri, in Day."""
    said = re.match(r"^(?P<k>[a-z]+)\s+(?P<v>(?-i:[A-Z0-9]).*)$", name)
    if said is None:
        return None
    el = _form_field(st, said.group("k"), said.group("v"), used)
    return (el, said.group("v")) if el is not None else None


def kind_value(st: State, name: str, used: set[int]) -> tuple[UIElement, str] | None:
    """"a Bar shift" on a form with no field for a name: Bar, a value of one of its fields, then the kind made."""
    said = name.split()
    if len(said) < 2 or not re.fullmatch(r"[a-z]{3,}", said[-1]) or not said[0][:1].isupper():
        return None
    value = " ".join(said[:-1])
    return records.option_field(st, value, used) or field_for_value(st, value, used)


def _form_field(st: State, name: str, value: str, used: set[int]) -> UIElement | None:
    """The one field labelled *name* that may hold *value*, the form's own first (not a filter above a list)."""
    assert st.live is not None
    found = [(i, e) for i, e in enumerate(st.live.elements)
             if i not in used and e.role in (ROLE_TEXTBOX, ROLE_COMBOBOX) and not e.hidden and not e.disabled
             and words(e.name or e.placeholder) == words(name)
             and (not e.options or any(words(o) == words(value) for o in e.options))]
    # where a form is sent by a button, only its fields: never a filter above the list it adds to
    sent = records.sent_form(st)   # its button looked for once, not once a field
    form = any(any(e is f for e in sent) for f in records.form_fields(st))
    pick = [(i, e) for i, e in found if any(e is x for x in sent)] if form else found
    if len(pick) != 1:
        return None
    used.add(pick[0][0])
    return pick[0][1]
