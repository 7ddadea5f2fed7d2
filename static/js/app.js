// Small behaviours htmx does not cover. Loaded as a file: the CSP forbids inline script.

// "Copy link" buttons copy the text of the input their data-copy attribute names.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const input = document.querySelector(button.dataset.copy);
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    document.execCommand("copy"); // older phones, or a page not served over HTTPS
  }
  button.textContent = button.dataset.copied;
});

// Enter in a field that fills in others (data-enter-presses) presses its own button, not the
// form's default "Save": the round said in one line is read, never saved by itself. In its
// several lines, Shift+Enter still starts a new line.
document.addEventListener("keydown", (event) => {
  const input = event.target.closest?.("[data-enter-presses]");
  if (!input || event.key !== "Enter" || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  document.getElementById(input.dataset.enterPresses)?.click();
});

// A link that was replaced answers 410: reload, so the page says so instead of going stale.
document.addEventListener("htmx:responseError", (event) => {
  if (event.detail.xhr.status === 410 || event.detail.xhr.status === 404) {
    window.location.reload();
  }
});

// Installable and useful offline: the service worker keeps the last state of each page.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

// The offline banner: a page from the service worker's cache says when its state was current;
// a page that loses the network while open says that changes cannot be sent.
function showOffline(since) {
  const banner = document.getElementById("offline-banner");
  if (!banner) return;
  if (since) {
    const time = new Date(Number(since)).toLocaleTimeString(document.documentElement.lang,
      { hour: "2-digit", minute: "2-digit" });
    banner.textContent = banner.dataset.text.replace("{time}", time);
  } else {
    banner.textContent = banner.dataset.now;
  }
  banner.hidden = false;
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.offlineSince) showOffline(document.body.dataset.offlineSince);
  else if (!navigator.onLine) showOffline();
});
window.addEventListener("offline", () => showOffline());
window.addEventListener("online", () => {
  if (document.body.dataset.offlineSince) window.location.reload(); // back to the live page
  else document.getElementById("offline-banner")?.setAttribute("hidden", "");
});

// A refusal stays until this phone does something else: a live refresh of its region (another
// phone's change) would redraw it away, so it is put back where it was.
const keptRefusals = new Map(); // id of the element that held it → the refusal
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.requestConfig.verb !== "get") keptRefusals.clear(); // this phone acts again
});
function keepRefusals(region) {
  for (const refusal of region.querySelectorAll("[data-refusal]")) {
    if (refusal.parentElement.id) keptRefusals.set(refusal.parentElement.id, refusal);
  }
}
let swapVerb = ""; // the request whose answer is being swapped, for its out-of-band regions
document.addEventListener("htmx:beforeSwap", (event) => {
  swapVerb = event.detail.requestConfig.verb;
  if (swapVerb === "get") keepRefusals(event.detail.target);
});
// A poll's answer brings the regions out of band (pages/live.py): keep their refusals too.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  if (swapVerb === "get") keepRefusals(event.detail.target);
});
document.addEventListener("htmx:afterSettle", () => {
  for (const [place, refusal] of keptRefusals) {
    const parent = document.getElementById(place);
    if (parent && !parent.querySelector("[data-refusal]")) parent.append(refusal);
  }
});
