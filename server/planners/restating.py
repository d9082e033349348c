"""Testers' turns of phrase, said again in the planner's words, before a task is split into clauses.

"switch the audio back to English" is "set the audio to English"; "there shoud be
5 suppliers in the nursery db, confirm pls" is a check; "Committee voted on a new
name. Change the title to X" is the request alone; "Emma moved in this week. Add
her as a participant" adds Emma. :func:`restate` is the one entry: the rules of
:mod:`server.planners.phrasings`, then the sentence-level readings here (what is
told first, what "it" is, a question before a request, a place said first).
"""
from __future__ import annotations

import re
from typing import Callable

from server.planners import asides, gherkin, layouts
from server.planners.language import VERBS, Act, clean, read_clause, strip_filler
from server.planners.phrasings import QUOTED, held_out, rephrase
from server.planners.registers import reword
from server.planners.sorting import restate_shown_first


_DOCS_OF = re.compile(r"(?P<pre>^|(?:,|\band\b|\bthen\b)\s*)(?:look\s+up|pull\s+up|bring\s+up|find|get|read|check\s+out)\s+"
                      r"(?:the\s+)?(?P<k>docs|documentation|doc|help|manual|reference|man\s+page)\s+(?:for|of|on|about)\b",
                      re.I)


# A fact the tester states, then asks to make true: "the author of Kindred should be Octavia E. Butler,
# please fix it" is "set the author of Kindred to Octavia E. Butler".
_MAKE_TRUE = re.compile(r"[\s,;:.!-]*(?:so\s+)?(?:please\s+|can you\s+|could you\s+)?(?:fix|correct|update|change|"
                        r"adjust|amend|edit)\s+(?:it|that|this|them|him|her|(?:the|this|that)\s+\w+)(?:\s+please)?[\s.!]*$", re.I)
_SHOULD_BE = [
    re.compile(r"^(?:the\s+)?(?P<field>[\w ]+?)\s+of\s+(?P<rec>.+?)\s+(?:should|must|needs? to|has to|ought to)\s+be\s+"
               r"(?P<v>.+)$", re.I),
    re.compile(r"^(?P<rec>.+?)['’]s\s+(?P<field>[\w ]+?)\s+(?:should|must|needs? to|has to|ought to)\s+be\s+(?P<v>.+)$",
               re.I),
]
_SHOULD_READ = re.compile(r"^(?:the\s+)?(?P<rec>[\"'“‘][^\"'”’]+[\"'”’]|(?-i:[A-Z])[^,;]*?)(?:\s+(?:item|todo|entry|task|row|"
                          r"one|record|title|label|line))?\s+(?:should|must|needs?\s+to|ought\s+to)\s+(?:read|say|be\s+called|"
                          r"be\s+named|be\s+titled)\s+(?P<v>\S.*?)(?:\s+instead)?[\s,;.]*$", re.I)
_CHANGED_ITS = re.compile(r"^(?P<rec>[A-Z][\w .'-]*?)\s+(?:has\s+)?(?:changed|moved|updated|switched)\s+(?:his|her|their|its)\s+"
                          r"(?P<field>[\w ]+?)\s+to\s+(?P<v>.+)$")


_PARTICIPLES = {"deleted": "delete", "removed": "remove", "opened": "open", "added": "add", "created": "create",
                "saved": "save", "selected": "select", "ticked": "tick", "unticked": "untick", "played": "play",
                "paused": "pause", "enabled": "enable", "disabled": "disable", "archived": "archive"}
_PASSIVE = re.compile(r"^(?:please\s+)?(?!(?:check|verify|confirm|make\s+sure|ensure|see)\b)(?P<x>.+?)\s+(?:needs to|has to|must|should|ought to|have to|need to)\s+be\s+"
                      r"(?P<p>" + "|".join(_PARTICIPLES) + r")(?:\s+please)?[.!]?$", re.I)
_FIELD_COLON = re.compile(r"(?:update|change|edit|set|modify|correct)\s+(?:the\s+\w+\s+)?(?P<rec>(?-i:[A-Z0-9\"']).*?)"
                          r"(?:\s*:\s*(?P<f1>(?-i:[a-z][\w]*))\s+|\s+(?!(?:to|as|into|with)\b)(?P<f2>(?-i:[a-z][\w]*))\s*[:=]\s*)"
                          r"(?P<v>\S.*)", re.I)
_MOVED = re.compile(r"(?P<rec>[A-Z][\w .'-]*?)\s+(?:has\s+)?(?:moved|relocated)\s+to\s+(?P<v>.+?)\s*[,;.]\s*"
                    r"(?:please\s+)?(?:update|change|fix|correct)\s+(?:his|her|their|its|the)\s+(?P<field>[a-z]+)(?:\s+please)?[.!]?")
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
            "eighteen": 18, "nineteen": 19, "twenty": 20}
_CHANNEL_WORD = re.compile(r"\b(channel|ch\.?)\s+(" + "|".join(_NUMBERS) + r")\b", re.I)


# A tracker's words for making a record: "file a defect", "raise a ticket", "log an issue", "report a bug",
# "open a new ticket", "open a ticket called X" ("open the ticket X" and "open ticket 2" still open one).
_FILE_A = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|to|you)\s+)(?:file|log|raise|report|lodge|submit)\s+(?=an?\s+(?!lot\b))", re.I)
_OPEN_NEW = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|to|you)\s+)open\s+(?=(?:an?\s+new\b|an?\s+[\w-]+\s+"
                       r"(?:called|named|titled|entitled|with\s+the\s+(?:summary|title|subject))\b|an?\s+[\w-]+\s*:))",
                       re.I)


_GIVE_TO = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|you)\s+)(?:add|give|put|attach)\s+(?:the\s+|a\s+|an\s+)?"
                      r"(?P<f>[a-z]+(?:\s+[a-z]+)?)\s+(?P<v>\"[^\"]+\"|'[^']+')\s+(?:to|on)\s+"
                      r"(?P<rec>(?:the\s+)?[a-z]+\s*#?\s*\d+|#\s*\d+)\b", re.I)
_MOVE_TO = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|you)\s+)(?:move|put)\s+(?P<rec>.+?)\s+(?:in)?to\s+"
                      r"(?:the\s+)?(?P<f>milestone|version|sprint|release|component|project|category|column|status|"
                      r"state|folder|group|team|queue|board|stage|phase)\s+(?P<v>\S+)\s*$", re.I)


