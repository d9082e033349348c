// The dashboard's REST client: JSON in, JSON out, errors as ApiError with the server's message.

export class ApiError extends Error {
  constructor(status, message, type) {
    super(message);
    this.status = status;
    this.type = type || "";
  }
}

// The session's CSRF token (Flask-WTF), sent with every request that changes something.
let csrfToken = null;

async function csrf() {
  if (csrfToken === null) {
    const response = await fetch("/api/auth/me", { headers: { Accept: "application/json" } });
    if (response.status === 401) toLogin();
    const data = response.ok ? await response.json() : {};
    csrfToken = data.csrf_token || "";
  }
  return csrfToken;
}

function toLogin() {
  if (window.location.pathname !== "/login") window.location.assign("/login");
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (method !== "GET") init.headers["X-CSRFToken"] = await csrf();
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, `the server cannot be reached (${err.message})`);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (response.status === 401) toLogin();
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message, data && data.type);
  }
  return data;
}

export const api = {
  get: (path) => request("GET", path),
  post: (path, body) => request("POST", path, body ?? {}),
  put: (path, body) => request("PUT", path, body),
  del: (path) => request("DELETE", path),
};

export const enc = encodeURIComponent;

/** Build "path?k=v" leaving out empty values. */
export function withQuery(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") q.set(k, v);
  }
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
