"""`br-eval view` in a real headless Chromium (Debian's chromium + chromium-driver, driven by
Selenium): the overview table, a plot and a drill-down item with a thumbnail render without
console errors, and the page loads nothing but itself. Skips only when Chromium is absent and
BR_EVAL_REQUIRE_BROWSER is unset (.ci/run sets it, so CI never skips)."""

import os

import pytest

from evaluator.cli import main
from evaluator.view.screenshot import browser_paths, wait_for
from evaluator.view.screenshot import open_browser as _open_browser

CHROMIUM, DRIVER = browser_paths()


def missing_browser_parts(chromium, driver) -> str:
    """What is not installed, by name ("" when both are): the skip and fail lines say it."""
    absent = [name for name, found in (("chromium", chromium), ("chromedriver", driver)) if not found]
    if not absent:
        return ""
    verb = "is" if len(absent) == 1 else "are"
    return f"{' and '.join(absent)} {verb} not installed (Debian: apt-get install chromium chromium-driver)"


if missing_browser_parts(CHROMIUM, DRIVER):
    if os.environ.get("BR_EVAL_REQUIRE_BROWSER"):
        pytest.fail(f"BR_EVAL_REQUIRE_BROWSER is set but {missing_browser_parts(CHROMIUM, DRIVER)}",
                    pytrace=False)
    pytest.skip(missing_browser_parts(CHROMIUM, DRIVER), allow_module_level=True)


def open_browser(tmp_path):
    """The browser the screenshot script uses (same flags), with the console log kept."""
    return _open_browser(tmp_path / "chrome-profile", logs=True)


def test_report_renders_in_headless_chromium(sample_snapshot, tmp_path):
    runs = []
    for name, reply in (("a", "zzz"), ("b", "The old harbour.")):
        out = tmp_path / name
        assert main(["run", "--no-progress", "--tasks", "cross_modal_semantic_matching,memory_update",
                     "--data", str(sample_snapshot), "--agent", "none", "--model", "mock",
                     "--model_args", f"replies={reply}", "--output_path", str(out)]) == 0
        runs.append(str(out))
    report = tmp_path / "report.html"
    assert main(["view", *runs, "-o", str(report)]) == 0

    driver = open_browser(tmp_path)
    try:
        driver.get(report.resolve().as_uri())
        wait_for(driver, "return window.__brFirstRender")
        # overview: the task table with both runs' rows
        rows = driver.execute_script(
            "return [...document.querySelectorAll('#tasktables tbody tr')].map(r => r.innerText)")
        assert any("memory_update" in r for r in rows) and len(rows) >= 4
        # a plot: vega-embed drew an SVG with marks
        wait_for(driver, "return document.querySelector('#plot-task_scores[data-rendered]')")
        marks = driver.execute_script(
            "return document.querySelectorAll('#plot-task_scores svg path, #plot-task_scores svg line').length")
        assert marks > 0
        assert driver.execute_script("return document.getElementById('cmp').innerText").count("overall")
        driver.save_screenshot(str(tmp_path / "overview.png"))
        # drill-down: open an item whose agent saw media, in the items view
        key = driver.execute_script(
            "const D = JSON.parse(document.getElementById('payload').textContent);"
            "const it = D.items.find(it => it.r.some(r => r && r.media));"
            "return it && it.k")
        assert key
        driver.execute_script("document.getElementById('nav-items').click()")
        wait_for(driver, "return document.querySelectorAll('#items tbody tr').length")
        driver.execute_script(
            f"[...document.querySelectorAll('#items tbody tr')].find(r => r.innerText.includes({key!r})).click()")
        wait_for(driver, "return document.querySelector('#detail .thumbs img')")
        ok = driver.execute_script(
            "const im = document.querySelector('#detail .thumbs img');"
            "return im.complete && im.naturalWidth > 0 && im.src.startsWith('data:image/jpeg')")
        assert ok
        assert driver.execute_script("return document.getElementById('detail').dataset.key") == key
        assert "prediction" in driver.execute_script("return document.getElementById('detail').innerText")
        driver.save_screenshot(str(tmp_path / "item.png"))
        # filters: outcome and comparison filters narrow the list
        driver.execute_script("const s = document.getElementById('f-cmp'); s.value = 'changed';"
                              "s.dispatchEvent(new Event('change'))")
        count = driver.execute_script("return document.getElementById('f-count').innerText")
        assert count.endswith("items") and not count.startswith("0 of")
        # nothing was fetched from anywhere: every resource the page loaded is inline
        resources = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        assert all(r.startswith("data:") for r in resources), resources
        logs = driver.get_log("browser")
        errors = [e for e in logs if e["level"] in ("SEVERE", "ERROR")]
        assert not errors, errors
    finally:
        driver.quit()
    assert (tmp_path / "overview.png").stat().st_size > 10_000
    assert (tmp_path / "item.png").stat().st_size > 10_000


