// Each change sent is followed to its answer (README "How entries are kept", ARCHITECTURE.md):
// the pressed button is busy meanwhile; one not saved (no network, 5xx) is marked where it was
// made until saved or dropped, every one of them. htmx fires a request's events on its element
// and target, which another answer may have swapped out: so listen there and on the XHR.

const words = () => document.getElementById("offline-banner")?.dataset ?? {};
const unsaved = new Map(); // key → how to send it again and where to say so
// The kept change "Try again" is sending: its request is keyed as the change, not as what sends
// it (a form without an id is sent again from its region, which keys differently).
let resending = null;

// A form is one entry (its fields change as typed); a tap one per tap: same tap, same values.
function keyOf(elt, config) {
  if (elt.tagName === "FORM") return `form ${config.path}`;
  return `${config.path}?${[...config.formData].map((pair) => pair.join("=")).sort().join("&")}`;
}

// In the pressed button's row (the buys), after a form with an id, else in the region.
function placeOf(elt) {
  const row = elt.closest("li[id]");
  const form = elt.closest("form[id]");
  if (row || !form) return { id: (row ?? elt.closest("[id]"))?.id };
  return { id: form.id, after: true };
}

function say(template, what) {
  const status = document.getElementById("sending-status");
  if (status && template) status.textContent = template.replace("{what}", what);
}

// Focus stays on the pressed button (or its new copy) when its region is redrawn.
let refocus = null;
function rememberFocus(target) {
  const active = document.activeElement;
  if (active?.id && target?.contains(active)) refocus = active.id;
}
function restoreFocus() {
  const again = refocus && document.getElementById(refocus);
  refocus = null;
  if (again && document.activeElement === document.body) again.focus({ preventScroll: true });
}

function beforeSwap(detail) {
  const target = detail.target;
  if (target && !target.isConnected) detail.target = document.getElementById(target.id) ?? target;
  // Taps sent side by side are answered in any order: never swap an older state over a newer.
  const version = Number(detail.xhr.getResponseHeader("Game-Version"));
  const shown = document.querySelector("#buys [name=version]")?.value;
  if (version && shown && version < Number(shown)) detail.shouldSwap = false;
  else rememberFocus(detail.target);
}

function follow(detail) {
  const { elt, xhr, target, requestConfig: config } = detail;
  const pressed = [elt, config.triggeringEvent?.submitter].filter(Boolean);
  const key = resending?.key ?? keyOf(elt, config);
  const change = unsaved.get(key) ?? {
    key,
    label: (pressed.at(-1).getAttribute("aria-label") || pressed.at(-1).textContent).trim(),
    path: config.path,
    values: [...config.formData],
    form: elt.tagName === "FORM" && elt.id,
    place: placeOf(elt),
    target: target?.id,
    swap: elt.closest("[hx-swap]")?.getAttribute("hx-swap") ?? "outerHTML",
    select: elt.closest("[hx-select]")?.getAttribute("hx-select") ?? undefined,
  };
  for (const element of pressed) element.setAttribute("aria-busy", "true");
  say(words().sending, change.label);
  const onSwap = (event) => event.detail.xhr === xhr && beforeSwap(event.detail);
  target?.addEventListener("htmx:beforeSwap", onSwap);
  let aborted = false;
  xhr.addEventListener("abort", () => { aborted = true; });
  xhr.addEventListener("loadend", () => {
    target?.removeEventListener("htmx:beforeSwap", onSwap);
    for (const element of pressed) element.removeAttribute("aria-busy");
    if (!aborted) answered(change, xhr);
  });
}

function answered(change, xhr) {
  if (xhr.status === 0 || xhr.status >= 500) {
    unsaved.set(change.key, { ...change, serverError: xhr.status >= 500 });
  } else {
    unsaved.delete(change.key); // saved, or refused where it was made
    if (xhr.status < 300) say(words().saved, change.label);
  }
  drawUnsaved();
}

function button(text, onClick) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = text;
  made.addEventListener("click", onClick);
  return made;
}

function marker(change) {
  const box = document.createElement("div");
  box.className = "not-saved";
  box.setAttribute("role", "alert");
  box.dataset.change = change.key;
  const text = document.createElement("span");
  const said = change.serverError ? words().serverError : words().notSaved;
  text.textContent = change.form ? said : `${change.label} — ${said}`;
  const drop = () => { unsaved.delete(change.key); drawUnsaved(); };
  box.append(text, button(words().retry, retryAll), button(words().discard, drop));
  return box;
}

// After every swap too: a redrawn region gets its markers back.
function drawUnsaved() {
  const drawn = new Set();
  for (const box of document.querySelectorAll(".not-saved[data-change]")) {
    const key = box.dataset.change;
    if (unsaved.has(key) && !drawn.has(key)) drawn.add(key);
    else box.remove();
  }
  for (const change of unsaved.values()) {
    if (drawn.has(change.key)) continue;
    const place = document.getElementById(change.place.id) ?? document.querySelector("main");
    place[change.place.after ? "after" : "append"](marker(change));
  }
}

// One after the other, each from the page the answer before it left.
let retrying = false;
async function retryAll() {
  if (retrying) return;
  retrying = true;
  for (const change of [...unsaved.values()]) {
    await resend(change).catch(() => {}); // marked again if it fails again
  }
  retrying = false;
}

// htmx.ajax fires the request's htmx:beforeRequest before it returns.
function resend(change) {
  resending = change;
  try {
    return send(change);
  } finally {
    resending = null;
  }
}

function send(change) {
  const context = { target: `#${change.target}`, swap: change.swap, select: change.select };
  // A form sends what it holds now (typed since), with the same action id.
  const form = change.form && document.getElementById(change.form);
  if (form) return htmx.ajax("POST", change.path, { ...context, source: form });
  // A tap sends exactly what it sent: its action id, the version it saw, its seat.
  const source = document.getElementById(change.place.id) ?? document.body;
  return htmx.ajax("POST", change.path, { ...context, source, values: Object.fromEntries(change.values) });
}

document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.requestConfig.verb !== "get") follow(event.detail);
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.requestConfig?.verb === "get") rememberFocus(event.detail.target);
});
document.addEventListener("htmx:oobBeforeSwap", (event) => rememberFocus(event.detail.target));
for (const type of ["htmx:afterSettle", "htmx:oobAfterSwap"]) {
  document.addEventListener(type, () => { drawUnsaved(); restoreFocus(); });
}
