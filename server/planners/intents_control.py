"""A clause that says a control's own label, with a word or two of its own around it.

Testers word an app's bulk controls as a sentence: "clear all completed todos" is the
"Clear completed (1)" button, "mark all todos as complete" the "Mark all as complete"
checkbox, "export everything to CSV" the "Export to CSV" link. The clause names such a
control when the label starts with the clause's verb, has at least two words, and every
word of the label (counts aside) is in the clause. The words the clause adds must not
name an item on the screen: "mark buy milk as complete" is a row's checkbox, not the
"Mark all as complete" one.
"""
from __future__ import annotations

import re
from dataclasses import replace

from server.planners import checks, grounding, intents_statement
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.counts import list_of_kind, main_list_selector
from server.planners.language import ITEM_NOUNS, Act, Clause, words
from server.planners.list_search import record_shaped
from server.planners.matching import STOPWORDS
from server.planners.state import State, Unplannable
from shared import vocabulary as V
from shared.models import PlanStep
from shared.screen import CLICKABLE_ROLES, ROLE_BUTTON, ROLE_CHECKBOX, ROLE_LISTITEM, ROLE_ROW, TOGGLE_ROLES, UIElement

# words that carry no meaning of their own in a label or a clause
_FILLER = frozenset("the a an as of to my our your this that these those it please now".split())
# quantifiers a clause adds to a bulk control's label ("clear all completed")
_QUANTIFIERS = frozenset("all every each both any".split())
MAX_EXTRA_WORDS = 2
_ALL = {"everything": "all", "everyone": "all", "everybody": "all"}
# verbs a tester uses for a label's verb ("remove all completed" is "Clear completed")
_VERB_GROUPS = (("clear", "delete", "remove", "erase", "wipe", "purge", "trash", "discard"),)


def stem(word: str) -> str:
    """"completed", "complete", "completes" → "complet": the few endings a label and a clause differ by."""
    for suffix in ("ing", "ed", "es", "s", "e", "d"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


_SAME_VERB = {stem(w): stem(group[0]) for group in _VERB_GROUPS for w in group}


_COUNT = re.compile(r"\(\s*\d+\s*\)")   # "Clear completed (1)": a count that changes as the list does


def _label_words(label: str) -> list[str]:
    """A label's words, its counts and filler left out: "Clear completed (1)" → clear, completed."""
    return [w for w in words(re.sub(r"\b\d+\b", " ", _COUNT.sub(" ", label))) if w not in _FILLER]


def _shown_label(el: UIElement) -> str:
    """*el*'s label without the count that changes as its list does ("Clear completed (1)" → "Clear completed")."""
    return " ".join(_COUNT.sub(" ", el.name or el.text or "").split())


def _matches(clause_words: list[str], verb: str, el: UIElement) -> int:
    """How many label words the clause says when it names *el* this way; 0 when it does not."""
    label = [stem(w) for w in _label_words(el.name or el.text or "")]
    if label and label[0] != verb and _SAME_VERB.get(label[0], label[0]) == _SAME_VERB.get(verb, verb):
        label[0] = verb   # "remove all completed" says "Clear completed"
    if len(label) < 2 or label[0] != verb or not set(label) <= set(clause_words):
        return 0
    extra = [w for w in clause_words if w not in label and w not in ITEM_NOUNS]
    return len(label) if len(extra) <= MAX_EXTRA_WORDS else 0


# words that say no more than the control does ("add a new one")
_BARE = frozenset("new another one more button link control".split())


def control_intent(c: Clause, st: State) -> bool:
    if st.live is None or c.act is Act.CHECK or not c.text:
        return False
    said = [_ALL.get(w, grounding.SYNONYMS.get(w, w)) for w in words(re.sub(r"(?<=\w)['’]s\b", "", c.text))
            if w not in _FILLER]   # "X's log"; "finished": "completed"; "stop everything": "Stop all"
    if len(said) < 2:
        return False
    clause_words = [stem(w) for w in said]
    candidates = [(n, el) for el in st.live.elements
                  if not el.hidden and (el.role in CLICKABLE_ROLES or el.role in TOGGLE_ROLES)
                  for n in [_matches(clause_words, clause_words[0], el)] if n]
    if not candidates:
        return False
    _, el = max(candidates, key=lambda c: c[0])   # the first of those whose label the clause says most of
    label = _shown_label(el)
    said_in_label = {stem(x) for x in _label_words(label)}
    extra = " ".join(w for w in said[1:] if stem(w) not in said_in_label and w not in ITEM_NOUNS
                     and w not in _QUANTIFIERS)
    named = grounding.rows(extra, st.live, minimum=0.85) if extra else []
    if not named and extra and (by_values := intents_statement.row_of_values(st, extra)):
        named = grounding.rows(by_values, st.live, minimum=0.85)   # "Omar's Tuesday shift": the row of both
    if named:   # the clause names an item too: "clear the log of mail-relay" is the control of that item's row
        if c.act is Act.DELETE:
            return False   # deleting a row's record: the delete intent confirms it and proves the row gone
        if len(named) > 1 and named[1].score == named[0].score:
            raise Unplannable(f"several rows show {extra!r} ({named[0].name!r}, {named[1].name!r}): say which one",
                              extra)
        return _in_row(st, label, named[0].name, extra)
    if extra and c.act is Act.ADD and record_shaped(_said_after(c.text, extra)):
        return False   # "add a page Opening Times": a page to make, named; not a click on Add Page alone
    if c.act is Act.DELETE and extra:
        return False   # "delete the Errands list" with its page's "Delete this list": confirmed, and proved gone
    if c.act in (Act.ADD, Act.TYPE) and len([w for w in extra.split() if w not in STOPWORDS and w not in _BARE]) >= 2:
        return False   # "add comment Bought the washers": words to type, never dropped for a click on Add Comment
    if extra and sum(1 for e in st.live.elements if not e.hidden and _shown_label(e) == label) > 1:
        from server.planners.intents_rows import section_control

        if section_control(st, c.rest, c.verb):
            return True   # "view the source of dumps": the View Source of dumps' section, not the page's first
    if el.container and sum(1 for e in st.live.elements if e.container and _shown_label(e) == label) > 1:
        return False   # a control every row has, and no one row named: never the first row's
    if el.role in TOGGLE_ROLES:
        st.add(V.SET_CHECKED, {"checked": True, "text": label, "role": el.role}, f"Tick {label!r}")
        st.summary.append(f"tick {label}")
        try:
            st.expect_check(checks.element(st.ctx, text=label, role=el.role, state="checked"))
        except CannotCheck:
            st.expect_check(None)
    else:
        stable = replace(el, name=label, text="") if el.name else replace(el, text=label)   # counts change
        emptied = _emptied(st, label)   # read on the list before the click
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, label, live=stable), f"Click {label!r} ({el.role})")
        st.summary.append(f"click {label}")
        st.expect_check(emptied)
    st.last_object = label
    return True


