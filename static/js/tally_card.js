// Tonight's tally card: the server's SVG drawn on a canvas as a PNG, shared where the phone
// can share a file (Web Share), else downloaded. Loaded as a module: no inline script (CSP).

const WIDTH = 1080;
const HEIGHT = 1350;

// The SVG as a data: URL (the CSP's img-src allows data:, not blob:), drawn on a canvas.
async function pngOf(cardUrl) {
  const answer = await fetch(cardUrl, { credentials: "same-origin" });
  if (!answer.ok) throw new Error(`card: ${answer.status}`);
  const svg = await answer.text();
  const image = new Image(WIDTH, HEIGHT);
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  canvas.getContext("2d").drawImage(image, 0, 0, WIDTH, HEIGHT);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("canvas"))), "image/png");
  });
}

function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function share(button) {
  const blob = await pngOf(button.dataset.card);
  const file = new File([blob], button.dataset.file, { type: "image/png" });
  if (navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: button.dataset.title });
      return;
    } catch (error) {
      if (error.name === "AbortError") return; // the person closed the share sheet
    }
  }
  download(blob, button.dataset.file);
}

const button = document.getElementById("share-card");
if (button) {
  button.addEventListener("click", () => {
    button.setAttribute("aria-busy", "true");
    share(button).finally(() => button.removeAttribute("aria-busy"));
  });
}
