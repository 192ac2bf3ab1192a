"""cache.pdf_pages: PyMuPDF rendering, text, page maps, damaged files."""

from __future__ import annotations

import pytest
from PIL import Image

from media_cache import MediaCache, MediaError
from media_cache.synthetic import make_pdf


@pytest.fixture
def cache(tmp_path):
    return MediaCache(tmp_path / "cache")


def test_pages_rendered_with_text_at_the_chosen_dpi(cache, tmp_path):
    pdf = make_pdf(tmp_path / "doc.pdf", pages=3, width=200, height=120)
    res = cache.pdf_pages(pdf, dpi=72)
    assert res.dpi == 72 and len(res.pages) == 3
    for i, page in enumerate(res.pages):
        assert page.index == i and page.original_page == i + 1 and page.is_evidence is None
        assert f"Page {i + 1} of the test document" in page.text
        with Image.open(page.image_path) as im:
            assert im.format == "PNG" and im.size == (200, 120) == (page.width, page.height)
    hi = cache.pdf_pages(pdf, dpi=144)              # another dpi is another entry
    assert not hi.from_cache and (hi.pages[0].width, hi.pages[0].height) == (400, 240)
    default = cache.pdf_pages(pdf)
    assert default.dpi == 144 and default.from_cache


def test_page_map_sets_original_pages_and_evidence_without_rerendering(cache, tmp_path):
    pdf = make_pdf(tmp_path / "cropped.pdf", pages=3)
    plain = cache.pdf_pages(pdf, dpi=36)
    mapped = cache.pdf_pages(pdf, dpi=36, page_map=[(4, False), (7, True), (8, True)])
    assert mapped.from_cache and cache.stats["pdf_pages:miss"] == 1
    assert [(p.index, p.original_page, p.is_evidence) for p in mapped.pages] == \
        [(0, 4, False), (1, 7, True), (2, 8, True)]
    assert [p.original_page for p in mapped.evidence_pages] == [7, 8]
    assert mapped.pages[1].image_path == plain.pages[1].image_path
    assert mapped.to_dict()["pages"][1]["original_page"] == 7


def test_page_map_length_mismatch_names_the_file(cache, tmp_path):
    pdf = make_pdf(tmp_path / "short.pdf", pages=2)
    with pytest.raises(MediaError, match=r"short\.pdf.*3 pages but the PDF has 2"):
        cache.pdf_pages(pdf, dpi=36, page_map=[(1, True), (2, False), (3, False)])


@pytest.mark.parametrize("payload", [b"%PDF-1.4\n garbage without objects", b"not a pdf", b""])
def test_damaged_pdf_names_the_file(cache, tmp_path, payload):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(payload)
    with pytest.raises(MediaError, match="broken.pdf"):
        cache.pdf_pages(bad, dpi=36)


def test_bad_dpi(cache, tmp_path):
    pdf = make_pdf(tmp_path / "a.pdf", pages=1)
    with pytest.raises(MediaError, match="dpi"):
        cache.pdf_pages(pdf, dpi=0)