def _said_after(text: str, extra: str) -> str:
    """The words of *text* from the first of *extra*'s, as written ("Opening Times" of "add a page Opening Times")."""
    first = extra.split()[0]
    m = re.search(rf"\b{re.escape(first)}\b.*$", text, re.I)
    return m.group(0).strip() if m else extra


def _in_row(st: State, label: str, row: str, item: str) -> bool:
    """The control labelled *label* of the row showing *item*; no such control there: read the clause another
    way (a row's checkbox, its own verb)."""
    mine = [el for el in st.live.elements if el.container == row and not el.disabled   # type: ignore[union-attr]
            and el.role in CLICKABLE_ROLES and _shown_label(el) == label]
    if not mine:
        return False
    el = min(mine, key=lambda e: e.hidden)   # shown first; a control a hover shows is still the row's
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.95, label, live=el), f"Click {label!r} in the row of {item!r}",
                  row=row)
    st.summary.append(f"click {label} in the row of {item}")
    st.last_object = item
    st.expect_check(None)
    return True


_DONE_WORDS = ("completed", "complete", "done", "finished", "checked", "ticked")


def _emptied(st: State, label: str) -> PlanStep | None:
    """The proof of "Delete all emails", "Clear all": the page's list has no item left. A control that asks to be
    clicked twice, or a confirmation nobody gave, would otherwise pass with every item still there."""
    shown = _label_words(label)
    said = [stem(w) for w in shown]
    done = next((e.container for e in st.live.elements if e.role == ROLE_CHECKBOX and e.checked and e.container), "") \
        if st.live is not None and len(said) >= 2 and _SAME_VERB.get(said[0]) == stem("clear") \
        and {stem(w) for w in _DONE_WORDS} & set(said) else ""
    if done:   # "Clear completed": a completed row is gone (a control that did nothing, or only unticked it, leaves it)
        listed = any(e.role == ROLE_LISTITEM and e.label == done for e in st.live.elements)   # type: ignore[union-attr]
        try:
            return checks.element(st.ctx, text=done, role=ROLE_LISTITEM if listed else "", present=False,
                                  description=f"Check {label!r} removed {done!r}")
        except CannotCheck:
            return None
    if len(said) < 2 or _SAME_VERB.get(said[0]) != stem("clear") or not {"all", "everyth"} & set(said):
        return None
    kind = " ".join(w for w in shown[1:] if stem(w) not in ("all", "everyth"))
    main = ""
    for role in (ROLE_ROW, ROLE_LISTITEM):
        try:
            main = (list_of_kind(st, kind, role) if kind else None) or main_list_selector(st, role)
        except Unplannable:
            main = ""
        if main:
            break
    if not main:
        return None
    try:
        return checks.element(st.ctx, selector=main, present=False, description=f"Check {label!r} left no item")
    except CannotCheck:
        return None


