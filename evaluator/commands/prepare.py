"""`br-eval prepare`: turn every media file the chosen tasks reference into cached model inputs.

Images are decoded (and converted to PNG when they are not PNG/JPEG), PDFs rendered page by page
with their text and the page map of benchmark/PDF_PREPROCESSING.json, videos sampled into frames
and their audio extracted; with --captions every image, frame and page also gets a CLIP caption
and embedding; with --asr PATH every audio track gets a speech-recognition transcript. Everything lands in the content-addressed media cache, which `br-eval run` reads
with the same settings, so a run decodes nothing twice. Resumable: finished entries are kept and
a second run does no work ("0 prepared, N already cached"). A file that cannot be prepared is
reported (one line each) and makes the command exit 1 after the others are done.
"""

from __future__ import annotations

import os
import sys
import time

from beyondrecall.files import media_kind
from evaluator.commands._common import add_data_arg, task_files_of
from evaluator.errors import progress_stream

_worker_caches: dict = {}


def add_arguments(parser) -> None:
    add_data_arg(parser)
    parser.add_argument("--tasks", "--task", dest="tasks", action="append", default=None,
                        metavar="TASKS",
                        help="task names, dimensions (management, reasoning, retrieval) or all; "
                             "comma-separated or repeated (default: all 11 tasks)")
    sampling = parser.add_mutually_exclusive_group()
    sampling.add_argument("--frames", "--num_frames", "--num-frames", dest="frames", type=int,
                          default=None, metavar="K",
                          help="frames per video, sampled uniformly (default: 8)")
    sampling.add_argument("--fps", type=float, default=None, metavar="F",
                          help="instead of --frames: the frame on screen every 1/F seconds")
    parser.add_argument("--dpi", type=int, default=None, metavar="D",
                        help="PDF page rendering resolution (default: 144)")
    parser.add_argument("--captions", action="store_true",
                        help="also CLIP-caption and embed every image, video frame and PDF page")
    parser.add_argument("--clip-model", "--clip_model", dest="clip_model", default=None, metavar="M",
                        help="open_clip model name or config JSON (default: ViT-B-32)")
    parser.add_argument("--clip-pretrained", "--clip_pretrained", dest="clip_pretrained",
                        default=None, metavar="P",
                        help="local open_clip checkpoint (.safetensors/.bin/.pt), or a pretrained "
                             "tag[@revision] fetched from the Hub (HF cache; HF_HUB_OFFLINE: cache only)")
    parser.add_argument("--clip-vocabulary", "--clip_vocabulary", dest="clip_vocabulary",
                        default=None, metavar="FILE",
                        help="caption labels, one per line (default: the vocabulary shipped with br-eval)")
    parser.add_argument("--asr", default=None, metavar="PATH",
                        help="also transcribe every video's audio with this local speech-recognition "
                             "model: a folder or a Hub id[@revision] such as openai/whisper-tiny")
    parser.add_argument("--asr-language", "--asr_language", dest="asr_language", default=None,
                        metavar="LANG", help="language of the speech for --asr (default: detected)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="processes preparing files in parallel (default: 1)")
    parser.add_argument("--backend", "--video-backend", "--video_backend", dest="video_backend",
                        default="pyav", choices=["pyav", "decord"],
                        help="video decoder (default: pyav; both give identical frames)")
    parser.add_argument("--cache-dir", "--cache_dir", dest="cache_dir", default=None, metavar="DIR",
                        help="media cache folder (default: $BR_EVAL_CACHE, else $BR_EVAL_HOME/media, "
                             "else ~/.cache/br-eval/media)")
    parser.add_argument("--no-progress", "--no_progress", dest="progress", action="store_false",
                        help="no progress bar on stderr")


def _task_names(raw) -> list[str] | None:
    if not raw:
        return None
    names = [n.strip() for item in raw for n in item.split(",") if n.strip()]
    names = ["all" if n == "beyondrecall" else n for n in names]
    return names or None


def _usage_error(message: str) -> int:
    print(f"br-eval prepare: error: {message}", file=sys.stderr)
    return 2


def main(args) -> int:
    if args.workers < 1:
        return _usage_error(f"--workers must be at least 1 (got {args.workers})")
    if args.frames is not None and args.frames < 1:
        return _usage_error(f"--frames must be at least 1 (got {args.frames})")
    if args.fps is not None and not args.fps > 0:
        return _usage_error(f"--fps must be positive (got {args.fps})")
    if args.dpi is not None and not 1 <= args.dpi <= 1200:
        return _usage_error(f"--dpi must be between 1 and 1200 (got {args.dpi})")

    from beyondrecall import load_tasks
    from beyondrecall.pdfmap import read_pdf_map
    from media_cache import DEFAULT_DPI, DEFAULT_NUM_FRAMES, MediaCache
    from media_cache.errors import MediaError

    from evaluator.datasets import data_dir

    started = time.perf_counter()
    snapshot = data_dir("beyondrecall", args.data)
    tasks = load_tasks(snapshot, _task_names(args.tasks), task_files=task_files_of(args))
    bench = snapshot / "benchmark"
    rel_paths = sorted(set().union(*(t.media_paths() for t in tasks)))
    pdf_map = read_pdf_map(snapshot)

    settings = {
        "num_frames": None if args.fps else (args.frames or DEFAULT_NUM_FRAMES),
        "fps": args.fps,
        "dpi": args.dpi or DEFAULT_DPI,
        "backend": args.video_backend,
    }
    cache = MediaCache(args.cache_dir, verify=True)   # damaged entries (CRC-32 checked) are rebuilt
    if args.captions:
        # Find the weights before the long part, so a missing checkpoint is reported at once.
        from media_cache.clip import load_vocabulary, resolve_clip

        resolve_clip(args.clip_model or "ViT-B-32", args.clip_pretrained, cache.sha256)
        load_vocabulary(args.clip_vocabulary)
    if args.asr:
        from media_cache.asr import resolve_asr

        resolve_asr(args.asr, cache.sha256)    # a bad folder is reported before any work

    from beyondrecall.paths import resolve_media

    jobs = []
    for rel in rel_paths:
        entry = pdf_map.get(rel)
        page_map = ([(p, p in entry.evidence_pages) for p in entry.original_pages]
                    if entry is not None else None)
        resolve_media(bench, rel)   # refuses a path that leaves benchmark/ (one line, exit 1)
        jobs.append((rel, media_kind(rel), str(bench / rel), page_map))

    show = args.progress and sys.stderr.isatty()
    results = _run_jobs(jobs, settings, args.cache_dir, args.workers, show)

    failures = [r for r in results if r.get("error")]
    for r in failures:
        print(f"br-eval prepare: {r['rel']}: {r['error']}", file=sys.stderr)
    # Counted in files, so the three add up to the media files named above: a file is failed when
    # any of its outputs failed, prepared when any was computed now, else already cached (which a
    # file whose content another file already prepared is, on a first run too).
    ok = [r for r in results if not r.get("error")]
    prepared = sum(1 for r in ok if r["prepared"])
    cached = len(ok) - prepared

    caption_line = None
    if args.captions:
        caption_line = _captions(cache, [p for r in ok for p in r["images"]], args, show)
    asr_line = None
    if args.asr:
        asr_line = _transcripts(cache, [bench / r["rel"] for r in ok
                                        if r["kind"] == "video" and r.get("has_audio")], args, show)
    kinds = {k: [r for r in results if r["kind"] == k] for k in ("image", "pdf", "video")}
    other = len(results) - sum(len(v) for v in kinds.values())
    pages = sum(r.get("pages", 0) for r in kinds["pdf"])
    frames = sum(r.get("frames", 0) for r in kinds["video"])
    with_audio = sum(1 for r in kinds["video"] if r.get("has_audio"))
    sampling = f"fps={settings['fps']:g}" if settings["fps"] else f"{settings['num_frames']} frames"
    elapsed = time.perf_counter() - started
    from beyondrecall.files import human_bytes

    print(f"br-eval prepare: {len(tasks)} tasks, {len(rel_paths)} media files "
          f"({len(kinds['image'])} images, {len(kinds['pdf'])} PDFs with {pages} pages at "
          f"{settings['dpi']} dpi, {len(kinds['video'])} videos with {frames} frames ({sampling}) "
          f"and {with_audio} audio tracks{f', {other} of another type' if other else ''})")
    if caption_line:
        print(f"br-eval prepare: {caption_line}")
    if asr_line:
        print(f"br-eval prepare: {asr_line}")
    print(f"br-eval prepare: {len(rel_paths)} media files: {prepared} prepared, {cached} already "
          f"cached, {len(failures)} failed in {elapsed:.1f} s; cache {cache.root} holds {human_bytes(cache.store.size_bytes())}")
    if failures:
        raise MediaError(f"{len(failures)} of {len(rel_paths)} media files could not be prepared "
                         f"(first: {failures[0]['rel']}: {failures[0]['error']}); "
                         "the others are cached")
    return 0


def _run_jobs(jobs, settings, cache_dir, workers: int, show: bool) -> list[dict]:
    from tqdm import tqdm

    results: list[dict] = []
    with tqdm(total=len(jobs), unit="file", desc="prepare", file=progress_stream(), disable=not show,
              dynamic_ncols=True) as bar:
        if workers == 1 or len(jobs) <= 1:
            for job in jobs:
                results.append(prepare_one(job, settings, cache_dir))
                bar.update(1)
        else:
            from concurrent.futures import as_completed

            with worker_pool(workers) as pool:
                futures = [pool.submit(prepare_one, job, settings, cache_dir) for job in jobs]
                try:
                    for fut in as_completed(futures):
                        results.append(fut.result())
                        bar.update(1)
                except BaseException:
                    for f in futures:
                        f.cancel()
                    raise
    order = {job[0]: i for i, job in enumerate(jobs)}
    return sorted(results, key=lambda r: order[r["rel"]])


def worker_pool(workers: int):
    """A process pool whose workers exit when the parent dies (SIGKILL, SIGTERM, a crash).

    Each worker asks the kernel for SIGKILL when its parent goes (Linux prctl PDEATHSIG) and
    also runs a watchdog thread that exits the worker once its parent is gone (reparented, or
    the preparing process no longer exists): portable, and immune to the prctl caveat that the
    signal follows the parent thread that forked the worker.
    """
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, initializer=_watch_parent,
                               initargs=(os.getpid(),))


