"""Records in web apps: lists of things, their forms, and the words testers use for them.

Admin screens, database browsers and CRUD apps share one shape: a link names a
list ("Customers", "books"), each row is a record with a link to its page, an
"Add …" control opens a form, a form has labelled fields and a Save button,
and deleting asks for a confirmation. This module reads what a task says about
a record ("a customer named Ivy Nguyen with email ivy@x.com from Hanoi",
"Bob Chen's city") and maps it onto what the screen shows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urljoin, urlsplit

from server.planners import grounding, record_ids
from server.planners.grounding import Target, TargetKind
from server.planners.language import clean, quoted, words
from server.planners.state import State
from shared import vocabulary as V
from shared.screen import (
    CLICKABLE_ROLES, ROLE_BUTTON, ROLE_CELL, ROLE_CHECKBOX, ROLE_COMBOBOX, ROLE_LINK, ROLE_LISTITEM, ROLE_MENUITEM,
    ROLE_ROW, ROLE_TAB, ROLE_TEXTBOX,
    UIElement,
)

NAV_ROLES = frozenset({ROLE_LINK, ROLE_TAB, ROLE_MENUITEM, ROLE_BUTTON})

# A value after one of these words fills a field named like one of theirs.
PREPOSITION_FIELDS = {
    "from": ("city", "country", "location", "address", "origin", "town", "place"),
    "paid by": ("who paid", "payer", "paid by", "paid", "buyer"),
    "by": ("author", "artist", "creator", "director", "writer", "owner", "by"),
    "in": ("category", "genre", "group", "type", "section", "kind", "department"),
    "for": ("price", "cost", "amount", "total"),
    "costs": ("price", "cost", "amount"),
    "costing": ("price", "cost", "amount"),
    "priced": ("price", "cost"),
    "due": ("due", "due date", "deadline", "due_date"),
    "at": ("price", "address", "location"),
    "to": ("member", "user", "customer", "recipient", "to"),
    "on": ("day", "date", "weekday", "when"),   # only for a day or a date: "a shift on Fri", "due on 2026-12-01"
    "of": ("book", "item", "product", "amount", "price", "cost", "total", "how much"),
}
# prepositions that join the words of a title ("Bank of England"): no field between two capitalised words
_TITLE_WORDS = frozenset({"of"})
NAME_FIELDS = ("name", "title", "full name", "label", "username", "first name", "subject", "text")
FLAGS = {
    "not in stock": ("stock", False), "out of stock": ("stock", False), "in stock": ("stock", True),
    "not available": ("available", False), "unavailable": ("available", False), "available": ("available", True),
    "inactive": ("active", False), "not active": ("active", False), "active": ("active", True),
    "disabled": ("enabled", False), "enabled": ("enabled", True),
}
FLAG_PHRASES = "|".join(re.escape(k) for k in sorted(FLAGS, key=len, reverse=True))   # for patterns
_OWNER_BEFORE_NAME = re.compile(r"\s+for\s+(?:the\s+)?(?P<o>(?-i:[A-Z0-9])[\w.-]*(?:\s+(?-i:[A-Z0-9])[\w.-]*){0,2})"
                                r"(?=\s+(?:called|named|titled|entitled)\s)", re.I)
# "…, status available, …": a field named, then a word that is otherwise a flag, as its value
_FIELD_THEN_FLAG = re.compile(rf"(?P<pre>(?:^|,)\s*(?:and\s+|with\s+)?(?P<f>[a-z][\w-]*)\s*:?\s+)(?P<v>{FLAG_PHRASES})"
                              r"(?=\s*(?:,|$))", re.I)
_NO_FIELD = frozenset({"as", "is", "and", "marked", "be", "it's", "its", "that", "which", "are", "was", "now", "not",
                       "currently", "still", "also", "both", "initially", "set", "mark", "make", "otherwise", "keep",
                       "leave", "default", "but", "yet", "then", "start", "starts", "stay", "stays", "remain", "remains"})
SAVE_WORDS = ("save", "submit", "create", "insert", "add", "ok", "apply", "update", "done", "confirm", "send", "go")
CONFIRM_WORDS = ("yes, i'm sure", "yes, i’m sure", "yes", "confirm", "delete", "drop", "ok", "i'm sure", "continue",
                 "proceed", "remove", "are you sure", "you sure", "sure", "really")


@dataclass
class Record:
    """What a task says of a record: its main name, named fields, loose values and flags."""

    name: str = ""
    noun: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)    # (field words, value)
    loose: list[str] = field(default_factory=list)                 # values with no field named
    flags: list[tuple[str, bool]] = field(default_factory=list)
    # words of the record's kind that a dropdown may offer: "a critical defect" sets Priority and Type
    # where the form has them, and nothing where it has not
    options: list[str] = field(default_factory=list)
    # fields the task says to leave empty: "a bill called Snacks without an amount"
    empty: list[str] = field(default_factory=list)

    def as_clause(self) -> str:
        """The record as one clause a later plan reads back: fill in name "X", email "Y", _ "Z" …"""
        parts = []
        if self.name:
            parts.append(f'name "{self.name}"')
        parts += [f'{k} "{v}"' for k, v in self.fields]
        parts += [f'_ "{v}"' for v in self.loose]
        parts += [f'{k} "{"yes" if v else "no"}"' for k, v in self.flags]
        parts += [f'{OPTION_KEY} "{v}"' for v in self.options]
        return "fill in " + ", ".join(parts)


OPTION_KEY = "if offered"


_PAIR = re.compile(r'(?P<k>[\w .-]*?)\s*"(?P<v>[^"]*)"')


def parse_fill(text: str) -> Record | None:
    """Read back :meth:`Record.as_clause` (and the tester's own "fill in name "X", email "Y"")."""
    m = re.match(r"^fill in\s+(.+)$", text.strip(), re.I)
    if not m or '"' not in m.group(1):
        return None
    rec = Record()
    for pm in _PAIR.finditer(m.group(1)):
        key, value = pm.group("k").strip(" ,").lower(), pm.group("v")
        if key == "name":
            rec.name = value
        elif key == "_" or not key:
            rec.loose.append(value)
        elif key == OPTION_KEY:
            rec.options.append(value)
        elif value in ("yes", "no") and key in {f for f, _ in FLAGS.values()}:
            rec.flags.append((key, value == "yes"))
        else:
            rec.fields.append((key, value))
    return rec


# a day or a date after "on", followed by nothing, a time or a date's end: "on Fri", "on Sat 09:00-12:00",
# "on 2026-12-01" (not "on Monday standup", a name)
WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?\.?"   # "Fri", "Friday"
_DAY_OR_DATE = re.compile(r"(?:" + WEEKDAY + r"|today|"
                          r"tomorrow|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?)(?=\s*$|\s+\d{1,2}:\d{2}|\s+(?:called|named|titled)\b)",
                          re.I)
_RECORD_NOUNS = frozenset({"book", "customer", "product", "member", "user", "item", "entry", "record", "row", "task",
                           "todo", "ticket", "issue", "page", "post", "note", "one", "new"})

DESTINATION = re.compile(r"\s+(?:to|into|onto|on)\s+(?:the|my|our|your|this)\s+(?:[\w-]+\s+)?(?:list|todos|to-dos)"
                         r"\s*[.!?]*$", re.I)


def list_nouns(text: str) -> list[str]:
    """Nouns a clause may use for a list: "the customer David Okafor" → customer."""
    # a lower-case word: "the Rent bill" names no list "rent" (its kind comes last: bill)
    m = re.search(r"\b(?:the|a|an|this|that)\s+(?!(?:our|my|your|their|his|her|its)\b)((?-i:[a-z]+))\b", text, re.I) or \
        re.match(r"^\s*(?!(?:the|a|an)\s)([a-z]+)\s+(?=[A-Z\"'“‘])", text) or \
        re.match(r"^\s*(?:the\s+)?(?-i:[A-Z0-9][\w'’.-]*(?:\s+[A-Z0-9][\w'’.-]*)*)\s+((?-i:[a-z]{3,}))\s*$", text, re.I)
    out = [m.group(1).lower()] if m else []
    m = re.search(r"\b(?:in|from|of|on)\s+(?:the\s+)?([a-z]+)(?:\s+(?:list|table|page))?\s*$", text, re.I)
    if m:
        out.append(m.group(1).lower())
    return [n for n in out if n not in ("list", "table", "page", "form", "screen")]


def _unless_preposition(m: re.Match[str]) -> str:
    """A "key value" pair read as a field is taken out of the body; ", from Oslo" stays for the prepositions."""
    key = re.match(r"(?:\bwith\b|,|\band\b)\s+(?:the\s+|a\s+|an\s+)?(?P<k>[a-z][\w-]*)", m.group(0), re.I)
    return m.group(0) if key and key.group("k").lower() in PREPOSITION_FIELDS else " "


def parse_record(text: str) -> Record:
    """"a customer named Ivy Nguyen with email ivy@x.com from Hanoi" → name, noun and fields."""
    rec = Record()
    from server.planners.intents_form import AS_KIND

    kind = AS_KIND.match(text.strip())
    if kind:
        text = f"a {kind.group('noun')} called {kind.group('v')}"   # "Emma as a participant": a participant called Emma
    text = re.sub(r"\b(?:who\s+)?(?:lives|living|based|located|residing)\s+in\b", "from", text, flags=re.I)
    # "… to my list", "… onto the shopping list": where it goes, not a field of it
    text = DESTINATION.sub("", text.strip())
    # "… without an amount", "… with no description": a field left empty, not a part of the name
    left = re.search(r"\s+(?:without|with\s+no)\s+(?:an?\s+|the\s+|any\s+)?(?P<f>[a-z]+(?:\s+[a-z]+)?)\s*$", text,
                     re.I)
    if left:
        rec.empty.append(left.group("f").lower())
        text = text[:left.start()]
    # "a test case for the WebShop called 'X' - category Functional": the kind's owner said before the name is a value
    # of the new record (its product, its project), and a dash between parts is a comma
    owner = _OWNER_BEFORE_NAME.search(text)
    if owner:
        rec.loose.append(owner.group("o"))
        text = text[:owner.start()] + text[owner.end("o"):]
    text = re.sub(r"(?<=['\"”’])\s+[-–—]\s+(?=[a-z]+\s+\S)", ", ", text)   # "called 'X' - category Y", never inside a name
    body = " " + text.strip().rstrip(".!?") + " "
    # "… of type Tasks", "… of kind bug": that field's value
    body = re.sub(r"\s+of\s+(?:the\s+)?(type|kind|category)\s+(?=\S)", r" with \1 ", body, flags=re.I)
    # "a page 'Shopping List' containing 'HDMI cables'": the quoted words are its text
    said_text = r"\s+(?:containing|that\s+(?:says|reads|contains)|which\s+(?:says|reads|contains)|reading)"
    body = re.sub(said_text + r"\s+(?=[\"“'])", " with text ", body, flags=re.I)
    body = re.sub(said_text + r"\s*:\s*", " with text: ", body, flags=re.I)   # "… that says: Run the smoke suite …"
    # "a note titled Freezer with 'Two tubs of soup'": words quoted after "with", and no field named, are its text
    body = re.sub(r"(?<=\S)\s+with\s+(?=\"[^\"]*\s[^\"]*\s[^\"]*\"|“[^”]*\s[^”]*\s[^”]*”|'[^']*\s[^']*\s[^']*'(?!\w))",
                  lambda m: " with text " if re.search(r"\b(?:called|named|titled|entitled)\s+\S", body[:m.start()], re.I)
                  else m.group(0), body, flags=re.I)
    body = _said_tags(rec, body)
    keyed = re.match(r"^\s*(?:an?\s+|the\s+)?(?:new\s+)?(?P<noun>[a-z]+(?:\s+[a-z]+)?)\s+(?P<k>[^\s=]+)\s*=\s*(?P<v>\S.*?)\s*$",
                     body, re.I)
    if keyed:   # "a variable owner_email = data-team@example.com": a key and its value
        rec.noun, rec.name = keyed.group("noun").split()[-1].lower(), keyed.group("k")
        rec.fields.append(("value", quoted(keyed.group("v")) or keyed.group("v").strip()))
        return rec
    body = _bare_address(rec, body)
    body = _FIELD_THEN_FLAG.sub(lambda m: m.group(0) if m.group("f").lower() in _NO_FIELD else
                                f'{m.group("pre")}"{m.group("v")}"', body)   # "status available": a field's value
    for phrase, (flag, value) in sorted(FLAGS.items(), key=lambda kv: -len(kv[0])):
        pat = re.compile(rf"[\s,]+(?:as\s+|and\s+|that is\s+|which is\s+|marked\s+(?:as\s+)?|it's\s+|is\s+)?{re.escape(phrase)}(?=[\s,.]|$)", re.I)
        if pat.search(body):
            rec.flags.append((flag, value))
            body = pat.sub(" ", body)
    # parenthesised loose values: "(1817, classic)"
    for m in re.finditer(r"\(([^)]*)\)", body):
        rec.loose += [clean(v) for v in m.group(1).split(",") if clean(v)]
    body = re.sub(r"\([^)]*\)", " ", body)
    # "with the description: lip sync is off by half a second": after a colon, the value runs to the comma
    for m in list(re.finditer(r"(?:\bwith\b|,|\band\b)\s+(?:the\s+|a\s+|an\s+)?(?P<k>(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*))?)"
                              r"\s*:(?!//)\s*(?P<v>\"[^\"]+\"|'[^']+'|[^,]+)", body, re.I))[::-1]:
        rec.fields.insert(0, (m.group("k").strip().lower(), quoted(m.group("v")) or clean(m.group("v"))))
        body = body[:m.start()] + " " + body[m.end():]
    # "a critical defect: EPG crashes", "a critical defect called X": the kind is the last word, and its words
    # may be values a dropdown offers
    kind = re.match(r"^\s*(?:an?\s+|the\s+|one\s+)?(?:new\s+)?(?P<np>(?-i:(?:[a-z][\w-]*\s+){1,2}[a-z]+|[a-z]+))"
                    r"(?=\s*:(?!//)\s*\S|\s+(?:called|named|titled|entitled)\b)", body, re.I)
    if kind:
        # a generic noun ("customer", "record") is no value; "task" or "bug" may be one (an issue's type)
        rec.options = [w for w in kind.group("np").lower().split() if w not in _RECORD_NOUNS or w == "task"]
        if len(kind.group("np").split()) > 1:   # "an address book named X": a kind of two words may be one option
            rec.options.insert(0, kind.group("np").lower())
        if len(kind.group("np").split()) > 1:
            body = body[:kind.start("np")] + kind.group("np").split()[-1] + body[kind.end("np"):]
    # "with email X", "with the price of X", ", category Kitchen", "and price 9.90"
    for m in re.finditer(r"(?:\bwith\b|,|\band\b)\s+(?:the\s+|a\s+|an\s+)?(?P<k>(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*))?)\s+"
                         r"(?:of\s+|as\s+|=\s*|:\s*|set to\s+)?(?P<v>\"[^\"]+\"|'[^']+'|[^,]+?)"
                         r"(?=\s*(?:,|\b(?:with|and|from|by|for|costs|due|in|paid|titled|called|named)\b|$))",
                         body, re.I):
        key = m.group("k").strip().lower()
        if key in PREPOSITION_FIELDS or key in ("a", "an", "the", "then"):
            continue
        rec.fields.append((key, _value(m.group("v"))))
    body = re.sub(r"(?:\bwith\b|,|\band\b)\s+(?:the\s+|a\s+|an\s+)?(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*))?\s+(?:of\s+|as\s+|=\s*|:\s*|set to\s+)?"
                  r"(?:\"[^\"]+\"|'[^']+'|[^,]+?)(?=\s*(?:,|\b(?:with|and|from|by|for|costs|due|in|paid|titled|called|named)\b|$))",
                  _unless_preposition, body, flags=re.I) \
        if rec.fields else body
    # "from Hanoi", "by Jane Austen", "for 18.00", "costs 12.00", "due 2026-12-20"
    for prep in sorted(PREPOSITION_FIELDS, key=len, reverse=True):
        m = re.search(rf"\b{prep}\s+(?:at\s+)?(?P<v>\"[^\"]+\"|'[^']+'|[^,]+?)(?=\s*(?:,|\b(?:from|by|for|costs|due|in|with|paid)\b|$))",
                      body, re.I)
        if m and _in_quotes(body, m.start()):
            continue   # "'Two tubs of soup'": a word inside quoted words is part of them
        if m and prep in _TITLE_WORDS and re.search(r"\b[A-Z][\w'’.-]*\s+$", body[:m.start()]) \
                and m.group("v")[:1].isupper():
            continue   # "titled The Left Hand of Darkness": "of" between capitalised words is part of the name
        if m and prep == "on":   # "on Fri", "on Sat 09:00-12:00": a day or a date, and what follows it loose
            day = _DAY_OR_DATE.match(m.group("v"))
            if day is None or re.search(r"\b(?:called|named|titled|entitled|labell?ed|saying)\b", body[:m.start()], re.I):
                continue   # "a talk on Python", "a ticket titled Outage on Friday": part of the name
            rec.fields.append(("on", clean(day.group(0))))
            rest = m.group("v")[day.end():]
            if re.match(r"\s*\d", rest):   # "on Sat 09:00-12:00": the time, a value of its own
                rec.loose.append(clean(rest))
                rest = ""
            body = body[:m.start()] + " " + rest + body[m.end():]
            continue
        if m and not re.match(r"^(?:the|a|an|my|our|your|this)\s+(?:[\w-]+\s+)?(?:list|table|form|page)\b", m.group("v"), re.I):
            rec.fields.append((prep, quoted(m.group("v")) or clean(m.group("v"))))
            body = body[:m.start()] + " " + body[m.end():]
    # the main name: quoted, or after called/named/titled, or what is left after the noun
    q = quoted(body)
    m = re.search(r"\b(?:called|named|titled|labelled|labeled|saying)\s+(?P<v>\"[^\"]+\"|'[^']+'|[^,]+?)\s*(?:,|$)", body, re.I)
    head = re.match(r"^\s*(?:an?\s+|the\s+|one\s+)?(?:new\s+)?(?P<noun>[a-z]+)\b", body, re.I)
    if m:
        rec.name = quoted(m.group("v")) or _title(m.group("v"))
        if head:
            rec.noun = head.group("noun").lower()
    elif q:
        rec.name = q
        if head and head.group("noun").lower() not in ("the", "a", "an"):
            rec.noun = head.group("noun").lower()
    else:
        rest = re.sub(r"\s+", " ", body).strip(" ,")
        only_noun = re.fullmatch(r"(?:an?\s+|the\s+|one\s+)?(?:new\s+)?([a-z]+)", rest, re.I)
        if only_noun:   # "add a customer": its form, nothing to fill yet
            rec.noun = only_noun.group(1).lower()
            return rec
        hm = re.match(r"^(?P<art>(?:an?\s+|the\s+)?(?:new\s+)?)(?P<noun>[a-z]+)\s*(?P<colon>:)?\s+(?P<v>.+)$", rest, re.I)
        # "Christopher Nolan", "Blue Mug": capitalised words said with no article are one name; a kind is said in
        # lower case ("customer Erin Smith") or after an article ("a Bug: login fails")
        named_whole = hm is not None and not hm.group("art") and not hm.group("colon") \
            and hm.group("noun")[:1].isupper() and hm.group("noun").lower() not in _RECORD_NOUNS
        if hm and not named_whole and (hm.group("v")[:1].isupper() or hm.group("colon")
                                       or hm.group("noun").lower() in _RECORD_NOUNS):
            rec.noun, rec.name = hm.group("noun").lower(), clean(hm.group("v"))
        else:
            rec.name = clean(rest)
    if not q and "," in rec.name:   # "a new product: Tea Cup, kitchen, 4.50": the name, then loose values
        first, *others = [clean(v) for v in rec.name.split(",")]
        rec.name, rec.loose = first, rec.loose + [v for v in others if v]
    said = re.match(r"^(?-i:name|title|full name|label|subject)\s*[:=]?\s+(?P<v>\S.*)$", rec.name)
    if said and not q:   # "a new member: name Tara Singh, email …": the field's name is not part of the value
        rec.name = clean(said.group("v"))
    keyed = _KEYED_FIRST.match(rec.name)
    if keyed and not q:   # "a bookmark: url https://pypi.org/, title PyPI": the first value is a field's too
        rec.fields.insert(0, (keyed.group("k").lower(), _value(keyed.group("v"))))
        rec.name = next((v for k, v in rec.fields if k in ("title", "name")), "")
        rec.fields = [(k, v) for k, v in rec.fields if not (rec.name and k in ("title", "name") and v == rec.name)]
    return rec


def _in_quotes(text: str, at: int) -> bool:
    """Whether position *at* of *text* lies inside quoted words."""
    return any(q.start() < at < q.end() for q in re.finditer(r""""[^"]*"|“[^”]*”|(?<!\w)'[^']*'(?!\w)""", text))


def _title(text: str) -> str:
    """A name said after "titled" or "called": a capitalised "The" that opens a capitalised title is its own
    ("titled The Dispossessed"); any other article is not."""
    kept = re.match(r"^\s*(?-i:The|A|An)\s+(?-i:[A-Z0-9])", text)
    return clean(text) if not kept else text.strip().strip(".!?,:;").strip()


# "… tagged news and tech", "…, tag it recipes, soup", "… with the tags python and tools": the tags, to the end
_TAGS = re.compile(r"(?:,|\s+and|\s+with)?\s+(?:(?:give\s+it\s+|add\s+)?(?:the\s+)?tags?(?:\s*:)?|(?:tag(?:ged)?|labell?ed)\s+(?:it\s+|them\s+)?"
                   r"(?:with\s+|as\s+)?(?:the\s+tags?\s+)?)\s*(?P<v>[\w#+.-]+(?:\s*(?:,|\band\b)\s*(?!(?:with|the|an?)\b)"
                   r"[\w#+.-]+)*)\s*$", re.I)


# "called Release Checklist tagged HowTo with the text …": the tags said between the name and more fields
_TAGGED_BETWEEN = re.compile(r"\s+(?:tagged|labell?ed)\s+(?:with\s+|as\s+)?(?P<v>[\w#+.-]+(?:\s*(?:,|\band\b)\s*(?!(?:with|the|an?)\b)"
                             r"[\w#+.-]+)*)(?=\s+(?:with|and|,|from|by|in|due)\b|\s*,)", re.I)


def _said_tags(rec: Record, body: str) -> str:
    m = _TAGS.search(body)
    if m is None:
        between = _TAGGED_BETWEEN.search(body)
        if between is not None and not _in_quotes(body, between.start()):
            rec.fields.append(("tags", ", ".join(t for t in re.split(r"\s*(?:,|\band\b)\s*", between.group("v")) if t)))
            return body[:between.start()] + body[between.end():]
    if m is None or m.start() == 0:
        return body
    tags = [t for t in re.split(r"\s*(?:,|\band\b)\s*", m.group("v")) if t]
    rec.fields.append(("tags", ", ".join(tags)))
    return body[:m.start()] + " "


# a web address said with no field word: "bookmark https://… as Lentil soup", "add https://x.org titled X"
_BARE_URL = re.compile(r"(?<![:=])(?:\s+(?:for|at|to|of))?\s+(?P<u>https?://[^\s,]+|www\.[\w-]+\.[^\s,]+)", re.I)
_URL_WORDS = re.compile(r"(?<!\ba\s)(?<!\ban\s)(?<!\bnew\s)\b(?:url|link|address|website|site|homepage|href|location)"
                        r"\s*[:=]?\s*$", re.I)


_BARE_EMAIL = re.compile(r"(?:^|,|\s)\s*(?P<e>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)\s*(?=,|\s|$)")


def _bare_address(rec: Record, body: str) -> str:
    for m in _BARE_EMAIL.finditer(body):
        if re.search(r"\b(?:e-?mail|address|mail)\s*[:=]?\s*$", body[:m.start("e")], re.I) \
                or re.search(r"\bwith\s+(?:the\s+|a\s+|an\s+)?[a-z][\w-]*\s*[:=]?\s*$", body[:m.start("e")], re.I):
            continue   # "with email x@y.z", "with value x@y.z": the field word says where it goes
        rec.fields.insert(0, ("email", m.group("e")))   # "Tom Berg, tom@berg.example": an address is an email
        body = body[:m.start("e")] + body[m.end("e"):]
        break
    for m in _BARE_URL.finditer(body):
        if _URL_WORDS.search(body[:m.start("u")]) or re.search(r"\w:\s", body[:m.start()]):
            continue   # "url https://…": the field word says where it goes; "description: see https://…" is text
        rec.fields.insert(0, ("url", m.group("u").rstrip(".;")))
        body = body[:m.start()] + body[m.end():]
        # "… as Lentil soup": with the address said, "as" names the record
        return re.sub(r"^(\s*(?:(?:an?|the)\s+)?(?:new\s+)?(?:[a-z]+\s+)?)as\s+(?=\S)", r"\1titled ", body, count=1, flags=re.I)
    return body


# a value after a field word that names no record: "url https://…", "email ivy@x.com", "price 9.90"
_KEYED_FIRST = re.compile(r"^(?P<k>(?-i:url|link|address|email|e-mail|price|amount|cost|date|phone|city|description|"
                          r"tags?|category|author|year|priority|status))\s*[:=]?\s+(?P<v>\S.*)$")


def _value(said: str) -> str:
    """A field's value as said: quoted text as is; "The Python Package Index" keeps its capital "The"."""
    said = said.strip()
    return quoted(said) or (said if re.match(r"^The\s+[A-Z0-9]", said) else clean(said))


# -- on the screen ------------------------------------------------------------------------------

def plural_of(noun: str) -> str:
    """*noun*'s plural as a list's label says it ("keyword" → keywords, "entry" → entries); a plural stays."""
    low = noun.lower()
    if low.endswith("s"):
        return low
    if low.endswith("y") and low[-2:-1] not in ("a", "e", "o", "u"):
        return low[:-1] + "ies"
    return low + ("es" if low.endswith(("sh", "ch", "x", "z")) else "s")


# a name written as code: one token with an underscore or a dot ("MULTI_STATUS", "json.loads", "parse_float()")
_CODE_IDENTIFIER = re.compile(r"[A-Za-z_][\w]*(?:[_.][\w]+)+(?:\(\))?")


def entity_link(st: State, noun: str) -> Target | None:
    """A link, tab or menu item that names a list of *noun* ("customer" → "Customers")."""
    if not noun or st.live is None:
        return None
    bare = re.sub(r"^(?:the\s+)?(.+?)\s+(?:table|list|listing|page|section|tab)$", r"\1", noun.strip(), flags=re.I)
    if bare != noun.strip() and bare:   # "the plants table": the list of plants
        return entity_link(st, bare)
    here = urlsplit(st.live.url).path if st.live.url else None
    found = [t for t in grounding.live_elements(noun, st.live, roles=NAV_ROLES, minimum=0.7)
             if not _MAKES_NEW.match(t.label)   # "+ Table" makes one; it lists none
             and not _ACTS_ON.search(t.label)   # "Refresh emails", "Delete all emails": an action on the list
             and not t.label.rstrip().endswith(":")   # "Show issue:" submits the box beside it
             and not in_header_row(st, t.live)   # a column's sort link
             and not _leads_here(st.live.url, t.live.href) and not _sorts_here(st.live.url, t.live.href)
             and not filters_here(st.live.url, t.live.href, t.label)
             and not record_ids.is_record_of(t.live.href, noun)   # "#2" is one ticket, not the list of them
             and not _submits_a_box(st, t.live)   # "[URL] Watch": it adds one; it lists none
             and not grounding.leaves_the_app(st.live.url, t.live.href)   # "Part of TodoMVC": another site's home
             and not _CODE_IDENTIFIER.fullmatch(t.label.strip())   # "MULTI_STATUS" is one constant, no statuses
             and not re.search(rf"\b(?:a|an|one|this|that|your|my)\s+{re.escape(noun.lower().rstrip('s'))}\b",
                               t.label, re.I)]   # "Pairing a sensor" is about one sensor; it lists none
    short = [t for t in found if t.score >= 0.88 and len(words(t.label)) <= 3]
    # a group's toggle ("MOVIES", href "#", folding Director, Movie, Studio) lists nothing: a link that goes somewhere
    going = [t for t in short if t.live is None or t.live.href not in ("", "#") and not t.live.href.startswith("javascript:")]
    short = going or short
    if short:
        # "Keywords" lists keywords; a link "keyword" beside it is more likely one item of that name
        listing = [t for t in short if plural_of(noun) in words(t.label)]
        return listing[0] if listing else short[0]
    # already on the list's own page ("View Tickets"): the first of the lists it offers ("Active Tickets"),
    # one whose label has the noun as a word of its own
    stem = noun.lower().rstrip("s")
    found = [t for t in found if any(w.rstrip("s") == stem for w in words(t.label))]
    if not found or here is None:
        return None
    if not here.strip("/") and len({t.live.href for t in found if t.live is not None}) != 1:
        return None   # on the home page, only the one link to a list of that kind ("Watch Groups" for groups)
    order = {id(e): i for i, e in enumerate(st.live.elements)}
    return min(found, key=lambda t: order.get(id(t.live), 0))


def _submits_a_box(st: State, el: UIElement) -> bool:
    """A button right after a text box: the box's own submit ("[https://…] Watch", "[…] Go")."""
    if el.role != ROLE_BUTTON or st.live is None:
        return False
    at = next((i for i, e in enumerate(st.live.elements) if e is el), -1)
    before = [e for e in st.live.elements[max(0, at - 3):max(0, at)] if not e.hidden]
    return bool(before) and before[-1].role in (ROLE_TEXTBOX, ROLE_COMBOBOX)


def _leads_here(url: str, href: str) -> bool:
    """Whether a link's *href* is the page at *url* itself (a tab of the current page is not)."""
    if not url or not href:
        return False
    a, b = urlsplit(urljoin(url, href)), urlsplit(url)
    return (a.path.rstrip("/"), a.query, a.fragment) == (b.path.rstrip("/"), b.query, b.fragment)


def _sorts_here(url: str, href: str) -> bool:
    """Whether a link only re-sorts or facets the page at *url* (a column header's "?sort=ticket", "?_facet=family")."""
    if not url or not href:
        return False
    a, b = urlsplit(urljoin(url, href)), urlsplit(url)
    return a.path.rstrip("/") == b.path.rstrip("/") and bool(re.search(r"\b(?:_?sort\w*|order|desc|asc|_?facet\w*)\b",
                                                                      a.query, re.I))


def lists_by(href: str, label: str) -> bool:
    """Whether a link opens a list filtered by its own label ("pizza" → "/bookmark/?flt0_tags_contain=pizza"):
    the records that have it, not the page of a record called so."""
    if not href or not label.strip():
        return False
    return any(v.casefold() == label.strip().casefold() and re.search(r"flt|filter|contain|tag|search|^q$|query|__", k, re.I)
               for k, v in parse_qsl(urlsplit(href).query))


def filters_here(url: str, href: str, label: str) -> bool:
    """Whether a link is a filter of the page at *url*: the same page, with its own label as a query value
    ("Lyon" → "?city=Lyon"): a view of this list, not a list of its own."""
    if not url or not href or not label.strip():
        return False
    a, b = urlsplit(urljoin(url, href)), urlsplit(url)
    values = {v.casefold() for _, v in parse_qsl(a.query)}
    return a.path.rstrip("/") == b.path.rstrip("/") and label.strip().casefold() in values


_MAKES_NEW = re.compile(r"^\s*(?:\+|add\b|new\b|create\b|insert\b|(?:start|make|begin)\s+(?:a\s+)?new\b)", re.I)


_ACTS_ON = re.compile(r"^\W*(?:refresh|reload|delete|remove|clear|mark|export|import|download|upload|send|toggle|"
                     r"sort|archive|purge|empty|sync|print|edit|modify|rename|close|save|cancel|discard|duplicate|"
                     r"clone|copy)\b|^\W*\w+\s+this\b", re.I)   # "Edit this tiddler": an action on the one shown


_EXPANDS = re.compile(r"^\W*(?:modify|edit|change|update|properties)\b", re.I)
# an edit of something else than the record shown: a person's profile, an account, a password
_ELSEWHERE = re.compile(r"@|\b(?:user|profile|account|password|preferences|avatar|photo|picture|settings|e-?mail)\b", re.I)


_OPENS_EDITOR = re.compile(r"^\W*(?:edit|modify)\b(?:\s+(?:this\s+)?(?:page|article|document|note|text|source|wiki)|"
                           r"\s+this\s+[a-z]+)?(?:\s*\(\w\))?\W*$", re.I)


def page_editor_control(st: State, page: str = "") -> Target | None:
    """The page's own control that opens its text for editing ("Edit", "Edit this page", "Edit Page (e)", "Edit
    this tiddler"): never a row's, a form's Update, or "Change password". Where several pages are shown at once (a
    notebook's notes, one under the other), *page*'s: the first after the heading that names it."""
    if st.live is None:
        return None
    elements = list(st.live.elements)
    controls = [i for i, el in enumerate(elements) if not (el.hidden or el.disabled or el.container)
                and el.role in (ROLE_BUTTON, ROLE_LINK) and _OPENS_EDITOR.match(el.name or el.text or "")]
    if len(controls) > 1 and page:
        # several pages shown at once (a notebook's notes): the control inside the article whose heading names
        # *page*; with no such article, none (another note's Edit would edit the wrong page)
        at = next((i for i, e in enumerate(elements) if page and e.role == "heading"
                   and grounding.norm(e.name or e.text) == grounding.norm(page)), -1)
        start = max((i for i, e in enumerate(elements[:at]) if e.role == "article"), default=-1) if at >= 0 else -1
        end = next((i for i, e in enumerate(elements) if i > at and e.role == "article"), len(elements))
        controls = [i for i in controls if start < i < end] if start >= 0 else []
    if not controls and page:
        # each page shown in a card of its own (a wiki's story of tiddlers): the Edit of the card whose heading is
        # *page* (never one whose name only begins so: "How to Deploy" is not "How to Deploy to Staging")
        cards = {e.container for e in elements if e.role == "heading" and e.container and not e.hidden
                 and grounding.norm(e.name or e.text) == grounding.norm(page)}
        controls = [i for i, el in enumerate(elements) if not (el.hidden or el.disabled) and el.container in cards
                    and el.role in (ROLE_BUTTON, ROLE_LINK) and _OPENS_EDITOR.match(el.name or el.text or "")]
        if len(cards) != 1:
            controls = []
    if not controls:
        return None
    el = elements[controls[0]]
    return Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el)


