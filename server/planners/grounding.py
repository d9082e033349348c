"""Ground what a task names in what the device has: screens, declared elements, the live screen.

Three sources, one score:

* screens of the navigation tree (label, id, keywords);
* elements the tree declares on each screen (name, text, what they open);
* the live screen (:class:`shared.screen.ScreenObservation`): accessible names,
  texts, placeholders, hints, dropdown options and the rows they sit in.

Scores tolerate plural/singular, partial names ("audio" for "Audio language")
and typos ("Melodi TV"), and always prefer the exact name. When nothing
matches, :func:`suggestions` lists the closest names for a "did you mean".
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from server.planners.matching import STOPWORDS, phrase_score, stems
from shared.models import ElementInfo, NodeInfo, PlanningContext
from shared.screen import (
    CLICKABLE_ROLES, FIELD_ROLES, ROLE_COMBOBOX, ROLE_LISTBOX, ROLE_TEXT, ROLE_TEXTBOX, TOGGLE_ROLES,
    ScreenObservation, UIElement,
)
from server.planners.language import words


class TargetKind(str, Enum):
    SCREEN = "screen"
    TREE_ELEMENT = "tree_element"
    LIVE_ELEMENT = "live_element"
    ROW = "row"
    OPTION = "option"


@dataclass(frozen=True)
class Target:
    kind: TargetKind
    score: float
    name: str
    node: NodeInfo | None = None
    element: ElementInfo | None = None
    live: UIElement | None = None
    option: str = ""

    @property
    def label(self) -> str:
        if self.live is not None:
            return self.live.label
        if self.element is not None:
            return self.element.text or self.element.name
        if self.node is not None:
            return self.node.label
        return self.name


# Words testers use for the same thing: normalised on both sides before scoring.
SYNONYMS = {"television": "tv", "telly": "tv", "captions": "subtitles", "caption": "subtitle", "cc": "subtitles",
            "film": "movie", "films": "movies", "programme": "program", "programmes": "programs",
            "preferences": "settings", "colour": "color", "favourite": "favorite", "favourites": "favorites",
            "catalogue": "catalog", "centre": "center", "cancelled": "canceled", "e-mail": "email",
            "sign": "log", "signin": "login", "login": "login", "logon": "login",
            # the states of a list's items, as filters name them ("finished" todos are the "Completed" ones)
            "finished": "completed", "complete": "completed",
            "remaining": "active", "unfinished": "active", "incomplete": "active", "outstanding": "active",
            # a TV's screens, as its testers call them ("catch up" is joined to one word, as "set up" is)
            "catchup": "replay", "epg": "guide", "vod": "movies",
            # a sound track in another language is the audio ("set the soundtrack to Spanish")
            "soundtrack": "audio"}


def _content(text: str) -> list[str]:
    return [SYNONYMS.get(w, w) for w in _joined(words(text)) if w not in STOPWORDS]


_PARTICLES = frozenset({"up", "in", "out", "on", "off"})


def _joined(ws: list[str]) -> list[str]:
    """A verb and its particle as the one word apps also write ("setting up" / "set up" → setup, "logging in" →
    login, "check out" → checkout), so that either way of writing it names the other."""
    out: list[str] = []
    i = 0
    while i < len(ws):
        w = ws[i]
        if i + 1 < len(ws) and ws[i + 1] in _PARTICLES and w.isalpha() and len(w) >= 3:
            base = w[:-3] if w.endswith("ing") and len(w) >= 6 else w
            if base != w and len(base) >= 3 and base[-1] == base[-2]:
                base = base[:-1]   # "setting" → set, "logging" → log
            out.append(base + ws[i + 1])
            i += 2
            continue
        out.append(w)
        i += 1
    return out


def _stem(w: str) -> str:
    for suffix in ("ies", "es", "s"):
        if len(w) > 3 + len(suffix) - 1 and w.endswith(suffix):
            return w[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return w


# a name written as code: "os.path", "urllib.parse", "example.com" (one token, never its parts)
_CODE_NAME = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+")


def is_code_name(text: str) -> bool:
    """*text* is a name written as code ("os.path", "urllib.parse"), matched only as a whole token."""
    return bool(_CODE_NAME.fullmatch(text.strip()))


def _code_name_score(name: str, candidate: str) -> float:
    """How well a name written as code names *candidate*: only as a whole token of it ("os.path" is not the
    "os" and "pathlib" of a list of modules), the fewer other tokens beside it the better."""
    low = name.lower()
    if candidate.strip().lower() == low:
        return 1.0
    tokens = [t.strip(".") for t in re.findall(r"[\w.-]+", candidate.lower())]
    if low not in tokens:
        return 0.0
    if tokens[0] == low:
        return 0.9    # "os.path — Common pathname manipulations": the name, then what it is
    return 0.85 if len(tokens) <= 3 else 0.6   # a name among a sentence's words is mentioned, not named


def is_dropdown(e: UIElement) -> bool:
    """*e* offers options to choose from: a dropdown, or a list of options shown open (a <select multiple>,
    "Assigned To" with a name per line)."""
    return e.role == ROLE_COMBOBOX or e.role == ROLE_LISTBOX and bool(e.options)


_OPTION_TAIL = re.compile(r"^\s*(?P<h>\S.*?)\s*(?:\((?P<p>[^)]*)\)|\s[-–—]\s+(?P<d>.*))\s*$")


def _head_and_tail(option: str) -> tuple[str, str]:
    """An option's words before a bracketed or dashed tail, and that tail ("Sam Ortiz", "sam")."""
    m = _OPTION_TAIL.match(option)
    return (m.group("h"), m.group("p") or m.group("d") or "") if m else (option, "")