def test_hostile_replies_and_a_nan_metric_render_as_text_and_run_nothing(sample_snapshot, tmp_path):
    """Replies holding `<!--`, `</script>` and inline script, and a journal with NaN and Infinity
    metrics (issue 22, item 10): the page renders every row, shows the replies as text, and no
    injected script runs (the policy allows only the page's own scripts, by hash)."""
    from test_run_folder_safety import INJECTED, hostile_run

    run = hostile_run(sample_snapshot, tmp_path)
    report = tmp_path / "report.html"
    assert main(["view", str(run), "-o", str(report), "--no-thumbnails"]) == 0
    driver = open_browser(tmp_path)
    try:
        driver.get(report.resolve().as_uri())
        wait_for(driver, "return window.__brFirstRender")
        driver.execute_script("document.getElementById('nav-items').click()")
        wait_for(driver, "return document.querySelectorAll('#items tbody tr').length")
        rows = driver.execute_script("return document.querySelectorAll('#items tbody tr').length")
        assert rows == 7
        assert driver.execute_script("return document.getElementById('f-count').innerText") \
            == "7 of 7 items"
        for i in range(4):                       # open items answered with each hostile reply
            driver.execute_script(f"document.querySelectorAll('#items tbody tr')[{i}].click()")
            wait_for(driver, "return !document.getElementById('detail').hidden")
            text = driver.execute_script("return document.getElementById('detail').innerText")
            assert INJECTED[i].split(" ")[0] in text, text
        assert driver.execute_script("return typeof window.__pwned") == "undefined"
        assert driver.execute_script("return document.querySelectorAll('#detail img').length") == 0
        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert not errors, errors
    finally:
        driver.quit()


def test_screenshot_script_writes_the_docs_png(tmp_path, capsys):
    """Issue 25: `python -m evaluator.view.screenshot OUT.png` runs the sample, renders its
    report in Chromium and writes a PNG of the fixed window size with the plots drawn."""
    import io

    from PIL import Image, ImageChops

    from evaluator.view import screenshot

    out = tmp_path / "overview.png"
    assert screenshot.main([str(out)]) == 0
    assert f"screenshot: {out}" in capsys.readouterr().out
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and 50_000 < len(data) < 400_000
    img = Image.open(io.BytesIO(data)).convert("RGB")
    assert img.size == screenshot.WINDOW
    # not blank: the page is grey text on white but for the plots' coloured marks, so drawn plots
    # show as thousands of saturated pixels (the tables alone have none)
    r, g, b = img.split()
    chroma = ImageChops.subtract(ImageChops.lighter(ImageChops.lighter(r, g), b),
                                 ImageChops.darker(ImageChops.darker(r, g), b)).histogram()
    assert sum(chroma[80:]) > 3000
    # bad input: one line and exit 2
    assert screenshot.main([str(tmp_path / "x.jpg")]) == 2
    assert capsys.readouterr().err == f"br-eval: {tmp_path / 'x.jpg'}: the screenshot is a PNG; name it *.png\n"


# The bounding boxes of every visible axis label of each plot, grouped by axis, and the legends
# (title, labels, symbol shapes) as the browser drew them.
_AXES_JS = """
const out = {};
for (const plot of document.querySelectorAll('.plot')) {
  const axes = [];
  for (const g of plot.querySelectorAll('g.mark-text.role-axis-label')) {
    const boxes = [];
    for (const t of g.querySelectorAll('text')) {
      const o = t.getAttribute('opacity');
      if ((o !== null && Number(o) === 0) || !t.textContent.trim()) continue;   // dropped, or a bare tick
      const b = t.getBoundingClientRect();
      boxes.push([t.textContent, b.left, b.top, b.right, b.bottom]);
    }
    axes.push(boxes);
  }
  const titles = [...plot.querySelectorAll('g.mark-text.role-axis-title text')].map(t => t.textContent);
  const legends = [...plot.querySelectorAll('g.mark-group.role-legend')].map(l => ({
    title: [...l.querySelectorAll('g.role-legend-title text')].map(t => t.textContent).join(' '),
    labels: [...l.querySelectorAll('g.role-legend-label text')].map(t => t.textContent),
    symbols: [...l.querySelectorAll('g.role-legend-symbol path')].map(p =>
      [p.getAttribute('d'), p.getAttribute('fill'), p.getAttribute('stroke')].join('|'))}));
  out[plot.id] = {axes, titles, legends};
}
return out;
"""


