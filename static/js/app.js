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

// "Print" buttons (data-print) open the browser's print dialog: a sheet is made for paper.
document.addEventListener("click", (event) => {
  if (event.target.closest("button[data-print]")) window.print();
});

// Enter in a field that fills in others (data-enter-presses) presses its own button, not the
// form's default "Save": the round said in one line is read, never saved by itself.
document.addEventListener("keydown", (event) => {
  const input = event.target.closest?.("input[data-enter-presses]");
  if (!input || event.key !== "Enter") return;
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

// This phone's own change answers with the game's new version (Game-Version): the undo form
// follows it, so the next "Undo" undoes that change instead of calling it another phone's.
document.addEventListener("htmx:afterRequest", (event) => {
  const version = event.detail.successful && event.detail.xhr.getResponseHeader("Game-Version");
  if (!version) return;
  for (const input of document.querySelectorAll("form[data-follows-version] [name=version]")) {
    input.value = version;
  }
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

// A change that never reached the server, or that the server failed on (5xx), says "Not saved"
// where it was made and offers to try again. Nothing was swapped, so the form still holds what
// was entered and its one-time action_id: a retry after an unclear failure records only once.
const texts = () => document.getElementById("offline-banner")?.dataset ?? {};

function notSaved(detail, serverError) {
  const source = detail.elt;
  // htmx sends the button that submitted a form (a Buy's seat): the retry presses it again.
  const pressed = detail.requestConfig.triggeringEvent?.submitter ?? source;
  const form = source.closest("form") ?? source;
  // A form of many rows (the buys) says it in the row of the pressed button, else after it.
  const row = pressed.closest?.("form li");
  const place = row ?? form.parentElement;
  place.querySelector(":scope > .not-saved")?.remove();
  const box = document.createElement("div");
  box.className = "not-saved";
  box.setAttribute("role", "alert");
  const text = document.createElement("span");
  text.textContent = serverError ? texts().serverError : texts().notSaved;
  const retry = document.createElement("button");
  retry.type = "button";
  retry.textContent = texts().retry;
  retry.addEventListener("click", () => {
    box.remove();
    if (pressed.isConnected && pressed.tagName === "BUTTON") pressed.click();
    else form.requestSubmit();
  });
  box.append(text, retry);
  if (row) row.append(box);
  else form.after(box);
}

document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.requestConfig.verb === "get") return;
  for (const box of document.querySelectorAll(".not-saved")) box.remove();
});
document.addEventListener("htmx:sendError", (event) => {
  if (event.detail.requestConfig.verb !== "get") notSaved(event.detail, false);
});
document.addEventListener("htmx:responseError", (event) => {
  const status = event.detail.xhr.status;
  if (status >= 500 && event.detail.requestConfig.verb !== "get") {
    notSaved(event.detail, true);
  }
});

// Entries in progress on the end-of-round form are kept on this phone (localStorage, per game
// and round) until saved: a reload, back/forward, a locked phone or a lost connection restores
// them with a notice.
const draftKey = (form) => `scorekeeper:draft:${form.dataset.draft}`;

function saveDraft(form) {
  const entry = {};
  for (const field of form.elements) {
    if (!field.name || ["csrf_token", "action_id", "tap"].includes(field.name)) continue;
    if (field.type === "radio" && !field.checked) continue;
    entry[field.name] = field.value;
  }
  localStorage.setItem(draftKey(form), JSON.stringify(entry));
}

function restoreDraft(form) {
  const kept = JSON.parse(localStorage.getItem(draftKey(form)) ?? "null");
  if (!kept) return;
  let changed = false;
  // The version the entry was begun on: saving it still notices another phone's change.
  const { version, ...entry } = kept;
  for (const [name, value] of Object.entries(entry)) {
    for (const field of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
      if (field.type === "radio") {
        if (field.value === value && !field.checked) { field.checked = true; changed = true; }
      } else if (field.value !== value) {
        field.value = value;
        changed = true;
      }
    }
  }
  if (!changed) return;
  if (version !== undefined && form.elements.version) form.elements.version.value = version;
  const notice = document.createElement("p");
  notice.className = "note";
  notice.setAttribute("role", "status");
  notice.dataset.restoredNotice = "";
  notice.textContent = form.dataset.restored;
  form.before(notice);
  // The server draws the tapped cards and counts them: ask it to redraw each restored hand
  // with cards (only those, so what is typed meanwhile elsewhere stays).
  const tapUrl = form.querySelector("button[name=tap]")?.getAttribute("hx-post");
  for (const [name, value] of Object.entries(entry)) {
    if (!tapUrl || !window.htmx || !name.startsWith("cards_") || !value) continue;
    const hand = `#hand-${name.slice("cards_".length)}`;
    htmx.ajax("POST", tapUrl, { source: form, target: hand, select: hand, swap: "outerHTML" });
  }
}

function watchDraft() {
  const form = document.querySelector("form[data-draft]");
  if (!form || form.dataset.watched) return;
  form.dataset.watched = "yes";
  form.addEventListener("input", () => saveDraft(form));
  form.addEventListener("change", () => saveDraft(form));
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-draft]");
  if (form) restoreDraft(form);
  watchDraft();
});
window.addEventListener("pageshow", (event) => {
  const form = document.querySelector("form[data-draft]");
  if (event.persisted && form) restoreDraft(form); // back/forward from the page cache
});
document.addEventListener("htmx:afterSettle", (event) => {
  const form = document.querySelector("form[data-draft]");
  // Only this phone's taps and restores change the entry; live refreshes leave it alone.
  if (!form || event.detail.requestConfig?.verb !== "post") return;
  watchDraft(); // the form was redrawn (a tap, a refusal): keep watching and keep its state
  saveDraft(form);
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt.closest?.("form[data-draft]");
  // Saved: the server answered with where to go next. A refusal (422/409) keeps the draft.
  if (form && event.detail.elt === form && event.detail.xhr.getResponseHeader("HX-Redirect")) {
    localStorage.removeItem(draftKey(form));
  }
});

// One answer per hand: typing points for a hand with tapped cards drops the cards and says so
// (a tapped card dropping typed points is said by the server, which counts the cards).
document.addEventListener("input", (event) => {
  const points = event.target.closest?.("fieldset.hand input[name^=points_]");
  if (!points || points.value === "") return;
  const hand = points.closest("fieldset.hand");
  const cards = hand.querySelector("input[name^=cards_]");
  if (!cards || cards.value === "") return;
  cards.value = "";
  hand.querySelector("[data-testid^=tally-]")?.remove();
  for (const count of hand.querySelectorAll(".rank sup")) count.remove();
  for (const rank of hand.querySelectorAll(".rank")) rank.setAttribute("aria-label", rank.textContent);
  const note = hand.querySelector("[data-hand-note]");
  note.textContent = note.dataset.typedReplace;
  note.hidden = false;
  saveDraft(points.form);
});