def option_shown(option: str) -> str:
    """What a record shows of the option chosen for it: its words before a bracketed or dashed tail ("Sam Ortiz"
    of "Sam Ortiz (sam)")."""
    return _head_and_tail(option)[0]


def option_for(options: tuple[str, ...] | list[str], value: str) -> str | None:
    """The one option *value* names: the same words; else the one option that is *value* with more after it
    in brackets or after a dash ("Sam Ortiz" → "Sam Ortiz (sam)"), or whose bracketed part it is ("sam");
    else the one closest by spelling. None when no option, or more than one, fits."""
    said = norm(value)
    if not said:
        return None
    bare = re.sub(r"^(?:to|for|by|in|on|as|with|into)\s+", "", said)   # "to alice" in Assigned To: alice
    if bare != said and any(norm(o) == bare for o in options):
        said = bare
    same = [o for o in options if norm(o) == said]
    if same:
        return same[0]
    fits = [o for o in options if said in (norm(_head_and_tail(o)[0]), norm(_head_and_tail(o)[1]))]
    if len(fits) == 1:
        return fits[0]
    if fits:
        return None
    # else a slip of the keyboard ("Erands"): close in spelling, never another word ("Unresolved" of "resolved",
    # "Workshop" of "Work")
    close = [o for o in options if difflib.SequenceMatcher(None, said, norm(o)).ratio() >= 0.85
             and abs(len(norm(o)) - len(said)) <= 2
             and not re.search(rf"(?<!\w)(?:un|in|non|not|dis|im|ir|de)-?\s*{re.escape(said)}", norm(o))]
    return close[0] if len(close) == 1 else None


# an identifier: one token of parts joined by ":", "_", "/" or "-" ("lab:ir_blasterd", "encoders:enc_hd2")
_IDENTIFIER = re.compile(r"[A-Za-z][\w-]*(?:[:_/][\w-]+)+")
# words a tester adds for what a process or service is, which its identifier leaves out ("the IR blaster daemon")
_KIND_WORDS = frozenset("daemon service process program job worker server app instance task unit the a an".split())


