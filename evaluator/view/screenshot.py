"""Regenerate the report screenshot of the docs (evaluator/view/docs/view-overview.png).

    python -m evaluator.view.screenshot OUT.png

Runs two quick real runs on the generated sample (the weight-free `baseline` agent and a mock
model that always answers "I don't know"), builds the HTML report of both with the view
command's own code (evaluator.view.report), opens it in headless Chromium (Debian's `chromium`
and `chromium-driver`, driven by Selenium, with the flags the browser test uses), waits until
every plot is drawn and saves a PNG of the overview at a fixed window size (WINDOW).
"""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

TASKS = ["management", "realcompanion/retrieval"]   # a Beyond Recall group and one RC task
WINDOW = (1280, 2880)          # width, height of the saved PNG in CSS pixels (device scale 1)
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--force-device-scale-factor=1")


def browser_paths() -> tuple[str | None, str | None]:
    """Where chromium and chromedriver are (None for a part that is not installed)."""
    return shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver")


def open_browser(profile: Path, window: tuple[int, int] = (1280, 900), logs: bool = False):
    """A headless Chromium under Selenium with the given profile folder and window size. The
    driver path is explicit, so Selenium never tries to download one."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = browser_paths()
    if not (chromium and driver):
        from evaluator.errors import EvalError

        absent = " and ".join(n for n, p in (("chromium", chromium), ("chromedriver", driver)) if not p)
        raise EvalError(f"{absent} not installed (Debian: apt-get install chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={window[0]},{window[1]}")
    opts.binary_location = chromium
    if logs:
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=opts)


def wait_for(driver, script: str, timeout: float = 20.0):
    """Poll `script` in the page until it returns something true; AssertionError on timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for: {script}")


def sample_runs(work: Path) -> list[Path]:
    """Two finished runs of TASKS on the generated samples of both suites, in `work`."""
    from evaluator.datasets import generated_sample
    from evaluator.evaluate import evaluate

    data = {"data": generated_sample("beyondrecall"), "rc_data": generated_sample("realcompanion")}
    runs = [work / "baseline", work / "dont-know"]
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        evaluate(TASKS, agent="baseline", output_path=runs[0], progress=False, **data)
        evaluate(TASKS, agent="none", model="mock", model_args={"replies": "I don't know"},
                 output_path=runs[1], progress=False, **data)
    return runs


def screenshot(out: Path, window: tuple[int, int] = WINDOW) -> Path:
    """Write the overview of the sample runs' report to `out` (PNG, `window` pixels)."""
    from evaluator.errors import EvalError
    from evaluator.view.report import write_report
    from evaluator.view.runs import load_run

    out = Path(out)
    if out.suffix.lower() != ".png":
        raise EvalError(f"{out}: the screenshot is a PNG; name it *.png")
    if not out.parent.is_dir():
        raise EvalError(f"{out.parent}: no such folder")
    with tempfile.TemporaryDirectory(prefix="br-eval-screenshot-") as tmp:
        work = Path(tmp)
        report = write_report([load_run(p) for p in sample_runs(work)], work / "report.html")
        driver = open_browser(work / "chrome-profile", window)
        try:
            driver.get(report.resolve().as_uri())
            wait_for(driver, "return window.__brPlotsDone")
            # the window's inner size is what the PNG holds; make it exact whatever the chrome
            inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
            if tuple(inner) != tuple(window):
                size = driver.get_window_size()
                driver.set_window_size(size["width"] + window[0] - inner[0],
                                       size["height"] + window[1] - inner[1])
                wait_for(driver, "return document.readyState === 'complete'")
            png = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    out.write_bytes(png)
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    from evaluator.errors import EvalError

    parser = argparse.ArgumentParser(prog="python -m evaluator.view.screenshot",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", metavar="OUT.png", help="the PNG to write")
    args = parser.parse_args(argv)
    try:
        import selenium  # noqa: F401
    except ModuleNotFoundError:
        print("br-eval: the screenshot needs Selenium: pip install 'br-eval[test]'", file=sys.stderr)
        return 2
    try:
        out = screenshot(Path(args.out))
    except EvalError as exc:
        print(f"br-eval: {exc}", file=sys.stderr)
        return 2
    print(f"screenshot: {out} ({WINDOW[0]}x{WINDOW[1]}, {out.stat().st_size / 1e3:.0f} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
