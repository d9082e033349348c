"""Turns of phrase testers use, restated in the planner's words before a task is split into clauses.

Each :class:`Rephrase` is one rule: a pattern, what it becomes, and the tester's wording it stands for. They are
tried in order, each on what the ones before left (:func:`rephrase`). A rule that needs to know the verbs the planner
reads is given them, so this module needs nothing of :mod:`server.planners.language`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from server.planners.matching import NUMBER_WORDS, ORDINALS

Replace = Callable[[re.Match[str], Collection[str]], str]


@dataclass(frozen=True)
class Rephrase:
    pattern: re.Pattern[str]
    replace: Replace
    strip: bool = False        # the rule reads the task with its ends trimmed
    keep_if_empty: bool = False   # a rule that would leave nothing leaves the task as it was


def _to(template: str) -> Replace:
    return lambda m, _verbs: m.expand(template)


def _if_verb(template: str, group: str) -> Replace:
    """*template* where the word in *group* is a verb the planner reads, else the words unchanged."""
    return lambda m, verbs: m.expand(template) if m.group(group).lower() in verbs else m.group(0)


_PAST = {"wrote": "written", "owns": "owned", "composed": "composed"}
_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"


# what a tester did before what they check, said as "after switching …": the verb it stands for
GERUND_BASE = {"switching": "switch", "changing": "change", "going": "go", "tuning": "tune", "pressing": "press",
                "opening": "open", "selecting": "select", "clicking": "click", "playing": "play", "turning": "turn",
                "setting": "set", "zapping": "zap", "moving": "move", "navigating": "navigate", "starting": "start",
                "pausing": "pause", "entering": "enter", "typing": "type", "searching": "search"}
_GERUNDS = "|".join(GERUND_BASE)


# "it" as what a request acts on ("tick it"), not the subject of what follows ("it should wrap round")
_OBJECT_PRONOUN = r"\b(?:it|them|this|that)\b(?!\s+(?:should|will|must|would|is|was|'ll|’ll|has|does)\b)"


# the remote's keys as a tester names them, before a count ("down x2", "CH+ 3x")
_KEY_NAMES = r"\b(?:up|down|left|right|ok|back|enter|select|next|previous|prev|ch\s*[+-]|ch\s+up|ch\s+down)"


def _base(gerund: str) -> str:
    return GERUND_BASE[gerund.lower()]


# what a tester uses to get somewhere, said after the request ("using the contents on the left", "with the number
# keys", "from the sidebar")
_MEANS = (r"(?:(?:side\s*bar|sidebar|table\s+of\s+contents|contents|toc|menu|main\s+menu|nav(?:igation)?(?:\s+(?:bar|menu|links?))?|"
          r"navbar|breadcrumbs?|number\s+keys|digit\s+keys|numeric\s+keys|keypad|remote(?:\s+control)?|arrow\s+keys|d-?pad|"
          r"keyboard|mouse|links?\s+(?:on|in)\s+the\s+(?:page|sidebar)|search\s+results|results(?:\s+list)?|"
          r"on-?screen\s+keyboard)|(?:remote['’]s|keyboard['’]s)\s+[\w ]{1,20}?keys)")


def _unless_taken_from(m: re.Match[str], _verbs: Collection[str]) -> str:
    """Nothing for the means said, unless the clause takes something out of it ("remove About from the main
    menu", "delete X from the results": where it is taken from is what the request is about)."""
    clause = re.split(r"[,;.!?]|\b(?:and|then)\b", m.string[:m.start()])[-1]
    if re.match(r"\s*,?\s*from\b", m.group(0)) and re.search(
            r"\b(?:remove|delete|drop|take|clear|pull|unpin|hide|exclude|detach|unlink|erase|bin|move)\b", clause, re.I):
        return m.group(0)
    return ""


def _rule(pattern: str, replace: Replace | str, *, strip: bool = False, keep_if_empty: bool = False) -> Rephrase:
    return Rephrase(re.compile(pattern, re.I), _to(replace) if isinstance(replace, str) else replace, strip,
                    keep_if_empty)


RULES: tuple[Rephrase, ...] = (
    # "sanity check - Chef Knife should be listed at 42.00", "quick check: …": a check
    _rule(r"^(?:a\s+|one\s+)?(?:quick|sanity|final|small|last|little)\s+check\s*(?:[-–—:,]\s*|\s+(?=\S))", "check ",
          strip=True),
    # "is Future of Robots what's on now?": what is on is shown
    _rule(r"(^|[,;?]\s*|\s[-–—]{1,2}\s+|\b(?:and|then)\s+)is\s+(?P<x>[^,;?]+?)\s+(?:what['’]?s|what\s+is)\s+(?:on|showing|playing)"
          r"(?P<t>\s+(?:now|right\s+now|at\s+the\s+moment))?(?=\s*(?:$|[?.!,;]))",
          lambda m, _v: f"{', ' if m.group(1).strip() in ('-', '–', '—', '?') else m.group(1)}check {m.group('x')} is on now"),
    # "go to channel 8 - is the banner showing Gadget Lab?", "tune to 2 to see if Boreal Sports shows", "switch to
    # channel 4 - Kids Planet should be on": a check after the request
    _rule(r"(?<!\bwant)(?<!\blike)(?<!\bneed)(?<!\bwish)(?<!\bwanna)(?<!\bhave)\s+(?:to|and)\s+(?:see|check|verify|confirm|"
          r"make\s+sure)\s+(?:if|whether|that)\s+", ", check that "),
    _rule(r"\s+[-–—]{1,2}\s+(?=(?:is|are|does|do|did|has|have|was|were)\s[^,;]*\?)", ", check "),
    _rule(r"\s+[-–—]{1,2}\s+(?=(?-i:[A-Z])[^,;?]*?\s(?:should|must)\s)", ", check that "),
    # a TV tester's short forms: "ch 7", "ch7" is channel 7; "subs" are the subtitles
    _rule(r"\bch\.?\s*(?=\d)", "channel "),
    # "press CH -", "hit 'CH+'": the channel keys, whose sign is all that tells them apart
    _rule(r"[\"'“]?\bch\s*\+(?![\w+])[\"'”]?", "channel up"),
    _rule(r"[\"'“]?\bch\s*[-–](?![\w-])[\"'”]?", "channel down"),
    _rule(r"\b(?P<v>turn|switch|enable|disable|toggle|activate|deactivate|show|hide|put)(?P<m>\s+(?:on\s+|off\s+)?"
          r"(?:the\s+)?)subs\b", r"\g<v>\g<m>subtitles"),
    _rule(r"\bsubs(?=\s+(?:on|off|are|is|should|showing|shown)\b)", "subtitles"),
    # "channel down x2", "press down 3x": a number of times
    _rule(rf"(?P<k>{_KEY_NAMES})\s+[x×]\s?(?P<n>\d{{1,2}})\b", r"\g<k> \g<n> times"),
    _rule(rf"(?P<k>{_KEY_NAMES})\s+(?P<n>\d{{1,2}})\s?x(?=\s*(?:$|[,;.]|\s(?:and|then|from)\b))", r"\g<k> \g<n> times"),
    # "press CH+ once": once is the one press
    _rule(r"\b(?P<v>press|hit|tap|push)\s+(?P<k>[^,;]+?)\s+once(?=\s*(?:$|[,;.]|\s(?:and|then)\b))", r"\g<v> \g<k>"),
    # "channel down from here": here is where it is done
    _rule(r"\s+from\s+here(?=\s*(?:$|[,;.]|\s(?:and|then)\b))", ""),
    # "we're on channel 8 - press CH+": how things stand, said by the tester before the request
    _rule(r"^(?:we['’]?re|we\s+are|i['’]?m|i\s+am)\s+(?:currently\s+|now\s+|already\s+)?(?:on|in|at)\s+(?P<x>[^,;.]+?)"
          r"(?:\s*[,;.]\s*|\s+[-–—]\s+)(?P<rest>[a-z].*)$",
          lambda m, _v: re.sub(_OBJECT_PRONOUN, m.group("x").strip(), m.group("rest"), count=1, flags=re.I),
          strip=True, keep_if_empty=True),
    # ", should end up on Tech Today", "it should wrap round to channel 1": where it must be after that
    _rule(r"(?:\s*[,;]\s*|\s*[.!?]\s+|\s+(?:and|then)\s+|\s+[-–—]\s+)(?:it\s+|we\s+|you\s+|that\s+|this\s+|the\s+tv\s+)?"
          r"(?:should|must|ought\s+to|will)\s+(?:now\s+)?(?:end\s+up|land|wrap(?:\s+a?round)?|come\s+back|go\s+back|"
          r"jump|be\s+back|arrive)\s+(?:on|to|at|in)\s+(?P<x>[^,;.]+?)(?=\s*(?:$|[,;.!?]|[-–—]\s))",
          lambda m, _v: f", check we are on {m.group('x')}"),
    # "(pin 0000)", ", the PIN is 0000", "using pin 0000": the PIN a setting's change asks for, said one way
    _rule(r"\s*\(\s*(?:the\s+)?(?:pin|passcode|pin\s+code)\s*(?:is|:|=)?\s*(?:still\s+)?(?:the\s+default\s+)?(?:one\s+)?"
          r"(?P<p>\d{3,8})\s*\)", r" with PIN \g<p>"),
    _rule(r"\s*(?:[,;.]|\s[-–—])\s*(?:the\s+|its\s+|it's\s+|use\s+(?:the\s+)?)?(?:pin|passcode|pin\s+code)\s*(?:is\s+|:\s*|=\s*)?"
          r"(?P<p>\d{3,8})\b", r" with PIN \g<p>"),
    _rule(r"\s+(?:using|with|via)\s+(?:the\s+)?(?:(?:default|usual|standard|right|correct|current|old|same)\s+)?"
          r"(?:pin|passcode|pin\s+code)\s*(?:of\s+|:\s*)?(?P<p>\d{3,8})\b",
          r" with PIN \g<p>"),
    # "Neon Tides is listed under the Comedy genre": the item's genre
    _rule(r"(?:^|(?<=\bthat\s)|(?<=[,;]\s))(?!(?:check|verify|confirm|make|ensure|see)\b)"
          r"(?P<x>(?-i:[A-Z0-9\"'“])[^,;]*?)\s+(?:is|are)\s+(?:listed|filed|categori[sz]ed|classed|shelved|shown)\s+"
          r"(?:under|in|as)\s+(?:the\s+|a\s+|an\s+)?(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?P<f>genre|category|section)\b",
          r"the \g<f> of \g<x> is \g<v>"),
    # "In the guide Kids Planet has Star Cadets": the place, then what is said there
    _rule(r"^(?P<p>(?:in|on)\s+the\s+(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\s+(?=(?-i:[A-Z]))",
          lambda m, verbs: m.group(0) if m.group("p").split()[-1].lower() in verbs else f"{m.group('p')}, ", strip=True),
    # "filter the products down to category = Garden and In stock = Yes": a filter each, by a column and its value
    _rule(r"\bfilter\s+(?P<n>(?:the\s+)?[a-z]+\s+)?down\s+to\s+", r"filter \g<n>by "),
    _rule(r"^(?P<head>(?:please\s+)?filter\b[^,;]*?\s*=\s*[^,;]+?)\s+and\s+(?=[\w ]{1,30}?\s*=\s*\S)",
          r"\g<head>, filter by ", strip=True),
    _rule(r"^(?P<head>(?:please\s+)?filter\b[^,;]*?\w)\s*=\s*(?=\w)", r"\g<head> ", strip=True),
    _rule(r"(?P<head>,\s+filter\s+by\s+[^,;=]*?\w)\s*=\s*(?=\w)", r"\g<head> "),
    # "the subtitles ticket (#2)": the record numbered so
    _rule(r"\b(?:the\s+(?:[\w'-]+\s+){0,3}?)?(?P<k>ticket|issue|bug|order|task|item|story|case|request)\s*\(\s*#?(?P<n>\d+)\s*\)",
          r"\g<k> #\g<n>"),
    # "Chef Knife should be listed at 42.00 under Kitchen": its row shows the price, and the group
    _rule(r"(?:^|(?<=\bthat\s)|(?<=\bcheck\s)|(?<=\bverify\s)|(?<=\bconfirm\s)|(?<=\bensure\s)|(?<=[,;]\s))"
          r"(?!(?:check|verify|confirm|make|ensure|see)\b)(?P<x>[^,;]+?)\s+(?:should\s+be|must\s+be|is|are)\s+listed\s+(?:at|for)\s+(?P<v>[$€£]?\d[\d.,]*)"
          r"(?:\s+(?:under|in)\s+(?:the\s+)?(?P<w>[^,;.]+?))?(?=\s*(?:$|[,;!?]|\.(?:\s|$)))",
          lambda m, _v: f"{m.group('x')} shows {m.group('v')}" +
          (f", check {m.group('x')} shows {m.group('w')}" if m.group("w") else "")),
    # "Kids Planet should have Star Cadets on tonight": what its row shows
    _rule(r"\s+(?:should|must|ought\s+to)\s+have\s+(?P<y>[^,;.]+?)\s+on(?:\s+(?:tonight|now|today|right\s+now|later|"
          r"this\s+evening))?(?=\s*(?:$|[,;.!?]))", r" has \g<y>"),
    # "set audio to French + subtitles on": two requests
    _rule(r"(?<!\bctrl)(?<!\bshift)(?<!\balt)(?<!\bcmd)(?<!\bmeta)(?<!\bcontrol)(?<!\bch)(?<!\bvol)\s+\+\s+"
          r"(?=(?:[a-z]+\s+){0,2}(?:on|off)\b|(?:turn|set|switch|enable|disable|play|open|start)\b)",
          " and "),
    # "set audio to French and subtitles on": the second setting, switched
    _rule(r"^(?P<head>(?:please\s+)?(?:set|turn|switch|put|change|make|enable|disable)\b[^,;]*?)\s+and\s+(?:the\s+)?"
          r"(?!(?:then|turn|switch|set|put|it|them|that|this|also|please|keep|leave)\b)"
          r"(?P<y>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?P<s>on|off)(?=\s*(?:$|[,;.]|\s(?:and|then)\b))",
          lambda m, _v: m.group(0) if set(m.group("y").lower().split()) & {"is", "are", "was", "were", "be", "stay", "stays",
                                                                          "remain", "remains", "still", "now", "not"}
          else f"{m.group('head')} and turn {m.group('y')} {m.group('s')}", strip=True),
    # "confirm it reads Off": the state of what was just set
    _rule(r"\b(?P<p>it|they|this|that)\s+(?:now\s+)?(?:reads|shows|says|displays|read|show|say|display)\s+"
          r"(?P<v>on|off|enabled|disabled)\b", r"\g<p> is \g<v>"),
    # "Walk the dog should already be checked off": how it must be now
    _rule(r"\b(?P<m>should|must)\s+(?:already|by\s+now)\s+be\b", r"\g<m> be"),
    # "switch the list to the Completed filter": the view it switches to
    _rule(r"\b(?P<v>switch|change|flip|toggle|set)\s+(?:the\s+|this\s+)?(?:list|view|table|page|screen|display)\s+"
          r"(?:over\s+)?to\s+", r"\g<v> to "),
    # "new customer pls: Ines Duarte": the filler before a colon
    _rule(r"\s+(?:pls|plz|please)\s*:", ":"),
    # "open up Hugo Rossi's record": open
    _rule(r"\bopen\s+up\s+(?!an?\s)", "open "),
    # "Is David Okafor's account marked as not active? It's supposed to be": the answer makes it a check
    _rule(r"^is\s+(?P<x>[^?]+?)\s+(?:marked|set|flagged|shown|listed)\s+as\s+(?P<y>[^?]+?)\s*\?\s*"
          r"(?:it|that|he|she|they)(?:['’]s|\s+is|\s+are|['’]re|\s+should\s+be|\s+must\s+be)\s*(?:(?:supposed|meant|expected)"
          r"\s+to\s+be)?\s*[.!]?$", r"check \g<x> is \g<y>", strip=True),
    # "David Okafor's account", "Hugo Rossi's customer record": the record of that name
    _rule(r"(?P<pre>\b(?:open|show|view|check|about|up|find|that|whether|is|see)\s+)"
          r"(?P<x>(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*){0,3})['’]s\s+(?:(?P<k>(?-i:[a-z]+))\s+)?(?:account|record|"
          r"profile|entry|page|details|row)\b",
          lambda m, _v: m.group("pre") + (f"the {m.group('k')} {m.group('x')}" if m.group("k") else m.group("x"))),
    # "filter the bookmarks so only the ones tagged recipes show": what is to show is the filter
    _rule(r"\bfilter\s+(?P<n>(?:the\s+)?[a-z]+)\s+so\s+(?:that\s+)?only\s+(?:the\s+)?(?:ones\s+|those\s+)?(?P<c>[^,;.]+?)\s+"
          r"(?:show|shows|are\s+shown|appear|remain|are\s+left|are\s+listed)\b", r"show only \g<n> \g<c>"),
    # "check subtitles on": its state, said without its verb
    _rule(r"\b(?P<c>check|verify|confirm|ensure|make\s+sure)\s+(?:that\s+)?(?P<x>(?:the\s+)?[a-z][\w -]{0,30}?)\s+"
          r"(?P<s>on|off|enabled|disabled)(?=\s*(?:$|[,;.!?]|\s(?:and|then)\b))",
          lambda m, _v: m.group(0) if re.search(r"\b(?:is|are|was|were|be|been|turned|switched|set|should|must|has|have|"
                                                r"checked|ticked|marked|crossed|signed|logged|cut|cleared|reads?|says?|"
                                                r"shows?|displays?)\b", m.group("x"), re.I)
          else f"{m.group('c')} {m.group('x')} is {m.group('s')}"),
    # "get rid off the Pay rent todo": a slip of the keyboard
    _rule(r"\bget\s+rid\s+off\b", "get rid of"),
    # "lock down the parental controls": turned on
    _rule(r"\block\s+down\s+", "turn on "),
    # "turn the subtitles off if they are on": a setting is set to its state whatever it was
    _rule(r"(?P<v>\b(?:turn|switch|set|put)\b[^,;]*?\b(?:on|off)\b[^,;]*?)\s*,?\s+(?:if|when|in\s+case)\s+(?:it|they|that|this)"
          r"(?:\s+(?:is|are)|['’]s|['’]re)\s+(?:still\s+|currently\s+)?(?:on|off|enabled|disabled|active|showing|shown)\b",
          r"\g<v>"),
    # "I'd like to see what's on the guide", "show me what's on the EPG": the guide, opened
    _rule(r"\b(?:(?:i['’]?d\s+like|i\s+want|i\s+wanna|let\s+me)\s+(?:to\s+)?see|show\s+me|check)\s+what['’]?s\s+(?:on|in)\s+"
          r"(?P<x>(?:the\s+)?(?:tv\s+)?(?:guide|epg|programme\s+guide|program\s+guide|schedule|listings))(?=\s*(?:$|[,;.!?]))",
          r"open \g<x>"),
    # "verify channel 5 shows Melody TV in the banner": what it shows, wherever the screen says it
    _rule(r"(?P<x>\bshows\s+[^,;]+?)\s+(?:in|on)\s+the\s+(?:channel\s+)?(?:banner|info\s+bar|overlay)(?=\s*(?:$|[,;.!?]))",
          r"\g<x>"),
    # "from the guide open Kids Planet": the place, then what to do there
    _rule(r"^(?P<p>(?:from|on|in)\s+the\s+(?!(?:menu|sidebar|header|footer|list|table|form|dialog|row|page|screen|box|"
          r"field|grid|toolbar|navbar|nav|navigation|panel|top|bottom|left|right)\b)[\w'-]+)\s+(?P<v>[a-z]+)\b",
          _if_verb(r"\g<p>, \g<v>", "v"), strip=True),
    # "use its table of contents to get to Command Aliases", "use search to find X": what the tool is used for
    _rule(r"(?P<s>^|[,;]\s*|\b(?:and|then)\s+)use\s+(?:the\s+|its\s+|their\s+|this\s+|that\s+|a\s+)?[\w' -]{1,40}?\s+"
          r"to\s+(?P<v>[a-z]+)\b",
          lambda m, verbs: m.group("s") + ("go" if m.group("v").lower() in ("get", "jump", "navigate", "move", "skip")
                                           else m.group("v")) if m.group("v").lower() in verbs
          or m.group("v").lower() in ("get", "jump", "navigate", "move", "skip") else m.group(0)),
    # "… using the contents on the left", "switch to Melody TV with the number keys", "(use the page's table of
    # contents)", "from the sidebar": the means the tester would use, which the planner picks itself
    # (never where it says where a check looks: "Release Process is in the sidebar", "is X in the results?")
    _rule(r"\s*(?:\(\s*(?:use|using|via|through|with|from|by)\s+[^()]{1,60}\)|"
          r",?\s+(?:(?:by\s+)?using|via|through|with|from)\s+(?:the\s+|its\s+|their\s+|this\s+|that\s+|a\s+|my\s+|your\s+)?"
          r"(?:page['’]s\s+)?(?:own\s+)?" + _MEANS + r"(?:\s+(?:on|at)\s+the\s+(?:left|right|top|bottom|side))?|"
          r",?\s+on\s+the\s+(?:remote(?:\s+control)?|remote['’]s\s+[\w ]{1,20}?keys|(?:number|digit|numeric|arrow)\s+keys|keypad))"
          r"(?=\s*(?:$|[,;.!?)]|\s+(?:and|then)\b))", _unless_taken_from),
    # "pick the channel that has Robo Pals on right now", "watch whichever channel is showing X": what is on now
    # is read in the guide, by the row of the programme
    _rule(r"\b(?:the|whichever|whatever|which)\s+channel\s+(?:that\s+|which\s+)?(?:is\s+|['’]s\s+)?(?:has(?:\s+got)?|"
          r"showing|shows|playing|plays|airing|airs|carries|carrying|broadcasting|broadcasts|running|runs)\s+"
          r"(?P<x>(?-i:[A-Z0-9\"'“])[^,;]*?)(?:\s+on)?(?:\s+(?:right\s+now|now|at\s+the\s+moment|currently|tonight|today))?"
          r"(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\b))", r"\g<x> in the guide"),
    # "check both Midnight Matinee and Election Night Special come up": each of them
    # (only where both are said to show: "check both Subtitles and Parental lock are off" is no two checks here)
    _rule(r"\b(?P<v>check|verify|confirm|make\s+sure|ensure|see)\s+(?P<t>that\s+)?both\s+(?=(?-i:[A-Z0-9\"'“])[^,;.!?]*?\s+"
          r"(?:come\s+up|show\s+up|turn\s+up|appear|(?:are|were)\s+(?:shown|listed|there|displayed|visible|present|"
          r"in\s+the\s+\w+))(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\b)))", r"\g<v> \g<t>"),
    # "find the shell completion page", "locate the section on prompts": a page or part of one to open, not words to
    # search for
    _rule(r"\b(?:find|locate)\s+(?P<x>(?:the|its|their)\s+(?:[\w'’-]+\s+){1,4}?(?:page|section|topic|article|chapter|tab))"
          r"(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\b))", r"open \g<x>"),
    # "click Next to go to the page after it", "press OK to confirm": the control; what it is for is no target
    _rule(r"\b(?P<c>(?:click|press|hit|tap|select|choose)\s+(?:on\s+)?(?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+)?(?:\s+(?:button|link|tab))?)"
          r"\s+to\s+(?:(?:go|get|move|navigate|jump)\s+(?:on\s+)?to\s+(?:the\s+)?(?:(?:next|previous|following|prior)\s+"
          r"(?:page|one|step|screen)|page\s+(?:that\s+comes\s+)?(?:(?:right|just)\s+)?(?:after|before)\s+(?:it|this|that)"
          r"(?:\s+one)?)|confirm|continue|proceed|finish|submit|save|close|dismiss|apply)"
          r"(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\b))", r"\g<c>"),
    # "go to the Unicode page, then to the page after it": the verb of the clause before, said once
    _rule(r"(?P<t>(?:,\s*|\b)(?:and\s+)?then)\s+(?=(?:on\s+)?to\s+(?:the|its|their|that|this)\s+\w)", r"\g<t> go "),
    # "in settings switch subtitles on": the place, said with no article, then what to do there
    _rule(r"^(?P<p>(?:from|on|in)\s+(?!(?:the|a|an|it|this|that|there|here|case|order|general|short|total|fact|"
          r"particular|addition|turn)\b)[\w'-]+)\s+(?P<v>[a-z]+)\b", _if_verb(r"\g<p>, \g<v>", "v"), strip=True),
    # "switch subtitles on in settings", "turn on subtitles in the settings menu": the place first, then the switch
    _rule(r"(?P<s>^|[,;]\s*|\b(?:and|then)\s+)(?P<v>switch|turn|toggle|flip|enable|disable|activate|deactivate)\s+"
          r"(?P<x>[^,;]+?)\s+(?P<p>in|on|from|under|via)\s+(?:the\s+)?(?P<w>(?:settings|setting|preferences|options|setup|"
          r"config|configuration|admin|account|profile|system|menu|control\s+panel)(?:\s+(?:menu|screen|page|"
          r"tab|section))?)(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\b))",
          r"\g<s>\g<p> the \g<w>, \g<v> \g<x>"),
    # "the banner should say Cinema Nova after switching to channel 3", "after tuning to ch 3, check …": the step first
    _rule(r"^(?P<a>[^,;]+?)\s+after\s+(?P<g>" + _GERUNDS + r")\b(?P<b>[^,;]*)$",
          lambda m, _v: f"{_base(m.group('g'))}{m.group('b')}, then check {m.group('a')}", strip=True),
    _rule(r"^after\s+(?P<g>" + _GERUNDS + r")\b(?P<b>[^,;]*?)\s*,?\s+(?:the\s+|it\s+|we\s+)(?P<a>[^,;]*?\b(?:should|must)\b[^,;]*)$",
          lambda m, _v: f"{_base(m.group('g'))}{m.group('b')}, then check {m.group('a')}", strip=True),
    # "key in channel 7", "punch in ch 12", "dial channel 3": tuning by its number
    _rule(r"\b(?:key|punch|dial)\s+(?:in\s+)?(?:channel|ch\.?)\s*(?P<n>\d{1,4})\b", r"tune to channel \g<n>"),
    # "go up three channels", "move down 2 channels": the channel key, that many times (not the arrow key)
    _rule(r"\b(?:go|move|step|flip|zap|switch|jump)\s+(?P<d>up|down)\s+(?P<n>" + _NUMBER + r")\s+channels?\b",
          lambda m, _v: f"press channel {m.group('d')} {NUMBER_WORDS.get(m.group('n').lower(), m.group('n'))} times"),
    # "navigate down 2", "move right 3 times": the arrow key, that many times
    _rule(r"\b(?:navigate|move|go|arrow|step)\s+(?P<d>up|down|left|right)\s+(?P<n>\d{1,2})(?:\s+times)?\b",
          r"press \g<d> \g<n> times"),
    # "add a book to the books table: Piranesi by …": where it goes is no part of its name
    _rule(r"\b(?P<v>add|create|insert|enter|put)\s+(?P<a>an?\s+(?:new\s+)?[a-z]+)\s+(?:to|into|in)\s+(?:the\s+)?[\w ]{1,30}?"
          r"\s+(?:table|list|page|section)\s*:", r"\g<v> \g<a>:"),
    # "Is Green Leaf Ltd based in Utrecht?": the statement asked about, checked
    _rule(r"^(?:is|are|was|were)\s+(?P<x>(?-i:[A-Z0-9])[^?,;]*?)\s+(?P<p>(?:based|located|situated|made|written|owned|"
          r"assigned|paid|filed|listed|priced|sold|stored|kept|published|released)\s+(?:in|at|by|from|to|for|under|as)\s+"
          r"[^?,;]+?)\s*\?\s*$", r"check \g<x> is \g<p>", strip=True),
    # "Sam Lee has a new email address, update it to X": that field of the record, set
    _rule(r"^(?P<x>(?-i:[A-Z])[^,;]*?)\s+(?:has|got|gets|now\s+has)\s+(?:a\s+)?new\s+(?P<f>[a-z]+(?:\s+[a-z]+)?)\s*[,;.:-]+\s*"
          r"(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?(?:update|change|set|correct|fix|make)\s+it\s+(?:to|into)\s+"
          r"(?P<v>\S.*)$", r"set the \g<f> of \g<x> to \g<v>", strip=True),
    # "find any plant that has lily in its name": the plants whose name contains it
    _rule(r"\b(?:any|all|every|the)\s+(?P<k>[a-z]+?)s?\s+(?:that|which)\s+(?:has|have|contains?)\s+(?P<v>[\"'“]?[\w-]+[\"'”]?)\s+"
          r"in\s+(?:its|their|the)\s+(?P<f>[a-z]+)\b", r"\g<k>s whose \g<f> contains \g<v>"),
    # "get it going again", "start it back up": resume
    _rule(r"\b(?:get|set)\s+(?P<x>it|the\s+video|playback|the\s+movie|the\s+film|the\s+stream)\s+(?:going|playing|"
          r"running|rolling)(?:\s+again)?\b", r"resume \g<x>"),
    _rule(r"\bstart\s+(?P<x>it|the\s+video|playback|the\s+movie|the\s+film|the\s+stream)\s+(?:back\s+up|again)\b",
          r"resume \g<x>"),
    # "start playback of X": play X
    _rule(r"\b(?:start|begin|kick\s+off|initiate|launch)\s+(?:the\s+)?playback\s+(?:of|for)\s+", "play "),
    # "yesterday's Cup Final Highlights": when it was on is no part of its name
    _rule(r"\b(?P<v>play|watch|open|start|launch|find|show|see|resume|put\s+on)\s+(?:the\s+)?(?:yesterday|today|tonight|"
          r"last\s+night|this\s+(?:morning|afternoon|evening|week)|last\s+week)['’]s\s+(?=\w)", r"\g<v> "),
    # "un-complete walk the dog"
    _rule(r"\bun-(?=(?:complete|check|tick|mark|select|finish)\b)", "un"),
    # "check Walk the dog is among them": among what the step before shows, which is the screen now
    _rule(r"\b(is|are)\s+(?:among|amongst|one\s+of|in|part\s+of)\s+(?:them|those|these|the\s+results|that\s+list|"
          r"this\s+list)(?=\s*(?:$|[,.;!?]|\s(?:and|then)\b))", r"\1 listed"),
    # "set the audio to Spanish and verify it took effect": the setting's own step proves it; nothing else is named
    # ("check it was saved" stays: a save is proved apart)
    _rule(r"\s*(?:,\s*)?(?:\b(?:and|then)\s+)?(?:verify|check|confirm|make\s+sure|ensure)\s+(?:that\s+)?(?:it|this|that|"
          r"the\s+change|the\s+setting|(?:both|the|these|those|all|all\s+the|my)\s+(?:settings|changes))\s+"
          r"(?:took\s+effect|have\s+taken\s+effect|has\s+taken\s+effect|stuck|(?:was|were|are|is|has\s+been|have\s+been|"
          r"got)\s+applied)(?:\s+(?:in|on)\s+the\s+[\w -]+?)?\s*[.!]?$", "", strip=True, keep_if_empty=True),
    # "watch the 5th channel", "the third channel": that channel's number
    _rule(r"\bthe\s+(?:(\d+)(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth))\s+"
          r"channel\b", lambda m, _v: f"channel {m.group(1) or ORDINALS[m.group(2).lower()] + 1}"),
    # "from the home screen open settings": the place, then what to do there
    _rule(r"^(?P<p>(?:from|on)\s+the\s+[\w' -]+?\s+(?:screen|page|tab|view))\s+(?P<v>[a-z]+)\b",
          _if_verb(r"\g<p>, \g<v>", "v"), strip=True),
    # "Home page: append the sentence …": the place, then what to do there
    _rule(r"^(?P<p>(?:the\s+)?[\w' -]+?\s+(?:screen|page|tab|view))\s*:\s*(?P<v>[a-z]+)\b",
          _if_verb(r"on \g<p>, \g<v>", "v"), strip=True),
    # "look in the pantry: the rice is on the top shelf": the place opened, then what is said of it checked (or
    # done there, when a verb opens it)
    _rule(r"^(?:look\s+(?:in|at|inside)|in|inside)\s+(?P<p>(?:the\s+)?[\w' -]+?)\s*:\s+(?P<s>\S+(?:\s+\S+){2,})$",
          lambda m, verbs: f"open {m.group('p')}, then " +
          ("" if m.group("s").split()[0].lower() in verbs else "check ") + m.group("s"), strip=True),
    # "… and publish it": the page's own Publish (or Unpublish) control, as a click
    # (after "and"/"then", or alone: "X is ready, publish it" is about X, said first)
    _rule(r"(?:(?<=^)|(?<=\band\s)|(?<=\bthen\s)|(?<=\bplease\s))(?P<v>publish|unpublish)\s+(?:it|this|that|them|the\s+(?:page|changes?|"
          r"draft|edits?|update))(?=\s*(?:[,.;!]|\band\b|"
          r"\bthen\b|$))", lambda m, _v: f"click {m.group('v').capitalize()}"),
    # "preview the About Us page": the page opened, then its own Preview (a page opened is not its preview)
    _rule(r"(^|\b(?:and|then)\s+)preview\s+(?P<x>(?:the\s+)?[^,;.]+?)(?=\s*(?:$|[,;.!]|\s(?:and|then)\b))",
          r"\1open \g<x>, then click Preview"),
    # "the contact page has the phone number 0161 555 0199": what shows is the number, not what it is called
    # (quoted: "has 0161 555 0199" is no count of 161 things); only for a number or an address, whose words say
    # no field a check could read instead
    _rule(r"(?<=\w\s)(has|have|shows|lists|displays|contains|gives|includes)\s+(?:the|a|an|its)\s+"
          r"(?:(?:phone|telephone|mobile|fax|contact)\s+)?(?:number|email(?:\s+address)?|e-mail(?:\s+address)?)\s+"
          r"(?P<v>\+?\d[\d\s().-]{4,}\d|\S+@\S+\.\w+)(?=\s*(?:$|[,;!?]|\.(?:\s|$)|\s(?:and|then)\b))",
          lambda m, _v: f'{m.group(1)} "{m.group("v")}"'),
    # "create a page Opening Times under the home page", "add a page Volunteering under Greenfield Library with
    # …": made where the place says (at the top, for the home page), the place opened first
    _rule(r"^(?P<v>create|add|make(?!\s+sure\b)|write)\s+(?P<what>.+?)\s+(?:under(?:neath)?|beneath|below|inside|within)\s+"
          r"(?P<p>(?:the\s+)?[\w'’&.-]+(?:\s+[\w'’&.-]+){0,4}?)(?=\s+with\b|\s*[,;]|\s+and\b|\s*$)",
          lambda m, _v: f"{m.group('v')} {m.group('what')}" if re.fullmatch(
              r"(?:the\s+)?(?:home|main|start|root|top)(?:\s+(?:page|level|screen))?", m.group("p"), re.I)
          else f"open {m.group('p')}, then {m.group('v')} {m.group('what')}", strip=True),
    # "get rid of loan number 1": the record numbered so ("loan 1"); a phone or card number is a value
    _rule(r"\b(?!(?:phone|mobile|fax|card|account|serial|tracking|house|street|room|version|page|model|part|"
          r"contact|reference|vat|tax|id)\b)([a-z]{3,})\s+(?:number|no\.|nr\.?)\s*(\d+)\b", r"\1 \2"),
    # "back up the database": a backup, not the Back key
    _rule(r"^back\s+up\b", "backup", strip=True),
    # "who wrote Neuromancer? it should be William Gibson": the answer, checked
    _rule(r"^who\s+(?P<v>wrote|made|created|directed|designed|built|published|reported|filed|sent|painted|"
          r"composed|owns|assigned)\s+(?P<x>[^?]+?)\s*\?\s*(?:it|that|the\s+answer|he|she|they)\s+(?:should|must)\s+"
          r"be\s+(?P<y>.+)$",
          lambda m, _v: f"check that {m.group('x')} was {_PAST.get(m.group('v').lower(), m.group('v'))} by "
                        f"{m.group('y')}", strip=True),
    # "what's in sqlite3.dump? open it", "wonder what X does - show it": a question that names the thing the rest
    # acts on
    _rule(r"^(?:so\s+|hmm,?\s+|i\s+wonder\s+)?what(?:'s|’s|\s+is|\s+are)\s+(?:in|on|inside|under|behind)\s+(?P<x>[^?]+?)\s*"
          r"\?\s*(?P<rest>\S.*\b(?:it|them)\b.*)$",
          lambda m, _v: re.sub(r"\b(?:it|them)\b", m.group("x").strip(), m.group("rest"), count=1), strip=True),
    # "on this page check Buy milk is shown": the page shown is where it is done already
    _rule(r"^(?:on|in|from)\s+(?:this|the\s+current)\s+(?:page|screen|view)\s*,?\s+", "", strip=True),
    # "show the csv module to me", "open it for me": the one asking is no place
    _rule(r"\b(?P<v>show|open|display|bring\s+up|pull\s+up|find)\s+(?P<x>\S.*?)\s+(?:to|for)\s+(?:me|us)\b", r"\g<v> \g<x>"),
    # "give cec_monitor one more start", "give the encoder a restart": that action, on it
    _rule(r"\bgive\s+(?P<x>[^,;]+?)\s+(?:one\s+more|another|a|one)(?:\s+(?:quick|fresh|clean))?\s+(?P<v>start|restart|reboot)\b"
          r"(?!\s+(?:date|time|day|value|values|page|button|of|at|on)\b)", r"\g<v> \g<x>"),
    # "give Sam Lee the email sam@x.org": a value of one of its fields
    _rule(r"^give\s+(?P<x>.+?)\s+(?:the|a|an)\s+(?P<f>[a-z]+)\s+(?P<v>\S.*)$", r"set the \g<f> of \g<x> to \g<v>",
          strip=True),
    # "Buy milk — delete it please", "Pay rent: tick it off": the thing first, then what to do with it
    _rule(r"^(?P<x>[^—–:,;\-][^—–:;]*?)\s*(?:—|–|\s-{1,2}\s|:)\s*(?:please\s+)?(?P<v>[a-z]+)\s+(?:it|them)\b(?P<rest>.*)$",
          lambda m, verbs: f"{m.group('v')} {m.group('x').strip()}{m.group('rest')}"
          if m.group("v").lower() in verbs and not re.search(r"\s(?:is|are|was|were|has|have|had)\s", m.group("x"), re.I)
          and not re.search(r"\s(?:[a-z]{3,}ed|came|went|got|left|broke|fell|keeps?|needs?)\s+(?:in|on|at|into|to|from|by|up|"
                            r"out|again|off)\b", m.group("x"))
          else m.group(0), strip=True),   # ("Playback is paused - resume it": how things stand, see context_first;
    # "X landed in Billing by mistake - move it": what happened to it, see about_first)
    # "strike Walk the dog from the list", "cross X off the list": it leaves the list
    _rule(r"^(?:strike|cross|scratch)\s+(?P<x>.+?)\s+(?:off|from|out\s+of)\s+(?:the|my|our|this)\s+list\b",
          r"remove \g<x>", strip=True),
    # "make a new wiki page called FAQ", "set up a new customer named Ivy": one is created
    _rule(r"^(?:make|start|set\s+up|write|put\s+together)\s+(?=(?:a|an)\s+(?:new\s+)?[a-z][\w -]*?\s+(?:called|named|titled)\s)",
          "create ", strip=True),
    # "make 'Pay rent' say 'Pay rent on Friday'": a new text for it
    _rule(r"^make\s+(?P<x>.+?)\s+(?:say|read|show)\s+(?P<y>.+)$", r"rename \g<x> to \g<y>", strip=True),
    # "are there 4 todos?": a count
    _rule(rf"^(?:are|is)\s+there\s+(?=(?:exactly\s+|only\s+)?{_NUMBER}\s)", "check there are ", strip=True),
    # "are there 4 todos in total?"
    _rule(r"(\b\d+\s+[a-z]+)\s+(?:in\s+total|altogether|overall|in\s+all)\b", r"\1"),
    # "confirm only 3 remain", "2 to go": a count of what is left, the items unsaid
    _rule(rf"\b(?:only\s+|just\s+)?({_NUMBER})\s+(?:remain|remaining|to\s+go)\s*(?=$|[,.;!?]|\s+(?:and|then)\b)",
          r"\1 items are left"),
    _rule(r"\b(\d+)\s+([a-z]+s)\s+(?:remain|remaining)\b", r"\1 \2 are left"),
    # "the inventory should have five devices in it": it has them
    _rule(rf"\b(?:should|must|ought\s+to)\s+(?:have|hold|contain)\s+(?=(?:exactly\s+|only\s+)?{_NUMBER}\s+[a-z]+"
          r"(?:\s+in\s+(?:it|there|them))?\s*[.!?]?$)", "has "),
    _rule(rf"(\b{_NUMBER}\s+[a-z]+)\s+in\s+(?:it|there|them)(?=\s*[.!?]?$)", r"\1"),
    # "limit the time range to 2025", "narrow the account down to Assets": that filter, set
    _rule(r"^(?:limit|restrict|narrow)\s+(?:down\s+)?(?:the\s+)?(?P<f>[a-z][\w -]*?)(?:\s+(?:range|period|window|span|filter))?"
          r"\s+(?:down\s+)?to\s+(?=\S)",
          r"set the \g<f> to ", strip=True),
    # "make sure nothing says deploy on friday": those words are not shown
    _rule(r"\b(?:nothing|no\s+one|nobody)\s+(?:on\s+(?:the|this)\s+(?:page|screen)\s+)?(?:says|mentions|reads|shows)\s+"
          r"(?P<x>[^,;]+?)(?=\s*$|\s*[,;.!?]|\s+(?:and|then)\s)", r"\g<x> is not shown"),
    # "verify the wiki is called Lab Wiki", "the page should be titled Home": what its title says
    _rule(r"\bthe\s+(?:wiki|site|web\s*site|app|application|web\s*app|page|portal|dashboard|tool)\s+(?:is|should\s+be|"
          r"must\s+be)\s+(?:called|named|titled|entitled)\s+(?=\S)", "the title says "),
    # "check that the Home page links to Lab Setup": on that page, its link (a record's "points to" is its URL)
    _rule(r"^(?:(?:check|verify|confirm|make\s+sure|ensure)\s+(?:that\s+)?)?(?P<x>the\s+[\w' -]+?\s+page)\s+(?:links|should\s+link)"
          r"\s+to\s+(?:the\s+)?(?P<y>[^,;]+?)(?:\s+page)?\s*[.!?]?$", r"on \g<x>, check the page links to \g<y>", strip=True),
    # "edit the ReleaseProcess page so it also says 'Announce …'": words added to the page's text
    _rule(r"^(?:edit|change|update)\s+(?:the\s+)?(?P<p>.+?)\s+so\s+(?:that\s+)?it\s+also\s+(?:says|reads|mentions|contains)\s+"
          r"(?P<q>[\"“'].+)$", r"append the text \g<q> to \g<p>", strip=True),
    # "search the bookmarks for the word dinners": the word is what is searched for
    _rule(r"\b(search|look|filter)(\s+.*?)?\s+for\s+the\s+(?:word|words|term|terms|text|phrase|string)\s+(?=\S)", r"\1\2 for "),
    # "update warehouse_schema so it holds reporting instead of analytics": set to the new value (the old one said
    # only to be sure which)
    _rule(r"^(?P<v>(?:update|change|edit|set|modify|fix)\s+(?:the\s+)?(?P<x>\S.*?))\s+so\s+(?:that\s+)?it\s+(?:holds|has|contains|"
          r"is|equals)\s+(?P<y>\S.*?)(?:\s+instead\s+of\s+[^,;]+?)?(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)",
          r"set \g<x> to \g<y>", strip=True),
    _rule(r"^(?P<h>(?:update|change|set|switch)\s+\S.*?\s+to\s+\S+?)\s+instead\s+of\s+[^,;]+?(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)",
          r"\g<h>", strip=True),
    # "find every page that talks about phones", "find all the pages about badges": a search for the words
    _rule(r"^(?:find|look\s+up)\s+(?:me\s+)?(?:every|all|any)\s+(?:of\s+)?(?:the\s+)?(?P<k>[a-z]+)\s+(?:that\s+|which\s+)?"
          r"(?:talks?\s+about|mentions?|mentioning|contains?|containing|about|refers?\s+to|referring\s+to)\s+(?P<x>[^,;]+?)"
          r"(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)", r"search for \g<x>", strip=True),
    # "the IR blaster daemon (ir_blasterd)": the name as the app writes it, said in brackets after the tester's words
    _rule(r"\bthe\s+(?:[A-Za-z0-9][\w-]*\s+){1,4}\((?P<id>[a-z][\w.-]*(?:[:_/][\w.-]+)+)\)", r"\g<id>"),
    # "Clear the grabber's log. Don't restart the grabber, just clear its log.": what not to do, and the request again
    _rule(r"(?P<end>[.!;])\s*(?:don['’]?t|do\s+not|no\s+need\s+to)\s+[^,.;!?]+,\s*(?:just|only|simply)\s+[a-z]+\s+"
          r"(?:it|its|them|their|that)\b[^.;!?]*[.!]?", r"\g<end>"),
    # "sort the list ascending, oldest first": how it reads once sorted is the sort's own words
    _rule(r"\b(?P<s>(?:sort|order|arrange)\b[^,;.]*?)\s*[,;]\s*(?P<o>(?:oldest|newest|latest|earliest|highest|lowest|biggest|"
          r"smallest|cheapest|dearest|largest|most\s+recent)(?:\s+[a-z]+)?\s+(?:first|on\s+top|at\s+the\s+top))\b", r"\g<s> \g<o>"),
    # "restart ir_blasterd but leave the other lab services alone": what is not to be touched, which nothing does
    _rule(r"\s*,?\s*(?:but|and)\s+(?:leave|keep)\s+(?:all\s+)?(?:the\s+)?(?:other|rest|others)\b[^,;.]*?\s+(?:alone|as\s+(?:they\s+are|"
          r"it\s+is|is)|untouched|unchanged)(?=\s*$|\s*[,;.!])", ""),
    # "check how much money is in the Checking account": a figure to read, with none to expect: its row is shown
    _rule(r"(?P<pre>^|[,;.]\s*|\b(?:and|then)\s+)(?:check|see|find\s+out|look\s+up|tell\s+me)\s+(?:how\s+much|how\s+many|what)\s+"
          r"(?:[a-z]+\s+){0,3}?(?:is|are|there\s+is|there\s+are|we\s+have|remains?)\s+(?:left\s+)?(?:in|on|for|at|under)\s+"
          r"(?P<x>(?:(?!\s(?:and|then)\s)[^,;?])+?)(?=\s*$|\s*[,;.!?]|\s+(?:and|then)\s)(?![^.;]*\b(?:is|are|should|must|equals?|confirm|verify|"
          r"check|make\s+sure)\b)", r"\g<pre>check \g<x> is shown"),
    # "find every transaction where Maria Lopez is the payee": the value said first, as "… whose payee is Maria Lopez"
    _rule(r"^(?P<v>find|show(?:\s+me)?|list|display|get|look\s+up)\s+(?:me\s+)?(?:every|all|each|any)?\s*"
          r"(?:of\s+)?(?:the\s+)?(?P<k>[a-z]+s?)\s+(?:where|in\s+which|for\s+which)\s+(?!(?:the|a|an|its|their)\s)"
          r"(?P<y>(?-i:[A-Z0-9\"'“])[^,;]*?)\s+(?:is|are|was)\s+"
          r"(?:the|their|its)\s+(?P<f>[a-z]+)(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)",
          lambda m, _v: f"{m.group('v')} the {m.group('k')} whose {m.group('f')} is {m.group('y')}", strip=True),
    # "show me all the #warranty transactions in the Journal": the Journal, then a search for the tag
    _rule(r"^(?:find|show(?:\s+me)?|list|display|get)\s+(?:every|all|each|any)?\s*(?:of\s+)?(?:the\s+)?(?P<t>#[\w-]+)\s+"
          r"(?P<k>[a-z]+s)(?:\s+(?:in|on|from)\s+(?:the\s+)?(?P<p>[A-Za-z][\w -]{1,30}?))?(?=\s*$|\s*[,;.!]|\s+(?:and|then)\s)",
          lambda m, _v: (f"go to the {m.group('p')}, then " if m.group("p") else "") + f'search for "{m.group("t")}"',
          strip=True),
)


QUOTED = r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']*'(?!\w)"
_QUOTED = re.compile(QUOTED)
_HELD = re.compile(r"Quoted(\d+)Span")


def held_out(task: str, spans: re.Pattern[str], reword: Callable[[str], str]) -> str:
    """*task* reworded by *reword* everywhere but in the parts *spans* matches, which are kept word for word."""
    held: list[str] = []
    masked = spans.sub(lambda m: held.append(m.group(0)) or f"Quoted{len(held) - 1}Span", task)
    if not held:
        return reword(task)
    return _HELD.sub(lambda m: held[int(m.group(1))], reword(masked))


def _apply(rule: Rephrase, task: str, verbs: Collection[str]) -> str:
    said = task.strip() if rule.strip else task
    out = rule.pattern.sub(lambda m: rule.replace(m, verbs), said)
    return task if rule.keep_if_empty and not out else out


def rephrase(task: str, verbs: Collection[str]) -> str:
    """*task* with each of :data:`RULES` applied in turn; *verbs* are the verbs the planner reads. A rule that
    reads no quotes never changes what is quoted ("add a todo 'lock down the shed'" keeps its words)."""
    for rule in RULES:
        if re.search(r"[\"'“”]", rule.pattern.pattern):
            task = _apply(rule, task, verbs)
        else:
            task = held_out(task, _QUOTED, lambda t, r=rule: _apply(r, t, verbs))
    return task