_MOVE_INTO = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|you)\s+)(?:move|put|file|shift)\s+(?P<rec>[\"'“].+?[\"'”]|"
                        r"(?-i:[A-Z0-9])\S*(?:\s+\S+){0,6}?)\s+(?:into|to|under|onto|in)\s+(?:the\s+)?(?P<v>\S.*?)\s+"
                        r"(?P<f>track|category|group|folder|column|milestone|project|status|board|section|stage|queue|team|"
                        r"list|forum|room|tag|type|sprint|release|component)\s*[.!]?$", re.I)


_SPENT = re.compile(r"(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?(?:(?:record|log|note|register|enter|add|create)\s+"
                    r"(?:that\s+|(?:a|an|the|new|one)\s+(?:new\s+)?(?:bill|expense|payment|purchase|cost)\s*[:,-]\s*)?)?(?P<p>(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?))\s+(?:paid|spent)\s+"
                    r"(?P<a>[$€£]?\d[\d,]*(?:\.\d+)?)\s+(?:for|on)\s+(?:the\s+|some\s+)?(?P<w>[^,;.!?]+?)"
                    r"(?:[,;]?\s*(?:(?:please|so)\s+)?(?:log|record|add|note|save|enter)\s+(?:it|that)(?:\s+please)?)?"
                    r"\s*[.!?]*", re.I)


# "add an expense of 30 for pizza paid by Bob (for everyone)", "log a 12.50 bill for taxi, paid by Dan"
_EXPENSE_OF = re.compile(r"(?:please\s+)?(?:add|record|log|create|enter|register)\s+(?:a|an|one|the)\s+(?:new\s+)?"
                         r"(?:(?:of\s+)?(?P<a2>[$€£]?\d[\d,]*(?:\.\d+)?)\s*(?:euros?|dollars?|pounds?|eur|usd|gbp)?\s+)?"
                         r"(?:bill|expense|payment|purchase|cost)\s+(?:of\s+(?P<a>[$€£]?\d[\d,]*(?:\.\d+)?)\s*"
                         r"(?:euros?|dollars?|pounds?|eur|usd|gbp)?\s+)?(?:for|on)\s+(?:the\s+|some\s+)?(?P<w>[^,;]+?)\s*,?\s+"
                         r"(?:(?:paid\s+(?:for\s+)?by|from|by)\s+(?P<p>(?-i:[A-Z][\w-]*))|"
                         r"(?:that|which)\s+(?P<p2>(?-i:[A-Z][\w-]*))\s+(?:paid|covered|bought)(?:\s+for)?)"
                         r"(?:\s+for\s+(?:everyone|everybody|all(?:\s+of\s+us)?|the\s+(?:whole\s+)?group))?\s*[.!]*", re.I)


_TOLD = re.compile(r"(?:i|we)(?:['’]ve|\s+have|\s+just|\s+already)*\s+(?!want|need|would|like|wish|prefer|hope)"
                   r"[a-z]+(?:ed|ought|aid|ade|ot|ent|id|ook|old|ew|ung)\s+(?P<x>(?:the|my|our|that|this)\s+[^,;]+?)\s*[,;]\s*"
                   r"(?:so\s+|now\s+|please\s+)*(?P<rest>[^,;]*\b(?:it|them)\b[^,;]*)", re.I)
_SEVERAL = re.compile(r"(?:please\s+)?(?P<v>add|create|insert)\s+(?:(?:these|the following|some|\d+|two|three|four|five|six)\s+)"
                      r"(?:new\s+)?[a-z-]+s\s*:\s*(?P<items>[^:]+?)[\s.!]*", re.I)
_APPOSITIVE = re.compile(r"(?:please\s+)?(?P<v>add|create|register|invite)\s+(?:an?\s+)?(?:new\s+)?(?P<k>[a-z]+)\s*,\s*"
                         r"(?P<n>(?-i:[A-Z][^,]{0,40}?))\s*,?\s*(?:(?:to|in|into|on)\s+(?:the|my|our|this)\s+[\w ]+?)?"
                         r"(?:,?\s*please)?\s*[.!]*", re.I)


# a record named by its number ("issue 5", "ticket #3") or by a description of its kind ("the login ticket")
_RECORD_REF = (r"(?:[a-z]+\s*#?\d+|#\d+|(?:the|this|that)\s+(?:[\w'-]+\s+){0,5}?"
               r"(?:ticket|issue|bug|task|case|incident|request|story|job)(?:\s+(?:about|called|named|for)\s+[^,;]+?)?)")
_APPOSITIVE_MORE = re.compile(r"(?:please\s+)?(?P<v>add|create|register|enrol|enroll)\s+(?:an?\s+)?(?:new\s+)?"
                              r"(?P<k>[a-z]+)\s*,\s*(?P<n>(?-i:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}))\s*,\s*"
                              r"(?P<more>[^,].*?)[\s.!]*", re.I)
_FACT_THEN = re.compile(r"(?P<x>(?-i:[A-Z\"'“])[^,;]*?)\s+(?:is|isn['’]t|is\s+not|was|wasn['’]t|has|hasn['’]t|still)\b[^,;]*"
                        r"[,;]\s*(?:so\s+|please\s+|now\s+)*(?P<rest>(?!(?:fix|correct|update|change|adjust|amend|edit)\b)"
                        r"[a-z]+\s+(?:it|them)\b[^,;]*)", re.I)
_TAG_QUESTION = re.compile(r",?\s+(?:right|correct|yes|true|no|isn['’]t it|aren['’]t they|is(?:n['’]t)? that (?:right|so|correct)|"
                           r"am i right|wasn['’]t it|doesn['’]t it|don['’]t they)\s*\?+\s*$", re.I)


# "[check] the customer list should …": a list said by its kind, and what it is to hold
_A_LIST = (r"(^|[,;]\s*|\b(?:and|then)\s+)(?:(?:check|verify|confirm|make sure|ensure)\s+(?:that\s+)?)?(?:the\s+)?"
           r"(?:(?P<noun>[a-z]+)\s)?(?P<kind>list|table|results?|overview|grid{page})\s+(?:should\s+|must\s+|does\s+|will\s+)?"
           r"(?:still\s+)?")
_UNTIL_NEXT_CLAUSE = r"(?P<v>[^,;]+?)(?=\s*$|\s*[,;]|\s+(?:and|then)\s)"
_LIST_INCLUDES = re.compile(_A_LIST.format(page="") + r"(?:include|includes|contain|contains)\s+"
                            r"(?!(?:\d|no\b|any\b|an?\s+(?:entry|column|filter|row)\b))" + _UNTIL_NEXT_CLAUSE, re.I)
_LIST_HAS_ENTRY = re.compile(_A_LIST.format(page="|page") + r"(?:has|have|contains?|includes?|shows?)\s+(?:an?|one)\s+"
                             r"(?:entry|row|record|item|line)\s+(?:for|called|named|titled|with)\s+" + _UNTIL_NEXT_CLAUSE,
                             re.I)


def _listed(m: re.Match[str]) -> str:
    return f"{m.group(1)}check {m.group('v')} is listed" + (
        f" in the {m.group('noun')} {m.group('kind')}" if m.group("noun") else "")


# "Release Process is in the sidebar", "Settings appears in the navigation bar": a region of the page said last
# (nothing may follow it); never "at the top" or "in the banner", which say where in a list, or name an element
_END = r"(?=\s*$|\s*[,;.!?]|\s+(?:and|then)\s)"
_REGION = (r"(?:(?:left|right|side|main|navigation|page(?:'s)?)\s+)?"
           r"(?:sidebar|side\s*bar|side\s+menu|side\s+panel|nav(?:igation)?(?:\s+(?:bar|menu|pane|panel))?|navbar|"
           r"menu\s*bar|top\s+bar|toolbar|breadcrumbs?|(?:top|bottom|upper|lower)[\s-]+(?:left|right)(?:\s+corner)?)")
_IN_REGION = re.compile(
    r"(?P<said>\b(?:is|are|appears?|shows?(?:\s+up)?|listed|displayed|present|visible|exists?)"
    r"(?:\s+(?:listed|shown|displayed|present|visible|there))?)\s+(?:in|on|within|inside|at)\s+(?:the\s+)?"
    + _REGION + _END, re.I)
# "open the Recent tab in the sidebar", "click the Help link in the top bar": where a control named with its kind is
_CONTROL_IN_REGION = re.compile(r"(?P<kind>\b(?:tab|link|button|icon|menu\s+item|item|entry))\s+(?:in|on|within|inside|at|"
                                r"from)\s+(?:the\s+)?" + _REGION + _END, re.I)
# "there is a link to Coding Style", "the page has a link to Help": that link is shown (a row's link keeps its row:
# no rewrite)
_LINK_TO = re.compile(
    r"(?:\bthere\s+(?:is|should\s+be)|\bthere's|\b(?:it|the\s+page|this\s+page)\s+(?:has|shows|contains))\s+an?\s+"
    r"link\s+(?:to|for|called|named)\s+(?:the\s+)?(?P<x>[^,;]+?)(?:\s+page)?" + _END + "|"
    r"\b(?:it|the\s+page|this\s+page)\s+(?:links|points)\s+to\s+(?:the\s+)?(?P<y>[^,;]+?)(?:\s+page)?" + _END, re.I)


_SET_VALUE = r"(?:\"[^\"]+\"|'[^']+'|[-+]?\d[\d.,:%]*\w{0,3}|(?-i:[A-Za-z][\w.@-]*))"
_SET_PAIRS = re.compile(
    r"(?P<head>(?:^|[,;]\s*|\b(?:and|then|please)\s+)(?P<verb>set|change|make|put|switch|turn)\s+(?:the\s+|its\s+)?"
    r"(?P<f1>[a-z][\w -]{0,40}?)\s+to\s+" + _SET_VALUE + r")(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
    r"(?:the\s+|its\s+)?(?!(?:then|and|set|change|make|put|switch|turn)\b)(?P<f2>[a-z][\w -]{0,40}?)\s+to\s+"
    r"(?P<v2>" + _SET_VALUE + r")" + _END, re.I)


# "the movie with id 12", "the order with the number 42": the record numbered so
_WITH_ID = re.compile(r"\b(?P<k>(?-i:[a-z]+(?<!s)|[a-z]+ss))\s+(?:with|having|that\s+has)\s+(?:the\s+)?(?:id|ID|number|no\.?|#)\s*"
                      r"(?P<n>\d+)\b", re.I)


# a change said with the way it goes: "heat the bed up to 60", "cool it down to 40", "bump X up to 1000"
# ("set the ramp up to 1" keeps its field's name: "set" says no way)
_UP_TO = re.compile(r"^(?P<v>(?:please\s+)?(?:turn|bump|heat|warm|cool|raise|lower|increase|decrease|reduce|crank|dial)\s+"
                    r"(?:(?!\s(?:to|and|then)\s).)+?)\s+(?:up|down)\s+to\s+(?=\S)", re.I)


# a setting put back as it was: "switch the audio back to English", "put the language back on French"
_BACK_TO = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|pls)\s+)(?:set|switch|change|turn|put|revert|flip|reset)\s+"
                      r"(?P<x>(?:the|its|my|our|it)\b[^,;]*?)\s+back\s+(?:to|on)\s+(?=\S)", re.I)


# where the steps before left the device, said again ("tune to Wild Earth from there", "should be ON here")
_FROM_THERE = re.compile(r"(?P<w>[\w'’]+)?\s+(?:from\s+there|from\s+here|here)"
                         r"(?=\s*(?:$|[,;.!?]|\s[-–—]\s|\s(?:and|then|please|pls)\b))", re.I)
# "ON here", "shown here": a state, said where the steps before left the device ("is X here?", "click here" keep it)
_STATE_HERE = frozenset("on off enabled disabled active inactive selected checked ticked playing paused visible shown "
                        "displayed listed".split())


def _from_there(m: re.Match[str]) -> str:
    w = m.group("w") or ""
    if not m.group(0).lower().split()[-1] == "here" or m.group(0).lower().split()[-2:-1] == ["from"]:
        return w
    return w if w.lower() in _STATE_HERE else m.group(0)


# "play whatever comes up", "open what it finds": of a search's results, the first
_WHATEVER_FOUND = re.compile(r"\b(?:that\s+|the\s+thing\s+)?(?:whatever|what|which)\s+(?:comes(?:\s+(?:up|out))?|shows\s+up|"
                             r"turns\s+up|pops\s+up|appears|it\s+finds|you\s+find|(?:is|gets)\s+found)\b", re.I)
# "the film's info page", "the product's details": the page of the thing named last, said by its kind
_KINDS_PAGE = re.compile(r"(?P<verb>\b(?:open|show|view|see|bring\s+up|pull\s+up|go\s+to|get\s+to)\s+(?:me\s+)?)?\b(?:the|this|that)\s+"
                         r"(?P<k>film|movie|show|programme|program|episode|item|product|record|result|book|title|entry|"
                         r"article|post|document|video|track|song|channel)['’]s\s+(?P<p>info|information|details?|detail|"
                         r"description|overview|summary)(?:\s+(?P<n>page|screen|view))?\b", re.I)


def _kinds_page(m: re.Match[str]) -> str:
    if m.group("verb"):
        return f"{m.group('verb')}it"
    return f"the {m.group('k')} {m.group('p')} {m.group('n') or 'page'}"


# an adverb that only insists: "it's actually playing", "is really on"
_REALLY = re.compile(r"\b(is|are|'s|’s|was|were|be)\s+(?:actually|really|definitely|indeed|truly|properly)\s+(?=\S)", re.I)


# "replace the description with X": a field given a new value
_REPLACE_WITH = re.compile(r"(?P<pre>^|[,;]\s*|\b(?:and|then|please|pls)\s+)(?:replace|overwrite|swap)\s+(?P<x>(?:the|its|his|her|"
                           r"their)\s+[a-z][\w -]{0,30}?)\s+(?:with|for|by)\s+(?=\S)", re.I)
# ", including its documents", "along with all its highlights": what a deletion takes with it
_INCLUDING = re.compile(r"\s*,?\s+(?:including|along\s+with|together\s+with|with)\s+(?:all\s+)?(?:of\s+)?(?:its|their)\s+"
                        r"[a-z]+(?:\s+and\s+(?:its|their)\s+[a-z]+)?(?=\s*(?:$|[.!?]))", re.I)


# "can we call the Swap Shop forum "Buy & Sell" from now on?": a new name for it
# "set Ana Souza as the guide on the Patagonia Trek page": the record's field, set to the value said first
_SET_AS = re.compile(r"\b(?i:set|make|assign)\s+(?P<v>[A-Z0-9\"'“][^,;]*?)\s+as\s+(?:the\s+)?(?P<f>[a-z][\w ]{1,30}?)\s+"
                     r"(?:on|of|for|in)\s+(?P<r>(?:the\s+)?[A-Z0-9\"'“][^,;]*?)(?=\s*(?:$|[,;.]|\s+and\s|\s+then\s))")
# "check the summary shows a Net Profit of 4954.38 for the whole ledger": the figure the label names, on the screen
# shown (of a record or a report named, "Lena's card shows a balance of 50", it is read as said: whose it is matters)
_LABEL_OF = re.compile(r"(?P<pre>\b(?i:check|verify|confirm|ensure|make\s+sure|see)\s+(?:(?i:that)\s+)?)(?:(?:it|(?i:the)\s+"
                       r"(?i:page|screen|view|summary|total|totals|cart|basket|checkout|footer|header|sidebar|panel|dashboard))\s+)?"
                       r"(?i:shows?|displays?|reports?)\s+(?i:a|an|the)\s+"
                       r"(?P<label>[A-Za-z][\w&' -]{1,30}?)\s+of\s+(?P<v>[-+−]?[$€£]?\d[\d,.]*(?:\s*[A-Z]{3}\b)?)"
                       r"(?:\s+(?i:for|in|over|across)\s+(?i:the\s+)?(?i:whole|entire|full|complete|all)\b[^,;.]*)?")
# "delete the Capture Serial Logs page under How To": the page, by its own name (where it is filed says no more)
_FILED_UNDER = re.compile(r"(?P<v>\b(?i:delete|remove|open|show|view|edit|archive|rename|lock|unlock|publish|unpublish|"
                          r"read|check|find)\s+)(?P<x>(?i:the)\s+(?-i:[A-Z0-9])[^,;]*?\s+(?i:page|document|doc|file|note|article|"
                          r"entry))\s+(?i:under|inside|within|in)\s+(?:(?i:the)\s+)?(?-i:[A-Z][\w&'-]*)(?:\s+(?:&|and|of|"
                          r"(?-i:[A-Z][\w&'-]*)))*(?:\s+(?i:folder|section|category|directory|space|area|group))?"
                          r"(?=\s*(?:$|[,;.!]|\s+(?i:and|then)\s))")
