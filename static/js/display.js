// The table display: keep the screen awake, and speak each new announcement when asked to.
let wakeLock = null;

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
  } catch {
    wakeLock = null; // a browser may refuse (battery saver); the display still works
  }
}

// A wake lock ends when the tab is hidden; take it again when the display shows once more.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && wakeLock === null) keepAwake();
});

let speaking = false;
let lastSpoken = "";

function announce() {
  const region = document.getElementById("display");
  const text = region?.dataset.announce || "";
  if (!speaking || !text || text === lastSpoken || !("speechSynthesis" in window)) return;
  lastSpoken = text;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = document.documentElement.lang;
  window.speechSynthesis.speak(utterance);
}

document.addEventListener("DOMContentLoaded", () => {
  keepAwake();
  const toggle = document.getElementById("speak-toggle");
  toggle?.addEventListener("click", () => {
    speaking = !speaking;
    toggle.setAttribute("aria-pressed", String(speaking));
    toggle.textContent = speaking ? toggle.dataset.on : toggle.dataset.off;
    lastSpoken = "";
    if (speaking) announce();
    else window.speechSynthesis?.cancel();
  });
});

// Speak when the round changes (the region is swapped in by the live update).
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.elt?.id === "display" || document.getElementById("display")) announce();
});
