"""Draw the app icons (PNG) from one SVG in Chromium: `.venv/bin/python tools/make_icons.py`."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
# A card with a question mark ("May I?") on the felt green; maskable icons keep it in the
# middle 80 %, the safe zone a phone's mask never cuts.
CARD = (
    '<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="#fbfaf6"/>'
    '<text x="50%" y="{ty}" font-family="DejaVu Sans, sans-serif" font-size="{fs}" '
    'font-weight="700" text-anchor="middle" fill="#b3261e">?</text>'
)


def svg(size: int, scale: float) -> str:
    """The icon at `size` pixels with the card taking `scale` of its height."""
    h = size * scale
    w = h * 0.72
    card = CARD.format(
        x=(size - w) / 2, y=(size - h) / 2, w=w, h=h, r=h * 0.1, ty=size / 2 + h * 0.2, fs=h * 0.6
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
        f'<rect width="100%" height="100%" fill="#1f6f4a"/>{card}</svg>'
    )


def main() -> None:
    """Write every icon the manifest and the apple-touch-icon link name."""
    ICONS.mkdir(parents=True, exist_ok=True)
    wanted = {
        "icon-192.png": (192, 0.78),
        "icon-512.png": (512, 0.78),
        "maskable-512.png": (512, 0.56),
        "apple-touch-icon.png": (180, 0.7),
    }
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless"]
        )
        page = browser.new_page()
        for name, (size, scale) in wanted.items():
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(f"<body style='margin:0'>{svg(size, scale)}</body>")
            page.screenshot(path=str(ICONS / name), omit_background=False)
        browser.close()


if __name__ == "__main__":
    main()