_CALL_IT = re.compile(r"(?P<pre>^|[,;.]\s*|\b(?:and|then|please|pls)\s+)(?:(?:can|could|shall)\s+(?:we|you)\s+|let'?s\s+|please\s+)?"
                      r"(?:call|name)\s+(?P<x>(?:the|our|my|this)\s+[^\"“']{2,60}?)\s+(?P<y>\"[^\"]+\"|“[^”]+”|'[^']+')", re.I)


# a text said after a colon, to the end of the task, with commas or semicolons of its own: one value ("update the
# description to: Started in lockdown; now hybrid, two office days"); never where another "field:" follows
_TEXT_AFTER_COLON = re.compile(r"(?P<k>\b(?:to|as|description|descr|note|notes|comment|comments|summary|body|message|bio|"
                               r"reason|text|details|about))\s*:\s+(?P<v>(?![\"“'])[^\"“”]*?[,;][^\"“”]*?)\s*[.!]?\s*$", re.I)


def _quoted_text(m: re.Match[str]) -> str:
    if re.search(r"(?:^|[,;]\s*)[A-Za-z][\w ]{0,20}:\s", m.group("v")):
        return m.group(0)   # "title: Dune, author: Frank Herbert": fields of their own
    for piece in re.split(r"[,;]\s*", m.group("v"))[1:]:
        first = re.sub(r"^(?:and|then|please|pls)\s+", "", piece.strip(), flags=re.I).split()
        content = m.group("k").lower() in ("text", "body", "description", "descr", "note", "notes", "comment", "comments",
                                           "message", "details")
        if re.match(r"(?:and\s+)?(?:then|after\s+that|afterwards)\b", piece.strip(), re.I) \
                or first and first[0].lower() in VERBS and not content:
            return m.group(0)   # "to: done, then open the list": a request of its own follows ("with the text: run
            # the suite, update the changelog" is the text, its verbs its own)
    return f'{m.group("k")} "{m.group("v")}"'


# slips of the keyboard a reader reads through, fixed before anything reads the task ("there shoud be 5")
_SLIP_FIX = {"priorty": "priority", "priortiy": "priority", "prioirty": "priority", "shoud": "should", "shuold": "should", "shoudl": "should", "asigned": "assigned", "asignee": "assignee",
             "teh": "the", "recieve": "receive", "recieved": "received", "adress": "address", "sucess": "success",
             "succesful": "successful", "seperate": "separate", "definately": "definitely",
             # contractions typed without their apostrophe ("make sure youre on Tech Today")
             "youre": "you're", "theyre": "they're", "thats": "that's", "whats": "what's", "theres": "there's",
             "wheres": "where's", "cant": "can't", "wont": "won't", "didnt": "didn't", "shouldnt": "shouldn't",
             "wasnt": "wasn't", "werent": "weren't", "couldnt": "couldn't", "wouldnt": "wouldn't", "hasnt": "hasn't",
             "havent": "haven't"}
_SLIPS = re.compile(r"\b(?:" + "|".join(_SLIP_FIX) + r")\b", re.I)
_HAVE_GOT = re.compile(r"\b(we|i|you)\s*(?:'ve|’ve|\s+have)\s+got\b", re.I)


def _reworded(task: str) -> str:
    """The rewordings of :func:`restate` that must never touch a name (see :func:`_outside_names`)."""
    task = _HAVE_GOT.sub(r"\1 have", task)   # "we've got 3 suppliers": we have 3
    if re.search(r"\b(?:delete|remove|drop|trash|discard|erase|purge|scrap|ditch|bin|get\s+rid\s+of)\b", task, re.I):
        task = _INCLUDING.sub("", task)   # "delete that project, including its documents": what deleting it does
    task = _BACK_TO.sub(r"\g<pre>set \g<x> to ", task)   # "switch the audio back to English": set it to English
    if not re.search(r"\b(?:rename|call|title|name|set|change)\b", task, re.I):
        task = _FROM_THERE.sub(_from_there, task)   # "tune to Wild Earth from there", "ON here": where the steps left it
    if re.search(r"\b(?:search|look\s+up|find|filter|type|write|enter)\b", task, re.I):
        task = _WHATEVER_FOUND.sub("the first result", task)   # "search X and play whatever comes up": its first result
    task = _KINDS_PAGE.sub(_kinds_page, task)   # "open the film's info page": open it; "land on the film's detail page"
    task = re.sub(r"\b(?:go\s+)?back\s+out\s+(?=to\b|into\b)", "go ", task, flags=re.I)   # "back out to the main menu"
    task = _REALLY.sub(r"\1 ", task)   # "make sure it's actually playing": it is playing
    # "is X on tonight? If so, switch to it": the check, then the request (a check that fails stops the run)
    task = re.sub(r"(?:[?.!,;]\s*|\s+)(?:and\s+)?if\s+(?:so|yes|that['’]?s\s+(?:the\s+case|right|true))\s*,?\s+",
                  ", then ", task, flags=re.I)
    return re.sub(r"\b(put|turn)\s+(?P<x>\S[^,;]*?)\s+back\s+on(?=\s*(?:$|[,;.!?]|\s(?:and|then|please|pls)\b))",
                  r"\1 \g<x> on", task, flags=re.I)   # "put the news back on": on again


# what a tester names: quoted words, and what follows "called", "named", "titled" to the end of its clause
_NAMES = re.compile(QUOTED + r"|\b(?:called|named|titled|labelled|labeled)\s+[^,;.!?]+", re.I)


def _outside_names(task: str, reword: Callable[[str], str]) -> str:
    """*task* reworded by *reword* everywhere but in what it names ("add a todo called See the film's details",
    "add 'The cake is definitely done'" keep their words)."""
    return held_out(task, _NAMES, reword)


_CASE_PART = re.compile(r"(?:^|(?<=[.;!?])\s*)(?P<k>pre-?conditions?|given|steps?(?:\s+to\s+reproduce)?|expected(?:\s+results?)?|"
                        r"expectation)\s*:\s*", re.I)


def _test_case(task: str) -> str:
    """A task written as a test case ("Precondition: audio is French. Steps: open Settings … Expected: 'Audio
    language: English' is displayed."): the precondition and the expected result are checks, the steps are what
    is done (their label dropped). A task with no such label is unchanged."""
    def part(m: re.Match[str]) -> str:
        k = m.group("k").lower()
        lead = ". " if m.start() > 0 else ""
        if k.startswith(("pre", "given", "expect")):
            return f"{lead}check "
        return lead
    if not _CASE_PART.search(task):
        return task
    return re.sub(r"\.\s*\.\s+", ". ", _CASE_PART.sub(part, task)).strip()


# pictographs a chat message puts between its sentences (never a tick or a cross a checklist puts in its boxes)
_EMOJI = re.compile(r"\s*(?:[\U0001F000-\U0001FAFF\u2600-\u2704\u2706-\u2712\u2719-\u274B\u274D\u274F-\u27BF\u2B00-\u2BFF]"
                    r"[\uFE0F\u200D\U0001F3FB-\U0001F3FF]*)+\s*")


def _emoji_ends(m: re.Match[str]) -> str:
    """An emoji inside a message: the end of a sentence (". "); at its end or before punctuation: nothing."""
    after = m.string[m.end():m.end() + 1]
    before = m.string[:m.start()].rstrip()
    if not after or not before or after in ",.;:!?)" or before[-1] in ".!?:;,":
        return " " if after and before else ""
    return ". "


def restate(task: str) -> str:
    """A task in the planner's words where a tester's differ: see :func:`_restate`; then "set the users to 3 and
    the ramp up to 1" is a setting each, the verb said once."""
    task = layouts.flatten(gherkin.flatten(task))   # a bug report's steps, a checklist, a table, a test sheet's row: one sentence
    task = _EMOJI.sub(_emoji_ends, task).strip()   # "… on Spanish 🙈 Can you set …": an emoji ends what it follows
    task = _SLIPS.sub(lambda m: _SLIP_FIX[m.group(0).lower()], task)
    task = _outside_names(task, reword)   # dictated, non-native, acceptance-criteria and terse-step registers
    task = _outside_names(task, _test_case)   # "Precondition: … Steps: … Expected: …": a test case's parts
    task = asides.aside(task)   # the background and the question said around the request
    task = re.sub(r"^\s*(?:pls|plz|please|kindly)[\s,]+(?=[a-z])", "", task, flags=re.I)   # "pls set up a new project …"
    # "search 'cup' - is X in the results?": the question after a dash is a check of its own
    task = _outside_names(task, lambda t: re.sub(r"\s+[-–—]\s+(?=(?:is|are|does|do|did|was|were|has|have|can\s+you\s+see)\s+"
                                                 r"\S[^?]*\?)", ", ", t, flags=re.I))
    task = _REPLACE_WITH.sub(r"\g<pre>set \g<x> to ", task)   # "replace the description with X": set it to X
    task = _CALL_IT.sub(r"\g<pre>rename \g<x> to \g<y>", task)
    task = _SET_AS.sub(r"set the \g<f> of \g<r> to \g<v>", task)
    task = _LABEL_OF.sub(r"\g<pre>\g<label> is \g<v>", task)
    task = _FILED_UNDER.sub(r"\g<v>\g<x>", task)   # "can we call the Swap Shop forum 'Buy & Sell'"
    # "… called X. description: Y": a field of what the sentence before adds, said in a sentence of its own
    task = _outside_names(task, lambda t: re.sub(
        r"[.;]\s+(?P<f>(?:description|descr|notes?|comments?|e-?mail|phone|address|title|tags?|summary|details|category|"
        r"priority|status|owner|due(?:\s+date)?|price|colou?r)\s*:)", r", \g<f>", t, flags=re.I))
    # "update the description on Chloe's interview to X": the field of that record
    # (a record: a name of two words or more, or one's ("Chloe's interview"), or quoted; one word may be a page)
    task = re.sub(r"\b(?P<v>(?i:set|update|change|edit))\s+the\s+(?P<f>[a-z]+(?:\s+[a-z]+)?)\s+(?:on|for)\s+"
                  r"(?P<r>[\"'“][^\"'”]+[\"'”]|[A-Z][\w'’-]*['’]s\s+[^,;]*?|[A-Z][\w'’-]*\s+[A-Z0-9][^,;]*?)\s+to\b",
                  r"\g<v> the \g<f> of \g<r> to", task)
    task = _TEXT_AFTER_COLON.sub(_quoted_text, task)   # "… to: Started her first job; now hybrid, two office days"
    task = context_first(_asked_to_check(task))
    task = _WITH_ID.sub(r"\g<k> #\g<n>", task)   # before "number 2" is read as a channel's 2
    task = _UP_TO.sub(r"\g<v> to ", task)   # "heat the nozzle up to 200": to 200
    task = _outside_names(task, _reworded)   # what testers add around a request, never inside what they name
    task = rephrase(task, VERBS)   # testers' turns of phrase (server.planners.phrasings)
    task = _restate(task)
    told = about_first(task)   # what is told first, then "it": the request about that thing, read again
    task = _restate(rephrase(told, VERBS)) if told != task else task
    task = story_first(task)   # "Committee voted on a new name. Change the title to X": the request
    while True:
        more = _SET_PAIRS.sub(_set_pair, task, count=1)
        if more == task:
            return task
        task = more


