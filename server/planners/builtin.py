"""The built-in planner: no network, no key — the embedded default.

It reads a task the way a tester writes it (:mod:`server.planners.language`:
filler, synonyms, typos, clauses, pronouns), and gives each clause to the
first intent of :data:`INTENTS` that understands it. Intents ground what the
clause names in the device (:mod:`server.planners.grounding`): the screens and
elements of the navigation tree, and what is on the live screen now — so a
device with no tree is planned from its screen alone.

Three rules keep runs honest:

* a clause whose target is on no screen known now, after a step that may
  change the screen, is **deferred** (:attr:`Plan.pending`): it is planned
  once the steps before it have run, against the screen the device then shows;
* a clause that cannot be grounded anywhere makes the task **infeasible**, with
  the closest names the device has ("did you mean …") and no step run;
* a plan that changes the screen **ends with a check** of the intended end state
  (the item is listed, the page is shown, the item is gone), added when the
  task itself ends with no check.
"""
from __future__ import annotations

import logging
import re
from typing import Callable

from server.planners import conditions, grounding
from server.planners.base import PlanRequest
from server.planners.intents_act import (
    activate, back_intent, location_intent, pointer_intent, press_intent, reload_intent, url_intent,
)
from server.planners.intents_channel import channel_intent, that_channel
from server.planners.intents_item_facts import item_fact_check
from server.planners.intents_media import pause_intent, playback_check, playing_intent
from server.planners.intents_login import LOGIN_WORDS, login_intent, restate_login, signs_in
from server.planners.row_places import named_by_place
from server.planners.intents_search import search_intent, search_results_intent
from server.planners.intents_rows import ROW_VERBS, row_verb_intent, switch_check, verb_names_a_control
from server.planners.intents_check import check_intent, read_on_screen
from server.planners.intents_delete import menu_pick_intent
from server.planners.intents_control import click_verb_control, control_intent, verb_control
from server.planners.intents_param import param_intent
from server.planners.filter_builder import condition_intent
from server.planners.intents_quantity import quantity_intent
from server.planners.intents_records import RECORD_INTENTS, scoped_check_intent
from server.planners.intents_lists import only_shown_check, sorted_check
from server.planners.list_search import records_tab_intent, seek_intent
from server.planners.intents_form import (
    DELETE_SIGNS,
    add_intent, clear_intent, console_intent, delete_intent, edit_intent, set_intent, setting_place_intent, setting_value_intent,
    submit_intent, tick_intent,
    type_intent,
)
from server.planners.intents_record_page import flag_check, record_page_check
from server.planners.intents_statement import place_check, quantified_state_check, some_row_check, statement_check
from server.planners.intents_answer import answer_check_intent
from server.planners.intents_page_text import append_text_intent
from server.planners.intents_workflow import WORKFLOW_VERBS, comment_intent, record_value_intent, workflow_intent
from server.planners.language import (
    VERBS, WORKFLOW_WORDS, Act, Clause, bare_switch, drop_asides, fix_typos, read_clause, split_clauses, strip_filler,
    words,
)
from server.planners.matching import STOPWORDS
from server.planners.restating import restate
from server.planners.qualified import in_open_folder, on_its_page, open_folder_first, owner_first
from server.planners.intents_results import open_result_intent
from server.planners.record_first import record_first
from server.planners.settings_first import settings_first
from server.planners.table_cells import cell_first, cell_intent, cell_named
from server.planners.saved_check import saved_check_intent
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.models import Plan, PlannerName
from shared.screen import CLICKABLE_ROLES

log = logging.getLogger(__name__)

Intent = Callable[[Clause, State], bool]

