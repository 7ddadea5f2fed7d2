// The end-of-round form (loaded by it alone): entries kept on the phone as a draft, card taps
// that add up on the phone, the hand of who went out closed, the first refusal shown.

// Entries in progress on the end-of-round form are kept on this phone (localStorage, per game
// and round) until saved: a reload, back/forward, a locked phone or a lost connection restores
// them with a notice.
const draftKey = (form) => `scorekeeper:draft:${form.dataset.draft}`;

function saveDraft(form) {
  const entry = {};
  for (const field of form.elements) {
    if (!field.name || ["csrf_token", "action_id", "tap", "confirm_warnings"].includes(field.name)) continue;
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
      // A hand filled in from the player's phone keeps it where this phone had typed nothing.
      if (value === "" && field.closest("fieldset[data-from-phone]")) continue;
      if (field.type === "radio") {
        if (field.value === value && !field.checked) { field.checked = true; changed = true; }
      } else if (field.value !== value) {
        field.value = value;
        changed = true;
      }
    }
  }
  if (!changed) return;
  // who went out: their hand is closed again
  form.querySelector("input[name=went_out]:checked")?.dispatchEvent(new Event("change", { bubbles: true }));
  if (version !== undefined && form.elements.version) form.elements.version.value = version;
  const notice = document.createElement("p");
  notice.className = "note";
  notice.setAttribute("role", "status");
  notice.dataset.restoredNotice = "";
  notice.textContent = form.dataset.restored;
  form.before(notice);
  // The server counts the tapped cards: ask it for each restored hand's sum.
  for (const [name, value] of Object.entries(entry)) {
    if (name.startsWith("cards_") && value) restoredHand(form, name.slice("cards_".length));
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
  takePhoneEntries();
});
window.addEventListener("pageshow", (event) => {
  const form = document.querySelector("form[data-draft]");
  if (event.persisted && form) restoreDraft(form); // back/forward from the page cache
});
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.target?.id === "phone-hands") takePhoneEntries();
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

// A card tap adds its card on the phone: to the hand's hidden list of cards (what is saved) and
// to the button's count, at once and without the network, so taps never wait for one another
// or get lost offline. The server, whose rules count the cards, then says the sum for the
// hand's latest list; offline, when the phone is back online.

const counting = new Map(); // seat → the count on its way (a newer tap cancels it)
const uncounted = new Set(); // seats whose sum waits for the network

const cardsOf = (form, seat) => form.elements[`cards_${seat}`];

function drawCounts(hand, seat, codes) {
  const buttons = hand.querySelector(".rank-buttons");
  const labels = new Map(); // rank code → the letter its button shows
  for (const rank of hand.querySelectorAll("button.rank")) {
    rank.querySelector("sup")?.remove();
    const label = rank.textContent;
    labels.set(rank.value.split(":")[1], label);
    const tapped = codes.filter((code) => `${seat}:${code}` === rank.value).length;
    if (tapped) {
      const sup = document.createElement("sup");
      sup.textContent = `×${tapped}`;
      rank.append(sup);
      const said = tapped === 1 ? buttons.dataset.one : buttons.dataset.other;
      rank.setAttribute("aria-label", `${label}, ${said.replace(/\d+/, tapped)}`);
    } else {
      rank.setAttribute("aria-label", label);
    }
  }
  drawPicked(hand, seat, codes, labels);
}

// Each card picked, once per copy and grouped as the server draws them: a tap on one takes that
// copy back (a mis-tapped card), without Clear and without closing the pad.
function drawPicked(hand, seat, codes, labels) {
  const picked = hand.querySelector("[data-picked]");
  if (!picked) return;
  for (const old of picked.querySelectorAll("button")) old.remove();
  const url = hand.querySelector("button.rank")?.getAttribute("formaction");
  for (const code of new Set(codes)) {
    for (const _copy of codes.filter((each) => each === code)) {
      const chip = document.createElement("button");
      Object.assign(chip, { type: "submit", name: "tap", value: `${seat}:-${code}`, className: "picked" });
      chip.setAttribute("formaction", url);
      chip.textContent = labels.get(code) ?? code;
      chip.setAttribute("aria-label", picked.dataset.takeBack.replace("{card}", chip.textContent));
      picked.append(chip);
    }
  }
  picked.hidden = codes.length === 0;
}