def _identifier_score(phrase: str, candidate: str) -> float:
    """*phrase*, in words, names the identifier *candidate* part by part: each word the tester wrote is a part of
    it, the start of one ("blaster" of "blasterd") or starts with one of three letters or more ("encoder" of "enc",
    "encoders"); words for what the thing is ("daemon") may be left out. 0 unless every other word is a part."""
    if not _IDENTIFIER.fullmatch(candidate.strip()) or " " not in phrase.strip():
        return 0.0
    parts = [w for w in re.split(r"[:_/\-.]+", candidate.lower()) if w]
    said = [w for w in words(phrase) if w not in _KIND_WORDS]
    if not said or not parts:
        return 0.0

    def whole(w: str, p: str) -> bool:
        return w == p or _stem(w) == _stem(p)

    def part(w: str, p: str) -> bool:   # "blaster" of "blasterd", "encoder" of "enc": most of the one in the other
        short, long_ = sorted((w, p), key=len)
        return len(short) >= 3 and long_.startswith(short) and len(short) >= 0.6 * len(long_) \
            or len(p) >= 3 and w.startswith(p) and len(w) <= len(p) + 5
    if not all(any(whole(w, p) or part(w, p) for p in parts) for w in said) \
            or not any(whole(w, p) for w in said for p in parts):
        return 0.0   # every word said is a part, and one at least is a whole part ("main app" is no maintenance job)
    covered = sum(1 for p in parts if any(whole(w, p) or part(w, p) for w in said))
    return 0.8 + 0.1 * covered / len(parts)


@lru_cache(maxsize=65536)
def similarity(phrase: str, candidate: str) -> float:
    """How well *phrase* names *candidate* (0..1): exact, containment, overlap, then typos."""
    if not phrase or not candidate:
        return 0.0
    if is_code_name(phrase):
        return _code_name_score(phrase.strip(), candidate)
    base = max(phrase_score(phrase, candidate), _identifier_score(phrase, candidate))
    if base < 0.95 and _FILE_NAME.fullmatch(candidate.strip()) and \
            words(candidate.strip().rsplit(".", 1)[0]) == [w for w in words(phrase) if w not in ("the", "a", "an")]:
        base = 0.95   # "phone stand" is the file "phone_stand.gcode": its name said without its extension
    if base < 0.95 and _initials_of(phrase, candidate):
        base = 0.95   # "the FAQ" is "Frequently asked questions", "TOS" is "Terms of Service"
    for said, named in ((words(phrase), words(candidate)), (_joined(words(phrase)), _joined(words(candidate)))):
        if base < 0.95 and (set(said) | set(named)) & SYNONYMS.keys():   # as written, and particles joined
            base = max(base, phrase_score(" ".join(SYNONYMS.get(w, w) for w in said),
                                          " ".join(SYNONYMS.get(w, w) for w in named)))
    if base >= 0.95:
        return base
    pw, cw = _content(phrase), _content(candidate)
    if not pw or not cw:
        return base
    ps, cs = {_stem(w) for w in pw}, {_stem(w) for w in cw}
    # a word the tester wrote that starts a longer word of the name counts as that word ("search" → "searchbar")
    ps = {next((c for c in cs if len(w) >= 4 and c.startswith(w)), w) for w in ps}
    # and a name's word that starts the tester's with a short ending ("counter" → "count", "sorting" → "sort")
    ps = {next((c for c in cs if len(c) >= 4 and w.startswith(c) and len(w) - len(c) <= 3), w) for w in ps}
    if ps == cs:
        return max(base, 0.93)
    # a number the tester wrote names one thing ("ticket 2", "#2"): a longer name that also holds it
    # ("{2} Active Tickets by Version") is some other thing that only shares the digit
    # (unless the name says the tester's words, more than the number, in their order: "Top 40 Countdown" is the
    # row "5 Melody TV Top 40 Countdown 20:00")
    numbered = any(w.isdigit() for w in ps) and len(cs) > len(ps) + 1 and not (
        sum(not w.isdigit() for w in pw) >= 2 and f" {' '.join(words(phrase))} " in f" {' '.join(words(candidate))} ")
    if ps <= cs and not numbered:   # "audio" names "Audio language": every word the tester wrote is in the name
        base = max(base, 0.62 + 0.3 * len(ps) / len(cs))
    # typos: map each phrase word to the closest candidate word
    fixed = set()
    for w in ps:
        if w in cs:
            fixed.add(w)
            continue
        if len(w) >= 3:
            close = difflib.get_close_matches(w, list(cs), n=1, cutoff=0.78 if len(w) >= 4 else 0.85)
            if close:
                fixed.add(close[0])
                continue
        fixed.add(w)
    if fixed != ps:
        if fixed == cs:
            base = max(base, 0.88)
        elif fixed <= cs:
            base = max(base, 0.58 + 0.3 * len(fixed) / len(cs))
        else:
            overlap = len(fixed & cs) / len(fixed | cs)
            base = max(base, overlap * 0.85)
    return base