# Tried in order; the first that returns True has planned the clause.
INTENTS: list[tuple[str, Intent]] = [
    ("seek", seek_intent),          # the closed loop's own clause: look through the lists for a record
    ("table-cell", cell_intent),    # "show me what's failed in reports": the summary table's cell that lists it
    ("menu-pick", menu_pick_intent),   # the closed loop's own: the action asked for, from a row's unfolded menu
    ("setting-value", setting_value_intent),   # "Settings > Audio language and select German": that setting's value
    ("login", login_intent),        # "log in as alice with password secret": the sign-in form, filled and sent
    ("quantity", quantity_intent),  # "start a load test with 10 users": the number in the field its unit names
    ("saved-check", saved_check_intent),   # the closed loop's own: a record just saved, on the screen that follows
    ("search-results", search_results_intent),   # the closed loop's own: what a search that answers as typed found
    ("playing", playing_intent),    # the closed loop's own: "play X" once X's tile was clicked
    ("playback-check", playback_check),   # "make sure the video is running again": the player's own state
    ("records-tab", records_tab_intent),   # and its records, when a list's page keeps them behind a tab
    ("row-verb", row_verb_intent),  # "pause Wiggle road bikes": the control of its row whose label is the action
    ("workflow", workflow_intent),  # "close ticket 1 as fixed": the action a record's page offers
    ("record-value", record_value_intent),   # "set issue 8 to in-progress": the dropdown that offers the value
    ("comment", comment_intent),    # "add a note to issue 3 saying …": its page's comment box, then saved
    ("page-text", append_text_intent),   # "add a line 'Tag the build' to the checklist": the page's editor, saved
    ("console", console_intent),    # "run the command GET x in the console": typed on the app's command line
    ("control", control_intent),    # "clear all completed todos": the clause says a control's own label
    ("tick", tick_intent),          # "check buy milk" is a tick when buy milk has a checkbox
    ("only-shown", only_shown_check),   # "make sure only retry_limit shows up": it, and none of the others
    ("switch-check", switch_check),   # "api-calls is switched on": the one switch of its row
    ("flag-check", flag_check),       # "is Puzzle Box in stock?": the record's yes/no field, in its row or page
    ("sorted-check", sorted_check),   # "the plants are sorted by height, tallest first": the column's values
    ("all-or-none", quantified_state_check),   # "nothing is completed": no row's box in the other state
    ("place", place_check),           # "the first row is Monstera": that row, by its position
    ("some-row", some_row_check),     # "there are plants in the Araceae family": the value in its column
    ("item-fact", item_fact_check),   # "Neon Tides is from 2023": on the item's own page (a parameterised screen)
    ("record-page-check", record_page_check),   # "ticket 1 is owned by bob": on the record's own page
    ("scoped-check", scoped_check_intent),
    ("statement", statement_check),   # "the electricity bill was paid by Dan": the names it says, in one row
    ("answer", answer_check_intent),   # "who has the key? it should be Dana": where the page answers that
    ("check", lambda c, st: c.act is Act.CHECK and check_intent(c, st)),
    # "file a bug: EPG crashes on channel 9": a channel named in what is added or typed is text, not a tune
    ("channel", lambda c, st: c.act not in (Act.CHECK, Act.ADD, Act.TYPE, Act.SEARCH) and channel_intent(c, st)),
    ("result", open_result_intent),   # "open the first result", "open the page it's on": what the search found
    ("back", back_intent),
    ("reload", reload_intent),
    ("url", url_intent),
    ("press", press_intent),
    ("pointer", pointer_intent),
    ("pause", pause_intent),
    ("condition", condition_intent),   # "plants whose name contains lily": a column / operator / value filter
    *[(n, i) for n, i in RECORD_INTENTS if n not in ("scoped-check", "seek")],
    ("type", type_intent),
    ("search", search_intent),
    ("add", add_intent),
    ("delete", delete_intent),
    ("clear", clear_intent),
    ("edit", edit_intent),
    ("set", set_intent),
    ("submit", submit_intent),
    ("param", param_intent),       # "open <item>" of a parameterised screen
    ("setting-place", setting_place_intent),   # "Settings > Audio language": its screen; clicking would change it
    ("select", activate),
    ("where", location_intent),
]

MAX_SUGGESTIONS = 5


def _protected_names(req: PlanRequest) -> list[str]:
    ctx = req.context
    names = [e.text for n in ctx.navigation.nodes for e in n.elements if e.text] + \
            [n.label for n in ctx.navigation.nodes]
    if ctx.screen is not None:
        names += [t for e in ctx.screen.elements for t in (e.name, e.text, e.container) if t and len(t) <= 80]
        names += [o for e in ctx.screen.elements for o in e.options]
    return names


def _with_referent(text: str, referent: str) -> str:
    """A deferred clause with "it" replaced by what it refers to, so it reads alone later."""
    if not referent:
        return text
    # "open the Email validator in it": in the page just gone to, where the clause is planned (never a place to
    # go to again, which the rest of the clause would be lost to)
    text = re.sub(r"\s+(?:in|on|within|inside|from)\s+(?:it|there)(?=\s*(?:$|[,.;!(]))", "", text, flags=re.I)
    text = re.sub(r"\b(it|that)['’]s\b", r"\1 is", text, flags=re.I)   # "check it's assigned to alice"
    return _REFERRING.sub(lambda m: f'"{referent}"', text, count=1)


# a place said with no verb, as a step of its own ("Statistics page", "the Settings tab")
_A_PLACE = re.compile(r"^(?:the\s+)?(?-i:[A-Z])[\w&' -]{1,40}?\s+(?:page|screen|tab|view|section)$", re.I)


# pronouns that can only refer back ("that", "this" and "her" also open a clause or a possessive)
_REFERRING = re.compile(r"\b(?:it|them|he|she|they|him)\b", re.I)


_NOT_VERBS = {"from", "on", "in", "at", "inside", "within", "via", "while", "the", "a", "an", "my", "this", "that",
              "then", "and", "if", "when", "all", "every", "each", "its", "it", "there", "here", "now", "only",
              "also", "just", "both", "either", "no", "not", "next", "previous", "prev", "last", "first", "second",
              "third", "another", "other", "same"}


def _a_check(clause: Clause) -> bool:
    """The clause checks something: a check's verb, or a statement of what should be ("city should say Munich")."""
    return clause.act is Act.CHECK or clause.act is Act.NONE and bool(
        re.search(r"\b(?:should|must|ought\s+to|is\s+supposed\s+to)\s+(?:be|say|read|show|display|list|have|contain)\b",
                  clause.text, re.I))


