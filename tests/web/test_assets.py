"""Static files under content-hashed URLs with a year-long cache; text answers gzip-compressed."""

from __future__ import annotations

import gzip
import re

from flask.testing import FlaskClient

from tests.conftest import Table
from tests.web.test_games import PLAYERS

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def static_urls(page: str) -> list[str]:
    """The static files a page links to, as it links to them."""
    return [u.replace("&amp;", "&") for u in re.findall(r'(?:href|src)="(/static/[^"]+)"', page)]


def test_static_urls_carry_the_files_hash_and_are_cached_for_a_year(client: FlaskClient) -> None:
    urls = static_urls(client.get("/").get_data(as_text=True))
    assert len(urls) >= 4
    for url in urls:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        response = client.get(url)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        response.close()


def test_a_static_url_without_its_current_hash_is_revalidated(client: FlaskClient) -> None:
    for url in ("/static/js/app.js", "/static/js/app.js?v=000000000000"):
        response = client.get(url)
        assert response.headers["Cache-Control"] == "no-cache"
        response.close()


def test_the_service_worker_is_never_cached_long(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.headers["Cache-Control"] == "no-cache"
    response.close()


def test_text_answers_are_gzipped_for_browsers_that_accept_it(client: FlaskClient) -> None:
    plain = client.get("/")
    packed = client.get("/", headers=GZIP)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert "Content-Encoding" not in plain.headers
    assert len(packed.data) < len(plain.data) / 2
    assert gzip.decompress(packed.data).decode().startswith("<!doctype html>")
    script = client.get(static_urls(plain.get_data(as_text=True))[-1], headers=GZIP)
    assert script.headers["Content-Encoding"] == "gzip"
    assert b"document" in gzip.decompress(script.data)


def test_images_and_empty_answers_are_sent_as_they_are(client: FlaskClient) -> None:
    icon = next(u for u in static_urls(client.get("/").get_data(as_text=True)) if ".png" in u)
    response = client.get(icon, headers=GZIP)
    assert "Content-Encoding" not in response.headers
    response.close()


def test_a_round_screen_first_load_is_at_most_30_kb_transferred(table: Table) -> None:
    table.start([*PLAYERS, "Eve", "Finn", "Gus", "Hal"])
    for seat in range(8):
        table.client.post(f"{table.url}/buys", data={"seat": seat})
    page = table.client.get(table.url, headers=GZIP)
    sizes = [len(page.data)]
    # A browser fetches the apple-touch-icon only when the page is added to a home screen.
    loaded = [url for url in static_urls(gzip.decompress(page.data).decode()) if "apple" not in url]
    for url in loaded:
        answer = table.client.get(url, headers=GZIP)
        sizes.append(len(answer.data))
        answer.close()
    assert sum(sizes) <= 30 * 1024, sizes
