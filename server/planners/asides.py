"""What a tester says around a request: the question it answers, and the background that led to it.

- **A question, then the request that answers it**: "Is Melody TV on channel 5? Put channel 5 on so I can see."
  The request is done, then the question is its check. A question of whether something can be done or works
  ("Can parents lock the box?", "Does Pause really work?") is what the request tries: it is dropped, and an "it"
  or "that search" of the request is what the question named.
- **Background before the request**: "A customer says the French audio is ignored on replays. Could you set …",
  "Background: we're doing accessibility testing … So turn subtitles on, …". Sentences about the tester, a
  customer or a team (who they are, what they said or want to see), said before a sentence that asks for
  something, are dropped.
- **A question after the request**: "… start Ocean Giants - does the player then show French?" is its check.
"""
from __future__ import annotations

import re

from server.planners.language import VERBS, WORKFLOW_WORDS, Act, read_clause, strip_filler

# verbs of a request the planner reads through a restatement ("raise X to urgent", "give X to Bo")
_MORE_VERBS = frozenset("raise lower bump escalate give hand reassign rename move bin ditch take put get fix mark "
                        "assign close resolve reopen restart start stop clear reboot rerun retry kill resume pause".split())
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Za-z\"'“])")
_ASK = re.compile(r"^(?:so\s*,?\s*|then\s*,?\s*|now\s*,?\s*|and\s+|ok(?:ay)?\s*,?\s*)?(?:(?:could|can|would|will)\s+(?:you|u)\s+"
                  r"(?:please\s+)?|please\s+|(?:i|we)\s+(?:need|want|would\s+like|['’]d\s+like)\s+you\s+to\s+)?", re.I)
# who a sentence of background is about: the tester, a customer, a team (never a thing the app shows)
_TELLER = re.compile(r"^(?:i|i['’](?:m|ve|d)|we|we['’](?:re|ve|d)|our|my|they|someone|somebody|people|users?|customers?|"
                     r"clients?|viewers?|parents?|(?:a|an|the|one|some)\s+(?:customer|client|user|viewer|household|colleague|"
                     r"tester|manager|team|(?:[\w-]+\s+)?team|partner|parent|family)s?|one\s+thing|what\s+(?:i|we|they)\s+"
                     r"(?:want|need|would\s+like)\s+to\s+see|"
                     # a team or a person who wants something ("Marketing needs a screenshot of …")
                     r"(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?(?=\s+(?:needs?|wants?|asked|asks|is\s+asking|requested|"
                     r"would\s+like|has\s+asked)\b))\b", re.I)
_POLITE = re.compile(r"^(?:so\s*,?\s*)?(?:could|can|would|will)\s+(?:you|u)\b", re.I)   # "Could you switch it off …?"
# "We're testing that subtitles stay on": what the task checks, never background
_TESTED = re.compile(r"\b(?:test|check|verify|ensure|confirm|see)(?:ing|s)?\s+(?:that|whether|if)\b", re.I)
# what a request says of something a sentence before it named: "it", "that project", "them"
_REFERS = re.compile(r"\b(?:it|them|they|her|him|this|that|these|those)\b(?!\s+(?:is|are|was|were)\b)", re.I)
_SHOULD = re.compile(r"\b(?:should|must|ought\s+to|has\s+to|have\s+to|needs?(?!\s+(?:a|an|the|some|more|our|my)\b)|expects?|expected|supposed|want(?:s)?\s+to\s+see)\b|"
                     r"\b(?:says?|said|reports?|reported|claims?|claimed|thinks?|tells?|told)\s+(?:that\s+)?[^.]*?\b(?:is|are|shows?|"
                     r"plays?|reads?)\s+(?-i:[A-Z0-9\"'“])", re.I)