def _unknown_verb(clause: Clause, known: frozenset[str] | set[str]) -> str:
    """The first word of a clause with no verb we know, when it reads as an action ("record channel 5 …")."""
    if clause.act is not Act.NONE or not clause.text:
        return ""
    first = words(clause.text)[:1]
    if not first or len(clause.text.split()) < 2:
        return ""
    w = first[0]
    if w in known or w in _NOT_VERBS or w.isdigit() or not w.isalpha():
        return ""
    if not clause.text.split()[0].isascii():
        return ""   # "Björn Magnússon got a new number": a name with letters beyond a-z, never a verb
    if _STATES.match(clause.text):
        return ""   # "Rosemary belongs to the Lamiaceae family": a name, then what it does, is a statement
    return w


# a name, then a verb that states a fact about it ("Basil needs full sun", "Ada Lovelace lives in London")
_STATES = re.compile(r"^(?:the\s+)?(?-i:[A-Z][\w'’.-]*)(?:\s+(?-i:[A-Z0-9][\w'’.-]*))*\s+(?:belongs|needs|has|costs|lives|works|"
                     r"contains|includes|uses|requires|weighs|measures|grows|owns|owes|pays|comes|runs|takes|holds|"
                     r"shows|lists|sells|stocks|supplies|ships|arrives|starts|ends|expires)\b", re.I)


def _shorthand_screens(task: str, st: State, known: frozenset[str]) -> str:
    """*task* with a screen's name said in a tester's shorthand ("ltv", "rply", "sett") said in full, where the word is
    no word the planner knows and shorthand for one screen only."""
    def full(m: re.Match[str]) -> str:
        w = m.group(0)
        if w.lower() in known or w.lower() in STOPWORDS or w.lower() in VERBS or w.lower() in WORKFLOW_WORDS:
            return w
        short = [n for n in st.ctx.navigation.nodes if grounding.abbreviates(w, n.label)]
        return short[0].label if len(short) == 1 else w
    # only where a place is said: first, after a path's arrow or a colon, or after "go to" / "open" / "in"
    # ("press down twice" and "the time shows" name no screen)
    return re.sub(r"(?:(?<=^)|(?<=[>→»:@,;.]\s)|(?<=[>→»:@])|(?<=\bto\s)|(?<=\bopen\s)|(?<=\bin\s)|(?<=\bon\s)|(?<=\bfrom\s)|"
                  r"(?<=\bgoto\s))[A-Za-z]{3,6}(?![\w'\"”-])", full, task)


def _noun_as_verb(task: str, st: State, known: frozenset[str]) -> str:
    """"bookmark https://… as Lentil soup": the app's own kind of record, said as a verb, adds one, when this
    screen has a control that adds that kind (or lists that kind and has an "Add")."""
    from server.planners.intents_records import add_controls

    said = strip_filler(task)
    first = words(said)[:1]
    if st.live is None or not st.open_world or not first or len(said.split()) < 2:
        return task
    w = first[0]
    if w in known or w in _NOT_VERBS or not w.isalpha() or read_clause(said, known).act is not Act.NONE:
        return task
    named, generic = add_controls(st, w)
    listed = {x for t in [st.live.title] + [h.label for h in st.live.headings()] if t for x in words(t)}
    if not named and not (generic and {w, w + "s", w + "es"} & listed):   # "Bookmarks" is the list of bookmarks
        return task
    log.debug("%r names a kind this screen adds: read as 'add a %s'", w, w)
    return f"add a {w} " + said[said.lower().index(w) + len(w):].strip()


_RECORD_ACTS = (Act.ADD, Act.SET, Act.EDIT, Act.TYPE, Act.TURN_ON, Act.TURN_OFF)


# workflow verbs that are never a value's last words ("… to Contact Us and publish the change")
_REQUEST_VERBS = frozenset({"publish", "unpublish", "archive", "approve", "reject", "merge", "resolve", "reopen",
                            "decline"})