_MORE = re.compile(r"^\W*(?:more(?:\s+(?:actions|options|tools))?|actions|options|⋮|⋯|…|\.\.\.|︙)\W*$", re.I)


def more_menu(st: State) -> Target | None:
    """The one button of the page that unfolds more of its actions ("more", "Actions", "⋮"), else None."""
    if st.live is None:
        return None
    found = [e for e in st.live.elements if e.role == ROLE_BUTTON and not e.hidden and not e.disabled
             and (_MORE.match(e.name or e.text or "") or not (e.name or e.text) and re.search(r"\bmore\b", e.hint))]
    return Target(TargetKind.LIVE_ELEMENT, 0.8, found[0].label, live=found[0]) if len(found) == 1 else None


def expander(st: State) -> Target | None:
    """The control that shows a record's form where it is folded away ("Modify Ticket", "Edit")."""
    if st.live is None:
        return None
    for el in st.live.elements:
        if el.hidden or el.disabled or not _EXPANDS.match(el.name or el.text or "") \
                or _ELSEWHERE.search(el.name or el.text or ""):
            continue
        if el.role in (ROLE_BUTTON, ROLE_LINK) or el.role == "heading" and "foldable" in el.hint.split():
            return Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el)
    # a tab of the record's page not shown yet whose name says the record is worked on there ("Respond" beside
    # "Follow ups"): its form is behind it
    tabs = [el for el in st.live.elements if el.role == "tab" and not el.hidden and not el.disabled and not el.selected
            and _WORK_TAB.match(el.name or el.text or "")]
    return Target(TargetKind.LIVE_ELEMENT, 0.85, tabs[0].label, live=tabs[0]) if len(tabs) == 1 else None


