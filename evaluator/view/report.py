"""`br-eval view`: one self-contained HTML file for one or more finished runs.

Everything is inside the file: the page (a Jinja2 template), the plots (Vega-Lite specs rendered
by the vendored vega / vega-lite / vega-embed runtime, see static/*.LICENSE.txt), the items as
one JSON blob that the page renders on demand (a page of rows at a time, an item's details when
it is opened) and the media thumbnails as small JPEG data URIs taken from the media cache.

Hostile text stays text: the blob is strict JSON with `<`, `>`, `&`, U+2028 and U+2029 escaped, so
no reply can end its script element (`_script_json`; NaN and Infinity become null), the page
builds its DOM with textContent, and its Content-Security-Policy lets only its own inline scripts
run, named by their sha256 (`with_script_hashes`). The file is written by `write_atomic`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
import re
import sys
from pathlib import Path

from evaluator.records import Sample
from evaluator.view.runs import (RunData, compare_runs, item_prediction, item_primary, label_runs,
                                 outcome)

STATIC = Path(__file__).parent / "static"
RUNTIME = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
THUMB_SIZE = (160, 120)
MAX_PAGES, MAX_FRAMES = 4, 8


# -- thumbnails -----------------------------------------------------------------------------------
class Thumbnails:
    """Small JPEG data URIs of the media an item's agent saw, built from the media cache with the
    run's media settings (frames / fps / dpi / video backend), each stored once per report."""

    def __init__(self) -> None:
        self.uris: dict[str, str] = {}
        self.failed: list[str] = []
        self._cache = None
        self._pdf_maps: dict[str, dict] = {}

    @property
    def cache(self):
        if self._cache is None:
            from media_cache import MediaCache

            self._cache = MediaCache()
        return self._cache

    def _add(self, ident: str, image_path) -> str:
        if ident not in self.uris:
            from PIL import Image

            with Image.open(image_path) as im:
                im = im.convert("RGB")
                im.thumbnail(THUMB_SIZE)
                buf = io.BytesIO()
                im.save(buf, "JPEG", quality=70, optimize=True)
            self.uris[ident] = "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode()
        return ident

    def for_sample(self, run: RunData, sample: Sample) -> list[dict]:
        """[{path, kind, label, thumbs: [id, ...]}] for each media input the item used."""
        used = sample.inputs.get("media_used") or []
        data = (run.header.get("data") or {}).get("path")
        if not used or not data:
            return []
        from beyondrecall.errors import DataError
        from media_cache.errors import MediaError

        bench = Path(data) / "benchmark"
        out, seen = [], set()
        for entry in used:
            if not isinstance(entry, dict) or not entry.get("path"):
                continue
            try:
                sig = (str(entry.get("path")), str(entry.get("kind")),
                       tuple(entry.get("pages") or ()), tuple(entry.get("frames") or ()))
                if sig in seen:
                    continue
                seen.add(sig)
                out.append(self._media(run, bench, entry))
            except (MediaError, DataError, OSError, ValueError, TypeError) as exc:
                self.failed.append(f"{entry.get('path')}: {exc}")
        return [m for m in out if m]

    def _media(self, run: RunData, bench: Path, entry: dict) -> dict | None:
        from beyondrecall.paths import resolve_media

        rel, kind = str(entry["path"]), entry.get("kind")
        source = resolve_media(bench, rel)
        s = run.settings
        if kind == "pdf":
            pages = self._pdf(bench.parent, source, rel, s.get("dpi")).pages
            wanted = entry.get("pages") or [p.original_page for p in pages]
            chosen = [p for p in pages if p.original_page in wanted][:MAX_PAGES]
            ids = [self._add(f"pdf:{rel}:{s.get('dpi')}:{p.index}", p.image_path) for p in chosen]
            return {"path": rel, "kind": "pdf", "label": "pages " + ", ".join(
                str(p.original_page) for p in chosen), "thumbs": ids}
        if kind == "video":
            fps = s.get("fps")
            backend = s.get("video_backend") or "pyav"
            vf = (self.cache.video_frames(source, fps=fps, backend=backend) if fps else
                  self.cache.video_frames(source, num_frames=s.get("frames") or 8, backend=backend))
            wanted = set(entry.get("frames") or [f.index for f in vf.frames])
            frames = [f for f in vf.frames if f.index in wanted] or list(vf.frames)
            step = max(1, -(-len(frames) // MAX_FRAMES))
            frames = frames[::step][:MAX_FRAMES]
            ids = [self._add(f"video:{rel}:{fps}:{s.get('frames')}:{f.index}", f.image_path)
                   for f in frames]
            return {"path": rel, "kind": "video", "label": f"{len(frames)} of {len(vf.frames)} "
                    f"sampled frames ({vf.duration:.1f} s)", "thumbs": ids}
        img = self.cache.image(source)
        return {"path": rel, "kind": "image", "label": f"{img.width}x{img.height}",
                "thumbs": [self._add(f"image:{rel}", img.path)]}

    def _pdf(self, snapshot: Path, source: Path, rel: str, dpi):
        from beyondrecall.pdfmap import read_pdf_map

        key = str(snapshot)
        if key not in self._pdf_maps:
            try:
                self._pdf_maps[key] = read_pdf_map(snapshot) or {}
            except Exception:                      # a damaged map: pages keep their file numbers
                self._pdf_maps[key] = {}
        entry = self._pdf_maps[key].get(rel)
        page_map = ([(p, p in entry.evidence_pages) for p in entry.original_pages]
                    if entry is not None else None)
        return self.cache.pdf_pages(source, dpi=dpi, page_map=page_map)


# -- the payload ------------------------------------------------------------------------------------
def _num(v) -> float | None:
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _obj(v) -> dict:
    """A task's own figures are read as far as they have the expected shape."""
    return v if isinstance(v, dict) else {}


def _ci(est) -> tuple[float | None, float | None, float | None]:
    if not isinstance(est, dict):
        return None, None, None
    mean = _num(est.get("mean", est.get("rate")))
    ci = est.get("ci95") or [None, None]
    lo, hi = (ci + [None, None])[:2] if isinstance(ci, list) else (None, None)
    return mean, _num(lo), _num(hi)


def _header(run: RunData) -> dict:
    h = run.header
    cfg = h.get("config") or {}
    s = run.settings
    data = h.get("data") or {}
    if data.get("is_sample"):
        revision = "generated sample"
    else:
        revision = data.get("revision") or "-"
    return {"label": run.label, "path": str(run.path), "agent": s.get("agent"),
            "model": s.get("model"), "model_args": s.get("model_args") or {},
            "agent_args": s.get("agent_args") or {}, "gen_kwargs": s.get("gen_kwargs") or {},
            "media": {k: s.get(k) for k in ("frames", "fps", "dpi", "captions", "video_backend")
                      if s.get(k) not in (None, False)},
            "judge": h.get("judge") or cfg.get("judge"), "data": data.get("path"),
            "data_version": data.get("data_version"), "revision": revision,
            "rc_data": cfg.get("rc_data"), "version": h.get("br_eval_version"),
            "git": h.get("git_hash"), "date": h.get("date"), "seed": cfg.get("seed"),
            "limit": cfg.get("limit")}


def _task_rows(run: RunData) -> list[dict]:
    rows = []
    for name, r in run.tasks.items():
        mean, lo, hi = _ci(r.primary)
        rows.append({"task": name, "suite": r.suite, "metric": r.primary_metric, "mean": mean,
                     "lo": lo, "hi": hi, "done": r.n_done, "expected": r.n_expected,
                     "failed": r.n_failed, "errors": r.errors_by_kind, "complete": r.complete,
                     "judge_errors": r.n_judge_errors,
                     "unreadable": r.metrics.get("n_unreadable") or {}})
    return rows


def _dimension_rows(run: RunData) -> list[dict]:
    """The Beyond Recall dimension means and each suite's overall (evaluator.scoring.overall,
    the one definition `report`, `compare` and results.json use)."""
    from evaluator.scoring.overall import dimension_means, overall

    rows = [{"dimension": d, "mean": e["mean"], "tasks": f"{e['n_tasks']} of {e['of']}",
             "complete": e["complete"]} for d, e in dimension_means(run.tasks).items()]
    rows += [{"dimension": f"overall ({suite})", "mean": e["mean"],
              "tasks": f"{e['n_tasks']} of {e['of']}", "complete": e["complete"]}
             for suite, e in overall(run.tasks).items()]
    return rows


def _plots(runs: list[RunData]) -> dict:
    """Vega-Lite specs; a plot whose data no run has is left out."""
    scores, content, hits, cover, demand = [], [], [], [], []
    for run in runs:
        for name, r in run.tasks.items():
            mean, lo, hi = _ci(r.primary)
            if mean is not None:
                scores.append({"task": name, "run": run.label, "mean": mean, "lo": lo, "hi": hi,
                               "metric": r.primary_metric or "score"})
            m = r.metrics
            for cond, entry in _obj(m.get("per_condition")).items():
                pooled = _obj(_obj(entry).get("content")).get("pooled")
                cm, clo, chi = _ci(pooled)
                if cm is not None:
                    content.append({"condition": cond, "run": run.label, "mean": cm, "lo": clo,
                                    "hi": chi})
            for gold, methods in _obj(m.get("retrieval")).items():
                for method, pops in _obj(methods).items():
                    for pop, entry in _obj(pops).items():
                        for metric, est in _obj(_obj(entry).get("pooled")).items():
                            if not re.fullmatch(r"hit@\d+", metric):
                                continue
                            hm, hlo, hhi = _ci(est)
                            if hm is not None:
                                hits.append({"gold set": gold, "method": method,
                                             "population": pop, "k": int(metric[4:]),
                                             "run": run.label, "mean": hm, "lo": hlo, "hi": hhi})
            wc = _obj(m.get("window_coverage"))
            for unit in ("messages", "tokens"):
                for size, est in _obj(wc.get(unit)).items():
                    rate, rlo, rhi = _ci(est)
                    if rate is not None and _num(_float(size)) is not None:
                        cover.append({"unit": unit, "window": float(size), "run": run.label,
                                      "rate": rate, "lo": rlo, "hi": rhi})
            est = _obj(m.get("demand_rate")).get("estimate")
            rate, rlo, rhi = _ci(est)
            if rate is not None:
                demand.append({"run": run.label, "rate": rate, "lo": rlo, "hi": rhi})
    many = len(runs) > 1
    # Each run has its own colour; where colour already names something else (the retrieval
    # methods) runs differ by point shape (the legend draws the shapes) and dash.
    color = {"field": "run", "type": "nominal", "title": "run"}
    dash = {"field": "run", "type": "nominal", "legend": None}
    plots = {}

    def interval(x: str, y: str, *, offset: bool, x_title: str, y_title: str,
                 domain=(0, 1)) -> dict:
        enc_y = {"field": y, "type": "nominal", "title": y_title, "sort": None}
        base = {"y": enc_y, "color": color}
        if offset and many:
            base["yOffset"] = {"field": "run"}
        return {"encoding": base, "layer": [
            {"mark": {"type": "rule", "strokeWidth": 2},
             "encoding": {"x": {"field": "lo", "type": "quantitative", "title": x_title,
                                "scale": {"domain": list(domain)}, "axis": AXIS},
                          "x2": {"field": "hi"}}},
            {"mark": {"type": "point", "filled": True, "size": 60},
             "encoding": {"x": {"field": x, "type": "quantitative"},
                          "tooltip": [{"field": y}, {"field": "run"},
                                      {"field": x, "format": ".3f"},
                                      {"field": "lo", "format": ".3f"},
                                      {"field": "hi", "format": ".3f"}]}}]}

    if scores:
        # One panel per primary metric, its axis named by the metric and scaled to its range
        # (content match is 0-2): different metrics never share an axis.
        panels = []
        for metric in dict.fromkeys(r["metric"] for r in scores):
            rows = [r for r in scores if r["metric"] == metric]
            panels.append({"data": {"values": rows}, "width": 420,
                           **interval("mean", "task", offset=True, x_title=metric, y_title=None,
                                      domain=(0, _top(rows)))})
        plots["task_scores"] = {"title": "Primary metric per task (95% cluster interval)",
                                "vconcat": panels, "resolve": {"scale": {"color": "shared"}},
                                "config": CONFIG}
    if content:
        plots["rc_content"] = {"title": "RealCompanion chat: content match by condition",
                               "data": {"values": content}, "width": 420, "config": CONFIG,
                               **interval("mean", "condition", offset=True,
                                          x_title="content match (0-2)", y_title="condition",
                                          domain=(0, 2))}
    if hits:
        enc = {"x": {"field": "k", "type": "ordinal", "title": "k", "axis": {"labelAngle": 0}},
               "color": {"field": "method", "type": "nominal"}}
        if many:
            enc["strokeDash"] = dash
        point = {"type": "point", "filled": True}
        line_enc = {"y": {"field": "mean", "type": "quantitative", "title": "hit@k",
                          "scale": {"domain": [0, 1]}, "axis": AXIS},
                    "tooltip": [{"field": "method"}, {"field": "run"}, {"field": "k"},
                                {"field": "mean", "format": ".3f"},
                                {"field": "lo", "format": ".3f"},
                                {"field": "hi", "format": ".3f"}]}
        layers = [{"mark": {"type": "line"}, "encoding": line_enc},
                  {"mark": point, "encoding": {**line_enc, **({"shape": color} if many else {})}},
                  {"mark": {"type": "rule", "opacity": 0.5},
                   "encoding": {"y": {"field": "lo", "type": "quantitative"},
                                "y2": {"field": "hi"}}}]
        plots["retrieval_hits"] = {
            "title": "RealCompanion retrieval: hit@k by method and gold set",
            "data": {"values": hits}, "config": CONFIG,
            "facet": {"column": {"field": "gold set", "type": "nominal"},
                      "row": {"field": "population", "type": "nominal"}},
            "spec": {"width": 170, "height": 130, "encoding": enc, "layer": layers}}
    if cover:
        # the legend draws each run's line (the band's opacity would make it faint)
        stroke = {**color, "legend": {"symbolType": "stroke", "symbolOpacity": 1, "symbolStrokeWidth": 2}}
        line = {"y": {"field": "rate", "type": "quantitative", "title": "covered",
                      "scale": {"domain": [0, 1]}, "axis": AXIS},
                "color": stroke,
                "tooltip": [{"field": "window", "format": ","}, {"field": "run"},
                            {"field": "rate", "format": ".3f"}]}
        if many:       # identical runs' lines stay visible, dashed over each other
            line["strokeDash"] = dash
        plots["window_coverage"] = {
            "title": "RealCompanion: share of memory-bearing probes whose references fit in a window",
            "data": {"values": cover}, "config": CONFIG,
            "facet": {"column": {"field": "unit", "type": "nominal", "title": "window in"}},
            "resolve": {"scale": {"x": "independent"}},
            "spec": {"width": 260, "height": 160, "encoding": {
                "x": {"field": "window", "type": "quantitative", "scale": {"type": "log"},
                      "title": "window size", "axis": {**AXIS, "format": "~s"}}}, "layer": [
                {"mark": {"type": "area", "opacity": 0.2},
                 "encoding": {"y": {"field": "lo", "type": "quantitative"}, "y2": {"field": "hi"},
                              "color": stroke}},
                {"mark": {"type": "line", "point": True}, "encoding": line}]}}
    if demand:
        plots["demand_rate"] = {"title": "RealCompanion: demand rate (memory-bearing share)",
                                "data": {"values": demand}, "width": 420, "config": CONFIG,
                                **interval("rate", "run", offset=False, x_title="rate",
                                           y_title="run")}
    return plots


# Quantitative axes: at most ~6 ticks, labels that would overlap are dropped (a log axis of
# window sizes would otherwise print "1,0002,000"), the end labels kept inside the plot.
AXIS = {"tickCount": 6, "labelOverlap": "greedy", "labelFlush": True}
CONFIG = {"legend": {"labelLimit": 320}}


def _top(rows: list[dict]) -> float:
    """The upper end of a score axis: 1 for rates and F1s, the next whole number above the
    largest value for a wider scale (content match 0-2)."""
    values = [v for r in rows for v in (r.get("mean"), r.get("hi")) if isinstance(v, (int, float))]
    top = max(values, default=1.0)
    return 1 if top <= 1 else math.ceil(top)


def _float(text) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _primary_metrics_table(sample: Sample) -> dict:
    out = {}
    for k, v in (sample.metrics or {}).items():
        if isinstance(v, float):
            out[k] = round(v, 4)
        else:
            out[k] = v
    return out


# What the page embeds of one reply, traceback or prompt: the journal keeps the whole text, the
# page its first part and says how much it left out (a 10,000-item run of long replies made a
# 167 MB page).
MAX_TEXT_CHARS = 20_000


def _bounded(value):
    """`value` within MAX_TEXT_CHARS (a prompt, which may be a structure, as its JSON text)."""
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= MAX_TEXT_CHARS:
        return value
    return (text[:MAX_TEXT_CHARS] + f"\n[... {len(text) - MAX_TEXT_CHARS:,} more characters "
            "left out of this page; the samples journal holds the whole text]")


def _items(runs: list[RunData], thumbs: Thumbnails | None) -> list[dict]:
    """One entry per (task, key), with each run's record side by side (null where a run has no
    line for the item)."""
    order: dict[tuple[str, str], dict] = {}
    for i, run in enumerate(runs):
        for task, samples in run.samples.items():
            result = run.tasks.get(task)
            for s in samples:
                entry = order.get((task, s.key))
                if entry is None:
                    f = s.fields
                    entry = order[(task, s.key)] = {
                        "k": s.key, "t": task, "c": s.cluster,
                        "q": _text(f.get("question")), "a": _text(f.get("answer")),
                        "f": {k: v for k, v in f.items() if k not in ("question", "answer")},
                        "r": [None] * len(runs), "fp": s.item_fp}
                score = item_primary(s, result)
                prediction, condition = item_prediction(s, result)
                metric = result.primary_metric if result else None
                rec = {"p": _bounded(prediction), "s": score, "o": outcome(s, score, metric),
                       "m": _primary_metrics_table(s), "in": s.inputs}
                if condition:
                    rec["pc"] = condition
                if s.item_fp and entry["fp"] and s.item_fp != entry["fp"]:
                    # another version of the item (the question, references, history or media
                    # changed): this run's own question and reference, flagged
                    rec["v"] = {"q": _text(s.fields.get("question")),
                                "a": _text(s.fields.get("answer"))}
                    entry["changed"] = True
                for short, value in (("j", s.judge), ("e", s.error), ("ek", s.error_kind),
                                     ("tb", _bounded(s.traceback)),
                                     ("pr", _bounded(s.prompt)),
                                     ("mr", s.model_reported), ("sec", s.seconds),
                                     ("it", s.input_tokens), ("ot", s.output_tokens)):
                    if value is not None:
                        rec[short] = value
                if thumbs is not None:
                    media = thumbs.for_sample(run, s)
                    if media:
                        rec["media"] = media
                entry["r"][i] = rec
    _fill_texts(runs, order)
    return list(order.values())


def _fill_texts(runs: list[RunData], order: dict) -> None:
    """Question and reference text for items whose journal lines do not carry them (the
    RealCompanion chat and retrieval probes), from their task's declaration over the data the
    run read (`Task.question_and_gold`): only while that folder is still there and the item's
    fingerprint still matches the journal's, so the text shown is the text that was asked."""
    from beyondrecall.errors import DataError

    from evaluator.context import RunContext, RunSettings
    from evaluator.errors import EvalError
    from evaluator.registry import TASKS

    for i, run in enumerate(runs):
        rc_data = (run.header.get("config") or {}).get("rc_data") or run.settings.get("rc_data")
        for task_name, samples in run.samples.items():
            wanted = [s for s in samples if order[(task_name, s.key)]["q"] is None]
            spec = TASKS.get(task_name)
            if not wanted or spec is None or spec.suite != "realcompanion" or not rc_data \
                    or not Path(rc_data).is_dir():
                continue
            try:
                task = spec.load()
                ctx = RunContext(settings=RunSettings(rc_data=str(rc_data)))
                items = {it.key: it for it in task.items(ctx)}
                for s in wanted:
                    item = items.get(s.key)
                    if item is None or (s.item_fp and task.fingerprint(ctx, item) != s.item_fp):
                        continue
                    entry = order[(task_name, s.key)]
                    entry["q"], entry["a"] = (_text(v) for v in task.question_and_gold(ctx, item))
            except (DataError, EvalError, OSError) as exc:
                print(f"br-eval: warning: {task_name} items of {run.label} shown without their "
                      f"text: {exc}", file=sys.stderr)


def _text(v):
    if v is None or isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False, default=str)


# Characters that could end the <script> element or start a comment or markup in it, and the
# line separators that some parsers end a line at: written as \u escapes, which JSON reads back.
_SCRIPT_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                                 "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _finite(value):
    """`value` with NaN and Infinity (which JSON does not have) as None, at any depth."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _script_json(obj) -> str:
    """Strict JSON safe inside a <script> element: no string can end the element, open a
    comment or break the JSON (< > & U+2028 U+2029 as \\u escapes; NaN and Infinity as null)."""
    text = json.dumps(_finite(obj), ensure_ascii=False, default=str, separators=(",", ":"),
                      allow_nan=False)
    return text.translate(_SCRIPT_ESCAPES)


_SCRIPT_RE = re.compile(r"<script>(.*?)</script>", re.S)
_SCRIPT_SRC_RE = re.compile(r"script-src [^;\"]*;")


def with_script_hashes(html: str) -> str:
    """The page with its Content-Security-Policy's script-src naming the sha256 of each of its
    inline scripts, exactly as a browser reads them: only those scripts may run ('unsafe-eval'
    stays for Vega, which compiles its expressions)."""
    hashes = []
    for m in _SCRIPT_RE.finditer(html):
        digest = base64.b64encode(hashlib.sha256(m.group(1).encode("utf-8")).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    policy = "script-src " + " ".join([*dict.fromkeys(hashes), "'unsafe-eval'"]) + ";"
    return _SCRIPT_SRC_RE.sub(lambda _: policy, html, count=1)


def build_report(runs: list[RunData], *, thumbnails: bool = True, seed: int = 0) -> str:
    """The report's HTML text."""
    import jinja2

    from evaluator import __version__

    label_runs(runs)
    thumbs = Thumbnails() if thumbnails else None
    items = _items(runs, thumbs)
    comparison = compare_runs(runs[0], runs[1], seed=seed) if len(runs) == 2 else None
    payload = {"runs": [{"header": _header(r), "tasks": _task_rows(r),
                         "dimensions": _dimension_rows(r)} for r in runs],
               "plots": _plots(runs), "items": items, "comparison": comparison,
               "thumbs": thumbs.uris if thumbs else {}}
    if thumbs is not None and thumbs.failed:
        print(f"br-eval: warning: {len(thumbs.failed)} media input(s) have no thumbnail "
              f"(first: {thumbs.failed[0]})", file=sys.stderr)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                             autoescape=jinja2.select_autoescape(["html", "j2"]))
    template = env.get_template("report.html.j2")
    runtime = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in RUNTIME)
    html = template.render(title=" vs ".join(r.label for r in runs), version=__version__,
                           runtime=runtime, payload=_script_json(payload))
    return with_script_hashes(html)


def write_report(runs: list[RunData], out: Path, **kwargs) -> Path:
    """Write the report to `out` (a folder: `out/report.html`) by write_atomic."""
    from evaluator.results import write_atomic

    html = build_report(runs, **kwargs)
    out = Path(out)
    if out.is_dir() and not out.is_symlink():
        out = out / "report.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(out, html)