# where a sentence of a task ends (not inside quotes): a stop, or a dash between words
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Za-z\"'“])|\s+[-–—]\s+")
# how a sentence that tells rather than asks begins: the tester or someone else, a thing named, an interjection
_TELLER = re.compile(r"^(?:ugh|oh|ok|okay|hey|hi|hmm|so|well|fyi|btw|right|apparently|heads\s+up|just\s+so\s+you\s+know|"
                     r"i|i['’](?:ve|m|d)|we|we['’](?:ve|re|d)|you|someone|somebody|he|she|they|there|there['’]s|it|it['’]s|"
                     r"this|that|the|a|an|my|our|his|her|their|(?-i:[A-Z][\w'’.-]*))\b", re.I)
_TELLER_WORD = re.compile(r"^(?:ugh|oh|ok|okay|hey|hi|hmm|so|well|fyi|btw|right|apparently|i|we|you|someone|somebody|he|"
                          r"she|they|there|it|this|that|the|a|an|my|our|his|her|their|nobody|everyone)\b", re.I)
# a request with a verb the planner does not know, which a control of the app may be named after ("lock it", "Bin it",
# "reply to her")
_UNKNOWN_VERB = re.compile(r"^[a-z]+\s+(?:it|them|her|him|this|that|these|those|the|a|an|my|our|to|on|up|down|off|out|back)\b",
                           re.I)
# a verb of a told sentence: what is, or what happened ("voted", "messaged", "mentioned", "ended up")
_TOLD_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|isn['’]t|aren['’]t|wasn['’]t|doesn['’]t|didn['’]t|hasn['’]t|"
                        r"don['’]t|do\s+not|never|'s|’s|'re|’re|'ve|’ve|\w{3,}ed|sent|said|told|left|got|came|went|put|"
                        r"made|wrote|saw|found|thought|mentioned|asked|moved|need|needs|want|wants|looks|seems|should|"
                        r"must)\b", re.I)
_WHERE_WE_ARE = re.compile(r"^(?:we|you|i)(?:['’]re|['’]m|\s+are|\s+am)\s+(?:now\s+|currently\s+|still\s+|already\s+)?"
                           r"(?:on|at|in|tuned\s+to|watching)\s", re.I)
# a state the screen shows, said of something: a check, never only told
_SCREEN_STATE = re.compile(r"\b(?:shown|showing|displayed|visible|hidden|listed|there|present|gone|missing|on|off|playing|"
                           r"paused|enabled|disabled|selected|checked|ticked|open|closed|empty|active|highlighted|focused)"
                           r"\s*[.!]?$", re.I)
_CHECK_WORDS = re.compile(r"\b(?:check|verify|confirm|make\s+sure|ensure|double[\s-]?check|see\s+(?:if|whether)|test)\b",
                          re.I)


def story_first(task: str) -> str:
    """A task that first tells what happened or how things are, in sentences of their own, then asks for
    something: the request ("Committee voted on a new name. Change the title to X", "Ugh, there's a spam thread
    in the Swap Shop. Delete it", "I've moved - update my profile …").

    A told sentence checks nothing (no "check", "verify", no question), is no request (its act is none, or a
    statement), begins as a statement does (the tester, someone, a thing named, an interjection) and has a
    verb of being or of having happened. It is never dropped where it may say what the task checks or needs: a
    "should", "needs" or "still", a value of its own (a number, an address, quoted words), or a request that names
    nothing itself ("Delete the product": the product is the one the sentence named)."""
    parts = _split_sentences(task)
    if len(parts) < 2:
        return task
    keep = 0
    while keep < len(parts) - 1 and _told(parts[keep], parts[keep + 1:]):
        keep += 1
    return " ".join(parts[keep:]) if keep else task


def _split_sentences(task: str) -> list[str]:
    return asides.split_sentences(task, _SENTENCES)


def _told(sentence: str, rest: list[str]) -> bool:
    said = strip_filler(sentence).rstrip(" .!")
    if not said or sentence.rstrip().endswith("?") or _CHECK_WORDS.search(said) or not _TELLER.match(said) \
            or not _TOLD_VERB.search(said) or re.search(r"^\S+\s+(?:whatever|everything|anything)\b", said, re.I):
        return False
    if read_clause(said).act not in (Act.NONE, Act.CHECK) or said.split()[0].lower() in VERBS \
            or _WHERE_WE_ARE.match(said) or _REFERS.search(" ".join(rest)):
        return False   # "You're on channel 1": a check of where it starts; "… Add the keyword to it": what "it" is
    asks = [read_clause(strip_filler(re.sub(r"^(?:can|could|would|will)\s+(?:you|u|we)\s+", "", p, flags=re.I)))
            for p in rest]
    asked = next((a for a in asks if a.act not in (Act.NONE, Act.CHECK, Act.WANT) or a.act is Act.NONE
                  and _UNKNOWN_VERB.match(a.text) and not _TELLER_WORD.match(a.text)), None)
    if asked is None:
        return False   # only more told sentences, or checks: the task's own words are all there is
    if re.search(r"\b(?:should|must|ought\s+to|needs?|has\s+to|still|stays?|testing|checking)\b", said, re.I):
        return False   # "Subtitles should still be on. Set the audio to French": the end state's check, kept
    if re.search(r"\d|@|://|[\"“‘]|(?<!\w)'", said):
        return False   # a value of its own ("Emma has a new email, emma@new.example. Edit Emma"): never dropped
    if _SCREEN_STATE.search(said):
        return False   # "the banner is not shown - press OK": how the screen is, which a check can read
    if not re.search(r"(?-i:[A-Z0-9])|[\"“'‘]", re.sub(r"^\W*\w+", "", asked.text)):
        return False   # "The Stapler is discontinued. Delete the product.": the request names nothing of its own
    return True


def _set_pair(m: re.Match[str]) -> str:
    first = m.group("f2").split()[0].lower()
    if first in VERBS or first in _SET_VERBS_MORE:
        return m.group(0)   # "… and bump its priority to urgent": another verb of its own
    if re.search(r"\s(?:of|for)\s+(?:the\s+)?(?-i:[A-Z0-9\"'“])|['’]s\s", m.group("f1"), re.I):
        return m.group(0)   # "the title of Dune to X and the author to Y": both of Dune, said once (left whole)
    return f"{m.group('head')}, then {m.group('verb')} {m.group('f2')} to {m.group('v2')}"


def _whole(value: str) -> str:
    """Words a field is set to, kept whole where they hold a comma or a joining word ("Max 40 guests, near the
    office"): quoted, so that they are never read as a step of their own."""
    value = value.strip().rstrip(".")
    if re.search(r"[,;]|\b(?:and|then)\b", value) and not re.search(r"[\"“”]", value):
        return f'"{value}"'
    return value


# a calendar date as a tester writes it in a request ("8 January 2027", "dec 19th 2026", "2027-01-08", "12/19/2026")
_DATE_SAID = (r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{4}|"
              r"(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3,9}\.?|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?),?\s+\d{4})")


_SET_VERBS_MORE = frozenset("bump raise lower increase decrease drop reduce move assign give hand rename".split())


# where a request starts: the task's start, after a comma, or after "and", "then", "please"
_LEAD = r"(^|[,;]\s*|\b(?:and|then|please)\s+)"


_TRY = re.compile(_LEAD + r"(?:try|attempt)(?:ing)?\s+(?:to\s+(?P<v>\w+)|(?P<g>\w+ing))\b",
                  re.I)


def _untried(m: re.Match[str]) -> str:
    """"try adding X", "try to add X": the action itself (whether it works is what the task's check says)."""
    if m.group("v"):
        return m.group(1) + m.group("v")
    g = m.group("g").lower()
    for base in (g[:-3], g[:-3] + "e", g[:-4]):   # adding → add, creating → create, running → run
        if base in VERBS:
            return m.group(1) + base
    return m.group(0)


# "in the Guide section open Alerts", "on the settings page, turn on alerts": the place first, then what is done there
_PLACE_FIRST = re.compile(r"(^|[,;]\s*|\b(?:and|then)\s+)(?:(?:in|on|under|within|inside)\s+(?:the\s+)?|(?<=^)for\s+the\s+)"
                          r"(?P<place>(?!(?:the|this|that|these|a|an|my|our|your|its)\b)(?:[\w'’-]+\s+){0,3}?[\w'’-]+)"
                          r"(?:\s+(?P<kind>section|tab|page|menu|screen|area|part|panel)\s*,?|\s*,)"
                          r"\s+(?P<verb>[a-z]+)\b", re.I)
# "in the list, delete Rake": a place said by a word of kind alone is the one shown, not one to open
_HERE_PLACES = frozenset("list table form page screen app dialog window box field grid view row results it sidebar "
                         "header footer toolbar navigation nav bar top bottom left right middle corner modal popup textarea column "
                         "mobile desktop browser".split())
_IDIOMS = frozenset("short general addition fact case order particular total brief summary turn detail any record moment "
                    "time rest most "
                    "theory practice future meantime end other whole average contrast "
                    "monday tuesday wednesday thursday friday saturday sunday today tomorrow".split())   # "in short, …"


def _place_first(m: re.Match[str]) -> str:
    if m.group("verb").lower() not in VERBS:
        return m.group(0)   # "on the settings page there is …": a statement about the place, no step there
    if not m.group("kind") and (m.group("place").lower().split()[-1] in _HERE_PLACES or m.group(1).strip()
                                or not m.group("place")[:1].isalpha()):
        return m.group(0)   # "in the list, delete Rake"; a place with no kind named is read only as the task's start
    if not m.group("kind") and m.group("place").lower().split()[0] in _IDIOMS:
        return m.group(0)
    if re.match(r"(?:first|second|third|fourth|fifth|last|next|previous|other|1st|2nd|3rd|\d+th)\b", m.group("place"), re.I):
        return m.group(0)   # "for the second todo, delete it": a row by its place, no screen to open
    place = f"{m.group('place')} {m.group('kind')}" if m.group("kind") else m.group("place")
    return f"{m.group(1)}open the {place}, then {m.group('verb')}"


