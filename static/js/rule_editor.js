// The house-rule editor (loaded by it alone): what is typed is checked once typing pauses, and
// only the messages, the marks on the fields and the card are put in from the answer. A field
// is never redrawn under a thumb, so what is typed is what is saved (issue 35.5).

const PAUSE_MS = 500; // typing this long paused is a pause
let pending = null; // the check waiting for the pause
let asked = 0; // the newest check or redraw: an older answer is dropped

const editorForm = () => document.querySelector("form[data-check]");

function check() {
  const form = editorForm();
  if (!form) return;
  const mine = ++asked;
  const body = new FormData(form);
  fetch(form.dataset.check, {
    method: "POST", body, credentials: "same-origin", headers: { "HX-Request": "true" },
  })
    .then((answer) => answer.text())
    .then((html) => {
      if (mine === asked) putInMessages(new DOMParser().parseFromString(html, "text/html"));
    })
    .catch(() => {}); // offline: Save answers what needs fixing once the phone is back
}

// From a checked editor: each box of messages, each field's marks, the card. No value.
function putInMessages(drawn) {
  for (const box of drawn.querySelectorAll("[data-problems]")) {
    const here = document.getElementById(box.id);
    if (here && here.innerHTML !== box.innerHTML) here.innerHTML = box.innerHTML;
  }
  for (const control of drawn.querySelectorAll(".field [id^='f-']")) {
    const here = document.getElementById(control.id);
    if (!here) continue;
    for (const name of ["aria-invalid", "aria-describedby"]) {
      if (control.hasAttribute(name)) here.setAttribute(name, control.getAttribute(name));
      else here.removeAttribute(name);
    }
    const field = control.closest(".field");
    here.closest(".field")?.classList.toggle("has-error", field.classList.contains("has-error"));
  }
  const card = drawn.getElementById("house-card");
  document.getElementById("house-card")?.replaceWith(document.importNode(card, true));
}

function later(delay) {
  clearTimeout(pending);
  pending = setTimeout(check, delay);
}

document.addEventListener("input", (event) => {
  if (event.target.form === editorForm()) later(PAUSE_MS);
});
// A box ticked, a choice made or a field left: check now.
document.addEventListener("change", (event) => {
  if (event.target.form === editorForm()) later(0);
});

// A round or deck rule added, removed or moved redraws the editor with what was posted. What is
// typed while that answer is on its way is put back into the new editor, focus and all.
let sentValues = new Map(); // each field's value as the redraw's request sent it
let keptTyping = null; // what was typed since, and where the focus was
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = editorForm();
  if (!form || event.detail.elt.form !== form) return;
  asked++; // a check sent before the redraw answers for fields that may be gone
  clearTimeout(pending);
  sentValues = new Map([...form.elements].filter((e) => e.id).map((e) => [e.id, e.value]));
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.target?.id !== "editor") return;
  const typed = [...event.detail.target.querySelectorAll("input[id], select[id]")]
    .filter((e) => e.type !== "checkbox" && sentValues.has(e.id) && sentValues.get(e.id) !== e.value)
    .map((e) => [e.id, e.value]);
  const focused = document.activeElement?.id;
  keptTyping = { typed, focused };
});
document.addEventListener("htmx:afterSettle", () => {
  if (!keptTyping) return;
  const { typed, focused } = keptTyping;
  keptTyping = null;
  for (const [id, value] of typed) {
    const field = document.getElementById(id);
    if (field) field.value = value;
  }
  if (focused && typed.some(([id]) => id === focused)) document.getElementById(focused)?.focus();
  if (typed.length) later(PAUSE_MS);
});