# a file's name: one token (no spaces) with an extension of a few letters ("phone_stand.gcode", "report-2024.pdf")
_FILE_NAME = re.compile(r"[\w-]+(?:\.[\w-]+)*\.(?:gcode|stl|3mf|obj|txt|md|rst|csv|tsv|json|ya?ml|toml|xml|html?|pdf|"
                        r"docx?|xlsx?|pptx?|odt|ods|png|jpe?g|gif|svg|webp|mp[34]|wav|zip|gz|tgz|tar|log|ini|cfg|conf|"
                        r"sql|db|sqlite|py|js|ts|sh|bin|hex|iso|img)", re.I)

_SMALL_WORDS = frozenset({"of", "and", "the", "a", "an", "for", "to", "in", "on", "&"})


def _initials_of(phrase: str, candidate: str) -> bool:
    """*phrase* is an abbreviation written in capitals (FAQ, TOS, API: three letters or more) of *candidate*'s words, their initials
    with or without the small words ("Terms of Service": TOS or TOFS)."""
    said = re.sub(r"^(?:the|an?)\s+|\s+(?:page|section|screen|tab)$", "", phrase.strip(), flags=re.I)
    if not re.fullmatch(r"(?-i:[A-Z]{3,6})s?", said):
        return False
    ws = candidate.split()
    if len(ws) < 2:
        return False
    said = said.rstrip("s") if len(said) > 2 and said.endswith("s") else said
    full = "".join(w[0] for w in ws).upper()
    short = "".join(w[0] for w in ws if w.lower() not in _SMALL_WORDS).upper()
    return said in (full, short)


def _best(phrase: str, names: list[str]) -> float:
    return max((similarity(phrase, n) for n in names if n), default=0.0)


# -- screens and declared elements -------------------------------------------------------------

PARAM_SCREEN_WEIGHT = 0.8
_PLACE_WORD = re.compile(r"\s+(?:tv|screen|page|section|area|view|library|collection|catalog|catalogue|hub)$", re.I)


_COLLECTION_WORD = re.compile(r"\s+(?:library|collection|catalog|catalogue|hub)$", re.I)


def _skeleton(word: str) -> str:
    """A word without its vowels after the first letter ("replay" → "rply", "settings" → "sttngs")."""
    return word[:1] + re.sub(r"[aeiou]", "", word[1:])


def abbreviates(short: str, name: str) -> bool:
    """*short*, one token with no space, is a shorthand of *name*: its initials ("ltv": Live TV, a word of two letters
    kept whole), its letters without
    vowels ("rply": Replay), or the start of its one word ("sett": Settings), four letters or more and three short of it
    ("movie" is no shorthand of Movies)."""
    token = re.sub(r"[^a-z0-9]", "", short.lower())
    ws = words(name)
    if not token or " " in short.strip() or not ws or token in ws:
        return False
    initials = {"".join(w[0] for w in ws), "".join(w if len(w) <= 2 else w[0] for w in ws)} if len(ws) >= 2 else set()
    letters = "".join(ws)
    return bool(len(token) >= 2 and token in initials or len(token) >= 3 and token == _skeleton(letters)
                or len(ws) == 1 and len(token) >= 4 and letters.startswith(token) and len(letters) >= len(token) + 3)


