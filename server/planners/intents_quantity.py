"""Quantities said with their unit: "start a load test with 10 users", "book 2 adults", "at 5 per second".

A form often asks for a number in a field whose label names what is counted
("Number of users", "Adults", "Ramp up (users started/second)"). A tester says
the number with that word after it, anywhere in the sentence. Each such number
goes into the one field whose label names its unit; what is left of the clause
("start a load test") is planned after, on the screen the typing leaves.
"""
from __future__ import annotations

import re

from server.planners.grounding import Target, TargetKind, bare_label, fields, similarity
from server.planners.language import Act, Clause, words
from server.planners.state import Defer, State
from shared.screen import ROLE_TEXTBOX, UIElement

_QUANTITY = re.compile(r"(?:\b(?:with|at|for|of|and|using)\s+)?(?<![\w.,:/-])(?P<n>\d+(?:\.\d+)?)\s+"
                       r"(?P<unit>(?:per|a|an|each)\s+[a-z]+|[a-z]{3,}(?:\s+per\s+[a-z]+)?)\b", re.I)
# words after a number that count nothing a field asks for: a time said, an ordinal, a page
_NOT_UNITS = frozenset("times time am pm percent th st nd rd of to and or in on items rows more less".split())
# an empty field that takes a count says so ("Number of guests", "Quantity", "Max results", "Rate per second")
_COUNTING = re.compile(r"\b(?:number|count|quantity|qty|amount|how\s+many|rate|per|limit|size|max(?:imum)?|"
                       r"min(?:imum)?|total)\b|#|/", re.I)
_SKIPPED = (Act.CHECK, Act.SEARCH, Act.ADD, Act.TYPE, Act.DELETE, Act.OPEN, Act.NAVIGATE, Act.FILTER, Act.SORT)
_IRREGULAR = {"children": "child", "people": "person", "men": "man", "women": "woman", "feet": "foot",
              "teeth": "tooth", "mice": "mouse", "geese": "goose"}


def _stem(word: str) -> str:
    word = word.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _label_words(el: UIElement) -> set[str]:
    text = " ".join(x for x in (el.name, el.placeholder, el.hint) if x)
    return {_stem(w) for w in re.split(r"[^a-z]+", text.lower()) if w}


def _field_for(st: State, unit: str, taken: set[int]) -> UIElement | None:
    """The one number field whose label names *unit* ("users" → "Number of users …"; "per second" →
    "… users started/second"), of those not filled yet."""
    assert st.live is not None
    wanted = {_stem(w) for w in words(unit) if w not in ("per", "a", "an", "each")}
    if not wanted or wanted <= {_stem(w) for w in _NOT_UNITS}:
        return None
    found = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled
             and id(e) not in taken and wanted <= _label_words(e)
             and (re.fullmatch(r"[-+]?\d+(?:\.\d+)?", e.value.strip()) or not e.value.strip() and _COUNTING.search(
                 " ".join((e.name, e.placeholder, e.hint))))]
    if len(found) > 1:   # "users" in "Number of users" and in "Ramp up (users started/second)": the label's own
        head = [e for e in found if wanted <= {_stem(w) for w in words(bare_label(e.name or e.placeholder))}]
        found = head if len(head) == 1 else found
    return found[0] if len(found) == 1 else None


# "set the requests timeout to 60 seconds": what is set is named before "to"; the unit only says how it is counted
_SET_TO = re.compile(r"^(?:please\s+)?(?:set|change|make|put|update|increase|decrease|raise|lower|bump|reduce)\s+"
                     r"(?:the\s+)?(?P<subject>.+?)\s+(?:up\s+|down\s+)?to\s*$", re.I)
# a duration said in parts a form asks for one box each ("Weeks [ ] Days [ ] Hours [ ] Minutes [ ]")
_TIME_UNITS = frozenset("second minute hour day week month year".split())


def _duration_part(el: UIElement) -> str:
    """The time unit a box of a duration's parts is for ("Hours" → hour), else ""."""
    said = [_stem(w) for w in words(bare_label(el.name or el.placeholder))]
    return said[0] if len(said) == 1 and said[0] in _TIME_UNITS else ""


def _rest_of_duration(st: State, filled: list[tuple[re.Match[str], UIElement]], taken: set[int]) -> list[UIElement]:
    """The other parts of the duration whose parts were filled, that hold a number other than 0: the duration
    said is the whole of it ("6 hours" is not 1 day and 6 hours)."""
    if st.live is None or not filled or not all(_duration_part(el) for _, el in filled):
        return []
    group = _duration_group(st, filled[0][1])
    return [e for e in group if id(e) not in taken and re.fullmatch(r"\s*[-+]?\d+(?:\.\d+)?\s*", e.value or "")
            and float(e.value) != 0]


def _duration_group(st: State, box: UIElement) -> list[UIElement]:
    """The boxes of the duration *box* is a part of: its neighbours that are parts too, up to a text that says
    something else (the next setting's label: "Retry delay [Minutes][Seconds]" is another duration)."""
    assert st.live is not None
    els = list(st.live.elements)
    at = next(i for i, e in enumerate(els) if e is box)

    def walk(step: int) -> list[UIElement]:
        found, i = [], at + step
        while 0 <= i < len(els):
            e = els[i]
            if e.role == ROLE_TEXTBOX:
                if not _duration_part(e) or e.disabled:
                    break
                found.append(e)
            elif e.role in ("text", "heading") and (e.name or e.text) and not _duration_part(e):
                break   # a label of its own: another setting
            i += step
        return found
    return list(reversed(walk(-1))) + [box] + walk(1)