def _merge_attributes(texts: list[str], known: frozenset[str], task: str = "") -> list[str]:
    """"add a product called X, category Kitchen, price 9.90": the attribute list stays with its record.
    A value set to words the task lists ("… to Birthdays, trips and holidays") keeps them as written."""
    out: list[str] = []

    def joined(before: str, text: str, sep: str) -> str:
        said = re.search(re.escape(before[-40:]) + r"(?P<s>\s*(?:,\s*(?:and\s+)?|and\s+|&\s*))" + re.escape(text), task,
                         re.I) if task else None
        return f"{before}{said.group('s')}{text}" if said else f"{before}{sep}{text}"

    for text in texts:
        if text.split() and text.split()[0].lower() in _REQUEST_VERBS:
            out.append(text)   # "… to Contact Us and publish the change": a request of its own, not a value
            continue
        if out and read_clause(out[-1], known).act is Act.EDIT and re.search(r"\s(?:to|as|into)\s+\S", out[-1], re.I) \
                and read_clause(text, known).act is Act.NONE and len(text.split()) <= 3:
            out[-1] = joined(out[-1], text, " and ")   # "rename Pay rent to Pay rent and bills": one new name
            continue
        if out and read_clause(out[-1], known).act in _RECORD_ACTS:
            clause = read_clause(text, known)
            if clause.act is not Act.NONE and len(text.split()) == 2 and text.split()[0].lower() not in VERBS \
                    and re.fullmatch(r"(?=\S*\d)[\w.-]+", text.split()[1]):
                clause = Clause(text, Act.NONE, text)   # "rack R1": a field and its value, never "rank" misspelt
            attribute = clause.act is Act.NONE and (len(text.split()) <= 6 or re.match(r"with\s", text, re.I)) \
                or clause.act is Act.TYPE and re.fullmatch(r"type\s+[\w.-]+", text.strip(), re.I)   # "type enhancement"
            if attribute:
                # (only a text is written as said: a list of people or tags is one item after another)
                to_value = re.search(r"\s(?:to|as|into)\s+\S", out[-1], re.I) and clause.act is Act.NONE \
                    and re.search(r"\b(?:description|title|name|note|notes|comment|summary|text|subject|body|bio|"
                                  r"about|caption|headline|message|label)\s+(?:of|for)\b", out[-1], re.I) \
                    and not re.match(r"^(?:with\s|[a-z]+\s*[:=])", text, re.I)
                out[-1] = joined(out[-1], text, ", ") if to_value else f"{out[-1]}, {text}"
                continue
        out.append(text)
    return out


_DELETE_WORDS = ("delete", "remove", "trash", "erase", "discard", "bin", "destroy", "del")


def _undeletable(clause: Clause, st: State) -> str:
    """For a device whose tree says where *clause*'s item lives: the item, when nothing there deletes it.

    The screens that show the item (and the detail screens items open) are looked at, with their
    declared elements and the device's commands: a delete key of an on-screen keyboard elsewhere does
    not make a movie deletable. A device with no tree, or a draft tree, is never refused here: its screens
    are not all known.
    """
    ctx = st.ctx
    if clause.act is not Act.DELETE or st.open_world:
        return ""
    thing = re.sub(r"^(?:the|a|an)\s+(?:[a-z]+\s+)?", "", clause.rest.strip(), flags=re.I) if clause.rest else ""
    found = grounding.tree_elements(thing, ctx, minimum=0.85) if thing else []
    homes = {t.node.id for t in found} | {t.element.opens for t in found if t.element.opens}
    homes |= {n.id for n in ctx.navigation.nodes if any(grounding.similarity(thing, i) >= 0.85 for i in n.items)}
    if not homes:
        return ""
    texts = [x for n in ctx.navigation.nodes if n.id in homes
             for x in (n.label, n.description, *n.keywords, *(t for e in n.elements for t in (e.name, e.text)))]
    texts += [c for c in ctx.commands]
    if st.live is not None:
        texts += [t for e in st.live.elements for t in (e.name, e.text, e.hint) if t]
    if any(w in _DELETE_WORDS for t in texts for w in words(t)) or any(c in t for t in texts for c in DELETE_SIGNS):
        return ""
    return thing


def _names_a_control(text: str, st: State) -> bool:
    """A verbless clause that is, word for word, the name of a link, button or tab on the screen."""
    if st.live is None or len(text.split()) > 5:
        return False
    return _control_named(text, st) is not None


def _control_named(text: str, st: State) -> str | None:
    """The name of the control *text* says, word for word; "settle up", "check out": the verb's own control."""
    assert st.live is not None
    bare = re.sub(r"^(\w+)\s+(?:up|out|off|down|over)$", r"\1", text.strip(), flags=re.I)
    for said in dict.fromkeys((text.strip(), bare)):
        found = grounding.live_elements(said, st.live, roles=CLICKABLE_ROLES, minimum=0.95)
        if any(" ".join(words(t.label)) == " ".join(words(said)) for t in found):
            return said
    joined = "".join(words(text))   # "log in" is the "Login" link, "sign up" the "Signup" button
    # "sign out" where the app says "Log Out" (and the other way round): one act, said either way
    alike = _SIGN_OUT if joined in _SIGN_OUT else {joined}
    for el in st.live.elements:
        if el.role in CLICKABLE_ROLES and not el.disabled and "".join(words(el.name or el.text)) in alike:
            return el.name or el.text
    return None


_SIGN_OUT = frozenset({"logout", "signout", "logoff", "signoff"})


def _click_named(clause: Clause, st: State) -> bool:
    """A clause no intent could plan that is, word for word, a control's name ("toggle dark mode", "log in"),
    or whose verb is one button's name ("start the test" → "Start"): a click on it. False where it names none,
    or the click cannot be planned."""
    if st.live is None or len(clause.text.split()) > 5:
        return False
    named = _control_named(strip_filler(clause.text), st)
    verb = None if named else verb_control(strip_filler(clause.text), st)
    if verb:   # "start the test": the Start button, proved to have done its work
        return click_verb_control(st, verb)
    if not named:
        return False
    mark = len(st.steps)
    try:
        return activate(Clause(named, Act.CLICK, named), st)
    except (Unplannable, Defer):
        del st.steps[mark:]
        return False