def screens(phrase: str, ctx: PlanningContext, minimum: float = 0.55) -> list[Target]:
    """The screens *phrase* names, best first. A page named after the one item it shows ("Movie for {name}") counts
    less where a screen of its own is named too ("the film section": Movies, not an arbitrary movie's page). Named
    alone ("the player"), or with a heading of its own ("Live TV", showing a channel), it is a screen like any other."""
    bare = _PLACE_WORD.sub("", phrase)   # "catch-up TV", "the settings screen": the name without the word for a place
    if bare != phrase and _COLLECTION_WORD.search(phrase) and re.search(r"[a-z]$", bare) and not bare.endswith("s"):
        bare += "s"   # "the film library" holds films: the Movies, not one movie's page
    said = [phrase] + ([bare] if bare and bare != phrase else [])
    app = re.escape(ctx.userinterface.replace("_", " ")) if ctx.userinterface else ""
    if app and re.search(rf"\b{app}\b\s+\w", bare, re.I):   # "the StreamTV home screen": the app's own home
        said.append(re.sub(rf"\b{app}(?:['’]s)?\s+", "", bare, flags=re.I))
    scored = [(max(max(_best(p, [node.label, node.id.replace("_", " ")]), _best(p, list(node.keywords)) * 0.9)
                   * (1.0 if p is phrase else 0.95) for p in said), node) for node in ctx.navigation.nodes]
    short = [node for node in ctx.navigation.nodes if abbreviates(bare, node.label)]
    if len(short) == 1:   # "ltv", "rply", "sett": a tester's shorthand for one screen's name
        scored = [(max(score, 0.86) if node is short[0] else score, node) for score, node in scored]
    one_item = [node for _, node in scored if node.param and "{" + node.param + "}" in node.label]
    plain = any(score >= 0.7 for score, node in scored if node not in one_item)
    out = [Target(TargetKind.SCREEN, score * (PARAM_SCREEN_WEIGHT if plain and node in one_item else 1.0), node.label,
                  node=node) for score, node in scored]
    return sorted((t for t in out if t.score >= minimum), key=lambda t: -t.score)


def _said_first(label: str, phrase: str) -> bool:
    """Whether *phrase* starts with the words of *label* ("the player title" with "Player")."""
    mine, said = words(label), [w for w in words(phrase) if w not in ("the", "a", "an")]
    return bool(mine) and said[:len(mine)] == mine and len(said) > len(mine)


def tree_elements(phrase: str, ctx: PlanningContext, prefer_node: str | None = None, minimum: float = 0.6,
                  many: bool | None = None) -> list[Target]:
    out = []
    for node in ctx.navigation.nodes:
        for el in node.elements:
            if many is not None and el.many != many:
                continue
            score = _best(phrase, [el.name, el.text])
            if score < minimum and el.name and not el.many and _said_first(node.label, phrase):
                # "the player title", "the live now line": an element said with its screen's name before it
                score = max(score, _best(phrase, [f"{node.label} {el.name}"]) - 0.02)
            if score < minimum:
                continue
            if node.id == prefer_node:
                score += 0.05
            out.append(Target(TargetKind.TREE_ELEMENT, score, el.text or el.name, node=node, element=el))
    return sorted(out, key=lambda t: -t.score)


_PLAIN_KINDS = stems("item entry record row one page screen link button tab option menu list view detail "
                    "details info information")


def unexplained(phrase: str, t: Target, ctx: PlanningContext) -> set[str]:
    """Words of *phrase* a declared element's near match leaves out that say neither what it is nor the
    kind of thing it is (its screen's name, the screen it opens, a plain word such as "item"): "orders" and
    "email" in "the orders of Alice Martin", "an email to Alice Martin" name something else."""
    el = t.element
    opened = ctx.nodes.get(el.opens) if el is not None and el.opens else None
    known = stems(f"{el.name if el else ''} {el.text if el else ''} {t.node.label if t.node else ''} "
                  f"{opened.label if opened else ''}", content=True) | _PLAIN_KINDS
    return set(stems(phrase, content=True) - known)


# -- the live screen -----------------------------------------------------------------------------

ACTIONABLE = frozenset({"button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch"})


# class words that say an element's state or place, not what it is ("active" on the current tab)
_STATE_CLASSES = frozenset({"active", "current", "selected", "first", "last", "odd", "even", "open", "is",
                            "focus", "focused", "hover", "visible", "show", "shown"})


def element_names(el: UIElement) -> list[str]:
    hint = " ".join(w for w in el.hint.split() if w not in _STATE_CLASSES) if el.hint else ""
    if (el.name or el.text) and ("," in hint or "…" in hint or len(hint.split()) > 8):
        hint = ""   # a named element's tooltip sentence ("select id, name, indoor from plants"): not its name
    return [n for n in (el.name, el.text, el.placeholder, hint) if n]