def _duration_label(st: State, box: UIElement) -> str:
    """The text that names the duration *box* is a part of ("Time Between Check"), the one just before its parts."""
    assert st.live is not None
    first = _duration_group(st, box)[0]
    els = list(st.live.elements)
    at = next(i for i, e in enumerate(els) if e is first)
    return next((e.name or e.text for e in reversed(els[max(0, at - 6):at]) if e.role in ("text", "heading")
                 and (e.name or e.text) and not _duration_part(e)), "")


def quantity_intent(c: Clause, st: State) -> bool:
    """Each "<number> <unit>" of the clause typed into the field its unit names; the rest planned after."""
    if st.live is None or not st.open_world or c.act in _SKIPPED and not (
            c.act in (Act.OPEN, Act.NAVIGATE) and c.verb.lower() == "enter"):   # "enter 6 users" types them
        return False
    taken: set[int] = set()
    filled: list[tuple[re.Match[str], UIElement]] = []
    for m in _QUANTITY.finditer(c.text):
        field = _field_for(st, m.group("unit"), taken)   # "at 2 per second": the rate's own word, "second"
        if field is None:
            continue
        taken.add(id(field))
        filled.append((m, field))
    if not filled:
        return _label_then_number(c, st)
    from server.planners.intents_form import _expect_holds, _save_implied, type_into

    rest = c.text
    for m, field in reversed(filled):
        rest = rest[:m.start()] + " " + rest[m.end():]
    rest = re.sub(r"\s+", " ", rest).strip(" ,;")
    named = _SET_TO.match(rest)
    if named and len(filled) == 1 and any(t.live is not filled[0][1] for t in fields(named.group("subject"), st.live,
                                                                                      minimum=0.7)[:1]):
        return False   # "set the requests timeout to 60 seconds": the field it names, not the one called Seconds
    if named and all(_duration_part(el) for _, el in filled):
        label = _duration_label(st, filled[0][1])
        if not label or similarity(named.group("subject"), label) < 0.55:
            return False   # "set the password expiry to 12 hours" where only the session timeout is in hours
    for m, field in filled:
        target = Target(TargetKind.LIVE_ELEMENT, 1.0, field.label, live=field)
        type_into(st, m.group("n"), target)
        st.summary.append(f"{field.label}: {m.group('n')}")
    for part in _rest_of_duration(st, filled, taken):
        type_into(st, "0", Target(TargetKind.LIVE_ELEMENT, 1.0, part.label, live=part))
    rest = re.sub(r"\b(?:with|at|for|and|using)\s*$", "", rest, flags=re.I).strip(" ,;")
    if named:
        # "set the default time between checks to 6 hours": all it said is typed; a setting's change is kept
        last = Target(TargetKind.LIVE_ELEMENT, 1.0, filled[-1][1].label, live=filled[-1][1])
        save = _save_implied(st, last)
        if save is not None:
            from server.planners.intents_records import saved

            st.click_live(save, f"Click {save.label!r}")
            saved(st, filled[-1][0].group("n"))
        _expect_holds(st, filled[-1][0].group("n"), last)
        return True
    if rest and not _ONLY_TYPING.fullmatch(rest):
        # "start a load test", "run": on the form as the typing leaves it, after the numbers the task gives next
        more = [t for t in st.later if _only_quantities(st, t)]
        if len(more) == len(st.later) and more:
            raise Defer(rest, replace_with=[], last=[rest])
        raise Defer(rest, replace_with=[rest])
    _expect_holds(st, filled[-1][0].group("n"), Target(TargetKind.LIVE_ELEMENT, 1.0, filled[-1][1].label,
                                                        live=filled[-1][1]))
    return True


# what is left of a clause that only said the numbers ("enter 6 users")
_ONLY_TYPING = re.compile(r"(?:please\s+)?(?:enter|type|put|fill\s+in|input|use|give|set|choose|pick|with)?", re.I)


_LABEL_NUMBER = re.compile(r"^(?:(?:please\s+)?(?:set|enter|put|make|use)\s+)?(?:the\s+)?(?P<label>[a-z][\w /-]{1,40}?)"
                           r"\s*[:=]?\s+(?P<n>[-+]?\d+(?:\.\d+)?)$", re.I)


def _label_then_number(c: Clause, st: State) -> bool:
    """"ramp up 3", "spawn rate: 2": a field's label, then the number it takes."""
    assert st.live is not None
    m = _LABEL_NUMBER.match(c.text.strip())
    if m is None:
        return False
    said = " ".join(words(m.group("label")))
    found = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled
             and " ".join(words(bare_label(e.name or e.placeholder))).startswith(said)]
    if len(found) != 1:
        return False
    from server.planners.intents_form import _expect_holds, type_into

    target = Target(TargetKind.LIVE_ELEMENT, 1.0, found[0].label, live=found[0])
    type_into(st, m.group("n"), target)
    st.summary.append(f"{found[0].label}: {m.group('n')}")
    _expect_holds(st, m.group("n"), target)
    return True


def _only_quantities(st: State, text: str) -> bool:
    """*text* says nothing but numbers with what they count, each a field's ("2 children for 3 nights")."""
    left = _QUANTITY.sub(" ", text)
    return bool(_QUANTITY.search(text)) and not re.sub(r"\b(?:and|with|for|at|plus)\b|[,;.]", " ", left).strip() \
        and all(_field_for(st, m.group("unit"), set()) is not None for m in _QUANTITY.finditer(text))