_WORK_TAB = re.compile(r"^\W*(?:respond|reply|update|edit|modify|change|manage|actions?|comment|add\s+(?:a\s+)?(?:comment|note|reply|"
                       r"update|follow[\s-]?up)|follow[\s-]?up|details|properties|settings)\b", re.I)


_ADDS = re.compile(r"^\W*(?:add|new|create|insert)\s+(?:an?\s+|new\s+)*(?P<kind>[a-z][\w -]*?)\W*$", re.I)


def added_kind(label: str) -> list[str]:
    """The words of the kind a control says it adds ("Add a new bill" → bill), or [] when it says none."""
    m = _ADDS.match(label or "")
    return words(m.group("kind")) if m else []


# Record kinds testers name one for another ("an expense" where the app says "Add a new bill")
KINDS = (frozenset({"bill", "expense", "payment", "purchase", "transaction", "spending"}),
         frozenset({"ticket", "bug", "issue", "defect"}),
         frozenset({"customer", "client"}),
         frozenset({"participant", "member", "person", "people", "friend"}),
         frozenset({"product", "article"}),
         frozenset({"todo", "task", "to-do"}))


def same_kind(ws: list[str], noun: str) -> bool:
    """One of *ws* is *noun*, singular or plural ("bills" and "bill"), or a kind testers name so."""
    stem = noun.lower().rstrip("s")
    kin = next((k for k in KINDS if stem in k), frozenset({stem}))
    return any(w.rstrip("s") == stem or w.rstrip("s") in kin for w in ws)