_PARENT_POLL_S = 0.5


def _watch_parent(parent_pid: int) -> None:
    import threading

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9, 0, 0, 0)          # PR_SET_PDEATHSIG = 1, SIGKILL = 9 (Linux only)
    except (OSError, AttributeError):
        pass
    first_ppid = os.getppid()

    def parent_gone() -> bool:
        if os.getppid() != first_ppid:
            return True
        try:
            os.kill(parent_pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass
        return False

    def watch() -> None:
        while True:
            if parent_gone():
                os._exit(1)
            time.sleep(_PARENT_POLL_S)

    if parent_gone():       # the parent died before this worker started
        os._exit(1)
    threading.Thread(target=watch, name="br-eval-parent-watch", daemon=True).start()


def prepare_one(job, settings: dict, cache_dir) -> dict:
    """Prepare one media file (runs in a worker process when --workers > 1)."""
    from media_cache import MediaCache
    from media_cache.errors import MediaError

    rel, kind, path, page_map = job
    cache = _worker_caches.get(cache_dir)
    if cache is None:
        cache = _worker_caches[cache_dir] = MediaCache(cache_dir, verify=True)
    out = {"rel": rel, "kind": kind, "prepared": 0, "cached": 0, "images": []}

    def count(result) -> None:
        out["cached" if result.from_cache else "prepared"] += 1

    try:
        if kind == "image":
            img = cache.image(path)
            count(img)
            out["images"] = [str(img.path)]
        elif kind == "pdf":
            pdf = cache.pdf_pages(path, dpi=settings["dpi"], page_map=page_map)
            count(pdf)
            out["pages"] = len(pdf.pages)
            out["images"] = [str(p.image_path) for p in pdf.pages]
        elif kind == "video":
            vf = cache.video_frames(path, num_frames=settings["num_frames"], fps=settings["fps"],
                                    backend=settings["backend"])
            count(vf)
            audio = cache.audio(path)
            count(audio)
            out["frames"] = len(vf.frames)
            out["has_audio"] = audio.has_audio
            out["images"] = [str(f.image_path) for f in vf.frames]
        else:
            out["error"] = "unsupported media type (expected an image, a PDF or a video)"
    except MediaError as exc:
        out["error"] = str(exc)
    except OSError as exc:     # the store names the file itself; this keeps one bad file from
        out["error"] = f"{path}: {exc}"   # stopping the others all the same
    return out


def _captions(cache, images: list[str], args, show: bool) -> str:
    from tqdm import tqdm

    with tqdm(total=len(images), unit="image", desc="captions", file=progress_stream(),
              disable=not show, dynamic_ncols=True) as bar:
        caps = cache.clip_captions(images, model=args.clip_model, pretrained=args.clip_pretrained,
                                   vocabulary=args.clip_vocabulary, progress=bar.update)
    new = {c.embedding_path for c in caps if not c.from_cache}
    old = {c.embedding_path for c in caps if c.from_cache} - new
    return (f"CLIP captions for {len(caps)} images ({len(new) + len(old)} distinct) with "
            f"{caps[0].model if caps else args.clip_model or 'ViT-B-32'}: {len(new)} computed, "
            f"{len(old)} already cached")


def _transcripts(cache, videos: list, args, show: bool) -> str:
    """Speech-recognition transcripts of the videos' audio tracks (one model load at most)."""
    from tqdm import tqdm

    new = old = 0
    for path in tqdm(videos, unit="video", desc="transcripts", file=progress_stream(), disable=not show,
                     dynamic_ncols=True):
        tr = cache.transcript(path, model=args.asr, language=args.asr_language)
        old += tr.from_cache
        new += not tr.from_cache
    return (f"transcripts of {len(videos)} audio tracks with {args.asr}: {new} computed, "
            f"{old} already cached")
