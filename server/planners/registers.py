"""How testers of other registers write a task, said the way the planner reads it.

Four registers the planner's own phrasings did not cover, each a few general rules (no app's words):

- **dictated** to a voice assistant: fillers anywhere ("ok so go to settings and uh change audio to french");
- written by a **non-native speaker**: "please to open", "make play X", "I want that subtitles are activated",
  "after you do pause on it", "control that …";
- **acceptance criteria** in one sentence: "As a viewer, when I open Replay and choose Star Cadets, the episode
  should start playing", "… so that the setting is shown as On", "Given I am on the home screen, when …, then …";
- **terse regression steps**: "Live TV -> CH+ x2 -> verify banner = Cinema Nova", "1) … 2) … 3) …", "Exp: …",
  "Parental lock ON (PIN 0000)".

:func:`reword` is applied before the phrasings of :mod:`server.planners.phrasings`, outside quoted names.
"""
from __future__ import annotations

import re
from typing import Callable

from server.planners.language import VERBS
from server.planners.phrasings import GERUND_BASE

Rule = tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]

_END = r"(?=\s*(?:$|[,;.!?]|\s+(?:and|then)\b))"
# a word that reads a value a check compares with "=" ("banner = Cinema Nova", "state = Playing")
_SHOWN_BY = r"banner|title|heading|header|label|caption|state|status|screen|message|text"


def _ok_before_request(m: re.Match[str]) -> str:
    return "" if m.group("v").lower() in VERBS and m.group("v").lower() not in ("then", "and") else m.group(0)


# what a sentence says happened, before the colon that leads to the request ("The gutters job slipped: make …")
_HAPPENED = re.compile(r"\b(?:is|are|was|were|has|have|had|got|gets|needs?|[a-z]{3,}ed)\b", re.I)


_EXPECTING = re.compile(r"\b(?:should|must|supposed|expects?|expected|needs?\s+to|has\s+to|have\s+to|ought)\b", re.I)


def _told_first(m: re.Match[str]) -> str:
    """What the tester says happened, then a colon and the request: the request alone (never a place or a
    setting's name before a colon, "Settings: subtitles on", which says no verb)."""
    if m.group("v").lower() not in VERBS or not _HAPPENED.search(m.group("c")) or _EXPECTING.search(m.group("c")):
        return m.group(0)   # ("The banner is supposed to say Melody TV: switch to 5" says what to check)
    return m.group(0)[m.start("v") - m.start():]


# the other parts of the record a request edits, which nothing of the request changes ("keep its text and tags as
# they are", "leave the title alone"): never a setting or another record, which the steps might change
_OWN_PARTS = (r"(?:(?:its|their|the\s+(?:page'?s|record'?s|note'?s|ticket'?s|task'?s))\s+(?:text|tags?|title|description|body|"
              r"contents?|fields?|notes?|name)(?:\s+(?:and|or|&)\s+(?:its\s+|their\s+)?(?:text|tags?|title|description|body|"
              r"contents?|fields?|notes?|name))?|the\s+(?:site\s+)?(?:title|subtitle))")
_LANGUAGES = (r"english|french|spanish|german|italian|portuguese|dutch|swedish|norwegian|danish|finnish|polish|czech|"
              r"greek|turkish|russian|ukrainian|arabic|hebrew|hindi|chinese|mandarin|cantonese|japanese|korean|"
              r"vietnamese|thai|indonesian|catalan|romanian|hungarian|original")


_CHECKED = re.compile(r"\b(?:check|verify|confirm|ensure|make\s+sure|assert|see|expect(?:ed)?|is|are|should|must)\b", re.I)


def _stated_check(m: re.Match[str]) -> str:
    """"the invoice ticket is set to High? just confirm": a statement asked about, then "confirm", is its check
    (a question proper, "is X shown? check", is read by the restating)."""
    said = m.group("s").strip()
    if re.match(r"(?:is|are|was|were|does|do|did|has|have|can|could|will|would|what|which|who|how|where|when)\b", said, re.I):
        return m.group(0)
    return f"check {said}"


def _setting_on(m: re.Match[str]) -> str:
    """"subs on" → "turn subs on": a setting said with its state and no verb (never a verb's own "on")."""
    if m.group("x").split()[0].lower() in VERBS or set(m.group("x").lower().split()) & {"is", "are", "be", "stays", "still"} \
            or _CHECKED.search(m.string[:m.start()]) \
            or re.search(rf"\b{re.escape(m.group('x').split()[-1])}\b", m.string[:m.start()], re.I):
        return m.group(0)   # "check the lock and subtitles are on", "verify French + subtitles on": what holds
    return f"turn {m.group('x')} {m.group('s')}"


def _object_first(m: re.Match[str]) -> str:
    """"The subtitles, activate them" → "activate the subtitles": what a request acts on, said before it."""
    if m.group("v").lower() not in VERBS or re.search(
            r"\b(?:is|are|was|were|has|have|had|now|costs?|says?|shows?|needs?|got|gets|[a-z]{3,}ed)\b", m.group("o"), re.I):
        return m.group(0)   # "the Rake now costs 17.50, update it": what is so, then the request (restating reads it)
    return f"{m.group('v')} {m.group('o')}"