_OPEN_WORDS = ("view", "open", "details", "detail", "show", "edit", "more")


def leaves_app(st: State, el: UIElement) -> bool:
    """A link to another site than the app's (a bookmark's or a watch's own address)."""
    if st.live is None or not st.live.url or not el.href or not re.match(r"^[a-z][\w+.-]*://", el.href, re.I):
        return False
    return urlsplit(el.href).netloc.lower() != urlsplit(st.live.url).netloc.lower()


def record_link(st: State, name: str, *, to_edit: bool = False) -> Target | None:
    """The link of the row that shows *name* (the record's own page): a link named so in a row, else the one
    "view"/"edit" link of the row whose cell is *name* (a table whose names are plain text). Where the row has
    both, "view" opens the record and "edit" its form (*to_edit*)."""
    if not name or st.live is None:
        return None
    found = [t for t in grounding.live_elements(name, st.live, roles=frozenset({ROLE_LINK}), minimum=0.85)
             if t.live.container and not in_header_row(st, t.live)   # a column's sort link is no record
             and not leaves_app(st, t.live)   # a bookmark's title links to its site, not to its record
             and not lists_by(t.live.href, t.label)]   # a tag's link to the list filtered by it
    if found:
        return found[0]
    want = _articleless(name)   # "The Dispossessed" is said "mark Dispossessed …" once its article is read off
    rows = {e.container for e in st.live.elements if e.container and not in_header_row(st, e)
            and _articleless(e.name or e.text) == want}
    if len(rows) != 1:
        return _partly_named_link(st, name)
    row = rows.pop()
    links = [e for e in st.live.elements if e.container == row and e.role == ROLE_LINK and e.href
             and not grounding.stays_on_page(e.href) and not leaves_app(st, e)]
    opens = [e for e in links if set(words(e.name or e.hint)) & set(_OPEN_WORDS)]
    if len(opens) > 1:
        wanted = {"edit", "change", "update"} if to_edit else {"view", "open", "details", "detail", "show"}
        opens = [e for e in opens if set(words(e.name or e.hint)) & wanted]
    chosen = opens[:1] if len(opens) == 1 else links if len(links) == 1 else []
    return Target(TargetKind.LIVE_ELEMENT, 0.9, chosen[0].label, live=chosen[0]) if chosen else None


