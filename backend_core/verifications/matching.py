"""Matching what a check asks for against a :class:`~shared.screen.ScreenObservation`.

One matcher serves the DOM verifier and the Android / Appium element
verifiers: elements are matched by text (accessible name, visible text, or a
field's value; whole words, case-insensitive, or the whole string with
``exact``), role, the row they sit in, and a state. :func:`page_names` decides
whether the screen *is* a named page (title, main headings, URL, selected tab
or current navigation item) — which a mere link with that text is not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urljoin, urlsplit

from shared import dates, screen as S
from shared.errors import RequestError
from shared.screen import ScreenObservation, UIElement
from shared.vocabulary import STATES

ROLE_ALIASES: dict[str, tuple[str, ...]] = {
    "textbox": ("textbox", "searchbox", "spinbutton"),
    "combobox": ("combobox", "listbox"),
    "switch": ("switch", "checkbox"),
    "image": ("img",),
    "text": (),  # any element: "the text X is shown"
}
ROW_ROLES = ("listitem", "row", "option", "article")
HEADER_ROW = "header-row"   # the web observer's hint on a table's header row
CURRENT_ROLES = frozenset({"tab", "link", "menuitem", "treeitem", "button", "listitem"})


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip().casefold()


# texts of inline parts the page draws apart with no space between them ("Crumb and Co" "Menu" "Cinnamon Bun" of
# a breadcrumb read "Crumb and CoMenuCinnamon Bun"): a lower-case letter then a capital starts a word there
_GLUED = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")


def words_in(needle: str, haystack: str, glued: bool = False) -> bool:
    """*needle* occurs in *haystack* as whole words, case-insensitively ("cat" is not in "category"); with *glued*
    (a row's text, joined from its parts), also with its glued parts apart ("Cinnamon" in "CoMenuCinnamon Bun")."""
    n = fold(needle)
    if not n:
        return False
    when = dates.parse(needle)
    if when is not None and dates.shown_in(when, haystack):
        return True   # "8 January 2027" as the page writes it ("Jan. 8, 2027", "2027-01-08")
    pattern = re.compile(rf"(?<!\w){re.escape(n)}(?!\w)")
    if pattern.search(fold(haystack)) is not None or (
            glued and _GLUED.search(haystack or "") is not None and pattern.search(fold(_GLUED.sub(" ", haystack))) is not None):
        return True
    # "in progress" is "in-progress" as a status writes it: two words joined by a hyphen, letters either side (never
    # a minus sign, and never an underscore: "batch_size" is no part of "max_batch_size")
    hyphen = re.compile(r"(?<=[a-z])-(?=[a-z])")
    spaced = hyphen.sub(" ", n)
    short = _ABBREVIATED.sub(lambda m: _SHORT[m.group(0)], n)
    if short != n:   # (a short name said, "Jan", is never a whole one shown, "January")
        # "Thursday" as a listing writes it, short and before a time or a date ("Thu 17:00", "Sep 12"); never a
        # word of a name ("Sun Valley" is no Sunday)
        said = re.escape(short)
        for full, abbr in _SHORT.items():
            if abbr != full and re.search(rf"(?<!\w){full}(?!\w)", n):
                said = re.sub(rf"(?<!\w){abbr}(?!\w)", rf"{abbr}\\.?(?=\\s*(?:\\d|[·,:;|-]|$))", said)
        if re.search(rf"(?<!\w){said}", fold(haystack)) is not None:
            return True
    if "_" in n or not re.search(r"[a-z] [a-z]", spaced):
        return False
    return re.search(rf"(?<![\w-]){re.escape(spaced)}(?![\w-])", hyphen.sub(" ", fold(haystack))) is not None


# the names of days and months that listings shorten, and how (never "may", "march" or "sun": words of their own)
_SHORT = {**{d: d[:3] for d in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")},
          **{m: m[:3] for m in ("january", "february", "august", "september", "october", "november", "december")},
          "sept": "sep", "tues": "tue", "thurs": "thu", "weds": "wed"}
_ABBREVIATED = re.compile(r"(?<!\w)(?:" + "|".join(sorted(_SHORT, key=len, reverse=True)) + r")(?!\w)")


def _texts(e: UIElement) -> tuple[str, ...]:
    return tuple(t for t in (e.name, e.text, e.value) if t)


def text_matches(e: UIElement, text: str, exact: bool, field_value: bool = False) -> bool:
    """*e* shows *text*. What a text field holds counts only with *field_value* (the check names the field):
    a check that names no role must not pass on the text the plan itself typed and never saved."""
    # a dropdown's choice, too, is the form's, not something the app shows: a save it refused leaves it chosen
    texts = _texts(e) if field_value or e.role not in (S.ROLE_TEXTBOX, S.ROLE_COMBOBOX) \
        else tuple(t for t in (e.name, e.text) if t)
    if exact:
        return any(fold(t) == fold(text) for t in texts)
    if is_number(text):   # "5" is not in "5.5", nor "3" in "v1.3.2"; "1200" is in "1,200.00"; "2026" in a date
        return any(same_number(text, t) or _in_date(text, t) for t in texts)
    # a row's or list item's text joins its parts' (a breadcrumb's); a link's or heading's own name is one word
    # as written ("TestPlan" is no "Plan")
    glued = e.role in (S.ROLE_LISTITEM, S.ROLE_ROW, "text")
    return any(words_in(text, t, glued) for t in texts)


# a number as text shows it: not part of a word, a version, a time or a date ("v1.3", "05:30", "2026-11-01")
_NUMBER = re.compile(r"(?<![\w.,:/-])(?P<sign>(?<![\w.,:/])[-+−]?)(?!0\d)"
                     r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w:/]|[.,-]\d)")


def _numbers(text: str) -> list[tuple[str, float]]:
    return [(m.group("sign").replace("−", "-"), float(m.group("n").replace(",", ""))) for m in _NUMBER.finditer(text)]


def _in_date(number: str, shown: str) -> bool:
    """*number* is a part of a date *shown* writes ("2026" of "2026-11-01", "14" of "14/11/2026")."""
    n = re.escape(number.strip())
    return re.search(rf"(?<![\w.,:/-]){n}(?=[-/]\d)|(?<=\d[-/]){n}(?![\w.,:]|[-/]?\d)", shown) is not None \
        if number.strip().isdigit() else False


def is_number(text: str) -> bool:
    """*text* is one number and nothing else ("1,200.00", "-3", "12.5")."""
    return len(_numbers(text)) == 1 and not _NUMBER.sub("", text).strip()


def same_number(expected: str, shown: str) -> bool:
    """*expected* is a number that *shown* holds, written another way: "1200" is "1,200.00", "12.5" is "12.50".
    A sign asked for must be shown; a number said without one is its size ("290.18" of a balance "-290.18")."""
    if not is_number(expected):
        return False
    sign, value = _numbers(expected)[0]
    return any(v == value and (s == sign or not sign) for s, v in _numbers(shown))


def state_holds(e: UIElement, state: str) -> bool:
    """Whether *e* is in *state* (one of :data:`shared.vocabulary.STATES`)."""
    checks = {
        "": lambda: True,
        "checked": lambda: e.checked is True,
        "unchecked": lambda: e.checked is False,
        "enabled": lambda: not e.disabled,
        "disabled": lambda: e.disabled,
        "focused": lambda: e.focused,
        "selected": lambda: e.selected is True or (e.role == S.ROLE_OPTION and e.checked is True),
    }
    if state not in checks:
        raise RequestError(f"state must be one of {', '.join(s for s in STATES if s)}; got {state!r}")
    return checks[state]()


_TYPED_INTO = (S.ROLE_TEXTBOX, S.ROLE_COMBOBOX, "searchbox")


@dataclass(frozen=True)
class ElementQuery:
    """What ``wait_for_element`` looks for on an observation (the selector is the controller's business)."""

    text: str = ""
    role: str = ""
    row: str = ""
    state: str = ""
    exact: bool = False
    label: str = ""

    def describe(self) -> str:
        parts = [self.role or "element"]
        if self.text:
            parts.append(repr(self.text))
        if self.label:
            parts.append(f"labelled {self.label!r}")
        if self.row:
            parts.append(f"in the row {self.row!r}")
        if self.state:
            parts.append(self.state)
        return " ".join(parts)

    def candidates(self, elements: tuple[UIElement, ...] | list[UIElement]) -> list[UIElement]:
        """Shown elements that match text, role and row (state is checked apart, to say what differs)."""
        # a row's tools that show on hover are the row's all the same: "the row of Dan has no deactivate"
        found = [e for e in elements if not e.hidden or self.row and e.container and (self.text or self.role)]
        if self.row:
            # a row is in the row named by its own text: its container may be a card around every row of a table
            # (a data grid's), whose text holds the named row's words though this row is another one
            found = [e for e in found if (e.role not in ROW_ROLES and words_in(self.row, e.container))
                     or (e.role in ROW_ROLES and text_matches(e, self.row, False))]
        if self.role:
            roles = ROLE_ALIASES.get(self.role, (self.role,))
            if roles:
                found = [e for e in found if e.role in roles]
            if self.role == S.ROLE_ROW and not self.text:
                found = [e for e in found if HEADER_ROW not in e.hint.split()]   # "5 rows": rows of data
        if self.text:
            found = [e for e in found if text_matches(e, self.text, self.exact, field_value=bool(self.role))]
            if not self.role and any(x.role in _TYPED_INTO and fold(self.text) in fold(x.value) for x in elements):
                # the suggestions a box opens as it is typed into echo what it holds ('payee:"Maria Lopez"'): no
                # sign of what the app found (a list of choices shown as content still counts, nothing being typed)
                found = [e for e in found if e.role not in (S.ROLE_OPTION, S.ROLE_LISTBOX)]
        if self.label:
            found = [e for e in found if _labelled(e, self.label, elements)]
        return found

    def matches(self, elements: tuple[UIElement, ...] | list[UIElement]) -> list[UIElement]:
        return [e for e in self.candidates(elements) if state_holds(e, self.state)]


def _same_label(x: UIElement, label: str) -> bool:
    return fold(x.label).rstrip(":") == fold(label).rstrip(":")


def _labelled(e: UIElement, label: str, elements: tuple[UIElement, ...] | list[UIElement]) -> bool:
    """*e* is the value the label *label* names: the first shown element after that label ("Failures" then "0%"),
    or *e* itself is a field labelled so (a field named "Host"). A value shown before its label, or after another
    label, is not it."""
    if fold(e.name) == fold(label) and e.role in ROLE_ALIASES["textbox"] + ROLE_ALIASES["combobox"]:
        return True
    at = next((i for i, x in enumerate(elements) if x is e), -1)
    before = [x for x in elements[:max(at, 0)] if not x.hidden and x.role != "separator"]
    if at < 0 or not before or not _same_label(before[-1], label):
        return False
    # "12 Users 0 Errors": a value right before the label, with nothing between them, may be the label's own
    # (a stat card shows its number first); then the number after it is the next card's. A separator between
    # them says the label starts its group ("Host … | Status RUNNING").
    lab = next(i for i in range(at - 1, -1, -1) if elements[i] is before[-1])
    prior = next((x for x in reversed(elements[:lab]) if not x.hidden), None)
    return prior is None or prior.role == "separator" or not _value_like(prior)


def _value_like(x: UIElement) -> bool:
    """A shown value rather than a label: a number, an amount, a percentage."""
    return bool(_numbers(x.label)) and len(re.sub(r"[\d.,%\s$€£+-]", "", x.label)) <= 2


def label_shown(label: str, elements: tuple[UIElement, ...] | list[UIElement]) -> bool:
    """Some shown element is the label *label*: without it, "X is not after it" proves nothing."""
    return any(not x.hidden and _same_label(x, label) for x in elements)


def summary(e: UIElement) -> str:
    """``button 'Save' (disabled)`` — one element, for messages."""
    flags = [f for f, on in (("checked", e.checked is True), ("unchecked", e.checked is False),
                             ("disabled", e.disabled), ("focused", e.focused), ("selected", e.selected)) if on]
    label = e.label or e.value
    return f"{e.role} {label[:60]!r}" + (f" ({', '.join(flags)})" if flags else "") + \
        (f" = {e.value[:40]!r}" if e.value and e.value != label else "")


def _url_names(url: str, name: str) -> bool:
    """The URL names the page *name*: a path segment or query value that is the name ("/library/", "?key=os"),
    a part of it that is not another name ("/_json.html" is not json), or its words for a longer name."""
    if len(fold(name).split()) > 1:
        return words_in(name, _url_words(url))
    parts = urlsplit(url)
    pieces = [p for p in unquote(parts.path).split("/") if p] + \
        [v for kv in unquote(parts.query).split("&") for v in kv.split("=")[1:]] + \
        [f for f in re.split(r"[/?&=]", unquote(parts.fragment)) if f]   # "#/completed": a client-side route
    wanted = fold(name)
    for piece in pieces:
        piece = re.sub(r"\.(html?|php|aspx?|jsp)$", "", fold(piece))
        if piece == wanted or wanted in re.split(r"[-+.,;:~ ]+", piece):
            return True
    if "." in wanted.strip("."):   # "csv.reader" at /csv.html#reader: the module's page, at the member's anchor
        said = [p for p in wanted.split(".") if p]
        shown = [w for piece in pieces for w in re.sub(r"\.(html?|php|aspx?|jsp)$", "", fold(piece)).split(".") if w]
        at = 0
        for w in shown:
            if at < len(said) and w == said[at]:
                at += 1
        return at == len(said) and fold(unquote(parts.fragment)).split(".")[-1:] == said[-1:]
    return False


def _url_words(url: str) -> str:
    parts = urlsplit(url)
    raw = unquote(" ".join((parts.path, parts.query, parts.fragment)))
    raw = re.sub(r"\.(html?|php|aspx?|jsp)\b", " ", raw)
    raw = re.sub(r"([a-z])([A-Z])", r"\1 \2", raw)
    return re.sub(r"[/_\-.?=&#+]+", " ", raw)


# classes a web app gives the navigation item of the page shown ("nav-link active", "is-current")
_CURRENT_HINTS = frozenset({"active", "current", "selected"})


def _route(url: str) -> tuple[str, list[str]]:
    """Where an address leads in its app: its origin, and its path's segments followed by those of a hash route
    ("#/experiments/1", the page a single-page app shows; a plain "#part" is a place on the page)."""
    parts = urlsplit(url)
    hashed = re.match(r"^!?/([^?]*)", parts.fragment)
    segments = [s for s in parts.path.split("/") if s] + ([s for s in hashed.group(1).split("/") if s] if hashed else [])
    return f"{parts.scheme}://{parts.netloc}", segments


def _hash_route(href: str) -> bool:
    return href.startswith(("#/", "#!/"))


def _leads_here(href: str, url: str) -> bool:
    """A link's target is the page shown (fragment and trailing slash aside, a hash route counted); other "#…"
    links lead nowhere."""
    if not href or href.startswith("javascript:") or href.startswith("#") and not _hash_route(href):
        return False
    if _hash_route(href):
        return _route(urljoin(url, href)) == _route(url)
    a, b = urlsplit(urljoin(url, href)), urlsplit(url)
    return (a.scheme, a.netloc, a.path.rstrip("/"), a.query) == (b.scheme, b.netloc, b.path.rstrip("/"), b.query)


def page_names(obs: ScreenObservation, name: str) -> str:
    """What on *obs* says the screen is *name* (e.g. ``title 'Classes — Python'``), or "" when nothing does."""
    if words_in(name, obs.title):
        return f"title {obs.title!r}"
    for e in obs.elements:
        if e.hidden:
            # an item of a closed menu is not shown, but the app's own link to this page still names it
            if e.role == S.ROLE_LINK and obs.url and text_matches(e, name, False) and _leads_here(e.href, obs.url):
                return f"link {e.label!r} (in a menu) leads to this page"
            continue
        if e.role == S.ROLE_HEADING and (e.level or 2) <= 3 and text_matches(e, name, False):
            return f"heading {e.label!r}"
        if e.role in CURRENT_ROLES and text_matches(e, name, False):
            if e.selected is True or _CURRENT_HINTS & set(e.hint.split()):
                return f"current {e.role} {e.label!r}"
            if e.role == S.ROLE_LINK and obs.url and _leads_here(e.href, obs.url):
                return f"link {e.label!r} leads to this page"
    if obs.url and _url_names(obs.url, name):
        return f"URL {obs.url}"
    return ""


def where(obs: ScreenObservation) -> str:
    """Where the screen is, for messages: title, URL, main headings."""
    heads = [e.label for e in obs.headings() if (e.level or 2) <= 3][:3]
    return f"title {obs.title!r}, URL {obs.url}" + (f", headings {heads}" if heads else "")