def _wanted_of(m: re.Match[str]) -> str:
    """"The film Neon Tides, I want that it plays" → "play the film Neon Tides"."""
    verb = m.group("v").lower()
    return f"{verb} {m.group('o')}" if verb in VERBS else m.group(0)


def _numbered(m: re.Match[str]) -> str:
    """"1) a 2) b 3) c": the first step as it is, the others after "then"."""
    return "" if m.group("n") == "1" and m.start() == 0 else ", then "


# the phrasings' gerunds ("after switching …"), and a few more a request is said with ("pausing playback should …")
_BASE = {**GERUND_BASE, "stopping": "stop", "resuming": "resume", "choosing": "choose", "closing": "close",
         "enabling": "enable", "disabling": "disable", "adding": "add", "deleting": "delete"}


def _base(gerund: str) -> str:
    return _BASE.get(gerund.lower(), re.sub(r"ing$", "", gerund))


_SHOWING = re.compile(r"\bshowing\b", re.I)


def _first_verb_base(said: str) -> str:
    """"searches for paper" → "search for paper": the verb of what someone does, as a request (a verb the planner
    reads; any other word stays as said)."""
    first, _, rest = said.strip().partition(" ")
    low = first.lower()
    base = next((b for b in (low[:-2] if low.endswith("es") else "", low[:-1] if low.endswith("s") else "")
                 if b and b in VERBS), first)
    return f"{base} {rest}".strip()