def bare_names(el: UIElement) -> list[str]:
    """"Number of users (peak concurrency) *": the element's names without their aside and "required" mark,
    where that changes them."""
    names = [n for n in (el.name, el.text, el.placeholder) if n]
    return [b for b in (bare_label(n) for n in names) if b and b not in names]


def bare_label(text: str) -> str:
    """A label without its aside and its "required" mark: "Number of users (peak concurrency) *" → "Number of
    users"; "json (package)" → "json"."""
    return _BARE.sub(" ", text).strip(" *:")


_BARE = re.compile(r"\s*\([^)]*\)\s*|\s*\[[^\]]*\]\s*|\s*\*\s*$")


def live_elements(phrase: str, screen: ScreenObservation | None, *, roles: frozenset[str] | None = None,
                  minimum: float = 0.6, row: str = "") -> list[Target]:
    """Elements of the live screen *phrase* names, best first; clickable ones win ties."""
    if screen is None:
        return []
    out = []
    common = _common_hint_words(screen)
    for el in screen.elements:
        if roles is not None and el.role not in roles:
            continue
        if row and similarity(row, el.container) < 0.6 and row.lower() not in el.container.lower():
            continue
        names = element_names(el)
        if common and (el.name or el.text) and el.hint:
            # a class every account link has ("account") names none of them: "its account page" is no "Income"
            names = [n for n in names if n != el.hint and n.split() != el.hint.split()] + \
                [h for h in [" ".join(w for w in el.hint.split() if w not in common and w not in _STATE_CLASSES)] if h]
        score = _best(phrase, names)
        bare = bare_names(el)
        if bare:   # "Number of users (peak concurrency) *" is named "Number of users" too
            score = max(score, _best(phrase, bare))
        if el.hint and not (el.name or el.text):
            score = max(score, _best(phrase, [el.hint]) * 0.95)
            wanted = phrase.lower().split()
            if wanted and set(wanted) <= set(el.hint.split()):
                score = max(score, 0.8)   # a nameless field whose id or class has the words: "sql" → id="sql"
        if score < minimum:
            continue
        if any(norm(n) == norm(phrase) for n in names):
            score += 0.02   # "json" itself before "_json", which only reads the same
        elif any(norm(n) == norm(phrase) for n in bare):
            score += 0.01   # said whole but for its aside: after "Reports" itself, before "_json" ("json (package)")
        if el.role in ACTIONABLE:
            score += 0.03
        elif el.clickable:
            score += 0.01
        if el.hidden:
            score -= 0.02
        if el.role == ROLE_TEXT:
            score -= 0.03
        out.append(Target(TargetKind.LIVE_ELEMENT, score, el.label, live=el))
    return sorted(out, key=lambda t: -t.score)


COMMON_HINT = 4   # named elements whose classes share a word: it is the kind of all of them, the name of none


_last_common: tuple[ScreenObservation | None, frozenset[str]] = (None, frozenset())


def _common_hint_words(screen: ScreenObservation) -> frozenset[str]:
    """The class words that COMMON_HINT or more named elements of *screen* share; worked out once per screen (a
    plan asks for every phrase it grounds on the one screen it plans on)."""
    global _last_common
    seen, words_ = _last_common
    if seen is screen:
        return words_
    counts: dict[str, int] = {}
    for el in screen.elements:
        if el.hint and (el.name or el.text):
            for w in set(el.hint.split()):
                counts[w] = counts.get(w, 0) + 1
    words_ = frozenset(w for w, n in counts.items() if n >= COMMON_HINT)
    _last_common = (screen, words_)
    return words_


def leaves_the_app(url: str, href: str) -> bool:
    """A link to another site than the page's own (its host differs)."""
    from urllib.parse import urljoin, urlsplit

    if not href or not url:
        return False
    there = urlsplit(urljoin(url, href))
    return there.scheme in ("http", "https") and there.netloc != urlsplit(url).netloc


def within_the_app(screen: ScreenObservation | None, targets: list[Target], named: str) -> list[Target]:
    """*targets* without the links to another site than *screen*'s, but for one *named* whole ("open TodoMVC")."""
    if screen is None:
        return targets
    return [t for t in targets if t.live is None or norm(t.label) == norm(named)
            or not leaves_the_app(screen.url, t.live.href)]