_CARRIED_ACTS = (Act.DELETE, Act.OPEN, Act.NAVIGATE, Act.CLICK, Act.TICK, Act.UNTICK, Act.PLAY, Act.TURN_ON, Act.TURN_OFF,
                 Act.SEARCH, Act.HOVER, Act.DOUBLE_CLICK, Act.ADD, Act.PAUSE)


_CHECK_LEAD = r"(?:please\s+)?(?:check|verify|confirm|make\s+sure|ensure|assert|validate)\s+(?:that\s+)?"
# "check the json docs list the functions dump, dumps, load and loads": one check per item, said after the verb
_LIST_AFTER_VERB = re.compile(r"^(?P<lead>" + _CHECK_LEAD + r"(?:\S.*\s+)?(?:lists?|shows?|includes?|contains?|"
                              r"mentions?|documents?|has|have|displays?|offers?)\s+)(?:the\s+)?"
                              r"(?:(?P<kind>[a-z]+s)\s+)?(?P<item>\S.*)$", re.I)
# "check dump, load and loads are shown": one check per item, said before what is true of them all
_LIST_BEFORE_STATE = re.compile(r"^(?P<item>\S.*?)\s+(?:are|is)\s+(?:all\s+)?(?P<neg>not\s+)?(?P<state>shown|listed|"
                                r"present|there|visible|displayed|documented|available)$", re.I)
_LIST_KINDS = frozenset("""functions methods classes modules packages topics keywords attributes properties constants
variables parameters commands options settings sections chapters articles tags categories labels fields columns tables
files folders pages users groups projects items entries names""".split())


def _listed_item(text: str, known: frozenset[str], of_kind: bool = False) -> bool:
    """*text* is one item of a list said after a check ("dumps", "Walk the dog"): a short name; a verb alone
    ("load") only in a list said with its kind ("the functions dump, load and loads"), never a clause of its own
    ("open it", "and save", "then delete")."""
    if len(text.split()) > 4 or re.match(_CHECK_LEAD, text, re.I):
        return False
    clause = read_clause(text, known)
    return clause.act is Act.NONE or (of_kind and not clause.rest.strip() and len(text.split()) == 1)


def _check_lists(texts: list[str], known: frozenset[str]) -> list[str]:
    """A check of a list of names, which the clause split cut at its commas, as one check per name."""
    out = list(texts)
    for i, text in enumerate(texts[:-1]):
        lead = _LIST_AFTER_VERB.match(text)
        of_kind = bool(lead and (lead.group("kind") or "").lower() in _LIST_KINDS)
        items = 0
        while i + 1 + items < len(texts) and _listed_item(_LIST_BEFORE_STATE.sub(r"\g<item>", texts[i + 1 + items]),
                                                          known, of_kind):
            items += 1
        if not items:
            continue
        after = _LIST_AFTER_VERB.match(text)
        last = _LIST_BEFORE_STATE.match(texts[i + items])
        first = re.match(r"^(?P<lead>" + _CHECK_LEAD + r")(?P<item>\S.*)$", text, re.I)
        if last and first and len(first.group("item").split()) <= 4 \
                and not re.search(r"\b(?:is|are|was|were|has|have|shows?|lists?)\b", first.group("item"), re.I):
            state = f"is {'not ' if last.group('neg') else ''}{last.group('state')}"
            names = [first.group("item")] + texts[i + 1:i + items] + [last.group("item")]
            out[i:i + items + 1] = [f"check {n} {state}" for n in names]
            return out
        if after and not _LIST_BEFORE_STATE.match(texts[i + items]):
            kind = after.group("kind") or ""
            first_item = after.group("item") if kind.lower() in _LIST_KINDS else f"{kind} {after.group('item')}".strip()
            lead = after.group("lead")
            out[i:i + items + 1] = [lead + first_item] + [lead + t for t in texts[i + 1:i + items + 1]]
            return out
    return out


_CHECKED_SUBJECT = re.compile(r"^(?:check|verify|confirm|ensure|make\s+sure|double[\s-]check)\s+(?:that\s+)?"
                              r"(?P<x>(?:the\s+)?\S+(?:\s+\S+){0,3}?)\s+(?:is|are|has|have)\b", re.I)
# "… and is switched on": a state said of the same subject, never a question about another ("is walk dog gone?")
_SUBJECTLESS = re.compile(r"^(?:is|are|isn['’]t|aren['’]t)\s+(?:not\s+|still\s+|now\s+|currently\s+)?(?:switched|turned|set|"
                          r"on|off|active|inactive|enabled|disabled|paused|open|closed|[a-z]+ed)\b(?![^?]*\?)", re.I)


# "the Red Mug stays", "the Weekly job keeps running": how another thing is to be, no name to carry a verb to
_SAYS_A_STATE = re.compile(r"\b(?:stays?|keeps?|remains?|runs?|running|goes|works|can|will|won['’]t|doesn['’]t|"
                           r"isn['’]t|aren['’]t|needs?|stay|keep|remain)\b", re.I)