def _overlaps(boxes, gap=3.0):
    """Pairs of labels that touch or come closer than `gap` pixels ("1,0002,000")."""
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] + gap and b[1] < a[3] + gap and a[2] < b[4] and b[2] < a[4]]


def test_report_reads_at_a_glance_for_both_suites(sample_snapshot, tmp_path):
    """Issue 25, item 7: RealCompanion chat and retrieval items show their probe and gold text
    (checked against the release as the data layer reads it), the list has a prediction column,
    no two axis labels overlap, every plot of two runs has a legend naming both runs with symbols
    that differ, and the per-task plot names each metric on its own axis."""
    import json

    from evaluator.realcompanion.data import load_release

    tasks = "memory_update,realcompanion/chat,realcompanion/retrieval"
    runs = []
    for name, reply in (("first", "hello there"), ("second", "The old harbour.")):
        out = tmp_path / name
        assert main(["run", "--no-progress", "--tasks", tasks, "--data", str(sample_snapshot),
                     "--agent", "none", "--model", "mock", "--model_args", f"replies={reply}",
                     "--output_path", str(out)]) == 0
        runs.append(str(out))
    report = tmp_path / "report.html"
    assert main(["view", *runs, "-o", str(report), "--no-thumbnails"]) == 0
    results = json.loads((tmp_path / "first" / "results.json").read_text())
    release = load_release(results["config"]["rc_data"])
    person = release.participants[0]
    probe = next(p for p in person.probes if p.scoreable and not p.cold_open and p.gold_response
                 and p.reference_ids)
    chat_key = f"realcompanion/chat/{person.pid}/{probe.probe_id}"
    retrieval_key = f"realcompanion/retrieval/{person.pid}/{probe.probe_id}"
    metrics = {e["primary_metric"] for e in results["results"].values()}
    assert len(metrics) >= 2          # the per-task plot has different metrics to keep apart

    driver = open_browser(tmp_path)
    try:
        driver.get(report.resolve().as_uri())
        wait_for(driver, "return window.__brPlotsDone")
        drawn = driver.execute_script(_AXES_JS)
        assert {"plot-task_scores", "plot-retrieval_hits", "plot-window_coverage"} <= set(drawn)
        touching = {plot: _overlaps(boxes) for plot, found in drawn.items() for boxes in found["axes"]
                    if _overlaps(boxes)}
        assert not touching, touching
        for plot, found in drawn.items():
            named = [lg for lg in found["legends"] if set(lg["labels"]) >= {"first", "second"}]
            assert named, (plot, found["legends"])               # a legend names both runs
            lg = named[0]
            shown = [lg["symbols"][lg["labels"].index(r)] for r in ("first", "second")]
            assert shown[0] != shown[1], (plot, lg)   # ... by shape or colour (a dash on a dot is not seen)
        titles = drawn["plot-task_scores"]["titles"]
        assert "score" not in titles and metrics <= set(titles), titles
        # the items list: a prediction column per run
        driver.execute_script("document.getElementById('nav-items').click()")
        wait_for(driver, "return document.querySelectorAll('#items tbody tr').length")
        head = driver.execute_script(
            "return [...document.querySelectorAll('#items thead th')].map(t => t.innerText)")
        assert head == ["item", "question", "first: prediction", "first: score",
                        "second: prediction", "second: score"]
        driver.execute_script(f"const s = document.getElementById('f-text'); s.value = {chat_key!r};"
                              "window.brReport.filter()")
        row = driver.execute_script(
            f"return [...document.querySelectorAll('#items tbody tr')].map(r => [...r.cells].map(c => c.innerText))"
            f".find(r => r[0] === {chat_key!r})")
        assert row[1] == probe.text and row[2] == "hello there" and row[4] == "The old harbour."
        # drill-down: the probe and the gold reply / the reference messages
        for key, gold in ((chat_key, probe.gold_response),
                          (retrieval_key, person.message(probe.reference_ids[0]).text)):
            driver.execute_script(f"window.brReport.openItem({key!r})")
            wait_for(driver, f"return document.getElementById('detail').dataset.key === {key!r}")
            blocks = driver.execute_script(
                "return [...document.querySelectorAll('#detail .detail > div:first-child pre')].map(p => p.innerText)")
            assert blocks[0] == probe.text and gold in blocks[1], (key, blocks)
        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert not errors, errors
    finally:
        driver.quit()