def _articleless(text: str) -> str:
    return re.sub(r"^(?:the|a|an) ", "", grounding.norm(text))


def _partly_named_link(st: State, name: str) -> Target | None:
    """"the subtitles ticket": the one row link whose words include every word of *name*
    ("Subtitles missing on channel 7"); none when no row, or more than one, has them all."""
    assert st.live is not None
    want = set(words(name))
    if not want or not any(len(w) >= 4 for w in want) and not re.search(r"\b(?-i:[A-Z]{2,}[0-9]*)\b", name):
        return None   # (an acronym is a word of its own: "the VPN ticket")
    found = [e for e in st.live.elements if e.role == ROLE_LINK and e.container and not e.hidden and e.href
             and not grounding.stays_on_page(e.href) and not in_header_row(st, e) and not leaves_app(st, e)
             and want <= set(words(e.name or e.text))]
    if len({e.container for e in found}) != 1:
        return None
    return Target(TargetKind.LIVE_ELEMENT, 0.85, found[0].label, live=found[0])


def in_header_row(st: State, el: UIElement) -> bool:
    """*el* sits in a table's header row: its cells and sort links name columns, not records or lists."""
    if st.live is None or not el.container:
        return False
    head = el.container.rstrip("…")
    return any((e.text or e.name).startswith(head) for e in st.live.elements
               if e.role == "row" and "header-row" in e.hint.split())