// A tap's new list of cards: one added, one copy taken back ("-K"), or none ("clear").
function afterTap(codes, code) {
  if (code === "clear") return [];
  if (!code.startsWith("-")) return [...codes, code];
  const at = codes.lastIndexOf(code.slice(1));
  return at < 0 ? codes : codes.filter((_code, index) => index !== at);
}

// The sum while the server counts: "…", and a word when it must wait for the network.
function drawPending(hand, seat, waiting) {
  const summary = hand.querySelector("details.card-taps > summary");
  let tally = summary.querySelector(`[data-testid="tally-${seat}"]`);
  if (!tally) {
    tally = document.createElement("strong");
    tally.dataset.testid = `tally-${seat}`;
    summary.append(":\u00a0", tally);
  }
  tally.textContent = "…";
  let later = hand.querySelector("[data-count-later-note]");
  if (waiting && !later) {
    later = document.createElement("p");
    later.className = "note";
    later.dataset.countLaterNote = "";
    later.textContent = hand.querySelector(".rank-buttons").dataset.countLater;
    hand.querySelector(".rank-buttons").after(later);
  }
  if (!waiting) later?.remove();
}

function countHand(form, seat) {
  const hand = document.getElementById(`hand-${seat}`);
  const url = hand?.querySelector("button[name=tap]")?.getAttribute("formaction");
  if (!url) return;
  counting.get(seat)?.abort();
  const controller = new AbortController();
  counting.set(seat, controller);
  const sent = cardsOf(form, seat).value;
  drawPending(hand, seat, false);
  const body = new FormData(form);
  body.delete("tap");
  fetch(url, { method: "POST", body, signal: controller.signal, credentials: "same-origin" })
    .then((answer) => {
      if (answer.status >= 500) throw new Error(`status ${answer.status}`);
      return answer.text();
    })
    .then((html) => {
      uncounted.delete(seat);
      if (cardsOf(form, seat).value !== sent) return; // a later tap's count is on its way
      const drawn = new DOMParser().parseFromString(html, "text/html");
      const taps = drawn.querySelector(`#hand-${seat} details.card-taps`);
      const current = document.getElementById(`hand-${seat}`);
      if (!taps || !current) return;
      const open = current.querySelector("details.card-taps").open; // a cleared pad stays open
      current.querySelector("details.card-taps").replaceWith(document.importNode(taps, true));
      current.querySelector("details.card-taps").open = open;
      current.querySelector("[data-count-later-note]")?.remove();
      current.classList.toggle("has-error", Boolean(current.querySelector(".error")));
    })
    .catch((error) => {
      if (controller.signal.aborted && error.name === "AbortError") return;
      uncounted.add(seat);
      const current = document.getElementById(`hand-${seat}`);
      if (current) drawPending(current, seat, true);
    });
}

// A hand restored from this phone's draft (app.js): its counts drawn, its sum asked for.
function restoredHand(form, seat) {
  const hand = document.getElementById(`hand-${seat}`);
  if (!hand) return;
  hand.querySelector("details.card-taps").open = true;
  drawCounts(hand, seat, cardsOf(form, seat).value.split(" ").filter(Boolean));
  countHand(form, seat);
}

// One answer per hand: a tapped card replaces typed points, and the hand says so.
function dropTypedPoints(hand) {
  const points = hand.querySelector("input[name^=points_]");
  if (!points || points.value === "") return;
  const note = hand.querySelector("[data-hand-note]");
  note.textContent = note.dataset.tapReplace.replace("{points}", points.value);
  note.hidden = false;
  points.value = "";
}

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("form[data-draft] fieldset.hand button[name=tap]");
  if (!button) return;
  event.preventDefault(); // without JavaScript the tap posts instead
  const form = button.form;
  const [seat, code] = button.value.split(":");
  const hand = document.getElementById(`hand-${seat}`);
  const cards = cardsOf(form, seat);
  const codes = afterTap(cards.value.split(" ").filter(Boolean), code);
  cards.value = codes.join(" ");
  if (code !== "clear" && !code.startsWith("-")) dropTypedPoints(hand);
  hand.querySelector("[data-said-note]")?.remove(); // no longer what was read: see below
  drawCounts(hand, seat, codes);
  saveDraft(form);
  countHand(form, seat);
});

// A hand filled in from the round said in one line shows the words it was read from, until
// its points are typed here: then they are no longer what was read.
document.addEventListener("input", (event) => {
  event.target.closest?.("form[data-draft] fieldset.hand")?.querySelector("[data-said-note]")?.remove();
});