# "enc_radio", "lab:ir_blasterd": a name as the app writes it, which no verb is
_IDENTIFIER_SAID = re.compile(r"[a-z][\w-]*(?:[:_/][\w-]+)+")


def _carry_verbs(texts: list[str], known: frozenset[str], asks: bool = False) -> list[str]:
    """"delete Blue Mug and Chef Knife": a verbless name after an action takes that action's verb."""
    out: list[str] = []
    verb = ""
    subject = ""   # "confirm that X has a limit of 10 and is switched on": the second fact is X's too
    for text in texts:
        if subject and _SUBJECTLESS.match(text.strip()):
            text = f"check that {subject} {text.strip()}"
        said = _CHECKED_SUBJECT.match(text.strip())
        subject = said.group("x") if said else ""
        clause = read_clause(text, known)
        stated = re.fullmatch(r"(?P<x>[A-Za-z][\w ]{1,30}?)\s*:\s*(?P<v>[\w][\w .-]{0,30})", clause.text.strip()) \
            if clause.act is Act.NONE and out else None
        if stated and not re.search(r"\s", stated.group("v").strip()):
            # "open settings. Parental lock: On": how a setting reads, after a step; checked, never opened or set
            text = f"check {stated.group('x').strip()} is {stated.group('v').strip()}"
            clause = read_clause(text, known)
        switch = bare_switch(clause.text) if clause.act is Act.NONE else ""
        if switch and (asks or out and read_clause(out[-1], known).act is Act.CHECK):
            text = f"check {switch}"   # "subtitles on?", "… + subtitles on" after a check: how it is, checked
            clause = read_clause(text, known)
        elif switch:
            text = f"turn {clause.text}"   # "subs off pls": switched
            clause = read_clause(text, known)
        name_like = clause.text[:1].isupper() or clause.text[:1] in "\"'“‘" or clause.text[:1].isdigit() \
            or set(words(clause.text)) <= known \
            or re.match(r"(?:the|my|our)\s+(?-i:[A-Z0-9])", clause.text) is not None and not _SAYS_A_STATE.search(clause.text) \
            or _IDENTIFIER_SAID.fullmatch(clause.text) is not None   # not an unknown verb: "record channel 5" stays refused
        carried = read_clause(verb).act if verb else None
        if carried in (Act.NAVIGATE, Act.OPEN) and re.fullmatch(r"(?:(?:the|my|our)\s+)?[a-z][\w.-]*(?:\s+[a-z][\w.-]*){0,2}",
                                                                clause.text):
            name_like = True   # "go into docs, then api", "open the menu and then the rye loaf": the next place
        if carried is Act.ADD:
            # "add milk, eggs and bread": plain items, lower-case too; "Price 5" is an attribute, never an item
            name_like = bool(re.fullmatch(r"[a-z][a-z' -]*(?:\s+to\s+(?:the|my|our)\s+[\w ]*list)?", clause.text))
        if clause.act is Act.NONE and verb and name_like and 0 < len(clause.text.split()) <= 5 \
                and not re.search(r"\b(?:is|are|was|were|has|have|shows?|should|must)\b", clause.text, re.I):
            text = f"{verb} {clause.text}"
        elif clause.act in _CARRIED_ACTS and clause.verb:
            verb = clause.verb
        elif clause.act is Act.NONE and clause.text.split()[:1] and clause.text.split()[0].lower() in ROW_VERBS:
            verb = clause.text.split()[0]   # "restart enc_hd1 and enc_hd2": a row's own verb, for each
        else:
            verb = ""
        out.append(text)
    return out


def _stated_fact(clause: Clause, st: State) -> bool:
    """A clause no intent reads, said as a fact about a record ("Basil needs full sun", "Rosemary belongs to the
    Lamiaceae family"): checked as a statement in the record's row, where the screen shows one."""
    return st.live is not None and bool(_STATES.match(clause.text)) and \
        statement_check(Clause(clause.text, Act.CHECK, clause.text), st)


_BACK_REFERENCE = re.compile(r"^(?P<lead>(?:that|whether|if)\s+)?(?:it|she|he|they)"
                             r"(?=\s+(?:is|are|has|have|isn['’]t|aren['’]t|no\s+longer|now|should|must|shouldn['’]t)\b)", re.I)


def _named_back(clause: Clause, st: State) -> Clause:
    """"stop mail-relay and confirm it is stopped": the check is about the record the task just acted on, by
    its name, which stays true when the check is planned later, on the screen the action leads to."""
    if clause.act is not Act.CHECK or not st.last_object or not _BACK_REFERENCE.match(clause.rest.strip()):
        return clause
    rest = _BACK_REFERENCE.sub(lambda m: (m.group("lead") or "") + st.last_object, clause.rest.strip(), count=1)
    return Clause(clause.text.replace(clause.rest.strip(), rest) if clause.rest.strip() in clause.text else rest,
                  clause.act, rest)


