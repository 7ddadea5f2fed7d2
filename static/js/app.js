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

// A link that was replaced answers 410: reload, so the page says so instead of going stale.
document.addEventListener("htmx:responseError", (event) => {
  if (event.detail.xhr.status === 410 || event.detail.xhr.status === 404) {
    window.location.reload();
  }
});