def _restate(task: str) -> str:
    """A task in the planner's words where a tester's differ (else unchanged): "channel three" is channel 3;
    "what's on the guide" opens it; "audio: spanish" sets it; a stated fact with a request to make it true
    ("the author of X should be Y, please fix it") is the edit it asks for."""
    task = _TRY.sub(_untried, task)
    # "who is insured? list only insured patients": a question asked before a request says why; the request is the
    # task (a question alone is still read, and refused as one; "how many …? there should be 2" is its answer)
    asked = re.match(r"^\s*(?:who|what|whats|which|where|when|how|why)\b(?P<q>[^?]*)\?\s*(?P<rest>(?P<v>[a-z]+)\b.*)$",
                     task, re.I)
    if asked and VERBS.get(asked.group("v").lower()) not in (None, Act.CHECK):
        task = asked.group("rest")
        # "what's the channel number for Laugh Track? go to it": "it" is what the question was about
        about = re.search(r"\b(?:for|of)\s+(?P<x>(?-i:[A-Z0-9\"'“])[^?]*?)\s*$", asked.group("q"))
        if about:
            task = re.sub(r"\b(?:it|that\s+one|that)\b(?=\s*(?:$|[,;.!?]|\s+(?:and|then|now|please)\b))",
                          lambda _: about.group("x"), task, count=1)
    # "Dr. Amara Osei": the person is listed by name, with no title
    task = re.sub(r"\b(?-i:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+(?=(?-i:[A-Z])[a-z])", "", task)
    # "set Dr. Osei as the doctor of Ivo Petrov": the field of the record, set to the value
    task = re.sub(_LEAD + r"(?:set|make|assign)\s+(?P<v>(?-i:[A-Z0-9\"'“])[^,;]*?)\s+as\s+"
                  r"(?:the\s+|their\s+|his\s+|her\s+)?(?P<f>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\s+(?:of|for)\s+"
                  r"(?P<r>(?-i:[A-Z0-9\"'“])[^,;]*?)(?=\s*$|\s*[,;.]|\s+(?:and|then)\s)",
                  lambda m: f"{m.group(1)}set the {m.group('f')} of {m.group('r')} to {m.group('v')}", task, flags=re.I)
    # "make an experiment named sales-uplift", "set up a new project called Apollo", "start a new board called Q3":
    # a new thing with its name is one to create (to make something so, or to start playing, says no name)
    task = re.sub(_LEAD + r"((?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?)"
                  r"(?:make|set\s+up|start|open\s+up)\s+(?=(?:a|an|another|one)\s+"
                  r"(?:new\s+|fresh\s+|empty\s+|blank\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:(?:named|called|titled|with\s+the\s+name)\b|[\"“]))",
                  r"\1\2create ", task, flags=re.I)
    task = _PLACE_FIRST.sub(_place_first, task)
    # "find the section on the default login", "look up the part about quiet hours": that part, opened by its name
    task = re.sub(_LEAD + r"(?:find|locate|look\s+up|show\s+me|jump\s+to|go\s+to)\s+"
                  r"(?:the\s+)?(?:section|part|chapter|paragraph|bit|heading|passage)\s+(?:on|about|for|covering|"
                  r"describing|explaining|that\s+(?:covers|describes|explains))\s+(?:the\s+)?", r"\1open ", task, flags=re.I)
    task = _CHANNEL_WORD.sub(lambda m: f"{m.group(1)} {_NUMBERS[m.group(2).lower()]}", task)
    task = restate_shown_first(task)   # "show the cheapest products first": a sort
    # "the customer list should include Bob Chen", "the bill list has an entry for Electricity": a name listed
    task = _LIST_INCLUDES.sub(_listed, task)
    task = _LIST_HAS_ENTRY.sub(_listed, task)
    # "Release Process is in the sidebar", "Settings appears in the top menu": shown on the page, wherever it sits
    task = _LINK_TO.sub(lambda m: f"the {m.group('x') or m.group('y')} link is shown", task)
    task = _IN_REGION.sub(lambda m: m.group("said") + (" shown" if m.group("said").lower() in ("is", "are") else ""),
                          task)
    task = _CONTROL_IN_REGION.sub(lambda m: m.group("kind"), task)
    # "give issue 5 to bob", "hand the login ticket over to carol": an assignment
    task = re.sub(_LEAD + r"(?:give|hand|pass|delegate|route)\s+"
                  rf"(?P<rec>{_RECORD_REF})\s+(?:over\s+)?to\s+(?P<p>[\w.@-]+)(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)",
                  lambda m: f"{m.group(1)}assign {m.group('rec')} to {m.group('p')}", task, flags=re.I)
    # "make 'Clean the gutters' due on 8 January 2027", "push the deadline of X to 2027-01-08": its due date
    task = re.sub(_LEAD + r"(?:make|set|mark|have)\s+(?P<rec>[^,;]+?)\s+(?:as\s+)?due\s+"
                  rf"(?:on\s+|by\s+|for\s+)?(?P<d>{_DATE_SAID})",
                  lambda m: f"{m.group(1)}set the due date of {m.group('rec')} to {m.group('d')}", task, flags=re.I)
    task = re.sub(_LEAD + r"(?:move|push|shift|bump|change|reschedule|postpone|"
                  r"pull\s+in|bring\s+forward)\s+(?:the\s+)?(?P<f>due\s+date|deadline)\s+(?:of|for|on)\s+(?P<rec>[^,;]+?)"
                  rf"\s+(?:back\s+|out\s+)?to\s+(?P<d>{_DATE_SAID})",
                  lambda m: f"{m.group(1)}set the {m.group('f')} of {m.group('rec')} to {m.group('d')}", task, flags=re.I)
    # "add a description to 'Book venue' saying: Max 40 guests": that field of the record, set to the words
    task = re.sub(_LEAD + r"(?:add|put|write|give\s+it)\s+(?:a|an|the|some)?\s*"
                  r"(?P<f>description|summary|details|notes)\s+(?:to|on|for|of)\s+(?P<rec>[^,;:]+?)(?<!\sto)\s*"
                  r"(?:,\s*)?(?:saying|that\s+says|which\s+says|reading|with\s+the\s+text|:)\s*:?\s*(?P<x>\S.*)$",
                  lambda m: f"{m.group(1)}set the {m.group('f')} of {m.group('rec')} to {_whole(m.group('x'))}", task,
                  flags=re.I)
    # "add 'Order cake' to errands, it's due dec 19th 2026": the new record's due date, said after it
    task = re.sub(rf"\s*[,;]\s*(?:it['’]?s|it\s+is|which\s+is|that['’]?s)\s+due\s+(?:on\s+|by\s+|for\s+)?(?P<d>{_DATE_SAID})",
                  lambda m: f" with due date {m.group('d')}", task, flags=re.I)
    # "put Restock coffee beans back to not done", "set it back to open": undone
    task = re.sub(_LEAD + r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
                  r"(?:put|set|mark|move|turn|change)\s+(?P<rec>[^,;]+?)\s+back\s+"
                  r"(?:to\s+|as\s+|into\s+)?(?:not\s+(?:done|completed?|finished)|undone|incomplete|open|to\s*-?\s*do)"
                  r"(?=\s*$|\s*[,;.!?]|\s+(?:and|then)\s)",
                  lambda m: f"{m.group(1)}mark {m.group('rec')} as not done", task, flags=re.I)
    # "bump the broken chair ticket to high priority": that field of it, set to the value said before the field
    task = re.sub(_LEAD + r"(?:bump|raise|lower|set|change|move|put|mark|escalate|drop)\s+"
                  r"(?P<rec>[^,;]+?)\s+(?:up\s+|down\s+)?(?:to|as)\s+(?:a\s+)?(?P<v>[\w.-]+(?:\s+[\w.-]+)?)\s+"
                  r"(?P<f>priority|severity|urgency|importance|status)\b",
                  lambda m: f"{m.group(1)}set the {m.group('f')} of {m.group('rec')} to {m.group('v')}", task, flags=re.I)
    # "raise the priority of issue 3 to critical", "lower its severity to minor": the field, set to the value
    task = re.sub(_LEAD + r"(?:raise|bump|increase|lower|decrease|drop|reduce|upgrade|"
                  r"downgrade|escalate|bring)\s+(?:up\s+|down\s+)?(?P<f>(?:the|its|their)\s+[a-z]+(?:\s+[a-z]+)?)"
                  r"(?P<of>\s+of\s+[^,;]+?)?\s+(?:up\s+|down\s+)?to\s+(?=\S)",
                  lambda m: f"{m.group(1)}set {m.group('f')}{m.group('of') or ''} to ", task, flags=re.I)
    # "look for issues mentioning password", "find the tickets about CSV": a search for the words
    task = re.sub(_LEAD + r"(?:look|search|hunt|check)\s+for\s+(?:all\s+)?(?:the\s+|any\s+)?"
                  r"(?-i:[a-z]+s)\s+(?:that\s+|which\s+)?(?:mention(?:ing|s)?|contain(?:ing|s)?|match(?:ing|es)?|"
                  r"with\s+the\s+words?|about)\s+(?P<x>[^,;]+?)(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)",
                  lambda m: f"{m.group(1)}search for {m.group('x')}", task, flags=re.I)
    # "Rent has a price of 1200": a field's value, stated
    task = re.sub(r"(?P<rec>(?<![\w'])(?-i:[A-Z0-9\"'“])(?:(?!\s(?:and|then|that)\s)[^,;])*?)\s+has\s+an?\s+"
                  r"(?P<f>[a-z]+(?:\s+[a-z]+)?)\s+of\s+"
                  r"(?P<v>[^,;\s][^,;]*?)(?=\s*$|\s*[,;.!?]|\s+(?:and|then)\s)",
                  lambda m: f"the {m.group('f')} of {m.group('rec')} is {m.group('v')}", task)
    # "there are no watches in the Suppliers group": that group's view, with none of them
    task = re.sub(r"\bthere\s+(?:are|is|should\s+be)\s+no\s+(?P<k>(?-i:[a-z]+))\s+(?:in|under|inside)\s+(?:the\s+)?"
                  r"(?P<v>(?-i:[A-Z0-9])[^,;]*?)\s+(?P<g>group|tag|category|folder|section|project|view|label)\b",
                  lambda m: f"the {m.group('v')} {m.group('g')} has 0 {m.group('k')}", task, flags=re.I)
    # "trigger a recheck of Wiggle road bikes", "run a backup of the site": the action, said as a verb
    task = re.sub(_LEAD + r"(?:trigger|run|do|perform|start|force|kick\s+off|request|"
                  r"launch)\s+(?:a|an)\s+(?:new\s+|fresh\s+|manual\s+)?(?P<n>(?-i:[a-z]+))\s+(?:of|on|for)\s+(?=\S)",
                  lambda m: f"{m.group(1)}{m.group('n')} "
                            if m.group("n").lower() not in ("search", "query", "count", "check") else m.group(0),
                  task, flags=re.I)
    # "jot down 'renew passport' as a new todo", "note down milk": an item to add
    task = re.sub(_LEAD + r"(?:jot|note|write|put|scribble|pop|stick)\s+down\s+", r"\1add ", task,
                  flags=re.I)
    # "remove every todo that is done": the completed ones
    task = re.sub(r"\b(?P<q>every|each|all(?:\s+the)?|any)\s+(?P<k>(?-i:[a-z]+?))(?:s)?\s+(?:that|which)\s+(?:is|are)\s+"
                  r"(?:already\s+)?(?:done|completed|finished|ticked|checked)\b",
                  lambda m: f"{m.group('q')} completed {m.group('k')}", task, flags=re.I)
    # "I've finished calling the plumber": the item, done
    task = re.sub(r"^(?:i['’]ve|i\s+have|i)\s+(?:just\s+|already\s+)?(?:finished|completed|done)\s+(?P<x>[^,;]+?)[\s.!]*$",
                  lambda m: f"mark {m.group('x')} as done", task.strip(), flags=re.I)
    # "Walk the dog isn't done yet, reopen it": what "it" is, said first
    fact = _FACT_THEN.fullmatch(task.strip())
    if fact:
        task = re.sub(r"\b(?:it|them)\b", fact.group("x"), fact.group("rest"), count=1)
    # "open Basil's record", "show Bob Chen's details": the record itself
    task = re.sub(r"(?P<x>(?<![\w'’])(?-i:[A-Z0-9][\w-]*(?:\s+[A-Z0-9][\w-]*){0,3}))['’]s\s+(?:own\s+)?(?:record|details|detail\s+page|"
                  r"entry|profile|row|page)\b",
                  lambda m: m.group(0) if re.search(r"\b(?:delete|remove|drop|erase|clear|archive|destroy|purge|get\s+rid\s+of)"
                                                    r"\b[^,;]*$", m.string[:m.start()], re.I) else m.group("x"),
                  task)   # ("delete Dan's page" deletes the page, never Dan)
    # "remove Chloe as a participant", "open Bob as a customer": the record of that kind
    task = re.sub(_LEAD + r"(?P<v>delete|remove|open|edit|view|deactivate|disable)\s+"
                  r"(?P<x>(?-i:[A-Z0-9\"'“])[^,;]*?)\s+as\s+(?:an?|the)\s+(?P<k>[a-z]+)"
                  r"(?=\s*$|\s*[,;.]|\s+(?:and|then|from)\s)",
                  lambda m: f"{m.group(1)}{m.group('v')} the {m.group('k')} {m.group('x')}", task, flags=re.I)
    # "open the film that comes up", "the one that pops up": after a search, what it found first
    task = re.sub(r"\b(?:the|a)\s+(?:film|movie|result|item|one|match|hit|show|programme|program|title|entry|thing|"
                  r"record|page)\s+(?:that|which)\s+(?:comes|came|shows|showed|pops|popped|turns|turned)\s+up\b",
                  lambda m: "the first result" if re.search(r"\b(?:search|find|look\s+(?:up|for)|filter|query)\b",
                                                            m.string[:m.start()], re.I) else m.group(0),
                  task, flags=re.I)   # (only after a search: "delete the item that pops up" names nothing)
    # "make sure she shows up", "Hana turns up in the list": shown
    task = re.sub(r"(?<=\w)\s+(?:shows|turns|pops|comes|show|turn|pop|come)\s+up\b", " is shown", task, flags=re.I)
    # "check that Boreal Sports shows": shown
    task = re.sub(r"(\b(?:check|verify|confirm|ensure|make\s+sure|see)\s+(?:that\s+|if\s+|whether\s+)?[^,;\"'“”]*?\w)"
                  r"\s+shows(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\s))", r"\1 is shown", task, flags=re.I)   # (never a name:
    # "create a group called Bike shows")
    # "confirm it shows as stopped", "the status displays as Active": what it is
    task = re.sub(r"(?<=\w)\s+(?:shows|displays|appears|reads|show|display|appear|read|is\s+(?:shown|displayed|listed)|"
                  r"are\s+(?:shown|displayed|listed))\s+as\s+(?=\S)", " is ", task, flags=re.I)
    # "show the customers in Lyon", "list customers located in Lyon": the list narrowed to the value
    task = re.sub(r"(^|[,;]\s*|\b(?:and|then)\s+)(?i:(?:i['’]d|i\s+would|we['’]d|i|we)\s+(?:like|want|need)\s+to\s+|let\s+me\s+)?"
                  r"(?:show|list|display|view|see|get)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?"
                  r"(?P<noun>(?-i:[a-z]+s))\s+(?:(?:who|that|which)\s+(?:are|live|lives)\s+|located\s+|based\s+|living\s+)?"
                  r"(?P<prep>from|in)\s+(?P<v>(?-i:[A-Z0-9\"'“])[^,;]*?)(?=\s*$|\s*[,;]|\s+(?:and|then)\s)",
                  lambda m: f"{m.group(1)}show only {m.group('noun')} from {m.group('v')}", task)
    # "is there a plant called Basil?": a presence to check
    task = re.sub(r"(^|[,;.]\s*|\b(?:and|then)\s+)(?:is|are)\s+there\s+(?=(?:a|an|any|some)\s)", r"\1check there is ", task,
                  flags=re.I)
    # "Rosemary belongs to the Lamiaceae family, right?": a statement asked back is a statement to check
    task = _TAG_QUESTION.sub("", task)
    # "make Tea Kettle available again": what it is to be, said with "again"
    task = re.sub(r"(?<=\w)\s+(?:again|once more)(?=\s*(?:$|[,.;!?]|\s(?:and|then)\b))", "", task, flags=re.I)
    # "I need a new product called Desk Lamp": a record to add, not one to open
    task = re.sub(r"(^|[,;.]\s*|\b(?:and|then)\s+)(?:i|we)\s+(?:really\s+)?(?:need|want|would like|['’]d like)\s+"
                  r"(?:to have\s+)?(?=(?:a|an)\s+new\b|another\b)", r"\1add ", task, flags=re.I)
    # "On MDN Web Docs change the title to MDN": the record first, then the change of one of its fields
    # (one change only: in "On X change A and add B", B is X's too, and a clause of its own would lose that)
    task = re.sub(r"^(?:on|for)\s+(?P<rec>(?-i:[A-Z0-9\"'“])[^,]+?|[a-z]+\s*#?\d+)\s*,?\s+(?P<v>change|set|update|edit|make)\s+"
                  r"(?:the\s+|its\s+)(?P<f>[a-z][\w ]{0,30}?)\s+to\s+(?=(?:(?!\b(?:and|then)\b)[^,;])+$)",
                  lambda m: f"{m.group('v')} the {m.group('f')} of {m.group('rec')} to ", task.strip(), flags=re.I)
    # "how many customers live in Lyon? there should be 2": the count expected, checked
    task = _HOW_MANY.sub(_count_expected, task)
    task = _COUNT_THEM.sub(_count_expected, task)   # "count the rows, there should be 6"
    # "Omar should have 2 shifts": the count he has, checked
    task = re.sub(r"(?<=\S)\s+(?:should|must|ought to)\s+(?:still\s+)?have\s+(?=(?:exactly\s+|only\s+)?(?:\d+|"
                  + "|".join(_NUMBERS) + r")\s+[a-z])",
                  lambda m: m.group(0) if _in_quotes(task, m.start()) else " has ", task, flags=re.I)
    # "what milestone is ticket 2 in? it should be milestone1": the value expected, checked
    task = _WHAT_VALUE.sub(lambda m: f"{m.group('pre')}check the {m.group('f')} of {m.group('x') or m.group('x2')} is "
                                     f"{m.group('v')}", task)
    # "I need the audio in Spanish", "we want the quality set to High": the setting, set to the value
    task = re.sub(r"^(?:i|we)\s+(?:want|need|would like|'d like|’d like)\s+(?:the\s+|my\s+|our\s+)?"
                  r"(?P<x>(?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*))?)\s+(?:in|set\s+to|to\s+be|switched\s+to)\s+"
                  r"(?P<v>(?-i:[A-Z0-9])[\w.-]*)$",
                  lambda m: f"set the {m.group('x')} to {m.group('v')}", task.strip(), flags=re.I)
    # "go one channel down from Boreal Sports": that channel first, then the key
    task = _STEP_FROM.sub(lambda m: f"{m.group('pre')}tune to {m.group('x')}, then go "
                                    + re.sub(r"^(?:one|a)\s+", "", m.group("move"), flags=re.I)
                                    .replace("the ", "to the ", 1), task)
    # "what's on Boreal Sports right now? it should be Alpine Ski Cup": what it shows, checked
    task = _WHATS_ON.sub(lambda m: f"{m.group('pre')}check that {m.group('x')} shows {m.group('v')}", task)
    task = re.sub(r"\b(to|as|into)\s*:\s+(?=\S)", r"\1 ", task, flags=re.I)   # "set the description to: X"
    # "go to channel 2 and confirm it's Boreal Sports": what "it" is, shown
    task = re.sub(r"\b(check|verify|confirm|make sure|ensure|see)\s+(?:that\s+)?(?:it['’]s|it is|that['’]s|that is|this is)\s+"
                  r"(?:called\s+|named\s+)?(?=(?-i:[A-Z0-9\"'“]))(?!(?:on|off|enabled|disabled)\b)", r"\1 that ", task,
                  flags=re.I)   # ("confirm it is On": a state, not a name)
    told = _TOLD.fullmatch(task.strip())
    if told:      # "I bought the milk, mark it done": the news says what "it" is; the request is the task
        task = re.sub(r"\b(?:it|them)\b", told.group("x"), told.group("rest"), count=1)
    # "Dune is marked as available": the state itself
    task = re.sub(r"\b(is|are|was|were|be|'s)\s+(?:marked|flagged|set|listed|shown|labell?ed)\s+as\s+", r"\1 ", task,
                  flags=re.I)
    # "walk the dog is already completed", "the lock is still off": the state, said with an adverb of time
    task = re.sub(r"\b(is|are|was|were|'s)\s+(?:already|still|currently|now|really|indeed)\s+(?!(?:being|been)\b)",
                  r"\1 ", task, flags=re.I)
    task = _FILE_A.sub(lambda m: m.group("pre") + "create ", task)   # "file a bug", "raise a ticket", "log an issue"
    task = _OPEN_NEW.sub(lambda m: m.group("pre") + "create ", task)
    # a value given to a field of a numbered record: "add the keywords 'x' to ticket 1", "move ticket 4 to
    # milestone 2.0" are edits of that record, not new records
    task = _GIVE_TO.sub(lambda m: f"{m.group('pre')}set the {m.group('f')} of {m.group('rec')} to {m.group('v')}", task)
    task = _MOVE_TO.sub(lambda m: f"{m.group('pre')}set the {m.group('f')} of {m.group('rec')} to {m.group('v')}", task)
    # "move 'Teaching Python' into the Data & AI track": the value said before its field's name
    task = _MOVE_INTO.sub(lambda m: f"{m.group('pre')}set the {m.group('f')} of {m.group('rec')} to {m.group('v')}", task)
    # ("what's on this channel?", "what's on now?": a question about what plays, which no screen opened answers)
    task = re.sub(r"^(?:so\s+)?(?:(?:show|tell)\s+me\s+|let\s+me\s+see\s+)?what(?:'s|’s| is)\s+(?:on|in)\s+"
                  r"(?!(?:this|that|the\s+current|the\s+same)\s+channel\b|now\b|right\s+now\b|at\s+the\s+moment\b|tv\b|air\b)",
                  "open ", task.strip(), flags=re.I)
    setting = re.fullmatch(r"(?P<x>[A-Za-z][\w ]{0,30}?)\s*:\s*(?P<y>[\w ][\w .-]{0,40})", task.strip())
    if setting and not re.search(r"\s", setting.group("y").strip()) and setting.group("x").split()[0].lower() not in VERBS:
        task = f"set {setting.group('x').strip()} to {setting.group('y').strip()}"
    passive = _PASSIVE.match(task.strip())
    if passive:   # "Bob Chen needs to be deleted"
        return f"{_PARTICIPLES[passive.group('p').lower()]} {passive.group('x')}"
    task = _DOCS_OF.sub(r"\g<pre>open the \g<k> for", task)   # "look up the docs for os.path": its page, not a search
    typed = re.fullmatch(r"(?:enter|put)\s+(?P<v>.+?)\s+(?:in|into)\s+(?:the\s+)?(?P<f>[\w ]*?(?:field|box|input|bar))"
                         r"(?P<s>(?:\s*,|\s+and\b|\s+then\b)\s*.*)?",
                         task.strip(), re.I)
    if typed:     # "enter Chen in the search box (and hit Search)": "enter" types here, it does not open
        return f"type {typed.group('v')} into the {typed.group('f')}{typed.group('s') or ''}"
    listed = re.fullmatch(r"(?:put|write|jot down|note down|note)\s+(?P<v>.+?)\s+(?:on|in|onto|into|to)\s+"
                          r"(?P<l>(?:the|my|our|this)\s+(?:[\w-]+\s+)?list)", task.strip(), re.I)
    if listed:    # "put 'water the ferns' on my list"
        return f"add {listed.group('v')} to {listed.group('l')}"
    several = _SEVERAL.fullmatch(task.strip())
    if several:   # "add three todos: wash car, buy stamps, call mom": one add each
        items = [clean(i) for i in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", several.group("items")) if clean(i)]
        if len(items) > 1:
            return ", then ".join(f'{several.group("v")} "{i}"' for i in items)
    named = _APPOSITIVE.fullmatch(task.strip())
    if named:     # "add a new person, Gina, to the group": the name between commas; where it goes is the app
        return f"{named.group('v')} a {named.group('k')} called {named.group('n')}"
    detailed = _APPOSITIVE_MORE.fullmatch(task.strip())
    if detailed:  # "register a new customer, Tom Berg, tom@berg.example, living in Oslo": the name, then its fields
        return f"{detailed.group('v')} a {detailed.group('k')}: {detailed.group('n')}, {detailed.group('more')}"
    spent = _SPENT.fullmatch(task.strip()) or _EXPENSE_OF.fullmatch(task.strip())
    if spent:     # "Could you record that Chloe paid 15.60 for coffee beans?": an expense to add
        amount = spent.group("a") or spent.groupdict().get("a2")
        if amount:
            payer = spent.group("p") or spent.groupdict().get("p2")
            return f"add an expense '{spent.group('w')}' of {amount} paid by {payer}"
    prefer = re.fullmatch(r"(?:i|we)(?:['’]d|\s+would)?\s+(?:prefer|like|want|rather have)\s+(?P<f>(?:the|my)\s+[\w ]+?)\s+"
                          r"(?:in|set to|to be|as|on)\s+(?P<v>[\w -]+?)[\s.!]*(?:,?\s*please)?", task.strip(), re.I)
    if prefer:    # "I'd prefer the audio in French": the setting, to that value
        return f"set {prefer.group('f')} to {prefer.group('v')}"
    replace = re.fullmatch(r"replace\s+(?:the\s+)?(?P<f>[\w ]+?)\s+with\s+(?P<v>.+)", task.strip(), re.I)
    if replace:   # "replace the name with Alicia"
        return f"set the {replace.group('f')} to {replace.group('v')}"
    so_that = _SO_THAT.fullmatch(task.strip())
    if so_that:   # "update the groceries expense so that it costs 75": the change its result says
        field = so_that.group("f") or ("price" if so_that.group("how").lower() == "costs" else "")
        if field:     # ("edit buy milk so it reads buy oat milk" is the text itself, not a field of it)
            return f"set the {field} of {so_that.group('rec')} to {so_that.group('v')}"
    who = _WHO_DID.fullmatch(task.strip())
    if who:       # "change who paid for electricity to Chloe": the person field of that record
        return f"set the {_DONE_BY_FIELD[_WHO_VERBS[who.group('p').lower()]]} of {who.group('rec')} to {who.group('v')}"
    colon = _FIELD_COLON.fullmatch(task.strip())
    if colon:     # "update Emma: year 1816", "change Bob Chen city: Denver"
        field = colon.group("f1") or colon.group("f2")
        return f"set the {field} of {colon.group('rec').strip()} to {colon.group('v').strip()}"
    moved = _MOVED.fullmatch(task.strip())
    if moved:     # "Bob Chen moved to Denver, update his city"
        return f"set the {moved.group('field')} of {moved.group('rec').strip()} to {moved.group('v').strip()}"
    now = re.fullmatch(r"(?P<fact>.+?\s+(?:should|must|needs? to|has to)\s+)now\s+(?P<rest>be\s+.+?)[\s.!]*", task.strip(),
                       re.I)
    if now:       # "Bob Chen's email should now be bob@new.example": the change, asked for as the new state
        fact = now.group("fact") + now.group("rest")
        for pattern in _SHOULD_BE:
            f = pattern.match(fact)
            if f:
                return f"set the {f.group('field').strip()} of {f.group('rec').strip()} to {f.group('v').strip()}"
    m = _MAKE_TRUE.search(task)
    if not m or m.start() == 0:
        return task
    fact = task[:m.start()].strip()
    for pattern in _SHOULD_BE:
        f = pattern.match(fact)
        if f:
            return f"set the {f.group('field').strip()} of {f.group('rec').strip()} to {f.group('v').strip()}"
    f = _CHANGED_ITS.match(fact)
    if f:
        return f"set the {f.group('field').strip()} of {f.group('rec').strip()} to {f.group('v').strip()}"
    f = _SHOULD_READ.match(fact)
    if f:         # "The 'Call the plumber' item should read 'Call the electrician' instead, please fix the wording"
        return f"rename {f.group('rec').strip()} to {f.group('v').strip()}"
    f = _COSTS.match(fact)
    if f:         # "the Rake now costs 17.50, update it"
        return f"set the price of {f.group('rec').strip()} to {f.group('v').strip()}"
    f = _DONE_BY.match(fact)
    if f:         # "the rent was actually paid by Alice, fix it"
        return f"set the {_DONE_BY_FIELD[f.group('p').lower()]} of {f.group('rec').strip()} to {f.group('v').strip()}"
    return task


_HOW_MANY = re.compile(r"\b(?:how\s+many|which|what)\s+(?P<x>(?<=many\s)[^?.!;]+?|(?!(?:is|was|does|has)\b)(?-i:[a-z]{2,}s)\s+[^?.!;]+?)\s*\?\s*(?:(?:(?:there|it|that|the\s+answer)\s+)?(?:should|must|"
                       r"ought to|has to|needs to)\s+be\s+|(?:expect(?:ed|ing)?|answer|i\s+expect)\s*:?\s*|"
                       r"(?=\d+\s*[.!]?\s*$))(?:exactly\s+)?(?P<n>\d+|" + "|".join(_NUMBERS) + r")\b(?![.,]\d)[\s.!]*",
                       re.I)


_COUNT_THEM = re.compile(r"\bcount\s+(?:up\s+)?(?:the\s+|all\s+(?:the\s+)?)?(?P<x>[a-z][\w -]*?)\s*(?:[,;:.]\s*|\s+and\s+|\s+-+\s+)"
                         r"(?:(?:there|it|that|the\s+total)\s+)?(?:should|must|ought to|has to|needs to)\s+be\s+(?:exactly\s+)?"
                         r"(?P<n>\d+|" + "|".join(_NUMBERS) + r")\b[\s.!]*", re.I)


_WHAT_VALUE = re.compile(
    r"(?P<pre>^|[,;.]\s*|\b(?:and|then)\s+)(?:so\s+)?(?:what|which)(?:(?:['’]s|\s+is)\s+the)?\s+(?P<f>[a-z][\w ]{0,30}?)\s+"
    r"(?:(?:is|does|has|did)\s+(?P<x>(?:the\s+)?[\w#\"'“”-]+(?:\s+[\w#\"'“”-]+){0,5}?)(?:\s+(?:in|on|at|from|by|to|under|have|has|use|got|set to))?|"
    r"(?:of|for)\s+(?P<x2>.+?))\s*\?\s*(?:(?:it|that|the answer)\s+)?(?:should|must|ought to)\s+(?:be|say|read)\s+"
    r"(?P<v>[^!?;]+?)[.!]?(?=$|[;]|\s+(?:and|then)\b)", re.I)


_STEP_FROM = re.compile(
    r"(?P<pre>^|[,;.]\s*|\b(?:and|then)\s+)(?:(?:go|move|switch|zap|flip|change|step)\s+)?(?:to\s+)?"
    r"(?P<move>(?:one\s+|a\s+)?channel\s+(?:up|down)|(?:the\s+)?(?:next|previous|prev|last)\s+channel)\s+"
    r"from\s+(?P<x>(?-i:[A-Z0-9])[^,;]*?|channel\s*\d{1,4})(?=$|\s*[,;.]|\s+(?:and|then)\b)", re.I)
_WHATS_ON = re.compile(
    r"(?P<pre>^|[,;.]\s*|\b(?:and|then)\s+)(?:so\s+)?what(?:['’]s|\s+is)\s+(?:on|playing\s+on|showing\s+on|airing\s+on|"
    r"on\s+air\s+on)\s+(?P<x>(?:the\s+)?[\w#\"'“”&-]+(?:\s+[\w#\"'“”&-]+){0,5}?)(?:\s+(?:right\s+now|now|currently|"
    r"at\s+the\s+moment|tonight|today))?\s*\?\s*(?:(?:it|that|the answer)\s+)?(?:should|must|ought to)\s+(?:be|say|read)\s+"
    r"(?P<v>[^!?;]+?)[.!]?(?=$|[;]|\s+(?:and|then)\b)", re.I)


def _in_quotes(text: str, at: int) -> bool:
    """*at* is inside a quoted text of *text* ("Kids should have 2 snacks" is a todo's name, not a count)."""
    before = text[:at]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


def _count_expected(m: re.Match[str]) -> str:
    owned = re.fullmatch(r"(?P<k>[a-z][\w -]*?)\s+(?:do|does|did)\s+(?P<who>(?-i:[A-Z0-9])[\w .'’-]*?)\s+"
                         r"(?:have|own|hold|get|work)", m.group("x").strip(), re.I)
    if owned:   # "how many shifts does Omar have? there should be 2": Omar's, not all of them
        return f"check that {owned.group('who')} has {m.group('n')} {owned.group('k')}"
    things = _counted(m.group("x"))
    if not things:
        return m.group(0)
    if re.search(r"\s(?:are|is)\s", things):   # "how many tickets are open?" → "check that 4 tickets are open"
        return f"check that {m.group('n')} {things}"
    return f"check there are {m.group('n')} {things}"


def _counted(things: str) -> str:
    """"customers are there" → "customers"; "rows does the table have" → "rows": the things a count counts."""
    things = re.sub(r"(?:^|\s+)(?:are|is)\s+(?:there|shown|listed|displayed)$|\s+(?:exist|are\s+in\s+the\s+list)$|"
                    r"\s+(?:do|does|did)\s+(?:we|i|you|it|they|(?:the\s+)?[\w ]+?)\s+(?:have|show|list|hold|contain)$", "", things.strip(),
                    flags=re.I)
    things = re.sub(r"^(\w[\w-]*)\s+(?:belongs?|belonged)\s+to\s+", r"\1 in ", things, flags=re.I)
    return re.sub(r"^(\w[\w-]*)\s+(?:are|is|live|lives|come|comes|are\s+based|are\s+located)\s+"
                  r"(?=(?:in|from|at|on|by|with)\s)", r"\1 ", things, flags=re.I)


_COSTS = re.compile(r"^(?P<rec>.+?)\s+(?:now\s+|actually\s+|really\s+)?(?:costs|is priced at|sells for|should cost)\s+"
                    r"(?P<v>[$€£]?\d[\d,]*(?:\.\d+)?)\s*(?:now)?$", re.I)
_DONE_BY_FIELD = {"paid": "paid by", "written": "author", "owned": "owner", "assigned": "owner", "reported": "reporter"}
_DONE_BY = re.compile(r"^(?P<rec>.+?)\s+(?:was|is)\s+(?:actually\s+|really\s+|in fact\s+)?(?P<p>paid|written|owned|"
                      r"assigned|reported)\s+(?:by|to)\s+(?P<v>.+)$", re.I)


_SO_THAT = re.compile(r"(?:please\s+)?(?:update|change|edit|modify|fix|adjust|correct)\s+(?P<rec>.+?)\s+so\s+(?:that\s+)?"
                      r"(?:it|its\s+(?P<f>[a-z][\w ]{0,20}?))\s+(?P<how>costs|is|reads|says|becomes|shows)\s+"
                      r"(?P<v>[^,;]+?)[\s.!]*", re.I)
_WHO_VERBS = {"paid": "paid", "pays": "paid", "wrote": "written", "writes": "written", "owns": "owned",
              "reported": "reported", "filed": "reported", "is assigned": "assigned"}
_WHO_DID = re.compile(r"(?:please\s+)?(?:change|set|update|switch|fix|correct|make)\s+(?:the\s+person\s+)?who\s+"
                      r"(?P<p>paid|pays|wrote|writes|owns|reported|filed|is assigned)\s+(?:for\s+|to\s+)?(?P<rec>.+?)\s+"
                      r"(?:to|into)\s+(?P<v>[^,;]+?)[\s.!]*", re.I)


# "the gpu pool is paused right now": how things stand before the request, said to name what "it" is next
_STANDS_NOW = re.compile(r"^(?P<x>\S.*?)\s+(?:is|are|'s|’s)\s+(?:(?:currently|still|now)\s+)?(?:not\s+)?[\w-]+"
                         r"(?:\s+(?:right\s+now|currently|at\s+the\s+moment|for\s+now|at\s+present))?$", re.I)
_IT = re.compile(r"\b(?:it|them)\b", re.I)
# where a task's first sentence ends: a stop, a dash, a comma, an emoticon ("… is back :( reopen it")
_SENTENCE_END = re.compile(r"\s+[-–—]\s+|\s*[.;!]\s+|,\s+|\s+[:;]-?[()]+\s+")


# "…? verify pls", "…, can you confirm?", "… - confirm that", "…? Just check, dont change anything": what was said
# before is the check
_CHECK_TAIL = re.compile(r"\s*(?:[?.!,;:]|\s[-–—])\s*(?:(?:can|could|would)\s+(?:you|u)\s+|(?:please|pls|plz)\s+|just\s+)?"
                         r"(?:check|verify|confirm|double[\s-]?check)(?:\s+(?:that|it|this|pls|please|plz|for\s+me))*"
                         r"(?:\s+(?:in|on|under)\s+(?:the\s+)?(?P<place>[\w -]{2,30}?))?"   # "… check it in settings"
                         r"(?:\s*[,.]?\s*(?:but\s+)?(?:don'?t|do\s+not|dont)\s+change\s+anything)?\s*[?.!]*\s*$", re.I)
# "… at the moment", "… right now", "… in total" closing a check: how things stand, said twice
_CHECK_LEAD = re.compile(r"^(?:(?:please|pls)\s+)?(?:check|verify|confirm|make\s+sure|ensure)\b", re.I)
_NOW_TAIL = re.compile(r"\s+(?:at\s+the\s+moment|right\s+now|at\s+present|currently|in\s+total|overall)(?=\s*[?.!]*\s*$)", re.I)


def _asked_to_check(task: str) -> str:
    """"is the Schwalbe tyres watch in both groups? please check" → "check is the Schwalbe tyres watch in both
    groups"; a check closing on "right now" or "in total" without them."""
    m = _CHECK_TAIL.search(task)
    head = task[:m.start()].strip() if m and m.start() > 0 else ""
    # only a question, or what there is, is the check asked for: "delete buy milk, confirm" and "X should be
    # removed - confirm that" ask for something done (left to be read as said)
    if head and (re.match(r"^(?:is|are|was|were|does|do|did|has|have)\s|^there\s+(?:is|are|should|must)\b", head, re.I)
                 or _CHECK_LEAD.match(head) or re.search(r"\s(?:should|must|ought\s+to)\s+(?:(?:already|still|now|also|really)\s+)?(?:have|show|list|be)\b",
                                                     head, re.I)) \
            and not re.search(r"\b(?:removed|deleted|gone|added|created|renamed|moved|changed|updated)\b", head, re.I):
        task = head if _CHECK_LEAD.match(head) or re.match(r"^(?:is|are|was|were|does|do|did|has|have)\s", head, re.I) \
            else f"check {head}"
        if m and m.group("place"):
            task = f"in the {m.group('place')}, {task}"
    elif head and re.search(r"\b(?:should|must|ought\s+to)\b", re.split(r"[.!?;]\s+|,\s+", head)[-1], re.I) \
            and not re.search(r"\b(?:removed|deleted|gone|added|created|renamed|moved|changed|updated)\b", head, re.I):
        task = head   # "…, then press Back. You should land on X - check that": the last sentence is that check
    if _CHECK_LEAD.match(task):
        task = _NOW_TAIL.sub("", task)
    return task


# "someone left the audio on French": what was changed before, which "it" of the request is
_LEFT_AS = re.compile(r"^(?:someone|somebody|a\s+colleague|(?:my|our)\s+(?:colleague|teammate)|the\s+(?:last|previous)\s+"
                      r"(?:person|tester|user))\s+(?:\w+\s+)?(?:left|set|changed|turned|switched|put|moved)\s+"
                      r"(?P<x>(?:the|my|our)\s+[\w -]+?)\s+(?:on|to|at|off|in)\b", re.I)


def context_first(task: str) -> str:
    """The task first says how things stand, then asks for a change to "it", "her", "that issue": the request
    alone, about the thing the first sentence is about.

    "The gpu pool is paused right now. Could you turn it back on?", "Emma moved in this week. Add her as a
    participant", "Sam Lee cancelled his membership, remove him from the members table". The first sentence is
    only dropped where it names the thing and carries no value of its own (an address, a number, quoted words),
    where it asks for and checks nothing, and where the request refers back to that thing."""
    cut = _SENTENCE_END.search(task)   # only the task's first sentence says how things stand
    if cut is None:
        return task
    here, nxt = task[:cut.start()].strip(), task[cut.end():].strip()
    left = _LEFT_AS.match(strip_filler(here))
    if left and _IT.search(nxt) and read_clause(strip_filler(nxt)).act not in (Act.NONE, Act.CHECK):
        return _IT.sub(lambda _: left.group("x"), nxt, count=1)   # "someone left the audio on French. Switch it back"
    m = _STANDS_NOW.match(strip_filler(here)) or _STANDS_NOW.match(here)
    if m and re.search(r"\b(?:currently|right\s+now|at\s+the\s+moment|at\s+present)\b", here, re.I) \
            and _IT.search(nxt) and read_clause(strip_filler(nxt)).act not in (Act.NONE, Act.CHECK):
        return _IT.sub(lambda _: m.group("x"), nxt, count=1)
    return task


def about_first(task: str) -> str:
    """See :func:`context_first`: "Emma moved in this week. Add her as a participant" → "Add Emma as a
    participant" (the task as the other rephrasings leave it)."""
    cut = _SENTENCE_END.search(task)
    return (_about_first(task[:cut.start()].strip(), task[cut.end():].strip()) or task) if cut else task


# what a first sentence is about: its words up to the first that tells what happened ("Sam Lee cancelled …",
# "The Leeds roadworks watch only shows …", "The accented characters search fix passed QA")
_ABOUT = re.compile(r"^(?P<x>(?:the\s+|our\s+|my\s+)?[\w'’&.-]+(?:\s+#?[\w'’&.-]+){0,6}?)\s+"
                    r"(?=(?:is|are|was|were|has|have|had|isn['’]t|aren['’]t|wasn['’]t|doesn['’]t|hasn['’]t|keeps?|needs?|only|"
                    r"just|also|now|already|still|finally|"
                    r"came|went|got|left|broke|wants?|owns?|paid|[a-z]+ed)\b)", re.I)
_NOBODY_OWNS = re.compile(r"^(?:nobody|no\s*one)\s+\w+\s+(?P<x>(?:the\s+)?\S.*?)(?:\s+(?:yet|anymore|any\s+more|right\s+now|"
                          r"at\s+the\s+moment))?$", re.I)
_REFERS = re.compile(r"\b(?P<p>it|its|him|his|her|them|their|(?:that|this)\s+(?:one|issue|bug|ticket|bill|expense|watch|"
                     r"bookmark|book|record|entry|item|task|page|member|participant|row|project|study|document|file|tag|"
                     r"note|folder|list|user|customer|product|order|account|job|report))\b(?P<after>\s+\w+)?", re.I)
# "We're dropping the library survey study": what the tester is doing something to
_DOING_TO = re.compile(r"^(?:we|i)(?:['’]re|\s+are|['’]m|\s+am)\s+(?:\w+ing)\s+(?P<x>(?:the|our|my)\s+[\w'’&. -]+?)"
                       r"(?:\s+(?:today|now|anymore|any\s+more|this\s+\w+))?$", re.I)
_OBJECT_AFTER = frozenset("as to from in on at with and off up out back again into for by over".split())
_PEOPLE = frozenset("i we you they he she it nobody someone somebody everyone everybody there this that let".split())


def _about_first(here: str, nxt: str) -> str:
    """*nxt*, with its first reference to what *here* is about replaced by its name; "" where that does not hold."""
    said = re.sub(r"\s*\([^)]*\)", "", here).strip(" :(")   # "Issue 3 (CSV export) also has …"
    # a value of its own: an address, quoted words, a number that is no record's ("Issue 3" is one, "costs 13" not)
    values = [d for d in re.finditer(r"\d+(?![A-Za-z])", said)   # ("3D printing", "4K": words, not values)
              if not re.search(r"(?:\b[A-Z][\w-]*|#)\s*$", said[:d.start()])]
    if not said or values or re.search(r"@|://|[\"“‘]|(?<!\w)'", said) \
            or re.search(r"\b(?:should|must|check|verify|confirm|make\s+sure|ensure)\b", said, re.I) \
            or read_clause(strip_filler(said)).act not in (Act.NONE, Act.CHECK):
        return ""
    if re.match(r"^\S*(?:@|://|\d)", nxt):
        return ""   # "…, omar.f@example.net - update his record": the first sentence's own value, cut from it
    nxt = re.sub(r"^(?:so|and|but)\s+(?=\w)", "", nxt, flags=re.I)   # "…, so mark it as available"
    first = read_clause(strip_filler(nxt))
    if first.act is Act.CHECK or re.match(r"^(?:he|she|they|it|we|i|you|is|are|was|does|did|has|have)\b",
                                          strip_filler(nxt), re.I):
        return ""
    nobody = _NOBODY_OWNS.match(said) or _DOING_TO.match(said)
    m = nobody or _ABOUT.match(said)
    if m is None or re.sub(r"['’](?:re|m|s|ve|d|ll)$", "", m.group("x").split()[0].lower()) in _PEOPLE:
        return ""   # "We're finished with the printer": said by the tester of the tester
    name = re.sub(r"^(?:our|my)\s+", "the ", m.group("x").strip())
    rest = said[m.end("x"):] if not nobody else ""
    # "Alice paid for the Cinema tickets, delete them": another thing named after the verb could be "it"
    # (a place named after a preposition, "landed in Billing by mistake", is where it is, never another "it")
    unplaced = re.sub(r"\b(?:in|into|on|at|from|under|to)\s+(?:the\s+)?(?-i:[A-Z][\w'’-]*)(?:\s+(?-i:[A-Z][\w'’-]*))*", "",
                      rest)
    if re.search(r"(?<![\w'’])(?-i:[A-Z][a-z])", unplaced) or re.match(
            r"^\s*(?:(?:only|just|also|now|already|still|finally|\w+ly)\s+)*\w+\s+(?:back\s+|up\s+|out\s+)?"
            r"(?:the|a|an|this|that|these|those|our|my|your|their)\s+\w", rest, re.I):
        return ""
    ref = _REFERS.search(nxt)
    if ref is None:
        # "Dan wants his full name shown, rename the participant Dan to Daniel": the request names it itself
        return nxt if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", nxt, re.I) and name[:1].isupper() else ""
    word = ref.group("p").lower()
    after = (ref.group("after") or "").strip().lower()
    possessive = word in ("its", "his", "their") or word == "her" and after and after not in _OBJECT_AFTER
    said_name = f"{name}'s" if possessive else name
    return nxt[:ref.start("p")] + said_name + nxt[ref.end("p"):]
