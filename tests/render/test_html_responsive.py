"""The HTML transcript in a real browser (headless Chromium through Playwright): at a phone's 375 px
the page scrolls only vertically (`document.documentElement.scrollWidth <= innerWidth`; tables
stack, each cell naming its column), at 1200 px the tables stay tables, and printed on A4 nothing
runs off the paper and the text stays at least 10 pt.

Skipped only where no Chromium exists (`apt-get install chromium`); `.ci/run` fails then."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p for p in (ROOT / "scenarios").glob("*.yaml"))


# The session's one Chromium (tests/conftest.py `chromium`): a second Playwright in the same worker
# would start inside the first one's event loop. Skipped where there is none, failed then under
# DRD_REQUIRE_BROWSER=1 (.ci/run).
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(chromium):
    return chromium


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Every scenario's HTML transcript (Czech), written once for the module."""
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.errors import DrdError
    from drd_cli.i18n import using
    from drd_cli.render.html import render_html

    folder = tmp_path_factory.mktemp("html")
    out = {}
    with using("cs"):
        for path in SCENARIOS:
            try:
                result = resolve_scenario(load_scenario(str(path)), seed=1)
            except DrdError:
                continue            # a file whose expectation is a refusal has no transcript
            page = folder / (path.stem + ".html")
            page.write_text(render_html(result), encoding="utf-8")
            out[path.stem] = page
    return out


def _overflow(browser, page_path: Path, width: int, *, media: str = "screen") -> tuple[int, int]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.emulate_media(media=media)
        page.goto(page_path.as_uri())
        return page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    finally:
        page.close()


def test_every_transcript_scrolls_only_vertically_on_a_phone(browser, pages):
    assert len(pages) > 80
    page = browser.new_page(viewport={"width": 375, "height": 900})
    wide = {}
    try:
        for name, path in pages.items():
            page.goto(path.as_uri())
            got = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            if got[0] > got[1]:
                wide[name] = got
    finally:
        page.close()
    assert not wide, wide


def test_on_a_phone_a_table_stacks_and_each_cell_names_its_column(browser, pages):
    page = browser.new_page(viewport={"width": 375, "height": 900})
    try:
        page.goto(pages["hanus-utek"].as_uri())
        display = page.evaluate("getComputedStyle(document.querySelector('td')).display")
        label = page.evaluate("getComputedStyle(document.querySelector('td[data-label]'), '::before').content")
        assert display == "block"
        assert "Celkem" in label or "Hod" in label
    finally:
        page.close()


def test_on_a_wide_screen_tables_stay_tables(browser, pages):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    try:
        page.goto(pages["hanus-utek"].as_uri())
        assert page.evaluate("getComputedStyle(document.querySelector('td')).display") == "table-cell"
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    finally:
        page.close()


@pytest.mark.parametrize("name", ["hanus-utek", "vlkava-rabiati-ctibor-vyssi", "zlatka-zaves", "pisecna-boure-dve-kola"])
def test_printed_on_a4_nothing_runs_off_and_the_text_is_legible(browser, pages, name):
    # A4 is 210 mm; with the page's 12 mm margins 186 mm ≈ 703 CSS px are printed.
    width, inner = _overflow(browser, pages[name], 703, media="print")
    assert width <= inner
    page = browser.new_page(viewport={"width": 703, "height": 1000})
    try:
        page.emulate_media(media="print")
        page.goto(pages[name].as_uri())
        smallest = page.evaluate("Math.min(...[...document.querySelectorAll('td, li, p')]"
                                 ".map(e => parseFloat(getComputedStyle(e).fontSize)))")
        assert smallest >= 10 * 96 / 72 * 0.8          # the smallest text (small print: .8em of 10.5 pt)
        pdf = page.pdf(format="A4")
        assert pdf[:4] == b"%PDF"
    finally:
        page.close()