def header_words(st: State) -> set[str]:
    """The words of the column headers of the tables shown, singular ("family", "height", "cm")."""
    if st.live is None:
        return set()
    return {w.rstrip("s") for e in st.live.elements if e.role == "row" and "header-row" in e.hint.split()
            for w in words(e.text or e.name)}


def without_header_word(value: str, st: State) -> str:
    """"Araceae family" → "Araceae", "plate AB12 CDE" → "AB12 CDE", where a column is headed "family" or
    "plate": the value, without the column's name (a lowercase word at either end)."""
    m = re.match(r"^(?P<v>.+?)\s+(?P<h>(?-i:[a-z]+))$", value.strip())
    if m and m.group("h").rstrip("s") in header_words(st):
        return m.group("v")
    m = re.match(r"^(?P<h>(?-i:[a-z]+))\s+(?P<v>(?-i:[A-Z0-9]).*)$", value.strip())
    return m.group("v") if m and m.group("h").rstrip("s") in header_words(st) else value


# verbs that undo or leave, never send a new record ("Delete service", "Cancel appointment")
_NOT_SAVING = frozenset("delete remove cancel clear reset export edit view close discard undo archive print "
                        "copy duplicate download share hide".split())


def _verb_and_kind(el: UIElement, kind: str) -> bool:
    """"Log service" for a service: a button of the page (not of a row), two or three words, the last the kind
    said (singular or plural), the first no verb that undoes or leaves."""
    said, want = words(el.name or el.text), words(kind)
    return bool(want) and not el.container and 2 <= len(said) <= 3 and said[0] not in _NOT_SAVING \
        and said[-1].rstrip("s") == want[-1].rstrip("s")


_PART_ROLES = frozenset({ROLE_LINK, ROLE_BUTTON, ROLE_TAB, ROLE_MENUITEM, ROLE_CELL, ROLE_LISTITEM})


def shown_part(st: State, phrase: str) -> UIElement | None:
    """The element that shows *phrase* less a word of kind or context at either end, when the whole is on no
    element: "the Electricity bill" → the cell Electricity; "the project history" → the link History.

    Only an exact name counts, and only one element may have it: a guess beyond that is left to the caller.
    """
    if st.live is None:
        return None
    ws = re.sub(r"^(?:[Tt]he|[Aa]n?|my|our|this)\s+", "", phrase.strip()).split()   # "Our shop homepage": a name
    if len(ws) < 2:
        return None
    # only a lowercase word is dropped: a word of kind ("bill") or context ("project"), never a name
    # ("the TestPlan wiki" is not the Wiki), and never both ends at once
    parts = ([ws[:-1]] if ws[-1].islower() else []) + ([ws[1:]] if ws[0].islower() else [])
    for part in parts:
        want = grounding.norm(" ".join(part))
        if len(want) < 3:
            continue
        found = [e for e in st.live.elements if e.role in _PART_ROLES and grounding.norm(e.name or e.text) == want
                 and not in_header_row(st, e)]   # "the author column" is no record
        actionable = [e for e in found if e.role != ROLE_CELL and e.role != ROLE_LISTITEM]
        distinct = {e.container or e.selector for e in (actionable or found)}
        if len(distinct) == 1:
            return (actionable or found)[0]
    return None


def labels(el: UIElement) -> list[str]:
    return [x for x in (el.name, el.placeholder, el.hint) if x]


_ENABLER = re.compile(r"\b(?:allow|enable)\s+(?:updating|editing|changing|setting)\b", re.I)


_DEFAULT_NAME = re.compile(r"^(?:new|untitled|unnamed)(?:\s+[\w-]+){0,2}(?:\s*\(?\d+\)?)?$", re.I)


