"""PDF pages: render each page to PNG with PyMuPDF and extract its text."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

from media_cache.errors import MediaError

# 144 dpi = twice PDF's 72-point grid: a US-letter page becomes 1224x1584 px, where small print
# and table figures stay legible to a VLM; 72 dpi (1 px per point) blurs footnote-sized text.
DEFAULT_DPI = 144
# A page that would render to more pixels than this at the asked dpi is rendered at the highest
# dpi that fits (recorded per page): a US-letter page fits up to 400 dpi, an 8000x8000 pt page
# (a hostile file of 840 bytes) becomes 4000x4000 px instead of 16000x16000.
MAX_PAGE_PIXELS = 16_000_000
# What MuPDF interprets to draw a page: its content streams and the form XObjects it uses,
# decompressed. Rendering costs about 5 ms per MiB of that (text extraction as much again), so
# a 1 MB file whose 40 pages share one stream inflating to 1 GiB would take minutes. Before any
# page is rendered, each distinct stream is decompressed once, counting and stopping at the
# limit (MuPDF's own decoders, every filter, bounded memory); a page over the first limit or
# pages over the second in all (a shared stream counts for every page) refuse the file.
MAX_PAGE_CONTENT_BYTES = 64 * 1024 * 1024
MAX_PDF_CONTENT_BYTES = 256 * 1024 * 1024
_MIB = 1024 * 1024


def _quiet_mupdf(pymupdf) -> None:
    # MuPDF prints repair warnings for damaged files straight to stderr; we report errors ourselves.
    try:
        pymupdf.TOOLS.mupdf_display_errors(False)
        pymupdf.TOOLS.mupdf_display_warnings(False)
    except AttributeError:
        pass


def open_pdf(source: Path):
    import pymupdf

    _quiet_mupdf(pymupdf)
    if not source.is_file():
        raise MediaError(f"{source}: no such file")
    try:
        doc = pymupdf.open(source, filetype="pdf")
    except Exception as exc:   # PyMuPDF raises several unrelated types for damaged files
        raise MediaError(f"{source}: cannot open PDF ({exc})") from None
    if doc.needs_pass:
        doc.close()
        raise MediaError(f"{source}: PDF is password-protected")
    if doc.page_count == 0:
        doc.close()
        raise MediaError(f"{source}: PDF has no pages (damaged or empty file)")
    return doc


def build_pdf_pages(source: Path, out_dir: Path, dpi: int) -> dict:
    """Producer of the `pdf_pages` operation: page_NNNN.png plus text and size per page."""
    doc = open_pdf(source)
    pages = []
    try:
        check_content_size(source, doc)
        for i in range(doc.page_count):
            try:
                page = doc.load_page(i)
                page_dpi = fit_dpi(page.rect.width, page.rect.height, dpi)
                pix = page.get_pixmap(dpi=page_dpi, alpha=False)
                name = f"page_{i:04d}.png"
                pix.save(out_dir / name)
                text = page.get_text("text")
            except MediaError:
                raise
            except Exception as exc:
                raise MediaError(f"{source}: cannot render page {i + 1} ({exc})") from None
            pages.append({"file": name, "text": text, "width": pix.width, "height": pix.height,
                          "dpi": page_dpi})
    finally:
        doc.close()
    return {"page_count": len(pages), "pages": pages}


def check_content_size(source: Path, doc) -> None:
    """Refuse `doc` (a MediaError naming `source`) when its pages' decompressed content streams
    and form XObjects pass MAX_PAGE_CONTENT_BYTES on a page or MAX_PDF_CONTENT_BYTES in all."""
    import pymupdf

    mupdf = pymupdf.mupdf
    pdf = mupdf.pdf_document_from_fz_document(doc.this)
    sizes: dict[int, int] = {}

    def inflated(xref: int) -> int:        # at most MAX_PAGE_CONTENT_BYTES + 1
        if xref not in sizes:
            total = 0
            try:
                stream = mupdf.pdf_open_stream_number(pdf, xref)
                while total <= MAX_PAGE_CONTENT_BYTES:
                    step = mupdf.fz_skip(stream, _MIB)
                    if step <= 0:
                        break
                    total += step
            except Exception:   # PyMuPDF's error types vary: a damaged stream is reported
                pass            # by the render that follows, naming the page
            sizes[xref] = total
        return sizes[xref]

    overall = 0
    for i in range(doc.page_count):
        try:
            page = doc.load_page(i)
            xrefs = set(page.get_contents()) | {entry[0] for entry in doc.get_page_xobjects(i)}
        except Exception as exc:
            raise MediaError(f"{source}: cannot read page {i + 1} ({exc})") from None
        on_page = sum(inflated(x) for x in sorted(xrefs) if x > 0)
        if on_page > MAX_PAGE_CONTENT_BYTES:
            raise MediaError(f"{source}: page {i + 1}'s content inflates to over "
                             f"{MAX_PAGE_CONTENT_BYTES // _MIB} MiB, over br-eval's limit per page")
        overall += on_page
        if overall > MAX_PDF_CONTENT_BYTES:
            raise MediaError(f"{source}: pages 1-{i + 1}'s content inflates to over "
                             f"{MAX_PDF_CONTENT_BYTES // _MIB} MiB, over br-eval's limit per PDF")


def fit_dpi(width_pt: float, height_pt: float, dpi: int) -> int:
    """`dpi`, lowered (to at least 1) so the page renders to at most MAX_PAGE_PIXELS pixels."""
    px = (width_pt * dpi / 72) * (height_pt * dpi / 72)
    if not px > MAX_PAGE_PIXELS:
        return dpi
    scaled = int(dpi * math.sqrt(MAX_PAGE_PIXELS / px))
    while scaled > 1 and (width_pt * scaled / 72) * (height_pt * scaled / 72) > MAX_PAGE_PIXELS:
        scaled -= 1
    return max(1, scaled)


def check_page_map(source: Path, page_map: Sequence[tuple[int, bool]] | None,
                   page_count: int) -> list[tuple[int, bool | None]]:
    """(original_page, is_evidence) for each page of the file; validated against its page count."""
    if page_map is None:
        return [(i + 1, None) for i in range(page_count)]
    try:
        mapped = [(int(orig), bool(ev)) for orig, ev in page_map]
    except (TypeError, ValueError):
        raise MediaError(f"{source}: page map must be a sequence of (original_page, is_evidence) pairs") from None
    if len(mapped) != page_count:
        raise MediaError(f"{source}: page map lists {len(mapped)} pages but the PDF has {page_count}")
    bad = [orig for orig, _ in mapped if orig < 1]
    if bad:
        raise MediaError(f"{source}: page map has original page number {bad[0]} (must be >= 1)")
    return mapped
