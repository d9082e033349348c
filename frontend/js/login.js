// The login page: name + password, or an API token, exchanged for a dashboard session.

const form = document.getElementById("login-form");
const error = document.getElementById("login-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const token = String(data.get("token") || "").trim();
  const body = token ? { token } : { name: String(data.get("name") || ""), password: String(data.get("password") || "") };
  const response = await fetch("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (response.ok) {
    window.location.assign("/");
    return;
  }
  const answer = await response.json().catch(() => ({}));
  error.textContent = answer.error || `${response.status} ${response.statusText}`;
  error.hidden = false;
});