def default_named(st: State, used: set[int]) -> UIElement | None:
    """The one field of a new record that holds the name the app gave it ("New Tiddler", "Untitled document",
    "Untitled 2"): the record's name goes there, whatever the field is called."""
    if st.live is None:
        return None
    # a field with a label of its own says what it holds ("City" holding "New York"): only an unlabelled one
    found = [(i, e) for i, e in enumerate(st.live.elements) if i not in used and e.role == ROLE_TEXTBOX
             and not e.hidden and not e.disabled and not (e.name or e.placeholder)
             and _DEFAULT_NAME.match(e.value.strip())]
    if len(found) != 1:
        return None
    used.add(found[0][0])
    return found[0][1]


def _participle_stems(key: str) -> tuple[str, ...]:
    """"priced" → price, "dated" → date, "tagged" → tag: the field a value said with a participle goes in."""
    if not re.fullmatch(r"[a-z]{4,}ed", key):
        return ()
    stems = [key[:-1], key[:-2]]
    if len(key) > 5 and key[-3] == key[-4]:   # a doubled consonant: "tagged", "slotted"
        stems.append(key[:-3])
    return tuple(stems)


def _without_generic(key: str) -> tuple[str, ...]:
    """"email address" is the Email field, "phone number" the Phone one: a word a person adds to a field's name."""
    m = re.match(r"^(?P<k>\w[\w -]*?)\s+(?:address|number|no|field|value)$", key.strip())
    return (m.group("k"),) if m else ()


def field_for(st: State, key: str, used: set[int]) -> UIElement | None:
    """The form field that *key* names ("email" → Email; "from" → City; "name" → Name)."""
    if st.live is None:
        return None
    wanted = PREPOSITION_FIELDS.get(key, ()) or (key, *_participle_stems(key), *_without_generic(key))
    best, best_score, best_named = None, 0.0, 0.0
    for i, el in enumerate(st.live.elements):
        if i in used or el.role not in (ROLE_TEXTBOX, ROLE_COMBOBOX, ROLE_CHECKBOX) and not grounding.is_dropdown(el) \
                or el.disabled or el.hidden:
            continue
        if el.role == ROLE_TEXTBOX and re.search(r"\b(?:search|filter|searchbar)\b", " ".join(labels(el)), re.I):
            continue
        if el.role == ROLE_CHECKBOX and _ENABLER.search(el.name):
            continue   # it enables another field; it holds no value of its own
        # a field's own label or placeholder names it; a word of its id or class only hints (the
        # "Allow updating" box of the "available" column has "available" in its class, not its label)
        named = [n for n in (el.name, el.placeholder) if n]
        score = max([grounding.similarity(w, n) for w in wanted for n in named]
                    + [0.9 * grounding.similarity(w, el.hint) for w in wanted if el.hint], default=0.0)
        # of two fields of one name (a list's Team filter above it, the new shift's Team below), the form's
        if score > best_score or (best is not None and score == best_score and score >= 0.6
                                  and in_sent_form(st, el) and not in_sent_form(st, best)):
            best, best_score = el, score
            best_named = max([grounding.similarity(w, n) for w in wanted for n in named], default=0.0)
    if best is not None and best_named < 0.8:
        # "the text": the page's one unnamed editor, before a field only a class word hints at ("texteditor")
        editor = _page_editor(st, key, used)
        if editor is not None:
            return editor
    if best is not None and best_score >= 0.6:
        used.add(st.live.elements.index(best))
        return best
    return _page_editor(st, key, used)


# what a page's one text editor holds, in a tester's words: "with the text …", "its content", "the body"
BODY_WORDS = frozenset({"text", "content", "contents", "body", "markdown", "source", "wording"})


def unnamed_editors(st: State) -> list[UIElement]:
    """The screen's text editors that nothing names (a wiki page's CodeMirror): the observation calls them "editor"."""
    assert st.live is not None
    return [e for e in st.live.elements if e.role == ROLE_TEXTBOX and not e.hidden and not e.disabled
            and not e.name and not e.placeholder and "editor" in e.hint.split()]


def _page_editor(st: State, key: str, used: set[int]) -> UIElement | None:
    """The one text editor of the screen that nothing names, for its text."""
    if not set(words(key)) & BODY_WORDS:
        return None
    editors = unnamed_editors(st)
    at = st.live.elements.index(editors[0]) if len(editors) == 1 else -1
    if at < 0 or at in used:
        return None
    used.add(at)
    return editors[0]


def sent_form(st: State) -> list[UIElement]:
    """The parts of the form a save button sends: what sits between the last row of a list and its button."""
    save = save_button(st)
    if save is None or save.live is None or st.live is None:
        return []
    sent = next((i for i, e in enumerate(st.live.elements) if e is save.live), -1)
    rows = [i for i, e in enumerate(st.live.elements[:sent]) if e.role in (ROLE_ROW, ROLE_CELL) and not e.hidden]
    return st.live.elements[max(rows, default=-1) + 1:sent + 1]


def in_sent_form(st: State, el: UIElement) -> bool:
    """*el* is a part of a form a save button sends (a new task's "Urgent" box, its Status dropdown): it sets a
    record, it filters nothing."""
    return any(e is el for e in sent_form(st))


def enabler_for(st: State, key: str) -> tuple[UIElement, UIElement] | None:
    """A disabled field named *key* and the unticked box that enables it ("Allow updating this column")."""
    if st.live is None:
        return None
    wanted = PREPOSITION_FIELDS.get(key, ()) or (key, *_without_generic(key))
    fields = [e for e in st.live.elements if e.role == ROLE_TEXTBOX and e.disabled
              and max((grounding.similarity(w, n) for w in wanted for n in labels(e)), default=0.0) >= 0.8]
    if not fields:
        return None
    field = fields[0]
    key_words = set(words(field.name or field.hint))
    for el in st.live.elements:
        text = " ".join(labels(el)).lower()
        if el.role == ROLE_CHECKBOX and not el.checked and re.search(r"\b(?:enable|allow|edit|include|update)\b", text) \
                and key_words & set(words(el.hint)) and el.selector:
            return field, el
    return None


def option_field(st: State, value: str, used: set[int]) -> tuple[UIElement, str] | None:
    if st.live is None:
        return None
    for i, el in enumerate(st.live.elements):
        if i in used or el.role != ROLE_COMBOBOX:
            continue
        for opt in el.options:
            if grounding.similarity(value, opt) >= 0.85 or value.lower() == opt.lower():
                used.add(i)
                return el, opt
    return None


def form_fields(st: State) -> list[UIElement]:
    if st.live is None:
        return []
    return [e for e in st.live.elements if e.role in (ROLE_TEXTBOX, ROLE_COMBOBOX, ROLE_CHECKBOX)
            and not e.hidden and not e.disabled
            and not (e.role == ROLE_CHECKBOX and e.container)   # a list's row selection, not a field of a form
            and not re.search(r"\b(?:search|filter|searchbar)\b", " ".join(labels(e)), re.I)
            and (e.role != ROLE_TEXTBOX or grounding.takes_data(e))]