def stays_on_page(href: str) -> bool:
    """A link that goes nowhere else: "#", an anchor of this page, a script. A single-page app's route ("#/email/7",
    "#!/users") is a page of its own."""
    return href.startswith("javascript:") or href.startswith("#") and not href.startswith(("#/", "#!/"))


def norm(text: str) -> str:
    """Lowercase, with runs of white space as one space: labels compared as a tester reads them."""
    return " ".join(text.lower().split())


def rows(phrase: str, screen: ScreenObservation | None, minimum: float = 0.7) -> list[Target]:
    """Rows / list items whose text *phrase* names ("buy milk" → the row showing "Buy milk")."""
    if screen is None:
        return []
    seen: dict[str, float] = {}
    said = words(phrase)
    for el in screen.elements:
        if not el.container:
            continue
        c = el.container
        score = similarity(phrase, c)
        if phrase.lower() in c.lower():
            score = max(score, 0.75 + 0.2 * len(phrase) / max(len(c), 1))
        if any(norm(phrase) == norm(t) for t in (el.name, el.text) if t):
            score = max(score, 0.95)   # a cell of the row, or a link in it, is exactly the name
        elif said and any(said == words(t) or _FILE_NAME.fullmatch(t.strip()) and similarity(phrase, t) >= 0.95
                          for t in (el.name, el.text) if t):
            # the same words, the separators aside ("mail relay": "mail-relay"), or a file's without its extension
            score = max(score, 0.93)
        else:   # "the HD2 encoder": a cell or link of the row is the identifier "encoders:enc_hd2", part by part
            score = max([score] + [_identifier_score(phrase, t) for t in (el.name, el.text) if t])
        if score >= minimum and score > seen.get(c, 0.0):
            seen[c] = score
    if not seen and minimum <= BY_WORDS:
        row = _row_by_words(phrase, screen)
        if row:
            seen[row] = BY_WORDS
    return sorted((Target(TargetKind.ROW, s, c) for c, s in seen.items()), key=lambda t: -t.score)


MIN_ROW_KEY = 3
# what changes while a row stays the same row: a clock or an uptime, "2 minutes ago", a date, a bare number
_VOLATILE = re.compile(r"\d:\d\d|\bago\b|\bjust now\b|\d{4}-\d\d-\d\d|^[\W\d_]+$", re.I)
# a row's controls, which a row's state swaps ("Start" for "Stop"): never its name
_CONTROL_WORDS = stems("edit delete remove view open start stop restart pause resume unpause enable disable "
                       "mute unmute archive clear copy clone duplicate recheck refresh show hide more details "
                       "activate deactivate play run cancel close reopen")


def row_key(row: str, screen: ScreenObservation | None) -> str:
    """What names *row* for the device as long as the row is there: a text of one of its cells or links that no
    other row shows ("mail-relay"), rather than the row's whole text, which holds what changes as the app runs
    (an uptime, a state, "2 minutes ago") and is cut short past 80 characters. Its name link comes first, then
    its first cell; the row's whole text when none of its parts that stay is its own."""
    if screen is None or not row:
        return row
    # the other rows' texts (cut short at 80 characters), and the texts of their parts
    others = [t.lower() for el in screen.elements if el.container and el.container != row
              for t in (el.container, el.name, el.text) if t]

    def rank(item: tuple[int, UIElement, str]) -> tuple[bool, int, int]:
        i, el, text = item
        control = bool({_stem(w) for w in words(text)[:1]} & _CONTROL_WORDS)
        kind = 0 if el.role in ("link", "heading") and not control else 1 if not el.clickable else 2   # (a card's title)
        return bool(_VOLATILE.search(text)), kind, i

    parts = [(i, el, (el.name or el.text).strip()) for i, el in enumerate(screen.elements)
             if el.container == row and not el.hidden]
    mine = [(i, el, text) for i, el, text in parts if len(text) >= MIN_ROW_KEY and text != row
            and not text.endswith("…") and text.lower() in row.lower() and not any(text.lower() in o for o in others)]
    best = min(mine, key=rank) if mine else None
    if best is None or rank(best)[0]:
        return row   # only a part that changes is the row's own ("Chloe -308.68": her balance)
    return best[2]


BY_WORDS = 0.72