_QUESTION = re.compile(r"^(?P<aux>is|are|was|were|does|do|did|can|could|will|would|has|have)\s+(?P<q>.+?)\s*\?$", re.I)
# a question of whether something can be done, or works: what the request that follows tries
_CAPABILITY = re.compile(r"^(?:can|could|will|would)\b|\b(?:work|works|working|possible|able)\b", re.I)
_NAME = re.compile(r"(?-i:[A-Z0-9][\w'’-]*)(?:\s+(?:(?:of|at|the|and|in|on|a|de|la)\s+)*(?-i:[A-Z0-9][\w'’-]*))*")
_CHECKS = re.compile(r"\b(?:check|verify|confirm|make\s+sure|ensure|tell\s+me|let\s+me\s+know|see\s+(?:if|whether))\b", re.I)
_REDO = re.compile(r"\bdo\s+(?:that|this|the\s+same|it|so)(?:\s+(?:search|thing|step|again))?\b", re.I)


def _requests(sentence: str) -> bool:
    """*sentence* asks for something to be done or checked (its verb, after "could you" and the like)."""
    said = strip_filler(_ASK.sub("", sentence.strip(), count=1))
    said = re.sub(r"^(?:on|in|at|from|for)\s+[^,]{1,40},\s*(?:please\s+)?", "", said, flags=re.I)   # "on this page, add …"
    first = said.split()[0].lower().strip(",.") if said.split() else ""
    if first in ("tell", "let", "show") or first in _MORE_VERBS or _REDO.match(said):
        return True
    return first in VERBS or first in WORKFLOW_WORDS or read_clause(said).act not in (Act.NONE, Act.WANT, Act.CHECK)


def _background(sentence: str) -> bool:
    said = sentence.strip()
    return bool(_TELLER.match(said)) and not said.endswith("?") and not _SHOULD.search(said) \
        and not _requests(said) and not re.search(r"[\"“‘]|(?<!\w)'\w", said) and not _TESTED.search(said)


def split_sentences(task: str, between: re.Pattern[str] = _SENTENCE) -> list[str]:
    """*task*'s sentences, split where *between* matches outside quoted words (a stop, by default)."""
    held: list[str] = []
    masked = re.sub(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']+'(?!\w)", lambda m: held.append(m.group(0)) or f"\x00{len(held) - 1}\x00",
                    task)
    return [re.sub(r"\x00(\d+)\x00", lambda m: held[int(m.group(1))], p).strip() for p in between.split(masked) if p.strip()]


def _answered(question: re.Match[str], rest: str) -> str:
    """*rest* (the request) with what the question it follows said: its check after it, or its names in place
    of the request's "it" and "do that search"."""
    aux, q = question.group("aux").lower(), re.sub(r"\b(?:actually|really|still|even|currently)\s+", "", question.group("q"))
    if aux in ("is", "are", "was", "were") and not _CAPABILITY.search(question.group(0)):
        return f"{rest.rstrip(' .!')}, then check {aux} {q}?"
    if aux in ("does", "do", "did", "has", "have") and not _CAPABILITY.search(question.group(0)) \
            and not _CHECKS.search(rest):
        # "Does the guide show Robo Pals on channel 4? Open the guide.": what it asks is the request's check
        said = said_as_statement(aux, q)
        if said.split()[0].lower() != aux:
            return f"{rest.rstrip(' .!')}, then check {said}"
        return f"{rest.rstrip(' .!')}, then check {aux} {q}?"
    by = re.search(r"\bby\s+(?P<g>[a-z]+ing)\s+(?P<x>.+)$", q, re.I)
    if by and _REDO.search(rest):
        g = by.group("g").lower()
        base = next((b for b in (g[:-3], g[:-3] + "e", g[:-4]) if b in VERBS), "")
        if base:
            rest = _REDO.sub(f"{base} {by.group('x')}", rest, count=1)
    name = next((m.group(0) for m in _NAME.finditer(q) if m.group(0).split()[0].lower() not in VERBS
                 and m.group(0) not in ("I",)), "")
    if name:
        rest = re.sub(r"\b(?:the\s+)?(?:movie|film|show|programme|program|episode|item|product|record|page)['’]s\s+"
                      r"(?:page|details?(?:\s+page)?|detail\s+page)\b", name, rest, count=1, flags=re.I)
        rest = re.sub(r"\b(?P<v>start|play|open|watch|pause|stop|resume|select|pick|choose)\s+(?:it|that|this)\b",
                      lambda m: f"{m.group('v')} {name}", rest, count=1, flags=re.I)
    return rest