RULES: tuple[Rule, ...] = (
    # -- dictated: fillers, anywhere
    (re.compile(r"(?:(?<=^)|(?<=[\s,]))(?:u+h+m*|u+m+|e+r+m+|e+h+m*|hmm+)(?=[\s,.!?]|$)[,\s]*", re.I), ""),
    (re.compile(r",?\s*\byou\s+know\b,?", re.I), ""),
    # (a leading "OK" alone may be the remote's key: only "ok so", "okay um" and the like are fillers)
    (re.compile(r"^(?:(?:ok(?:ay)?(?=\s+(?:so|then\s+so|um|uh|like)\b)|so(?:\s+like)?|well|alright|hey|yeah|yo)\b[\s,]*)+"
                r"(?!(?:all|team|there|folks|guys|everyone)\b)(?=[a-z])",
                re.I), ""),
    (re.compile(r"\b(?P<w>and|then|so|just)\s+like\s+(?=[a-z])", re.I), r"\g<w> "),
    # ("ok check that …", "okay open the guide": an OK before a request of its own is a filler, never the key)
    (re.compile(r"^ok(?:ay)?\s+(?=(?P<v>[a-z]+)\b)", re.I), _ok_before_request),
    # -- busy notes: an interjection, or what happened, before the request ("Oops, …", "The gutters job slipped: …")
    (re.compile(r"^(?:so\s*,?\s*)?(?:(?:a\s+(?:bit|little)\s+of\s+|some\s+)?(?:background|context)|fyi|note|for\s+context|"
                r"quick\s+one|quick\s+question|one\s+more|next\s+one|heads\s+up)\s*[:\-–—]\s*", re.I), ""),
    (re.compile(r"^(?:oops|whoops|oh|ah|argh|ugh|sorry|hmm+|actually|btw|fyi|heads\s+up)\b[!,.:;\s-]+(?=\S)", re.I), ""),
    (re.compile(r"^(?P<c>(?:the|this|that|my|our|it|its|we|i)\b[^:;]{3,240}?)\s*:\s*(?P<v>[a-z]+)\b", re.I), _told_first),
    # ("delete the whole Errands list, tasks and all": with all it holds, nothing more to do)
    (re.compile(r"\s*,\s*(?:[a-z]+\s+)?and\s+all(?=\s*(?:$|[.!]))", re.I), ""),
    (re.compile(r"\b(?P<v>delete|remove|clear|empty|wipe|drop)\s+the\s+(?:whole|entire|complete)\s+", re.I), r"\g<v> the "),
    # ("I'm checking the new build for the client, and what I need is that you go into the Guide": the request)
    (re.compile(r"^(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+[a-z]+ing\b[^,:;]*[,:;]\s*(?:and\s+|so\s+)?(?=what\s+(?:i|we)\s+)", re.I), ""),
    (re.compile(r"\bwhat\s+(?:i|we)\s+(?:need|want|would\s+like|['’]d\s+like)\s+(?:is\s+(?:that|for)\s+you\s+(?:to\s+)?|"
                r"you\s+to\s+do\s+is\s+(?:to\s+)?)", re.I), ""),
    # ("enter PIN 1234", "key in the code 4321": the number typed into that field)
    (re.compile(r"\b(?:enter|type|input|key\s+in|put\s+in)\s+(?:the\s+|a\s+|wrong\s+|an?\s+incorrect\s+)?"
                r"(?P<f>pin|code|passcode|pin\s+code|password|otp)\s+(?P<v>\d{3,8})\b", re.I), r'type "\g<v>" in the \g<f> field'),
    # ("make sure the live screen says X underneath the picture": where on the screen it shows, never part of it)
    (re.compile(r"\s+(?:underneath|under|below|beneath|above|over|next\s+to|beside)\s+the\s+(?:picture|video|image|"
                r"player|banner|title|poster|screen|logo)\b", re.I), ""),
    (re.compile(r"(?<=\S)\s+(?:tonight|this\s+evening|this\s+morning|right\s+now|at\s+the\s+moment)(?=\s*(?:$|[?.!]))", re.I), ""),
    # ("is Gadget Lab the programme on channel 7": the item, where it is)
    (re.compile(r"\b(?P<x>(?-i:[A-Z0-9])[^,;?]*?)\s+the\s+(?:programme|program|show|film|movie|one|title|item|thing|"
                r"channel|episode)\s+(?=(?:on|in|at|showing|playing)\b)", re.I), r"\g<x> "),
    # ("the player opens with River of Glass playing": what it shows, in that state)
    (re.compile(r"\b(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:opens|appears|comes\s+up|loads|starts|is\s+shown)\s+with\s+"
                r"(?P<x>[^,;.]+?)\s+(?P<s>playing|showing|shown|selected|open|highlighted|paused)\b", re.I), r"\g<x> is \g<s>"),
    # ("X is set to High, yeah? just confirm": a question tag asks for the check)
    (re.compile(r"\s*,\s*(?:yeah|yes|right|correct|no|isn['’]t\s+it|aren['’]t\s+they|innit|eh|ok)\s*\?", re.I), "?"),
    (re.compile(r"^(?P<s>[^?]{3,}?)\?\s*(?:just\s+|please\s+|pls\s+|can\s+you\s+)?(?:confirm|check|verify)(?:\s+(?:it|that|this|"
                r"for\s+me|pls|please))?\s*[.!]?$", re.I), _stated_check),
    # ("hi, I'm new to the team - is there a tiddler about onboarding?": who asks, before what they ask)
    (re.compile(r"^(?:hi|hello|hey|hiya|yo|morning|good\s+(?:morning|afternoon|evening)|quick\s+one|heads\s+up|fyi|psa)"
                r"(?:\s+(?:all|team|there|folks|guys|everyone))?\s*(?:[,!.:]|\s[-–—])\s*(?=\S)", re.I), ""),
    # a message's sign-off: "Thanks, M.", "Cheers", "Best regards - Ana"
    (re.compile(r"(?:(?<=^)|(?<=[.!?]))\s*(?:many\s+)?(?:thanks|thank\s+you|thx|cheers|ta|best|regards|kind\s+regards|br)"
                r"(?:\s+in\s+advance)?\s*[,!.]*\s*(?:[-–—]\s*)?(?:(?-i:[A-Z])[\w.]*\s*)?[.!]*\s*$", re.I), ""),
    # "We're demoing to a school tomorrow so please switch …": why, then the request
    (re.compile(r"^(?:i|we|they|the\s+team)(?:['’](?:m|re)|\s+(?:am|are|have|had|will|were))\s[^.?!]{3,120}?,?\s+so\s+"
                r"(?=(?:please|pls|could\s+you|can\s+you|would\s+you)\b)", re.I), ""),
    # "don't touch the subtitles this time, they should stay off", "(do not change the audio, it must stay English)":
    # what must not change, checked as it should be
    (re.compile(r"\s*\(?\b(?P<a>and\s+)?(?:please\s+)?(?:don['’]t|do\s+not)\s+(?:touch|change|modify|alter)\s+"
                r"(?P<x>(?:the\s+)?[\w -]{2,30}?)(?:\s+this\s+time)?\s*[,;:–—-]+\s*(?:they|it)\s+(?:should|must|need\s+to|have\s+to|"
                r"has\s+to)\s+(?:still\s+)?(?:stay|remain|be)\s+(?P<v>[\w-]+)\)?", re.I),
     lambda m: f"{', ' if m.group(0).lstrip().startswith('(') else ' '}{m.group('a') or ''}check {m.group('x')} is "
               f"{m.group('v')}"),
    # "(please don't hit Play)", "(don't change anything else)": what not to do, said aside
    (re.compile(r"\s*\((?:please\s+)?(?:don['’]t|do\s+not|never)\s+[^(),]{2,60}\)", re.I), ""),
    # what the message says not to do besides ("Don't bother with anything else.", "leave everything else alone")
    (re.compile(r"(?:(?<=^)|(?<=[.!?;,]))\s*(?:and\s+)?(?:please\s+)?(?:(?:don['’]t|do\s+not)\s+(?:bother\s+with|touch|change|"
                r"worry\s+about)\s+anything\s+else|leave\s+(?:everything|all)\s+else\s+(?:alone|as\s+(?:it\s+is|they\s+are)))"
                r"\s*(?:[.!]|$)", re.I), ""),
    (re.compile(r"^(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:new|just\s+starting|starting|testing|checking|trying|doing|"
                r"working|looking)\b[^-–—,.;:?]*(?:\s+[-–—]\s+|[,.;:]\s+)(?=(?:is|are|does|do|can|could|where|what|which|how|"
                r"please|pls)\b)", re.I), ""),
    # ("Leave the title alone.", "Keep its text and tags as they are", "dont touch the sprint notes", "without
    # changing its text": what not to change, which no step changes)
    (re.compile(rf"(?:(?<=^)|\s*[.;,?!]\s*|\s+and\s+)(?:please\s+)?(?:(?:leave|keep)\s+{_OWN_PARTS}\s+(?:alone|as\s+(?:it\s+is|"
                rf"they\s+are|is|it\s+was|they\s+were)|unchanged|untouched|intact)|(?:do\s+not|don['’]?t|dont)\s+(?:touch|change|"
                rf"edit|modify)\s+{_OWN_PARTS})\s*(?=$|[.;,!])", re.I), ""),
    (re.compile(rf",?\s+without\s+(?:changing|touching|editing|modifying)\s+{_OWN_PARTS}(?=\s*(?:$|[.;,!]))", re.I), ""),
    # ("Delete X (confirm the dialog)": the confirmation every deletion answers)
    (re.compile(r"\s*\((?:and\s+|then\s+)?(?:confirm|accept|ok|okay|approve|answer\s+yes\s+to)\s+(?:the\s+|any\s+)?(?:dialog|prompt|"
                r"popup|pop-up|alert|warning|confirmation|question)\s*\)", re.I), ""),
    # ("Add one more step at the end of 'How to Deploy': Close the ticket": a line of that page's text)
    (re.compile(r"\b(?P<v>add|append|put|write|insert)\s+(?:one\s+more|another|a\s+new|a|an|one|a\s+further)\s+"
                r"(?P<u>step|line|item|point|bullet(?:\s+point)?|entry|sentence|paragraph|row)\s+(?:at\s+the\s+(?:end|bottom)\s+of|"
                r"to|in|into|on)\s+(?P<p>[\"'“‘][^\"'”’]+[\"'”’]|(?:the\s+)?[^:]{2,60}?)\s*:\s*(?P<x>[^\"“]\S.*?)\s*[.!]?$", re.I),
     lambda m: f"{m.group('v')} the line \"{m.group('x')}\" at the end of {m.group('p')}"),
    # ("and the lock stays Off", "the audio remains English": what it should still be)
    (re.compile(r"\b(?:stays|remains|is\s+still|still\s+is|stays\s+as|remains\s+as)\s+(?=(?-i:[A-Z0-9])|on\b|off\b)", re.I), "is "),
    # ("check Subtitles remain Off"; "both settings stay as they were" is not a value: only a name or on/off after it)
    (re.compile(r"\b(?P<v>check|verify|ensure|make\s+sure|confirm)\s+(?:that\s+)?(?P<x>[^,;.]{1,40}?)\s+(?:stay|remain)"
                r"(?:\s+as)?\s+(?=(?-i:[A-Z0-9])|on\b|off\b)", re.I), r"\g<v> \g<x> are "),
    # "enter the PIN and confirm with OK": the control that confirms, pressed
    (re.compile(r"\b(?:confirm|validate|submit|accept)\s+(?:it\s+|this\s+)?(?:with|using|by\s+(?:pressing|clicking|"
                r"tapping|hitting))\s+(?:the\s+)?(?=\S)", re.I), "press "),
    # ("check that the setting then reads Off": when is what the steps before say)
    (re.compile(r"(?<=\w)\s+then\s+(?=(?:reads?|shows?|says?|displays?|lists?)\b)", re.I), " "),
    # -- chat shorthand: "goto movies n play silnt harbor thx", "subs on + lock on pls", "srch X n play it"
    # (never a key's own sign: "CH + three times", "vol + once")
    (re.compile(r"(?<=[a-z0-9])(?<!\bch)(?<!\bvol)(?<!channel)(?<!volume)\s+(?:n|\+)\s+(?=[a-z])"
                r"(?!(?:once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten)\b)", re.I), " and "),
    (re.compile(r"(?:\s*[,.!-]*\s+(?-i:thx|thanks|thank\s+you|ty|cheers|ta|asap|quick|quickly|kthx|right\s+away|real\s+quick|"
                r"pls|plz))+"
                r"\s*[.!]*$"), ""),
    (re.compile(r"\bsrch\b", re.I), "search"),
    # "chk now line = Stand-Up Sunday", "assert title == 'X'": what a check reads, and the value it shows
    (re.compile(r"\b(?P<v>check|chk|verify|confirm|assert|expect|ensure)\s+(?:that\s+)?(?P<x>[a-z][\w ]{0,30}?)\s*={1,3}\s*(?=\S)",
                re.I), r"\g<v> \g<x> shows "),
    # "ch+ x3 — wraps? expect aurora news": a word asked on its own says nothing more; "expect X" checks X
    (re.compile(r"\s+[—–-]+\s+\w+\?(?=\s|$)"), ","),
    (re.compile(r"(?<=[,;.!?]\s)expect\s+(?!to\b|that\b)(?=[^:]*$)", re.I), "then check "),
    # "subtitels stay OFF": a state said to hold on, checked
    (re.compile(r"(?:(?<=^)|(?<=[.;!]\s))(?P<x>(?!(?:please|then|and|it|we|you|i|they|just|now)\b)[a-z][\w-]*"
                r"(?:\s+[a-z][\w-]*)?)\s+(?:stay|remain)\s+(?P<v>on|off)(?=\s*(?:$|[.,;!]))", re.I), r"check \g<x> is \g<v>"),
    # "check who saved the draft - it should be Maya": a question, then its answer (server.planners.intents_answer)
    (re.compile(r"\b(?P<q>(?:who|what|which|when|where|how\s+many|how\s+much|how\s+long)\b[^?]{3,80}?)\s*(?:[-–—,;:]|\(\s*)\s*"
                r"(?=(?:it|that|they|this|the\s+answer)\s+(?:should|must|ought\s+to|is\s+supposed\s+to)\s+be\b)", re.I),
     r"\g<q>? "),
    # "Cancel the job. Yes, I'm sure.": the confirmation the app will ask for, given
    (re.compile(r"(?:(?<=^)|(?<=[.!?;,]))\s*(?:and\s+)?(?:yes|yep|yeah)\s*,?\s*(?:i['’]?m|i\s+am|we['’]re|we\s+are)\s+sure\s*[.!]?",
                re.I), " (confirm the dialog)"),
    # "Pause the job, I need to swap the cable": what the tester does next, by hand (a check is never dropped)
    (re.compile(r"\s*[,;-]\s*(?:because\s+)?(?:i|we)\s+(?:need|have|want)\s+to\s+(?:clean|replace|swap|swap\s+out|grab|reach|"
                r"unplug|plug\s+in|reseat|wipe|dust)\b[^,;.]*(?=[.!]?\s*$)", re.I), ""),
    # "a preset called TPU with 225° for the extruder and 50° for the bed": each field, then its value
    (re.compile(r"\bwith\s+(?P<v>[^\s,]+)\s+for\s+(?:the\s+)?(?P<f>[a-z][\w -]{1,25}?)\s+and\s+(?P<w>[^\s,]+)\s+for\s+(?:the\s+)?"
                r"(?P<g>[a-z][\w -]{1,25}?)(?=\s*(?:$|[,;.!]))", re.I), r"with \g<f> \g<v>, \g<g> \g<w>"),
    # "take the post offline", "put the page live": a page's publishing, in a tester's words
    # (and what says it again after a dash: "take X offline - unpublish it")
    (re.compile(r"\btake\s+(?P<x>[^,;]+?)\s+(?:offline|off\s+line|down\s+from\s+the\s+site)(?:\s*[-–—,]\s*unpublish\s+(?:it|that|"
                r"them))?(?=\s*(?:$|[,;.!]|\s+[-–—]\s|\s+and\b))", re.I), r"unpublish \g<x>"),
    (re.compile(r"\b(?:put|push|make)\s+(?P<x>[^,;]+?)\s+live(?:\s*[-–—,]\s*publish\s+(?:it|that|them))?"
                r"(?=\s*(?:$|[,;.!]|\s+[-–—]\s|\s+and\b))", re.I), r"publish \g<x>"),
    # "…, but keep the page, we'll update it later": what is kept, and what the tester will do later
    (re.compile(r"\s*,\s*but\s+(?:keep|leave)\s+(?:the|its|their|it|them)\b[^,;.]{0,40}(?=\s*(?:$|[,;.!]))", re.I), ""),
    (re.compile(r"\s*[,;-]\s*(?:we|i)(?:['’]ll|\s+will)\s+[^,;.]{2,60}?\s+(?:later|tomorrow|afterwards|next\s+week)\s*(?=[.!]?\s*$)",
                re.I), ""),
    # "shorten the slug of X to x", "correct the year to 1969": a change, only with the value it is changed to
    # (in lower case inside a sentence: "move Fix the gate to Garden" names a record)
    (re.compile(r"(?:^(?i:shorten|lengthen|correct|tweak|alter|fix)|\b(?:shorten|lengthen|correct|tweak|alter|fix))\s+"
                r"(?=(?:the\s+|its\s+|his\s+|her\s+|their\s+)?[^,;.]{1,60}?\s+to\s+\S)"), "change "),
    # "check Live TV is shown on CH 4", "confirm it's on CH 1 with Now: Evening Headlines": the screen, the channel, and
    # what shows with it, each a check
    (re.compile(r"\b(?P<v>check|verify|confirm|make\s+sure|ensure)\s+(?:that\s+)?(?P<s>[\w ]{2,20}?)\s+is\s+(?:shown|open|displayed)\s+"
                r"on\s+(?:ch|channel)\.?\s*(?P<n>\d{1,4})\b", re.I), r"\g<v> \g<s> is shown, then check we're on channel \g<n>"),
    (re.compile(r"\bon\s+(?:ch|channel)\.?\s*(?P<n>\d{1,4})\s+with\s+(?P<x>(?-i:[A-Z\"'“])[^,;.]*)", re.I),
     r"on channel \g<n>, then check \g<x> is shown"),
    # "ltv @ ch6": a place, then the channel on it
    (re.compile(r"(?<=\w)\s*@\s*(?=(?:ch|channel)\b|ch\d)", re.I), ", then "),
    # a tester's shorthand for the words of a request ("chk title", "shld land on ch 3", "w/ PIN 0000")
    (re.compile(r"\b(?:chk|chck|cHk)\b", re.I), "check"),
    (re.compile(r"\b(?:shld|shd)\b", re.I), "should"),
    (re.compile(r"\b(?:vrfy|verif)\b", re.I), "verify"),
    (re.compile(r"(?<!\S)w/o(?!\S)", re.I), "without"),
    (re.compile(r"(?<!\S)w/(?=\s*\S)", re.I), "with "),
    (re.compile(r"(?:(?<=^)|(?<=\band\s)|(?<=\bthen\s))replay\s+(?=(?:the\s+)?(?-i:[a-z]))"), "play "),
    # ("subs on and parental lock on": a setting and its state, with no verb)
    (re.compile(r"(?:(?<=^)|(?<=\band\s)|(?<=,\s))(?P<x>(?!(?:go|carry|log|put|turn|switch|keep|hold|move|click|tap|press|"
                r"is|are|be|was|were|it|them|this|that|come|get|stay|sign)\b)(?-i:[a-z])[\w-]*"
                r"(?:\s+(?!(?:is|are|be|stay|stays|remain|remains|still)\b)(?-i:[a-z])[\w-]*){0,2}?)\s+"
                r"(?P<s>on|off)(?=\s*(?:$|[,;.!(]|\s+(?:and|then|with|pls|please)\b))"), _setting_on),
    # -- non-native: word order and verbs of other languages
    # ("put please the channel", "change it please to 1234": a "please" inside the request is only polite)
    (re.compile(r"(?<=[a-z])\s+please(?=\s+(?:the|to|in|on|it|them|a|an|my)\b)", re.I), ""),
    # ("The subtitles, activate them", "The language of the audio, put it in Spanish": what it acts on, said first)
    (re.compile(r"^(?P<o>(?:the|my|this|that)\s+[^,]{2,40}?)\s*,\s*(?P<v>[a-z]+)\s+(?:it|them)\b", re.I), _object_first),
    # ("The film Neon Tides, I want that it plays now": what is wanted of it)
    (re.compile(r"^(?P<o>(?:the|my|this|that)\s+[^,]{2,40}?)\s*,\s*(?:i|we)\s+(?:want|would\s+like|wish|need)\s+that\s+"
                r"(?:it|they)\s+(?P<v>[a-z]+?)(?:e?s)?(?:\s+now)?(?=\s*(?:$|[,.;!]))", re.I), _wanted_of),
    (re.compile(r",\s*the\s+one\s+(?:of|with|for|about|that|which|where|showing|from)\b[^,.;]*", re.I), ""),
    (re.compile(r"\band\s+after(?:wards)?\s+(?!(?:that\s+)?you\b)(?=(?:that\s+)?[a-z]+\b)", re.I), "and then "),
    (re.compile(r"\bcome\s+back\s+(?=to\b)", re.I), "go back "),
    (re.compile(r"\b(?P<v>go|move|jump|zap|switch)\s+(?P<d>up|down)\s+of\s+(?=\w+\s+channels?\b)", re.I), r"\g<v> \g<d> "),
    (re.compile(r"^from\s+(?:this|the\s+current|the\s+present|here\s+the)\s+(?:channel|screen|page|one)\s*,\s*", re.I), ""),
    (re.compile(r"\bthe\s+(?P<a>language|volume|size|colou?r|quality|speed|track)\s+of\s+(?:the\s+)?"
                r"(?P<b>audio|subtitles?|sound|text|video|picture|menu|interface)\b", re.I), r"the \g<b> \g<a>"),
    (re.compile(rf"\bput\s+(?P<x>[^,;]+?)\s+(?:in|into|on)\s+(?P<l>{_LANGUAGES})\b", re.I), r"set \g<x> to \g<l>"),
    # (", the English I don't understand well": why, said after the request)
    (re.compile(r"\s*,\s*(?:because\s+|as\s+|since\s+)?[^,;]*?\b(?:i|we)\s+(?:don['’]t|do\s+not|can['’]t|cannot|am\s+not|"
                r"['’]m\s+not)\s+(?:understand|speak|read|like|see|hear|know|get)\b[^,;]*$", re.I), ""),
    (re.compile(r"\s+so\s+(?:that\s+)?(?:i|we)\s+can\s+see\s+(?:it\s+|that\s+)?(?:for\s+(?:myself|ourselves)|with\s+"
                r"(?:my|our)\s+own\s+eyes)", re.I), ""),
    (re.compile(r"\bch\.?\s*(?P<d>up|down)\b", re.I), r"channel \g<d>"),
    (re.compile(r"\bput\s+(?:on\s+)?(?:the\s+)?(?:channel|ch\.?)\s*(?P<n>(?-i:[A-Z0-9])[^,;]*?|\d+)(?:\s+on)?(?=\s*(?:$|[,.;!?]|\s+(?:in|on|and|then|please|for\s+(?:me|us))\b))",
                re.I), r"switch to channel \g<n>"),
    (re.compile(r"\bplease\s+to\s+(?=[a-z])", re.I), "please "),
    (re.compile(r"\bmake\s+(?=(?:play|pause|stop|start|resume)\b)", re.I), ""),
    (re.compile(r"\bmake\s+(?P<o>it|this|that|them)\s+(?P<v>play|pause|stop|start)\b", re.I), r"\g<v> \g<o>"),
    (re.compile(r"\b(?P<v>pause|play|stop|resume)\s+on\s+(?P<o>it|this|that|them)\b", re.I), r"\g<v> \g<o>"),
    # ("… after you press OK" at the end is when a check holds, never the next step)
    (re.compile(r"(?:,\s*|\band\s+)after(?:wards)?\s+(?:that\s+)?you(?:\s+(?:do|have|will))?\s+(?=[a-z])", re.I),
     " and then "),
    (re.compile(r"\b(?:i|we)\s+(?:am|are)\s+wanting\s+to\b", re.I), "I want to"),
    (re.compile(r"\b(?:i|we)\s+(?:want|would\s+like|wish)\s+that\s+(?:the\s+)?(?P<x>[\w ]{2,30}?)\s+(?:is|are|be|get|gets)\s+"
                r"(?P<s>activated|enabled|turned\s+on|switched\s+on|on|deactivated|disabled|turned\s+off|switched\s+off|off)"
                + _END, re.I),
     lambda m: f"turn {m.group('x')} {'off' if re.search(r'de|dis|off', m.group('s'), re.I) else 'on'}"),
    (re.compile(r"^(?:please\s+)?control\s+(?:please\s+)?(?=(?:that|if|whether)\b)", re.I), "check "),
    (re.compile(r"\b(?P<v>start|play|put\s+on|open)\s+(?P<o>it|this|that|this\s+one|that\s+one)\s+(?:for\s+(?:watching|viewing|"
                r"playback)|to\s+(?:watch|view|see)(?:\s+it)?)" + _END, re.I), r"play \g<o>"),
    # -- acceptance criteria: the role, the condition, the outcome
    (re.compile(r"^as\s+an?\s+[^,]{1,50},\s*(?:(?:i|we)\s+(?:want|need|would\s+like)\s+to\s+)?", re.I), ""),
    (re.compile(r"^given\s+(?:that\s+)?(?:i\s+am|i['’]m|we\s+are|the\s+(?:user|viewer|tester)\s+is)\s+(?:on|at|in)\s+"
                r"(?:the\s+)?(?P<p>[\w -]{2,30}?)(?:\s+(?:screen|page|menu))?\s*,\s*", re.I), r"go to the \g<p> screen, then "),
    (re.compile(r"(?:(?<=^)|(?<=\bthen\s))when\s+(?:i|we|the\s+(?:user|viewer|tester))\s+", re.I), ""),
    (re.compile(r",\s*then\s+(?!(?:check|verify|confirm|make\s+sure|ensure|assert|see|validate)\b)"
                r"(?=(?:the\s+)?[\w ]{2,40}?\s+(?:should|must|will)\b)", re.I), ", then check "),
    (re.compile(r"^(?:i|we)\s+(?=(?:set|turn|open|go|select|choose|play|start|press|switch|enable|disable|change|search|"
                r"pick|tune|watch|navigate|click|tap|hit)\b)", re.I), ""),
    # "A user who searches for "paper" should be able to open Paper Kingdoms from the results (and land on …)"
    (re.compile(r"^(?:a|the|any|every)\s+(?:user|viewer|customer|tester|person|visitor|member)\s+(?:who|that)\s+"
                r"(?P<a>.+?)\s+(?:should|must|can|will)\s+be\s+able\s+to\s+(?P<b>.+?)"
                r"(?:\s+and\s+(?:land|end\s+up|arrive|get)\s+(?:on|at|in)\s+(?P<c>[^,;.]+))?(?=\s*(?:$|[.;!?]))", re.I),
     lambda m: f"{_first_verb_base(m.group('a'))}, then {m.group('b')}" + (
         f", then check {m.group('c')} is shown" if m.group("c") and not re.match(r"(?:its|their|his|her)\b", m.group("c"), re.I)
         else "")),
    # "While The Last Orbit is playing, pausing playback should leave the player showing Paused": the state it
    # starts in (the setup's), then the request said as a gerund, then what it should leave
    (re.compile(r"^while\s+(?:in|on|at)\s+(?:the\s+)?(?P<p>[^,]{2,30}),\s*", re.I), r"go to the \g<p>, then "),
    (re.compile(r"^while\s+(?P<c>[^,]{3,60}),\s*", re.I), r"check \g<c>, then "),
    (re.compile(r"(?:(?<=^)|(?<=\bthen\s))(?P<g>[a-z]+ing)\s+(?P<o>[\w ]{2,40}?)\s+should\s+(?:leave|result\s+in|make|"
                r"cause|get)\s+(?P<c>.+)$", re.I),
     lambda m: f"{_base(m.group('g'))} {m.group('o')}, then check {_SHOWING.sub('shows', m.group('c'))}"),
    # "this film River of Glass", "from the year 2021", "the channel number up top": words around what is meant
    (re.compile(r"\b(?:this|that)\s+(?:film|movie|programme|program|show|channel|episode|title)\s+(?=(?-i:[A-Z]))", re.I), ""),
    (re.compile(r"\bfrom\s+the\s+year\s+(?=\d{4}\b)", re.I), "from "),
    (re.compile(r"\s+(?:up\s+top|in\s+the\s+(?:top|bottom)\s+(?:left|right)(?:\s+corner)?)\b", re.I), ""),
    # "The Quiet Valley detail page: genre should read Drama": that item's page, then what it should show
    (re.compile(r"^(?P<x>(?-i:[A-Z0-9])[^:,;]{1,50}?)\s+(?:(?:detail|details|info|information)\s+)?(?:page|screen)\s*:\s*"
                r"(?=[a-z][^.;]*?\b(?:should|must|ought\s+to)\b)"), r"open \g<x>, then check "),
    # -- terse steps
    (re.compile(r"(?:(?<=^)|(?<=\s))\(?(?P<n>[1-9])\)\s+(?=[A-Za-z])"), _numbered),
    (re.compile(r"(?P<k>(?:ch|channel)\s*[+-]|\b(?:up|down|left|right|ok|back|enter|next|prev|previous|page\s*(?:up|down))\b)"
                r"\s*[x×]\s?(?P<n>\d{1,2})\b", re.I), r"\g<k> \g<n> times"),
    (re.compile(r"\bexp(?:\.\s*:|\s*:)\s*|\bexpected\s*:\s*", re.I), "Expected: "),
    (re.compile(r"\bsel\.\s*", re.I), "select "),
    (re.compile(r"\b(?P<w>audio|subtitles?|menu|ui|display|interface)\s+lang\b\.?", re.I), r"\g<w> language"),
    (re.compile(r"\(\s*(?:with\s+)?pin\s*[:=]?\s*(?P<p>\d{3,8})\s*\)", re.I), r"with PIN \g<p>"),
    (re.compile(r"(?:(?<=^)|(?<=[,;.]\s))(?P<x>(?-i:[A-Z])\w*(?:\s+(?!(?:is|are|be|should|must|not|stays?|remains?|was|"
                r"were|still|now)\b)\w+){0,3}?)\s+(?P<s>(?-i:ON|OFF))\b(?=\s*(?:$|[.;,!(]|\s+\(|\s+with\b))"),
     lambda m: f"turn {m.group('x')} {m.group('s').lower()}"),
    (re.compile(rf"\b(?P<w>{_SHOWN_BY})\s*=\s*(?=\S)", re.I), r"\g<w> shows "),
    # ("turn the lock on in Settings with PIN 0000": the place first, then the switch and what it asks for)
    (re.compile(r"\b(?P<v>turn|switch|put|set)\s+(?P<x>(?:the\s+)?[\w -]{2,30}?)\s+(?P<s>on|off)\s+(?:in|on|under)\s+(?:the\s+)?"
                r"(?P<p>(?-i:[A-Z])[\w ]*?|settings)(?=\s*(?:$|[,;.!(]|\s+(?:with|using|and|then)\b))", re.I),
     r"open \g<p>, then \g<v> \g<x> \g<s>"),
    # ("switch to channel 5 in Live TV": the place first, then the channel)
    (re.compile(r"\b(?P<v>switch|tune|change|go)\s+to\s+channel\s+(?P<n>\d+|(?-i:[A-Z])[\w ]*?)\s+(?:in|on)\s+(?:the\s+)?"
                r"(?P<p>(?-i:[A-Z])[\w ]*?|live\s+tv|guide|live)(?=\s*(?:$|[,;.!]|\s+(?:and|then)\b))", re.I),
     r"open \g<p>, then \g<v> to channel \g<n>"),
)


# what a user story wants to hold once its request is done ("As a parent, I want to lock it, so that …")
_SO_THAT = re.compile(r",?\s+so\s+that\s+(?P<c>[^,;.]+?)\s*(?=$|[.;!?])", re.I)


def reword(task: str) -> str:
    """*task* with each of :data:`RULES` applied in turn, and the spaces it leaves tidied."""
    story = bool(re.match(r"\s*as\s+an?\s", task, re.I))
    numbered = bool(re.search(r"(?:^|\s)\(?1\)\s", task)) and bool(re.search(r"\s\(?2\)\s", task))
    for pattern, replace in RULES:
        if replace is _numbered and not numbered:
            continue
        task = pattern.sub(replace, task)
    if story:
        task = _SO_THAT.sub(r", then check \g<c>", task)
    task = re.sub(r"\s+([,.;!?])", r"\1", re.sub(r"\s{2,}", " ", task))
    return re.sub(r"^(?:,\s*then\s+|,\s*)", "", task.strip())