// The player who went out holds no cards: their hand has no field to fill in (a seat's own pad
// says so with a checkbox, which can be unticked again).
document.addEventListener("change", (event) => {
  if (!event.target.matches?.("form[data-draft] input[name=went_out]")) return;
  for (const hand of event.target.form.querySelectorAll("fieldset.hand")) {
    hand.disabled = event.target.checked && hand.id === `hand-${event.target.value}`;
  }
});

// A hand entered on a player's phone while this form is open (seats/_hands.html, redrawn live):
// put into its hand only where this phone has entered nothing for it. What was typed here stays,
// and the phone's entry shows beside it, in the list above the form.
function takePhoneEntries() {
  const form = document.querySelector("#round-form[data-draft]");
  if (!form) return;
  for (const entry of document.querySelectorAll("#phone-hands [data-entry]")) {
    const seat = entry.dataset.seat;
    const hand = document.getElementById(`hand-${seat}`);
    const points = form.elements[`points_${seat}`];
    const cards = cardsOf(form, seat);
    if (!hand || hand.dataset.fromPhone !== undefined || !points || !cards) continue;
    if (points.value !== "" || cards.value !== "") continue;
    if (entry.dataset.wentOut) {
      const radio = form.querySelector(`input[name=went_out][value="${CSS.escape(seat)}"]`);
      if (form.querySelector("input[name=went_out]:checked") || !radio) continue;
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (entry.dataset.cards) {
      cards.value = entry.dataset.cards;
      restoredHand(form, seat);
    } else {
      points.value = entry.dataset.points;
    }
    hand.dataset.fromPhone = "";
    const note = hand.querySelector("[data-from-phone-note]");
    if (note) note.hidden = false;
  }
  // An entry sent back counts for nothing: a hand filled from it, unchanged since, is blank again.
  for (const entry of document.querySelectorAll("#phone-hands [data-sent-back]")) {
    const seat = entry.dataset.seat;
    const hand = document.getElementById(`hand-${seat}`);
    const points = form.elements[`points_${seat}`];
    const cards = cardsOf(form, seat);
    if (!hand || hand.dataset.fromPhone === undefined || !points || !cards) continue;
    if (points.value !== entry.dataset.points || cards.value !== entry.dataset.cards) continue;
    points.value = "";
    if (cards.value) {
      cards.value = "";
      drawCounts(hand, seat, []);
      hand.querySelector("[data-testid^=tally-]")?.remove();
    }
    delete hand.dataset.fromPhone;
    hand.querySelector("[data-from-phone-note]")?.setAttribute("hidden", "");
  }
}

window.addEventListener("online", () => {
  const form = document.querySelector("form[data-draft]");
  if (!form) return;
  for (const seat of [...uncounted]) countHand(form, seat);
});

// One answer per hand: typing points for a hand with tapped cards drops the cards and says so.
document.addEventListener("input", (event) => {
  const points = event.target.closest?.("fieldset.hand input[name^=points_]");
  if (!points || points.value === "") return;
  const hand = points.closest("fieldset.hand");
  const cards = hand.querySelector("input[name^=cards_]");
  if (!cards || cards.value === "") return;
  cards.value = "";
  counting.get(hand.id.slice("hand-".length))?.abort();
  hand.querySelector("[data-testid^=tally-]")?.remove();
  hand.querySelector("[data-count-later-note]")?.remove();
  drawCounts(hand, hand.id.slice("hand-".length), []);
  const note = hand.querySelector("[data-hand-note]");
  note.textContent = note.dataset.typedReplace;
  note.hidden = false;
  saveDraft(points.form);
});

// A refused save (or one held for its warnings): its first error or warning in view, and its
// field focused to fix it.
let showError = false;
document.addEventListener("htmx:afterRequest", (event) => {
  showError = event.detail.xhr.status === 422 && event.detail.requestConfig.elt.tagName === "FORM";
});
document.addEventListener("htmx:afterSettle", () => {
  const error = showError && document.querySelector("main .error[role=alert], main [data-warning]");
  showError = false;
  if (!error) return;
  const place = error.closest(".field, fieldset") ?? error;
  const field = place.querySelector("input:not([type=hidden]):not(:disabled), select, textarea");
  error.scrollIntoView({ block: "center" });
  field?.focus({ preventScroll: true });
});