# "This box already has the lock on. Could you switch it off …": how the device starts, and what "it" is
_HAS_ON = re.compile(r"^(?:this|the|my|our)\s+(?:box|device|tv|app|player|phone|unit|stb|set-?top\s+box|receiver)\s+"
                     r"(?:already\s+|currently\s+|now\s+|still\s+)?has\s+(?P<x>(?:the|its|a)\s+[\w -]{2,30}?)\s+"
                     r"(?:switched\s+|turned\s+|set\s+)?(?:on|off|enabled|disabled|locked|unlocked|active)\s*[.!]?$", re.I)


def _its_thing(parts: list[str]) -> list[str]:
    """A sentence that says what the device has on, then a request about "it": the request, about that thing."""
    for i, p in enumerate(parts[:-1]):
        m = _HAS_ON.match(p.strip())
        if m and re.search(r"\b(?:it|them)\b", parts[i + 1], re.I):
            thing = re.sub(r"^(?:its|a)\s+", "the ", m.group("x"), flags=re.I)
            parts = parts[:i] + [re.sub(r"\b(?:it|them)\b", thing, parts[i + 1], count=1, flags=re.I)] + parts[i + 2:]
            break
    return parts


# a sentence that tells what happened or what someone says ("the replay of X froze", "the newsletter claims X is …")
_EVENT = re.compile(r"\b(?:froze|broke|crashed|hung|stopped|failed|went|got|came|fell|claims?|claimed|says|said|states|"
                    r"stated|mentions|mentioned|reported|reports|told)\b", re.I)


# a name written as a key: a path of parts ("Liabilities:CreditCard:Visa", "docs/setup"), an id ("QA-1409")
_KEY_NAME = re.compile(r"(?<![\w:/-])(?:[A-Za-z][\w]*(?:[:/][A-Za-z0-9][\w-]*)+|[A-Z]{2,}-\d+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|"
                       r"[a-z][a-z0-9]*(?:-[a-z0-9]+){2,})"
                       r"(?![\w:/-])")


def _one_name(sentence: str) -> str:
    """The one thing *sentence* names by a capitalised name of two words or more ("Silent Harbor") or by a key
    ("Liabilities:CreditCard:Visa"), or ''."""
    names = {n.strip() for m in _NAME.finditer(sentence) for n in re.split(r"\s+and\s+", m.group(0))
             if len(n.split()) >= 2 and not re.match(r"^(?:I|I['’]\w+|We|The|A|An|It|This|That|Is|Are|Was|Were|Does|Do|"
                                                     r"Did|Has|Have|Can|Could|Will|Would|What|Where|Which|Who|How)\b", n)}
    keys = {m.group(0) for m in _KEY_NAME.finditer(sentence)}
    if keys and not any(k in n for k in keys for n in names):
        names |= keys
    return names.pop() if len(names) == 1 else ""


def _named_in_question(parts: list[str]) -> list[str]:
    """"What's the balance of Liabilities:CreditCard:Visa? Go to its account page.": the request's "its" is the
    one thing the question before it named."""
    for i, p in enumerate(parts[:-1]):
        request = parts[i + 1]
        refers = _PRONOUN.search(request)
        if not p.endswith("?") or _POLITE.match(p) or _QUESTION.match(p) or not _requests(request) or refers is None:
            continue   # (a yes-no question is the request's check: see _answered)
        named = _one_name(p)
        if named and named.lower() not in request.lower():
            possessive = refers.group(0).lower() in ("her", "his", "its", "their")
            # a key's own page is "the Assets:Cash account page", never "Assets:Cash's"
            said = (f"the {named}" if _KEY_NAME.fullmatch(named) else f"{named}'s") if possessive else named
            parts = parts[:i + 1] + [request[:refers.start()] + said + request[refers.end():]] + parts[i + 2:]
        break
    return parts


