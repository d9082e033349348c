"""Sorted tables: read one column of the table a page shows, and say in which order its values run.

Used by the web remote's ``sort_table`` (click a column's header until the column reads in the asked
order) and the DOM verifier's ``check_sorted``. The values are judged as the app's database sorts
them: as numbers when every value is one (a price, a height, "1,200"), else as text, with or without
case; cells with no value ("", "-", "None") are left out, since databases put them first or last.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from backend_core.controllers.web_observe import ICON_FONT_CSS
from shared.errors import DeviceFailure


class SortOrder(str, enum.Enum):
    ASCENDING = "ascending"
    DESCENDING = "descending"
    ANY = "any"   # sorted by the column, either way (the task did not say which)


ORDERS = tuple(o.value for o in SortOrder)

# {column} → the table whose header row has a cell naming the column: its header texts, the index of
# that column, the cells of its rows in that column, and the control (link / button) of the header cell
READ_COLUMN_JS = r"""
([column, click]) => {
  const norm = s => (s || "").replace(/[\u25b2\u25bc\u2191\u2193\u25b4\u25be\u2303\u2304\u21c5\u21f5\u2195\u2b0d]/g, " ")
                             .replace(/\s+/g, " ").trim().toLowerCase();
  const want = norm(column);
  // header cells: a table's head, a row of header cells only, or ARIA column headers (not a row's own th)
  const heads = [...document.querySelectorAll("th, [role=columnheader]")].filter(h => h.offsetParent !== null
      && (h.closest("thead") || h.getAttribute("role") === "columnheader"
          || [...h.parentElement.children].every(c => c.tagName === "TH")));
  // a header's words, less the word an icon font draws as its sort arrow ("arrow_upward")
  const shown = h => [...h.querySelectorAll("ICON_FONT")].reduce((t, i) => /^[a-z0-9_]+$/.test(i.textContent.trim())
      ? t.replace(i.textContent.trim(), " ") : t, h.innerText || "");
  const names = h => [norm(shown(h)), ...[...h.querySelectorAll("a, button")].map(a => norm(shown(a)))];
  const head = heads.find(h => names(h).includes(want))
            || heads.find(h => names(h).some(n => n.split(" ").includes(want) || n.startsWith(want + " ")));
  if (!head) return {found: false, headers: heads.map(h => norm(shown(h))).filter(Boolean).slice(0, 30)};
  const row = head.closest("tr");
  const table = head.closest("table");
  let index = row ? [...row.cells].indexOf(head) : -1;
  const values = [];
  if (table && index >= 0) {
    for (const tr of table.rows) {
      if (tr === row || tr.closest("thead") || tr.cells.length <= index) continue;
      if ([...tr.cells].every(c => c.tagName === "TH")) continue;
      values.push(tr.cells[index].innerText.trim());
    }
  }
  // an ARIA grid of <div>s (data grids; Gradio's Dataframe, whose header alone is a <table>): its rows' cells,
  // by the header's aria-colindex when the grid numbers its columns (a virtualised grid), else by position
  const grid = head.closest("[role=grid], [role=treegrid], [role=table]");
  const hrow = head.closest("[role=row]") || row;
  if (!values.length && grid && hrow) {
    const cellsOf = r => [...r.querySelectorAll("[role=gridcell], [role=cell], [role=rowheader], [role=columnheader]")]
        .filter(c => (c.closest("[role=row]") || c.closest("tr")) === r);
    const col = head.getAttribute("aria-colindex");
    index = cellsOf(hrow).indexOf(head);
    for (const r of grid.querySelectorAll("[role=row]")) {
      const cells = cellsOf(r);
      if (r === hrow || !cells.length || cells.every(c => c.getAttribute("role") === "columnheader")) continue;
      const cell = col ? cells.find(c => c.getAttribute("aria-colindex") === col) : cells[index];
      if (cell) values.push(cell.innerText.trim());
    }
  }
  if (click) {
    // its link or button; else a sort control drawn as an icon (a data grid's arrows), known by its class or tip
    const control = [...head.querySelectorAll("a, button")].find(a => norm(shown(a)) === want)
                 || head.querySelector("a, button")
                 || head.querySelector("[class*=sort], [title*=sort i], [aria-label*=sort i]") || head;
    control.click();
  }
  return {found: true, header: shown(head).replace(/\s+/g, " ").trim(), index, values};
}
""".replace("ICON_FONT", ICON_FONT_CSS)

_EMPTY = {"", "-", "—", "none", "null", "n/a", "(none)", "(empty)"}
_NUMBER = re.compile(r"^[^\d\-+.]{0,3}\s*([-+]?\d[\d,\s]*(?:\.\d+)?|[-+]?\.\d+)\s*[^\d]{0,6}$")


@dataclass(frozen=True)
class Column:
    header: str
    values: tuple[str, ...]

    @classmethod
    def of(cls, raw: dict[str, Any], column: str) -> "Column":
        if not raw.get("found"):
            shown = ", ".join(repr(h) for h in raw.get("headers", [])[:12]) or "no table headers"
            raise DeviceFailure(f"no table column {column!r} on the page (columns: {shown})",
                                expected=f"a table with a column {column!r}")
        if int(raw.get("index", -1)) < 0:
            raise DeviceFailure(f"the column {column!r} is not in a table whose rows can be read",
                                expected=f"a table with a column {column!r}")
        found = cls(str(raw.get("header", column)), tuple(str(v) for v in raw.get("values", [])))
        if not found.filled():
            raise DeviceFailure(f"the table's column {found.header!r} shows no values to be sorted",
                                expected=f"rows in the column {column!r}")
        return found

    def filled(self) -> list[str]:
        return [v for v in self.values if v.strip().lower() not in _EMPTY]


def _numbers(values: list[str]) -> list[float] | None:
    out = []
    for v in values:
        m = _NUMBER.match(v.strip())
        if not m:
            return None
        try:
            out.append(float(re.sub(r"[,\s]", "", m.group(1))))
        except ValueError:
            return None
    return out


def _runs(keys: list[Any]) -> set[SortOrder]:
    """The orders *keys* run in (both when they are all equal or fewer than two)."""
    found = set()
    if all(a <= b for a, b in zip(keys, keys[1:])):
        found.add(SortOrder.ASCENDING)
    if all(a >= b for a, b in zip(keys, keys[1:])):
        found.add(SortOrder.DESCENDING)
    return found


def orders_of(values: list[str]) -> set[SortOrder]:
    """Every order the values can be read to run in: as numbers (when all are), else as text, cased or not."""
    numbers = _numbers(values)
    if numbers is not None:
        return _runs(numbers)
    return _runs([v.casefold() for v in values]) | _runs(list(values))


def holds(column: Column, order: SortOrder) -> bool:
    found = orders_of(column.filled())
    return bool(found) if order is SortOrder.ANY else order in found


def describe(column: Column, limit: int = 8) -> str:
    values = column.filled()
    shown = ", ".join(repr(v[:30]) for v in values[:limit]) + (", …" if len(values) > limit else "")
    return f"column {column.header!r} reads {shown or 'no values'}"


def read_column(page: Any, column: str, *, click: bool = False) -> dict[str, Any]:
    """The column as the page shows it (clicking its header first with *click*), read again on the page a
    navigation the click started loads."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return page.evaluate(READ_COLUMN_JS, [column, click])
    except PlaywrightError:   # the header's link navigated while the script ran: read the page it loaded
        page.wait_for_load_state("load")
        return page.evaluate(READ_COLUMN_JS, [column, False])


def wanted(order: SortOrder, column: str) -> str:
    return f"the table sorted by {column!r}" + ("" if order is SortOrder.ANY else f", {order.value}")