_ORDER_ONLY = re.compile(r"^(?:list|show|display|view|see|order|arrange|put)\s+(?:me\s+)?(?:them\s+|it\s+|these\s+|those\s+)?"
                         r"(?:with\s+(?:the\s+)?)?(?P<o>newest|latest|oldest|earliest|most\s+recent|least\s+recent)\s+"
                         r"(?:ones?\s+)?(?:first|on\s+top|at\s+the\s+top)(?:\s+please)?[.!]?$", re.I)


def _with_their_requests(texts: list[str]) -> list[str]:
    """"if pump_b isn't running", "start it": a condition and the request it is for, one clause again."""
    out: list[str] = []
    for text in texts:
        if out and conditions.opens_with_condition(out[-1]):
            out[-1] = f"{out[-1]}, {text}"
        else:
            out.append(text)
    return out


class BuiltinPlanner:
    """Plans from the context alone. Always answers: a plan, or infeasible with the reason."""

    name = PlannerName.BUILTIN.value

    def plan(self, request: PlanRequest) -> Plan:
        ctx = request.context
        st = State(ctx, request.current_node, ctx.screen)
        protected = _protected_names(request)
        known = frozenset(w for name in protected for w in words(name)) | frozenset(
            w for n in ctx.navigation.nodes for k in (n.id, *n.keywords) for w in words(k))
        said = conditions.resolve(request.task.strip(), st)   # "if pump_b isn't running, start it": judged on the screen
        cond = conditions.unjudged(said, st) if said == request.task.strip() else ""
        if cond:
            return self._refuse_unjudged(cond, st)
        task = _noun_as_verb(restate(restate_login(_shorthand_screens(said, st, known))), st, known)
        # a task that asks ("subtitles on?", "… , right?") or says nothing may change switches nothing it names bare
        asks = bool(re.search(r"\?|\b(?:don['’]?t|do\s+not|never|without)\s+chang", request.task, re.I))
        texts = _carry_verbs(_check_lists(_merge_attributes(drop_asides(split_clauses(task, protected)), known, task), known),
                             known, asks)
        if not texts:
            return Plan("The task is empty.", False)
        texts = _with_their_requests(texts)
        done: list[str] = []
        for i, text in enumerate(texts):
            if conditions.is_conditional(text) or conditions.unjudged(text, st):
                if st.moved and st.open_world:   # "open Processes and if X isn't running, start it"
                    done.append(f"{text!r} → judged on the screen the steps before it lead to")
                    return self._plan(request, st, texts[:i], texts[i:], done)
                text = conditions.resolve(text, st)
                cond = conditions.unjudged(text, st)
                if cond:
                    return self._refuse_unjudged(cond, st)
            text = in_open_folder(on_its_page(text, st), st)   # "json.loads" on json's page: "loads"
            try:
                text = that_channel(text, " ".join(texts[:i]), st)   # "If so, switch to that channel": the one named
            except Unplannable as exc:
                return self._refuse(f"Not feasible: {exc}", exc.phrase, st)
            clause = read_clause(fix_typos(text, known), known)
            if clause.act is Act.NONE and not clause.text:
                continue
            if clause.act is Act.NONE and st.last_act == "check":
                said = bare_switch(clause.text) or clause.text   # "… + subtitles on": subtitles is on
                clause = Clause(said, Act.CHECK, said)   # "check X and Y": Y is a check too
            order = _ORDER_ONLY.match(clause.text.strip())
            if order:   # "List newest first" (of "list the encodes, newest first"): an order, no item to open
                clause = read_clause(f"sort {order.group('o')} first", known)
            if clause.act is Act.NONE and _A_PLACE.match(clause.text.strip()):
                clause = read_clause(f"go to {clause.text.strip()}", known)   # "Statistics page -> confirm …"
            if clause.act is Act.NONE and not signs_in(clause.text) and _names_a_control(clause.text, st):
                named = _control_named(clause.text, st) or clause.text
                clause = Clause(named, Act.CLICK, named)   # "Products", "log out": the tester means it
            clause = read_on_screen(_named_back(clause, st), st)
            placed = named_by_place(clause, st)
            if placed is not None:   # "delete the second customer": that row, by its name
                clause = read_clause(placed, known)
            verb = _unknown_verb(clause, known | LOGIN_WORDS | st.key_choices_lower() | (
                WORKFLOW_VERBS | ROW_VERBS if st.screen is not None and st.open_world else set()))
            if verb and not verb_names_a_control(verb, st) and not (st.live is not None and not st.moved and cell_named(
                    st, clause.text)):   # "recheck X" where rows offer "Recheck"; "requeue the failed X": on the list
                return self._refuse(f"I do not know how to {verb!r} on this device", clause.text, st)
            kept = _undeletable(clause, st)
            if kept:
                return self._refuse(f"Not feasible: nothing on the screens that show {kept!r} deletes it, and no "
                                    "command of this device does", "", st)
            if st.expect is not None and st.steps and (clause.act is not Act.CHECK
                                                       or st.expect.command == V.WAIT_FOR_PAGE):
                # an intermediate end state is proved before the next action moves on; a page reached is proved
                # before a check of what it shows, which another page may show too ("GLD" is in the accounts too)
                st.add_step(st.expect)
                st.expect = None
            mark = len(st.steps)
            st.explicit_check_last = False
            before = (st.expect, st.last_object, set(st.gone))   # what an intent that gives up may have changed
            st.later = tuple(texts[i + 1:])
            st.said = text
            try:
                for intent_name, intent in INTENTS:
                    if intent(clause, st):
                        st.last_act = intent_name
                        log.debug("%r planned by the %s intent", clause.text, intent_name)
                        break
                else:
                    if _click_named(clause, st):
                        st.last_act = "click"
                    elif clause.act is not Act.NONE and st.live is None and st.moved and st.open_world:
                        # "go to products and sort them by price": a step before leads to a screen not seen yet;
                        # the clause is planned on it (and refused there if it cannot be done)
                        raise Defer(clause.rest or clause.text)
                    elif clause.act is Act.NONE and st.moved and st.open_world and st.steps and \
                            clause.text.split()[0].lower() in ROW_VERBS | WORKFLOW_VERBS:
                        # "restart enc_hd1 and the HD2 encoder": the second row's verb, on the page the first leads to
                        raise Defer(clause.text, replace_with=[clause.text])
                    elif clause.act is Act.NONE and _stated_fact(clause, st):
                        st.last_act = "statement"
                    elif (there := cell_first(clause, st)) is not None:
                        done.append(f"{text!r} → planned on the list a table's cell opens")
                        return self._plan(request, st, texts[:i], there + texts[i + 1:], done)
                    else:
                        return self._refuse(f"I cannot tell what to do for {text!r}", clause.rest or text, st,
                                            check=_a_check(clause))
            except Defer as exc:
                del st.steps[mark if exc.replace_with is None else len(st.steps):]
                # "set Desk Lamp's price to 39 and mark it out of stock": "it" is read now, while it is known
                named = exc.what if re.search(r"[A-Z0-9\"']", exc.what) else st.last_object
                later = [_with_referent(t, named) for t in texts[i + 1:]] if exc.replace_with else texts[i + 1:]
                pending = (exc.replace_with or [_with_referent(clause.text, st.last_object)]) + later
                if exc.last:   # "book 2 adults, 2 children": "book" after every number the task goes on to give
                    pending = (exc.replace_with or []) + later + exc.last
                if not st.steps:
                    return self._refuse(f"nothing called {exc.what!r} is on the screen now", exc.what, st)
                done.append(f"{text!r} → planned after the steps before it have run")
                return self._plan(request, st, texts[:i], pending, done)
            except Unplannable as exc:
                del st.steps[mark:]
                st.expect, st.last_object, st.gone = before[0], before[1], before[2]
                st.explicit_check_last = False
                first = owner_first(clause, st) or open_folder_first(clause, st) \
                    or settings_first(clause, st, str(exc)) or record_first(clause, st, exc.phrase or "", str(exc))
                if first is None:
                    first = cell_first(clause, st)   # "requeue the failed encode": the table's failed encodes first
                if first is not None:   # about a record elsewhere: its page first, then the clause there
                    done.append(f"{text!r} → planned on the page of the record it names")
                    return self._plan(request, st, texts[:i], first + texts[i + 1:], done)
                if not _click_named(clause, st):
                    return self._refuse(f"Not feasible: {exc}", exc.phrase, st, check=_a_check(clause))
                st.last_act = "click"
            done.append(repr(text))
        if not st.steps:
            return Plan("The task asks for nothing the device can do.", False)
        if st.expect is not None and not st.explicit_check_last:
            st.add_step(st.expect)
        return self._plan(request, st, texts, [], done)

    def _plan(self, request: PlanRequest, st: State, texts: list[str], pending: list[str], done: list[str]) -> Plan:
        analysis = f"{len(done)} part(s): " + "; ".join(done) + f" → {len(st.steps)} step(s)."
        if pending:
            analysis += f" Then, on the screen shown: {'; '.join(pending)}."
        return Plan(analysis, True, st.steps, planner=self.name, pending=pending)

    @classmethod
    def _refuse_unjudged(cls, cond: str, st: State) -> Plan:
        """A request that hangs on a condition the screen cannot answer: never done, nor skipped, blind."""
        return cls._refuse(f"Not feasible: I cannot tell from the screen whether {cond!r}; say what to check, or what "
                           "to do in either case", "", st)

    @staticmethod
    def _refuse(reason: str, phrase: str, st: State, check: bool = False) -> Plan:
        """The task refused for *reason*; *check*: the clause refused is a check (see ``Plan.refused_check``)."""
        reason = reason.rstrip(".")
        near = grounding.suggestions(phrase, st.ctx, st.screen, MAX_SUGGESTIONS) if phrase else []
        if near:
            reason += f". Did you mean: {', '.join(near)}?"
        elif st.ctx.navigation.nodes and "its screens are" not in reason:
            reason += ". Its screens are: " + ", ".join(n.label for n in st.ctx.navigation.nodes)
        return Plan(reason if reason.endswith("?") else reason + ".", False, refused_check=check)