# what happened to something, said before the request about it: "Lena Brandt registered last week", "We stopped
# using PayPal", "Harbor Dental Clinic just paid invoice 1077", "STB-10 is back from repair"
_HAPPENED = re.compile(r"\b(?:[a-z]{2,}(?:ed|erd)|paid|sent|took|made|left|went|came|broke|froze|got|fell|began|ran|bought|"
                       r"sold|gave|lost|found|told|wrote|did|was\s+a\s+mistake|just|(?:is|are)\s+back|seems?|looks|"
                       r"(?:is|are)\s+(?:stuck|down|broken|frozen|hung|dead|flaky|slow|done|over|finished|FATAL|failing|"
                       r"again)|(?:isn|aren|won|doesn|don|can)['’]t|need|needs)\b", re.I)
_PRONOUN = re.compile(r"\b(?:her|his|its|their|him|it|them)\b", re.I)
_A_VALUE = re.compile(r"\d|@|[\"“‘]")   # a number, an address or quoted words: a value said


def _happened(sentence: str) -> bool:
    said = sentence.strip()
    return not said.endswith("?") and not _SHOULD.search(said) and not _TESTED.search(said) \
        and not _CHECKS.search(said) and not _requests(said) and bool(_HAPPENED.search(said))


def _about_what_happened(parts: list[str]) -> list[str]:
    """A sentence of what happened, before the first request, is dropped where the request says what it is about:
    its "her", "its", "it" is the one name the sentence said, or it names that again itself. Else it is kept."""
    first = next((i for i, p in enumerate(parts) if _requests(p) and not p.endswith("?")), None)
    if not first or not _happened(parts[first - 1]):
        return parts
    before, request = parts[first - 1], parts[first]
    named = _one_name(before)
    refers = _PRONOUN.search(request)
    if refers and _A_VALUE.search(before.replace(named, "") if named else before):
        return parts   # "… changed her email to lena@new.org. Update her record.": the value is only there
    if refers and named:
        possessive = refers.group(0).lower() in ("her", "his", "its", "their") and re.match(
            r"\s+(?!(?:a|an|the|to|and|or)\b)[A-Za-z]", request[refers.end():]) is not None
        request = request[:refers.start()] + (f"{named}'s" if possessive else named) + request[refers.end():]
    elif refers or not (named and named.lower() in request.lower() or _KEY_NAME.search(request)
                        or re.search(r"[\"“‘]", request) or _one_name(request)):
        # what the request is about may be only there ("The Stapler is discontinued. Delete the product."); one
        # that names its own record ("… Delete thumbnail-sprite-jpeg-q") needs nothing of it
        return parts
    return parts[:first - 1] + [request] + parts[first + 1:]


# "We need the 4K stream for today's run - please start enc_uhd", "radio tests are done: stop enc_radio": what
# led to the request, said before a dash or a colon
_LEAD_IN = re.compile(r"^(?P<lead>[^:–—]{8,}?)\s*(?:\s[-–—]{1,2}\s|:\s)\s*(?P<rest>(?:please|pls|plz|kindly|so|can\s+you|could\s+you|"
                      r"would\s+you)\b.*|\S.*)$", re.I)