def save_button(st: State, extra: tuple[str, ...] = (), kind: str = "") -> Target | None:
    """The form's submit button: a button named by a save word, then one that starts with a save verb
    ("Submit changes", "Create ticket") or, when the *kind* of record made is said, one that names it after a
    verb of the app's own ("Log service", "Book appointment"), then a link of that name (usually a tab or
    menu). Of these, one that comes after the form's first field: a search box's button above the form submits
    another form."""
    if st.live is None:
        return None
    found: list[Target] = []
    for w in (*extra, *SAVE_WORDS):
        found += [t for t in grounding.live_elements(w, st.live, roles=frozenset({ROLE_BUTTON}), minimum=0.9)
                  if not t.live.selected and "active" not in t.live.hint.split() and not t.live.hidden]
    # a save button may be disabled until the form changes (Lektor's "Save Changes"): it is the form's once the
    # plan has changed the form; with nothing changed, it stays disabled
    changed = _form_changed(st)
    verbs = [el for el in st.live.elements if el.role == ROLE_BUTTON and not el.hidden and (changed or not el.disabled)
             and words(el.name or el.text)[:1] and (words(el.name or el.text)[0] in (*_SAVE_FIRST, *extra)
                                                     or _verb_and_kind(el, kind))]
    # "Confirm changes to this note" before "Apply bold formatting to selection" (an editor's toolbar): a button
    # about the changes, then the shortest
    verbs.sort(key=lambda el: (_verb_and_kind(el, kind) and words(el.name or el.text)[0] not in _SAVE_FIRST,
                               not {"change", "changes", "edits"} & set(words(el.name or el.text)),
                               el.disabled and words(el.name or el.text)[0] not in SAVE_VERBS,
                               len(words(el.name or el.text))))   # a save verb first, an app's own verb after
    found += [grounding.Target(grounding.TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el) for el in verbs]
    for w in (*extra, *SAVE_WORDS):
        # a link that is a save word ("Save", "Submit"); "Add Page" opens another form
        found += [t for t in grounding.live_elements(w, st.live, roles=frozenset({ROLE_LINK}), minimum=0.9)
                  if not t.live.selected and "active" not in t.live.hint.split() and not t.live.hidden
                  and " ".join(words(t.label)) in (*extra, *SAVE_WORDS)]
    # a button whose name trails off ("Create folder...", "Add Profile…") opens a dialog to fill: it sends no form
    found = [t for t in found if not re.search(r"(?:\.\.\.|…)\s*$", t.label)]
    if not found:
        return None
    order = {id(e): i for i, e in enumerate(st.live.elements)}
    fields = [order[id(e)] for e in form_fields(st) if e.role != ROLE_CHECKBOX]
    # an "add" right after a box that is not the form's first field adds that box's value to the form (a tag,
    # a custom field); it saves nothing
    found = [t for t in found if not (fields and _adds_to_box(st, t.live, order, fields[0]))] or found
    # a button that is one save word ("Send", "Run", "Save") first; else one that says it keeps the changes
    # ("Confirm changes to this note") wherever it sits, before a verb that may make something else ("Create
    # wikitext link" in an editor's toolbar)
    whole = {w for w in (*extra, *SAVE_WORDS)}
    found = [t for t in found if " ".join(words(t.label)) in whole] or \
        [t for t in found if {"save", "changes"} & set(words(t.label))] or found
    after = [t for t in found if fields and order.get(id(t.live), -1) > fields[0]]
    return (after or found)[0]


_CHANGES = frozenset({V.INPUT_TEXT, V.SELECT_OPTION, V.SET_CHECKED, V.SET_SLIDER})


def _form_changed(st: State) -> bool:
    """The plan has typed, chosen or ticked something on the screen shown (no step since has left it)."""
    for step in reversed(st.steps):
        if step.command in _CHANGES:
            return True
        if step.command.startswith(("wait_for", "check_", "verify")):
            continue   # a check moves nothing
        if step.command != V.CLICK or step.params.get("role") not in (ROLE_CHECKBOX, "radio", "switch"):
            return False
    return False


def _adds_to_box(st: State, el: UIElement | None, order: dict[int, int], first_field: int) -> bool:
    assert st.live is not None
    if el is None or not re.fullmatch(r"\W*(?:add|insert|\+)\W*", el.name or el.text or ""):
        return False
    at = order.get(id(el), -1)
    before = st.live.elements[max(0, at - 3):max(0, at)]
    boxes = [order[id(e)] for e in before if e.role == ROLE_TEXTBOX and not e.hidden]
    return bool(boxes) and boxes[-1] > first_field


_SAVE_FIRST = frozenset(w for w in SAVE_WORDS if w not in ("go", "ok", "done"))
SAVE_VERBS = frozenset({"save", "submit", "update", "apply"})   # a button that keeps an existing record's changes


def _has_words(text: str, part: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(grounding.norm(part))}(?!\w)", grounding.norm(text)) is not None


def confirm_button(st: State, row: str = "") -> Target | None:
    """The control that confirms a deletion: one of its own, or in the row of *row* (a delete button that
    turned into "Are you sure?"); the delete button of another row, or a hidden tool, confirms nothing."""
    if st.live is None:
        return None
    for w in CONFIRM_WORDS:
        found = grounding.live_elements(w, st.live, roles=frozenset({ROLE_BUTTON}) | CLICKABLE_ROLES, minimum=0.9)
        found = [t for t in found if t.live.role in (ROLE_BUTTON, ROLE_LINK) and not t.live.hidden
                 and (not t.live.container or bool(row) and _has_words(t.live.container, row))]
        if found:
            return found[0]
    # a button that starts by saying so ("Yes, delete", "Confirm deletion", "Delete page")
    starts = [e for e in st.live.elements if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled
              and words(e.name or e.text)[:1] and words(e.name or e.text)[0] in _CONFIRM_FIRST
              and (not e.container or bool(row) and _has_words(e.container, row))]
    starts.sort(key=lambda e: _CONFIRM_FIRST.index(words(e.name or e.text)[0]))
    asks = any(e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and words(e.name or e.text)[:1] in (["no"], ["cancel"])
               for e in st.live.elements)
    # "Delete page" confirms only where the screen asks, with a way out ("No, cancel"): else it is another delete
    starts = [e for e in starts if words(e.name or e.text)[0] in ("yes", "confirm") or asks]
    if starts:
        return grounding.Target(TargetKind.LIVE_ELEMENT, 0.9, starts[0].label, live=starts[0])
    # a button of the page's own words ("Do it! →") that its class calls the confirmation ("delete-confirm"), on a
    # page that asks whether to delete
    said = [e for e in st.live.elements if e.role == ROLE_BUTTON and not e.hidden and not e.disabled
            and "confirm" in words(e.hint) and (not e.container or bool(row) and _has_words(e.container, row))]
    asked = any(re.search(r"\b(?:delete|remove|sure)\b", e.label, re.I) for e in st.live.elements
                if e.role in ("heading", "text") and not e.hidden)
    return grounding.Target(TargetKind.LIVE_ELEMENT, 0.85, said[0].label, live=said[0]) if len(said) == 1 and asked \
        else None


_CONFIRM_FIRST = ("yes", "confirm", "delete", "remove", "proceed")


_NEXT_PAGE = re.compile(r"\s*(?:next|next page|more|older|›|»|>|>>|→)\s*", re.I)
_PAGED = re.compile(r"[?&](?:page|p|offset|start|cursor|after|_next|pg)=\w", re.I)


def more_pages(st: State) -> UIElement | None:
    """The link to the next page of the list shown, when the list has more than one page: "Next", "›" or a page
    number whose address names a page ("?page=1", "?offset=10")."""
    if st.live is None:
        return None
    paged = [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_BUTTON) and not e.hidden and not e.disabled
             and e.href and _PAGED.search(e.href)]
    # "Next" / "›" first: a page number may be this page's own or one before it
    return next((e for e in paged if _NEXT_PAGE.fullmatch(e.name or e.text or "")), None) or \
        next((e for e in paged if re.fullmatch(r"\s*[2-9]\d*\s*", e.name or e.text or "")), None)
