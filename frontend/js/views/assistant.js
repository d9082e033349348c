// Assistant view: a chat with the lab assistant. Each answer shows the tools it ran (with the user's own
// rights), their results with links to runs and screenshots, and Confirm / Leave it for destructive ones.
//   #/assistant  #/assistant?c=<conversation id>

import { api, enc } from "../api.js";
import { busy, clear, emptyState, errorBanner, h, showImage, toast } from "../dom.js";
import * as fmt from "../format.js";
import { setQuery } from "../hashquery.js";

const RUN_ID = /\b([0-9a-f]{12})\b/g;

// Text with run ids turned into links to the run's page (text only: nothing is parsed as HTML).
function linked(text, runs) {
  const known = new Set(runs || []);
  const out = [];
  let last = 0;
  for (const m of text.matchAll(RUN_ID)) {
    if (!known.has(m[1])) continue;
    out.push(text.slice(last, m.index), h("a", { href: `#/runs/${enc(m[1])}` }, m[1]));
    last = m.index + m[1].length;
  }
  out.push(text.slice(last));
  return out;
}

function screenshotOf(result) {
  const url = result.data && result.data.screenshot_url;
  if (!url || !url.startsWith("/api/files/")) return null;
  const caption = `Run ${result.data.run_id}, step ${result.data.step}`;
  return h("button", { type: "button", class: "chat-shot", "aria-label": `Show screenshot: ${caption}`, onclick: () => showImage(url, caption) },
    h("img", { src: url, alt: caption, loading: "lazy" }));
}

function toolList(message) {
  const results = message.tool_results || [];
  if (!results.length) return null;
  return h("details", { class: "chat-tools" },
    h("summary", null, `${results.length} tool call${results.length === 1 ? "" : "s"}`),
    h("ul", null, results.map((r) => h("li", { dataset: { tool: r.tool, ok: String(r.ok) } },
      h("code", null, r.tool), " ", h("span", { class: "muted" }, JSON.stringify(r.arguments)), " — ",
      r.ok ? r.summary : h("span", { class: "chat-refused" }, r.summary)))));
}

function usageLine(message) {
  const u = message.usage || {};
  if (!u.total_tokens) return null;
  return h("span", { class: "muted small" }, `${u.total_tokens} tokens in ${u.llm_calls} LLM call${u.llm_calls === 1 ? "" : "s"}`);
}

export default async function assistantView(root, ctx) {
  ctx.setTitle("Assistant");
  let conversation = ctx.query.get("c") || null;
  const log = h("ol", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": "Conversation" });
  const input = h("textarea", { id: "chat-input", name: "text", rows: 2, maxlength: 2000, required: true,
    placeholder: "e.g. which devices are free? · run open the guide on demo-web · what happened in that run?" });
  const send = h("button", { type: "submit", class: "btn btn--primary" }, "Send");
  const form = h("form", { class: "chat-form", "aria-label": "Ask the assistant" },
    h("label", { class: "field", for: "chat-input" }, "Message", input), send);
  const history = h("ul", { class: "chat-history", "aria-label": "Your conversations" });
  const newChat = h("button", { type: "button", class: "btn btn--sm" }, "New conversation");

  root.append(
    h("div", { class: "page-head" },
      h("div", null, h("h1", null, "Assistant"),
        h("div", { class: "sub" }, "Ask about devices and runs, or have tasks run. It acts with your own rights and asks before anything destructive."))),
    h("div", { class: "chat-layout" },
      h("section", { class: "panel chat-main", "aria-label": "Chat" }, h("div", { class: "panel-body" }, log, form)),
      h("aside", { class: "panel chat-side", "aria-label": "Conversations" },
        h("div", { class: "panel-head" }, h("h2", null, "Conversations"), h("span", { class: "spacer" }), newChat),
        h("div", { class: "panel-body flush" }, history))));

  function bubble(message) {
    const mine = message.role === "user";
    const body = h("div", { class: "chat-text" }, mine ? message.content : linked(message.content, [...(message.tool_results || []).flatMap((r) => r.runs || []), ...((message.focus || {}).runs || [])]));
    const shots = (message.tool_results || []).map(screenshotOf).filter(Boolean);
    const item = h("li", { class: ["chat-msg", mine ? "chat-msg--user" : "chat-msg--assistant"], dataset: { role: message.role, source: message.source || "" } },
      h("div", { class: "chat-who small muted" }, mine ? "You" : `Assistant${message.source === "llm" ? " (LLM)" : ""}`, " · ", fmt.dateTime(message.created_at)),
      body, shots, mine ? null : toolList(message), mine ? null : usageLine(message));
    if (!mine && (message.pending || []).length) {
      const yes = h("button", { type: "button", class: "btn btn--primary btn--sm" }, "Confirm");
      const no = h("button", { type: "button", class: "btn btn--sm" }, "Leave it");
      const bar = h("div", { class: "chat-confirm", role: "group", "aria-label": "Confirm the destructive action" }, yes, no);
      yes.addEventListener("click", () => busy(yes, () => post("yes", true)).then(() => bar.remove()));
      no.addEventListener("click", () => busy(no, () => post("no", false)).then(() => bar.remove()));
      item.append(bar);
    }
    return item;
  }

  function show(messages) {
    clear(log);
    if (!messages.length) log.append(h("li", { class: "chat-empty" }, emptyState("No messages yet", "Ask something below.")));
    for (const m of messages) log.append(bubble(m));
    log.lastElementChild?.scrollIntoView({ block: "end" });
  }

  async function loadHistory() {
    try {
      const list = await api.get("/api/assistant/conversations");
      if (!ctx.alive()) return;
      clear(history);
      if (!list.length) history.append(h("li", { class: "muted small chat-none" }, "None yet"));
      for (const c of list) {
        history.append(h("li", { "aria-current": c.id === conversation ? "true" : null },
          h("a", { href: `#/assistant?c=${enc(c.id)}` }, c.title || c.id),
          h("span", { class: "muted small" }, ` ${fmt.dateTime(c.updated_at)}`)));
      }
    } catch (err) {
      history.replaceChildren(h("li", null, errorBanner("Conversations could not be loaded", err.message)));
    }
  }

  async function post(text, confirm) {
    log.querySelector(".chat-empty")?.remove();
    log.append(bubble({ role: "user", content: text, created_at: new Date().toISOString() }));
    try {
      const answer = await api.post("/api/assistant/messages", { text, conversation, confirm });
      if (!ctx.alive()) return;
      const fresh = conversation === null;
      conversation = answer.conversation;
      log.append(bubble(answer.message));
      log.lastElementChild.scrollIntoView({ block: "end" });
      if (fresh) {
        setQuery({ c: conversation });
        loadHistory();
      }
    } catch (err) {
      log.append(h("li", { class: "chat-msg chat-msg--error", role: "alert" }, err.message));
      if (err.status === 429) toast(err.message, "error", 8000);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    busy(send, () => post(text, false)).finally(() => input.focus());
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  newChat.addEventListener("click", () => {
    conversation = null;
    setQuery({ c: "" });
    show([]);
    input.focus();
  });

  if (conversation) {
    try {
      show((await api.get(`/api/assistant/conversations/${enc(conversation)}`)).messages);
    } catch (err) {
      conversation = null;
      root.prepend(errorBanner("That conversation could not be opened", err.message));
      show([]);
    }
  } else {
    show([]);
  }
  loadHistory();
}
