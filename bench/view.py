"""`br-eval view` at full size: two runs of the 1,269-question synthetic snapshot side by side.

Prints, measured in the same run:
  - the time to build the report and its file size (with thumbnails from the media cache);
  - in headless Chromium (when installed): the time from navigation to the first render of the
    page (overview table and the first page of items) and to all plots drawn, next to the
    reference: a page holding only the vendored Vega runtime (the floor any report pays), and a
    naive page that builds every item's detail for both runs up front;
  - the time to open one item's drill-down.
Usage: python bench/view.py [SNAPSHOT]   (goal: usable in under 3 s)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"):
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='br-view-chrome-')}")
    opts.binary_location = shutil.which("chromium")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)


def timed_open(driver, path: Path, ready: str) -> float:
    t = time.perf_counter()
    driver.get(path.resolve().as_uri())
    while not driver.execute_script(ready):
        time.sleep(0.01)
    return time.perf_counter() - t


def main() -> None:
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from _fullsize import full_snapshot
    from evaluator.evaluate import evaluate
    from evaluator.view.report import RUNTIME, STATIC, with_script_hashes, write_report
    from evaluator.view.runs import load_run

    snapshot = Path(sys.argv[1]) if len(sys.argv) > 1 else full_snapshot()
    tmp = Path(tempfile.mkdtemp(prefix="br-view-bench-"))
    try:
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            evaluate(["beyondrecall"], agent="baseline", data=snapshot, output_path=tmp / "baseline",
                     progress=False)
            evaluate(["beyondrecall"], agent="none", model="mock",
                     model_args={"replies": "I don't know"}, data=snapshot,
                     output_path=tmp / "null", progress=False)
        runs = [load_run(tmp / "baseline"), load_run(tmp / "null")]
        n_items = sum(len(s) for s in runs[0].samples.values())
        t = time.perf_counter()
        out = write_report(runs, tmp / "report.html")
        t_build = time.perf_counter() - t
        print(f"items: {n_items} questions x {len(runs)} runs")
        print(f"report build (incl. thumbnails)     {t_build:7.2f} s")
        print(f"report file size                     {out.stat().st_size / 1e6:7.2f} MB")
        if not (shutil.which("chromium") and shutil.which("chromedriver")):
            print("chromium / chromedriver not installed: no render timings")
            return
        floor = tmp / "runtime-only.html"
        floor.write_text("<!DOCTYPE html><html><body><script>" + "\n".join(
            (STATIC / n).read_text(encoding="utf-8") for n in RUNTIME) +
            "</script><script>window.__done = 1</script></body></html>", encoding="utf-8")
        naive = tmp / "naive.html"
        naive.write_text(with_script_hashes(out.read_text(encoding="utf-8").replace(
            "  applyFilters();\n", "  ITEMS.forEach((it, i) => openItem(i) || $('detail').append"
            "(...[]) || document.body.append($('detail').cloneNode(true)));\n  applyFilters();\n", 1)),
            encoding="utf-8")
        driver = browser()
        try:
            timed_open(driver, floor, "return window.__done")        # warm the browser
            t_floor = timed_open(driver, floor, "return window.__done")
            t = time.perf_counter()
            driver.get(out.resolve().as_uri())
            while not driver.execute_script("return window.__brFirstRender"):
                time.sleep(0.01)
            t_first = time.perf_counter() - t
            while not driver.execute_script("return window.__brPlotsDone"):
                time.sleep(0.01)
            t_plots = time.perf_counter() - t
            n_thumbs = driver.execute_script(
                "return Object.keys(JSON.parse(document.getElementById('payload').textContent).thumbs).length")
            t = time.perf_counter()
            driver.execute_script("window.brReport.openItem(arguments[0])", runs[0].samples[
                next(iter(runs[0].samples))][0].key)
            t_item = time.perf_counter() - t
            t_naive = timed_open(driver, naive, "return window.__brFirstRender")
        finally:
            driver.quit()
        print(f"reference: runtime-only page         {t_floor:7.2f} s")
        print(f"time to first render (table + items) {t_first:7.2f} s   (goal < 3 s)")
        print(f"thumbnails in the file               {n_thumbs:7d}")
        print(f"time to all plots drawn              {t_plots:7.2f} s")
        print(f"open one item's drill-down           {t_item * 1000:7.1f} ms")
        print(f"reference: every item built up front {t_naive:7.2f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
