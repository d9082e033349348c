// Reading and writing the query part of the hash route ("#/runs?status=failed").

export function currentQuery() {
  const raw = location.hash.replace(/^#/, "");
  return new URLSearchParams(raw.split("?")[1] || "");
}

/** Replace the query of the current route without re-rendering the view. */
export function setQuery(query) {
  const path = location.hash.replace(/^#/, "").split("?")[0] || "/lab";
  const qs = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== "" && v != null)).toString();
  history.replaceState(null, "", `#${path}${qs ? `?${qs}` : ""}`);
}