def _lead_in_dropped(task: str) -> str:
    m = _LEAD_IN.match(task.strip())
    if m is None or "\n" in m.group("lead"):
        return task
    lead, rest = m.group("lead"), m.group("rest")
    if _requests(lead) or lead.endswith("?") or _SHOULD.search(lead) or _CHECKS.search(lead) or _TESTED.search(lead) \
            or re.search(r"[\"“‘]", lead) or not _requests(rest):
        return task   # a request, a check, a value or a step said first ("Steps: …", "Expected: …") is kept
    if not (_happened(lead) or _TELLER.match(lead)) or _PLACE_FIRST.match(lead):
        return task   # "In the Archived folder: delete …", "Logged in as Admin: …": where it is done
    named = _one_name(lead)
    refers = _PRONOUN.search(rest)
    if refers and (not named or _A_VALUE.search(lead.replace(named, ""))):
        return task   # what "it" is, only the lead-in says: the rules of the request said around it read it
    if refers:
        return rest[:refers.start()] + named + rest[refers.end():]
    names_its_own = _KEY_NAME.search(rest) or re.search(r"[\"“‘]", rest) or _one_name(rest)
    if not names_its_own and re.search(r"(?<!^)(?<![.!?]\s)\b(?-i:[A-Z][a-z]|[A-Z]{2,})", lead.strip()):
        return task   # "Blue Mug ran out of stock - please delete the product": which product, only the lead-in says
    return rest


_PLACE_FIRST = re.compile(r"^(?:in|on|under|at|from|inside|within|for|logged\s+in|signed\s+in|as)\b", re.I)


# "The cart total bug is fixed now, can you close it?": what happened, then the request, in one sentence
_STATED_THEN_ASKED = re.compile(r"^(?!(?:when|whenever|once|as\s+soon\s+as|after|while|until|before|if|unless|in\s+case)\b)"
                                r"(?P<s>[^,.;?!]{8,}?\b(?:(?:is|are|was|were|has\s+been|have\s+been|got)\s+(?:now\s+)?"
                                r"(?:[a-z]+ed|broken|done|over|gone|dead|obsolete|stale|wrong|finished|fixed)|now)\b[^,.;?!]*),\s+"
                                r"(?P<r>(?:(?:so\s+)?(?:can|could|would|will)\s+you|please|pls|kindly)\b[^.;!?]*[.?!]?)$", re.I)


def _stated_then_asked(m: re.Match[str]) -> str:
    said = m.group("s")
    if _requests(said) or said.rstrip().endswith("?") or not re.search(r"\b(?:it|them|that|this)\b", m.group("r"), re.I):
        return m.group(0)
    return f"{said}. {m.group('r')[:1].upper()}{m.group('r')[1:]}"


def aside(task: str) -> str:
    """*task* without the background and questions said around its request (see the module); else unchanged."""
    task = _lead_in_dropped(task)
    task = _STATED_THEN_ASKED.sub(_stated_then_asked, task)
    said = split_sentences(task)
    parts = _named_in_question(_about_what_happened(_its_thing(said)))
    if len(parts) < 2:
        return _asked_after(parts[0] if parts and parts != said else task)
    # background first: sentences about people, dropped where a request follows
    first_request = next((i for i, p in enumerate(parts) if _requests(p) and (not p.endswith("?") or _POLITE.match(p))), None)
    if first_request is not None and first_request > 0 and re.search(r"\bit\b", parts[first_request], re.I) \
            and (_background(parts[first_request - 1]) or _EVENT.search(parts[first_request - 1])
                 and not _requests(parts[first_request - 1]) and not parts[first_request - 1].endswith("?")):
        named = _one_name(parts[first_request - 1])
        if named:   # "… they say Silent Harbor came out in 2020. Could you open it …": "it" is the one name said
            parts[first_request] = re.sub(r"\bit\b", named, parts[first_request], count=1, flags=re.I)
            if not re.search(r"\d|[\"“‘]", parts[first_request - 1].replace(named, "")):
                del parts[first_request - 1]   # (a sentence with a value of its own, "… in 2020", is kept)
                first_request -= 1
    if first_request is not None and first_request > 0 and _background(parts[0]) \
            and not (_background(parts[first_request - 1]) and _REFERS.search(parts[first_request])):
        # (a sentence of how things stand, "This box already has the lock on", is kept: a check of where it starts)
        parts = [p for i, p in enumerate(parts) if i >= first_request or not _background(p)]
    if len(parts) >= 2 and parts[0].endswith("?") and not _POLITE.match(parts[0]):   # "Could you update …?" asks
        q = _QUESTION.match(re.sub(r"^(?:so|and|but|ok(?:ay)?|hey)\s*,?\s*", "", parts[0], flags=re.I))
        rest = " ".join(parts[1:])
        asked = strip_filler(_ASK.sub("", parts[1], count=1)).split()
        if q and _requests(parts[1]) and asked and VERBS.get(asked[0].lower().strip(",.")) is not Act.CHECK:
            return _asked_after(_answered(q, rest))
    return _asked_after(" ".join(parts))