# verbs that name the same control: a test is started with "Run" as well as with "Start"
# verbs of one button each, whose button gives way to its opposite once it has done its work (Start → Stop,
# Connect → Disconnect)
_VERB_KIN = ({"start", "run", "launch", "begin"}, {"stop", "halt", "end", "abort"}, {"connect", "attach"},
             {"disconnect", "detach"}, {"publish"}, {"unpublish"})
_VERB_FILLER = frozenset("the a an this it now test to from with up".split())   # "connect to the printer"


def verb_control(text: str, st: State) -> str | None:
    """"start the test", "run", "stop the load test": the clause's verb is the whole name of one button
    ("START", "Run", "Stop"), the only one of the page (none in a row), and what else the clause says is what the
    page is about (its title or a heading: "Start new load test") or the activity ("start swarming"). "start the
    worker" on a table of services starts none of them."""
    assert st.live is not None
    said = words(text)
    if not said or len(said) > 4:
        return None
    kin = next((k for k in _VERB_KIN if said[0] in k), {said[0]})
    found = [e for e in st.live.elements
             if e.role == ROLE_BUTTON and not e.disabled and words(e.name or e.text)
             and words(e.name or e.text)[0] in kin
             and set(words(e.name or e.text)[1:]) <= set(said[1:]) | {"test", "it", "now"}]
    shown = [e for e in found if not e.hidden]
    found = shown or found   # one folded in a panel ("Disconnect" under its Connection heading) when none shows
    if len(found) != 1 or found[0].container:
        return None
    rest = [w for w in said[1:] if w not in _VERB_FILLER and w not in words(found[0].name or found[0].text)]
    about = set(words(" ".join([st.live.title] + [h.label for h in st.live.headings()])))
    if any(w not in about and not w.endswith("ing") for w in rest):
        return None
    return (found[0].name or found[0].text).strip()


_OPPOSITE = {"connect": "Disconnect", "disconnect": "Connect", "start": "Stop", "stop": "Start", "publish": "Unpublish",
             "unpublish": "Publish", "attach": "Detach", "detach": "Attach"}


def _click_folded(st: State, found: Target, label: str) -> bool:
    """A verb's button folded in a panel ("Disconnect" under its Connection heading): a hidden button is not shown
    before the click either, so its being gone proves nothing; its opposite shown ("Connect") does. No opposite, or
    one shown already: not planned."""
    assert st.live is not None
    opposite = _OPPOSITE.get((words(label) or [""])[0], "")
    if not opposite or any(e.role == ROLE_BUTTON and not e.hidden and (e.name or e.text).strip().lower() == opposite.lower()
                           for e in st.live.elements):
        return False
    st.click_live(found, f"Click {found.label!r} (its panel opened first)")
    st.summary.append(f"click {found.label}")
    st.last_object = found.label
    try:
        st.expect_check(checks.element(st.ctx, text=opposite, role=ROLE_BUTTON, present=True, exact=True,
                                       description=f"Check {opposite!r} is offered now: {label!r} has done its work"))
    except CannotCheck:
        return False
    return True


def click_verb_control(st: State, label: str) -> bool:
    """Click the button *label* that :func:`verb_control` found. A start or stop button that worked is gone, or
    disabled, once it has done its work (START gives way to STOP): that is the proof, since a click on a form that
    was not ready does nothing and would otherwise pass."""
    assert st.live is not None
    found = grounding.live_elements(label, st.live, roles=frozenset({ROLE_BUTTON}), minimum=0.95)
    if not found:
        return False
    if found[0].live is not None and found[0].live.hidden:
        return _click_folded(st, found[0], label)
    st.click_live(found[0], f"Click {found[0].label!r}")
    st.summary.append(f"click {found[0].label}")
    st.last_object = found[0].label
    kin = next((k for k in _VERB_KIN if words(label)[:1] and words(label)[0] in k), None)
    try:
        st.expect_check(checks.element(st.ctx, text=label, role=ROLE_BUTTON, state="enabled", present=False,
                                       exact=True, description=f"Check {label!r} has done its work (gone or disabled)")
                        if kin is not None else None)
    except CannotCheck:
        st.expect_check(None)
    return True
