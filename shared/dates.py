"""Calendar dates as testers write them and as pages show them.

A tester writes "8 January 2027", "dec 19th 2026" or "2027-01-08"; a date field takes what its placeholder
shows ("YYYY-MM-DD", "mm/dd/yyyy"), else ISO; a page shows the saved date its own way ("Jan. 8, 2027",
"01/08/2027"). :func:`parse` reads one date said whole, :func:`for_field` writes it for a field, and
:func:`shown_in` finds it in a page's text, however the page writes it.
"""
from __future__ import annotations

import re
from datetime import date

MONTHS = {name: i + 1 for i, name in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"))}
_MONTH_OF = {**MONTHS, **{m[:3]: n for m, n in MONTHS.items()}, "sept": 9}
_MONTH = r"(?P<m>" + "|".join(sorted(_MONTH_OF, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>(?:19|20)\d\d)"
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+)?"
_SAID = [
    re.compile(rf"^{_YEAR}-(?P<mm>[01]?\d)-(?P<d>[0-3]?\d)$"),
    re.compile(rf"^{_WEEKDAY}(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}$", re.I),
    re.compile(rf"^{_WEEKDAY}{_MONTH}\s+(?:the\s+)?{_DAY},?\s+{_YEAR}$", re.I),
    re.compile(rf"^(?P<a>[0-3]?\d)[/.](?P<b>[0-3]?\d)[/.]{_YEAR}$"),
]


def parse(text: str) -> date | None:
    """The date *text* says, said whole ("8 January 2027", "dec 19th 2026", "2027-01-08"), else None. A date of
    numbers only is read only where one reading makes sense ("12/19/2026"; never "01/08/2027")."""
    said = re.sub(r"\s+", " ", text or "").strip(" .,")
    for pattern in _SAID:
        m = pattern.match(said)
        if m is None:
            continue
        groups = m.groupdict()
        if groups.get("a"):
            a, b = int(groups["a"]), int(groups["b"])
            if (a > 12) == (b > 12):
                return None   # both readings make sense, or neither
            month, day = (b, a) if a > 12 else (a, b)
        else:
            month = int(groups["mm"]) if groups.get("mm") else _MONTH_OF[groups["m"].lower()]
            day = int(groups["d"])
        try:
            return date(int(groups["y"]), month, day)
        except ValueError:
            return None
    return None


_FORMAT_SHOWN = re.compile(r"(?P<a>yyyy|mm|dd)(?P<s1>[-/.])(?P<b>mm|dd)(?P<s2>[-/.])(?P<c>yyyy|mm|dd)", re.I)


def for_field(when: date, placeholder: str = "") -> str:
    """*when* as a date field takes it: in the format its placeholder shows ("dd/mm/yyyy"), else ISO."""
    m = _FORMAT_SHOWN.search(placeholder or "")
    if m is None:
        return when.isoformat()
    part = {"yyyy": f"{when.year:04d}", "mm": f"{when.month:02d}", "dd": f"{when.day:02d}"}
    return (part[m.group("a").lower()] + m.group("s1") + part[m.group("b").lower()] + m.group("s2")
            + part[m.group("c").lower()])


def _month_names(n: int) -> str:
    full = next(name for name, i in MONTHS.items() if i == n)
    return "|".join(dict.fromkeys((full, full[:3], "sept" if n == 9 else full[:3])))


def shown_in(when: date, text: str) -> bool:
    """*text* shows the date *when*, in any of the ways pages write one: ISO, a month's name or its short form
    before or after the day ("Jan. 8, 2027", "8 January 2027"), or numbers with the day or the month first
    where they read one way only ("12/19/2026", "19.12.2026"; never "01/08/2027", which may be 1 August)."""
    d, m, y = when.day, when.month, when.year
    day = rf"0?{d}(?:st|nd|rd|th)?"
    month = rf"(?:{_month_names(m)})\.?"
    forms = [rf"{y}-{m:02d}-{d:02d}", rf"{day}\s+(?:of\s+)?{month},?\s+{y}", rf"{month}\s+{day},?\s+{y}",
             rf"{y}/{m:02d}/{d:02d}"]
    if d > 12 or d == m:   # numbers alone only where they read one way: 01/08/2027 may be 1 August
        forms += [rf"0?{m}[/.]0?{d}[/.]{y}", rf"0?{d}[/.]0?{m}[/.]{y}"]
    return re.search(r"(?<![\w/.-])(?:" + "|".join(forms) + r")(?![\w/-]|\.\d)", text or "", re.I) is not None