# "… start Ocean Giants, does the player then show French?": the question after a request is its check
_ASKED_AFTER = re.compile(r"(?P<lead>[,;]\s*|\s+[-–—]\s+|\s+and\s+)(?P<aux>is|are|does|do|did|has|have)\s+(?P<q>[^,;?]+?)\s*\?\s*$",
                          re.I)
_TELL_ME = re.compile(r"(?:\s*,\s*|\s+)(?:and\s+)?(?:tell|let)\s+me\s+(?:know\s+)?(?:if|whether)\s+", re.I)


_BARE_VERB = re.compile(r"\b(?P<v>show|say|read|display|list|play|have|contain|open|start|appear|include|stay|keep|change|"
                        r"switch|jump|go|land|end\s+up)\b", re.I)


def said_as_statement(aux: str, q: str) -> str:
    """"does" + "the player then show French" → "the player shows French": a question's words as what it asks
    to hold ("is" questions are read as they are)."""
    if aux.lower() not in ("does", "do", "did"):
        return f"{aux} {q}"
    q = re.sub(r"\s+then\s+", " ", q)
    m = _BARE_VERB.search(q)
    if m is None or m.start() == 0:
        return f"{aux} {q}"
    verb = m.group("v")
    third = verb if aux.lower() == "do" else (verb + "es" if verb.endswith(("sh", "ch", "s", "o")) else
                                            "has" if verb == "have" else verb + "s")
    return q[:m.start()] + third + q[m.end():]


# why the tester asks, said after the request: "close the printer ticket, it's fixed", "bump it to high, someone
# nearly fell off it", "bin X, it's done and I don't need it anymore"
_REASON_AFTER = re.compile(r"\s*,\s*(?:(?:it|this|that)['’]s|it\s+is|they['’]re|they\s+are|someone|somebody|because|since|cos|"
                           r"cause|i\s+got|i['’]ve|we['’]ve|i\s+(?:already|just)|we\s+(?:already|just)|we['’]re|we\s+are|"
                           r"i['’]m|i\s+am)\b(?P<r>[^,;]*)$", re.I)
_KEPT_REASON = re.compile(r"\b(?:should|must|check|verify|confirm|make\s+sure|due|playing|shown|showing|visible|listed|"
                          r"selected|checked|open)\b|\b(?:on|off)\s*[.!]?$|[\d@\"“‘]|(?<!\w)'(?!s\b|re\b|ve\b)|"
                          r"(?<=\s)(?-i:[A-Z])", re.I)   # "switch to channel 5, it's Melody TV": a value said


# what the request is for, said after it: "lock the page so nobody else can edit it while we rework it", "… in
# case someone asks", "… before the client call"
_PURPOSE_AFTER = re.compile(r"\s+(?:so\s+(?:that\s+)?(?:nobody|no\s+one|noone|people|users?|customers?|visitors?|we|i|they|"
                            r"everyone|everybody|the\s+team|he|she|it\s+(?:does\s+not|doesn['’]t|won['’]t))|in\s+case\s+"
                            r"(?:someone|somebody|anyone|we|they)|while\s+(?:we|i|they|the\s+team)|before\s+(?:the|our|my|"
                            r"tomorrow|tonight|today|(?:i|we|they)\s+(?:send|leave|go|head|ship|share|present|demo|talk|meet|"
                            r"hand|email|post))|ahead\s+of\s+(?:the|our|my))\b(?P<r>[^,;.?!]*)[.!?]?$", re.I)
