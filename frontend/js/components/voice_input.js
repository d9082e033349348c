// Voice input for a text box, through the browser's Web Speech API where it exists.
//
// Where the API is missing the button is not shown at all, and typing always works. The
// transcript is written into the text box — editable like typed text — and handed to
// onFinal, which previews the plan: nothing runs from voice without that preview.

import { h, s } from "../dom.js";

/** The browser's speech recognition class, or null where there is none. */
export function speechRecognition(win = window) {
  return win.SpeechRecognition || win.webkitSpeechRecognition || null;
}

const ERRORS = {
  "not-allowed": "The microphone is not allowed for this page; type the task instead.",
  "service-not-allowed": "Speech recognition is not allowed here; type the task instead.",
  "no-speech": "No speech was heard; try again or type the task.",
  "audio-capture": "No microphone was found; type the task instead.",
  network: "Speech recognition needs a network connection; type the task instead.",
};

function micIcon() {
  return s("svg", { viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true", fill: "none",
    stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" },
  s("rect", { x: "9", y: "2", width: "6", height: "12", rx: "3" }),
  s("path", { d: "M5 11a7 7 0 0 0 14 0" }), s("path", { d: "M12 18v4" }));
}

/**
 * A microphone button for `input`, or null when the browser has no speech recognition.
 * options: {onFinal(text), onStart(), onCancel(), lang}
 */
export function voiceButton(input, options = {}) {
  const Recognition = speechRecognition();
  if (!Recognition) return null;
  const status = h("span", { class: "voice-status muted small", role: "status", "aria-live": "polite" });
  const button = h("button", {
    type: "button", class: "btn btn--icon voice-btn", "aria-label": "Speak the task", "aria-pressed": "false",
    title: "Speak the task (the transcript lands in the box; the plan is previewed before anything runs)",
  }, micIcon());
  let recognition = null;
  let finalText = "";

  function stop() {
    button.setAttribute("aria-pressed", "false");
    button.classList.remove("voice-btn--on");
    recognition = null;
  }

  function start() {
    const before = input.value;
    finalText = "";
    try {
      recognition = new Recognition();
    } catch (err) {
      status.textContent = `Speech recognition could not start (${err.message}); type the task instead.`;
      return;
    }
    recognition.lang = options.lang || document.documentElement.lang || navigator.language || "en-US";
    recognition.interimResults = true;
    recognition.continuous = false;
    recognition.maxAlternatives = 1;
    recognition.onresult = (event) => {
      let interim = "";
      for (let i = event.resultIndex || 0; i < event.results.length; i += 1) {
        const result = event.results[i];
        const text = result[0] ? result[0].transcript : "";
        if (result.isFinal) finalText += text;
        else interim += text;
      }
      input.value = (finalText + interim).trim() || before;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    recognition.onerror = (event) => {
      status.textContent = ERRORS[event.error] || `Speech recognition stopped (${event.error || "unknown error"}); type the task instead.`;
    };
    recognition.onend = () => {
      const text = finalText.trim();
      stop();
      input.focus();
      if (text) {
        input.value = text;
        status.textContent = "Heard you. Check the text and the plan before running it.";
        options.onFinal?.(text);
      } else {
        if (status.textContent === "Listening…") status.textContent = "Nothing was heard.";
        options.onCancel?.();
      }
    };
    status.textContent = "Listening…";
    button.setAttribute("aria-pressed", "true");
    button.classList.add("voice-btn--on");
    options.onStart?.();
    try {
      recognition.start();
    } catch (err) {
      stop();
      status.textContent = `Speech recognition could not start (${err.message}); type the task instead.`;
      options.onCancel?.();
    }
  }

  button.addEventListener("click", () => {
    if (recognition) recognition.stop();
    else start();
  });
  return { button, status, stop: () => recognition?.abort?.() };
}
