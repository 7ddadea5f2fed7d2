// A printable page's Print button (the game's sheet, a blank sheet): a script file, as the CSP
// allows no inline script.
const printButton = document.querySelector("button[data-print]");
if (printButton) {
  printButton.hidden = false;
  printButton.addEventListener("click", () => window.print());
}