# what keeps a purpose said after the request: a check or a value in quotes ("so that the banner shows Melody TV")
_KEPT_PURPOSE = re.compile(r"\b(?:should|must|check|verify|confirm|make\s+sure|shows?|says?|reads?|displays?|playing|"
                           r"shown|showing|visible|listed|selected|checked|sees?|see|has|have|gets?|is|are|lands?|appears?|"
                           r"comes?|knows?|plays?)\b|[\"“‘]", re.I)


# the trouble that led to the request, said of its own subject after it: "restart enc_hd1, the ITV1 feed on rack B is
# showing macroblocking", "reboot the box - the guide keeps freezing"
_TROUBLE_AFTER = re.compile(r"\s*(?:[,;–—]|\s-)\s*(?!(?:and\s+)?(?:then|so|afterwards|after\s+that|now|until|and)\b)"
                            r"(?P<r>[^,;]*?\b(?:is|are|was|were|keeps?|kept|has\s+been|have\s+been|"
                            r"seems?(?:\s+to\s+be)?|looks?)\s+(?:\w+\s+)?(?:showing\s+|getting\s+)?(?:macroblocking|stuck|"
                            r"frozen|freezing|flaky|crashing|crashed|broken|hanging|hung|glitching|glitchy|lagging|laggy|"
                            r"buffering|stuttering|misbehaving|acting\s+up|unresponsive|failing|erroring|dropping\s+frames|"
                            r"pixelat\w+|sluggish|wedged|timing\s+out|flapping|leaking\s+memory|spamming\s+errors)\b"
                            r"[^,;]*?)[.!]?$", re.I)
# requests that mend what the trouble said after them is
_FIXES = re.compile(r"^(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?(?:restart|reboot|reset|reload|refresh|relaunch|"
                    r"bounce|power[-\s]?cycle|cycle|fix|repair|clear|flush|requeue|retry|rerun|re-run|reconnect|reinstall|"
                    r"rollback|roll\s+back|revert|resync|re-sync|unstick|kick|recover|resume|reseat|replace|swap)\b", re.I)
_KEPT_TROUBLE = re.compile(r"\b(?:should|must|check|verify|confirm|make\s+sure|ensure|no\s+longer|not|isn['’]t|aren['’]t)\b",
                           re.I)


def _reason_dropped(task: str) -> str:
    for reason, kept in ((_REASON_AFTER, _KEPT_REASON), (_PURPOSE_AFTER, _KEPT_PURPOSE),
                         (_TROUBLE_AFTER, _KEPT_TROUBLE)):
        m = reason.search(task)
        before = split_sentences(task[:m.start()])[-1:] if m is not None and m.start() else []
        if not before or kept.search(m.group(0)) or not _requests(before[0]):
            continue
        if reason is _TROUBLE_AFTER and not _FIXES.match(before[0].strip()):
            continue   # "kill enc_two, its row is showing crashed": what the request makes happen, to be checked
        task = task[:m.start()]
    return task


def _asked_after(task: str) -> str:
    task = _reason_dropped(task)
    task = _TELL_ME.sub(", then check ", task)
    m = _ASKED_AFTER.search(task)
    if m is None or m.start() == 0 or not _requests(task[:m.start()]):
        return task
    said = said_as_statement(m.group("aux"), re.sub(r"\s+then\s+", " ", m.group("q")))
    return f"{task[:m.start()]}, then check {said}" + ("?" if said.split()[0].lower() == m.group("aux").lower() else "")