def _row_by_words(phrase: str, screen: ScreenObservation) -> str:
    """"the plumber todo" → the one row showing "Call the plumber": the phrase's lowercase words that no row
    shows ("todo", "bill") are its kind, and the words left must all be in one row, and in that row only."""
    said = [w for w in words(phrase) if w not in STOPWORDS]
    containers = {el.container for el in screen.elements if el.container}
    row_words = {c: set(words(c)) for c in containers}
    shown = set().union(*row_words.values()) if row_words else set()
    kept = [w for w in said if w in shown]
    dropped = [w for w in said if w not in shown]
    if not kept or not dropped or len(dropped) > 2 or sum(len(w) for w in kept) < 4 \
            or any(re.search(rf"\b{re.escape(w)}\b", phrase) is None for w in dropped):
        return ""
    holding = [c for c, ws in row_words.items() if set(kept) <= ws]
    return holding[0] if len(holding) == 1 else ""


def fields(phrase: str, screen: ScreenObservation | None, minimum: float = 0.55) -> list[Target]:
    """Text fields and dropdowns that *phrase* names, by label, placeholder or hint."""
    return live_elements(phrase, screen, roles=FIELD_ROLES, minimum=minimum)


_CONVERSATION = re.compile(r"\b(?:ask|question|chat|conversation|assistant)\b", re.I)   # not "commit message"


def about_conversation(text: str) -> bool:
    """Words of talking to someone or to a bot: "Ask a question...", "Ask the assistant", "New Chat"."""
    return bool(_CONVERSATION.search(text))


def conversation_box(el: UIElement) -> bool:
    """A box for talking to someone or to a bot: what is typed there is said, never a record made or a search run.
    It is used when a task names it, never as the one box there is."""
    return about_conversation(" ".join((el.name, el.placeholder, el.hint)))


def textboxes(screen: ScreenObservation | None) -> list[UIElement]:
    """The screen's text boxes that take the app's data (a chat panel's box beside them is no data field)."""
    return [e for e in screen.elements if e.role == ROLE_TEXTBOX and not e.disabled and not e.hidden
            and takes_data(e)] if screen else []


def read_only(el: UIElement) -> bool:
    """A box that only shows a value (an address to copy): nothing is typed there."""
    return "readonly" in el.hint.split()


def takes_data(el: UIElement) -> bool:
    """A box the app's data is typed into unless a task names another: no chat panel's, no read-only one."""
    return not conversation_box(el) and not read_only(el)


def options(phrase: str, screen: ScreenObservation | None, minimum: float = 0.75) -> list[Target]:
    """Options of the screen's dropdowns that *phrase* names: (the dropdown, the option)."""
    if screen is None:
        return []
    out = []
    for el in screen.elements:
        if el.role != ROLE_COMBOBOX:
            continue
        for opt in el.options:
            score = similarity(phrase, opt)
            if score >= minimum:
                out.append(Target(TargetKind.OPTION, score, opt, live=el, option=opt))
    return sorted(out, key=lambda t: -t.score)


# -- when nothing matches ------------------------------------------------------------------------

def suggestions(phrase: str, ctx: PlanningContext, screen: ScreenObservation | None, limit: int = 5) -> list[str]:
    """The names closest to *phrase*: screens, declared elements, live controls, commands."""
    names: dict[str, str] = {}
    for node in ctx.navigation.nodes:
        names.setdefault(node.label, "screen")
        for el in node.elements:
            if el.text or el.name:
                names.setdefault(el.text or el.name, f"on {node.label}")
    if screen is not None:
        for el in screen.elements:
            if el.label and (el.clickable or el.role in CLICKABLE_ROLES | FIELD_ROLES | TOGGLE_ROLES):
                names.setdefault(el.label[:60], el.role)
    for spec in ctx.commands.values():
        names.setdefault(spec.name, "command")
    scored = []
    low = phrase.lower()
    for name, where in names.items():
        s = max(similarity(phrase, name), difflib.SequenceMatcher(None, low, name.lower()).quick_ratio() * 0.6)
        if s > 0.3:
            scored.append((s, f"{name} ({where})"))
    scored.sort(key=lambda t: -t[0])
    return [text for _, text in scored[:limit]]
