"""`bench/media.py --release-scale FRACTION`: `br-eval prepare`'s work at the release's scale.

Generates media with the dataset card's distinct counts (1,720 images, 73 PDFs, 314 videos;
~7.14 GB in all at 1.0) times FRACTION (at least one of each). The card gives only the total
size, so the per-kind sizes are this bench's assumption, printed with the figures: images
~1600x1200 photos-like PNG/JPEG (~0.5 MB), PDFs of 20 letter pages, videos 720p H.264 with AAC of
VIDEO_SECONDS (the bulk of the bytes). Then prepares all of them (8 frames per video, PDF pages at
144 dpi, audio) with prepare's own job runner (`evaluator.commands.prepare._run_jobs`), with 1
and 2 worker processes into fresh caches, and prints both times, the parallel efficiency (goal:
>= 1.7x with 2 workers on 2 cores), the cache size, and the projected time for the full release
on this machine (the measured time scaled by 1/FRACTION).

Two flows are timed, each with 1 and 2 workers:
  after download   the release's flow: `br-eval download` (or `verify`) has hashed every file
                   against SHA256SUMS and handed the hashes to the cache
                   (evaluator.commands.verify.share_hashes), so prepare does not read the bytes
                   a second time. The bench hands over hashes it computed the same way, untimed.
  first sight      files the cache has never seen: prepare also hashes every file (on a second
                   thread of each worker, so one worker already keeps more than one core busy
                   and two workers gain less).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

CARD = {"image": 1720, "pdf": 73, "video": 314}
CARD_BYTES = 7.14e9
VIDEO_SECONDS = 60
PDF_PAGES = 20


def generate(work: Path, fraction: float) -> list[tuple]:
    from media_cache.synthetic import make_image, make_pdf, make_video

    counts = {k: max(1, round(n * fraction)) for k, n in CARD.items()}
    jobs = []
    media = work / "media"
    media.mkdir(parents=True, exist_ok=True)
    for i in range(counts["image"]):
        p = media / (f"img_{i:04d}.jpg" if i % 2 else f"img_{i:04d}.png")
        if not p.exists():
            make_image(p, size=(1600, 1200) if i % 2 else (800, 600), seed=i)
        jobs.append((p.name, "image", str(p), None))
    for i in range(counts["pdf"]):
        p = media / f"doc_{i:03d}.pdf"
        if not p.exists():
            make_pdf(p, pages=PDF_PAGES, width=612, height=792,
                     text=f"Document {i}, page {{n}}: figures, a table, notes")
        jobs.append((p.name, "pdf", str(p), None))
    for i in range(counts["video"]):
        p = media / f"vid_{i:03d}.mp4"
        if not p.exists():
            make_video(p, seconds=VIDEO_SECONDS, fps=10, width=1280, height=720,
                       tone_hz=220.0 + i, options={"preset": "ultrafast", "g": 20})
        jobs.append((p.name, "video", str(p), None))
    return jobs


def _file_identity(path: str) -> tuple[str, int, int, int]:
    from media_cache.store import sha256_file

    st = os.stat(path)
    return sha256_file(Path(path)), st.st_size, st.st_mtime_ns, st.st_ino


def run(fraction: float, keep: str | None = None) -> int:
    import tempfile

    from evaluator.commands.cache import human_bytes
    from evaluator.commands.prepare import _run_jobs
    from media_cache import DEFAULT_DPI, DEFAULT_NUM_FRAMES
    from media_cache.store import Store

    if not 0 < fraction <= 1:
        print("bench/media.py: --release-scale takes a fraction in (0, 1]", file=sys.stderr)
        return 2
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="br-eval-bench-release-"))
    try:
        t0 = time.perf_counter()
        jobs = generate(work, fraction)
        size = sum(os.path.getsize(j[2]) for j in jobs)
        by_kind = {k: sum(1 for j in jobs if j[1] == k) for k in CARD}
        print(f"release scale {fraction:g}: {by_kind['image']} images, {by_kind['pdf']} PDFs "
              f"({PDF_PAGES} pages), {by_kind['video']} videos ({VIDEO_SECONDS} s 720p), "
              f"{human_bytes(size)} (card at this scale: {human_bytes(CARD_BYTES * fraction)}); "
              f"generated in {time.perf_counter() - t0:.1f} s (not counted); "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
        settings = {"num_frames": DEFAULT_NUM_FRAMES, "fps": None, "dpi": DEFAULT_DPI,
                    "backend": "pyav"}
        from media_cache import MediaCache
        from media_cache import store as store_mod

        hashes = {j[2]: _file_identity(j[2]) for j in jobs}    # what verify would hand over
        for flow in ("after download", "first sight"):
            print(f"  {flow}:")
            times = {}
            for workers in (1, 2):
                cache_dir = work / f"cache-{workers}"
                shutil.rmtree(cache_dir, ignore_errors=True)
                store_mod._sha_memo.clear()
                if flow == "after download":
                    cache = MediaCache(cache_dir)
                    for path, identity in hashes.items():
                        cache.remember_sha256(path, *identity)
                    store_mod._sha_memo.clear()    # workers read the memo from disk, as after `download`
                started = time.perf_counter()
                results = _run_jobs(jobs, settings, str(cache_dir), workers, False)
                times[workers] = time.perf_counter() - started
                failed = [r for r in results if r.get("error")]
                if failed:
                    print(f"  {len(failed)} failed, first: {failed[0]['rel']}: {failed[0]['error']}")
                    return 1
                cache_bytes = Store(cache_dir).size_bytes()
                print(f"    prepare, {workers} worker(s): {times[workers]:7.1f} s   "
                      f"cache {human_bytes(cache_bytes)}")
            speedup = times[1] / times[2]
            print(f"    2 workers: {speedup:.2f}x the 1-worker speed, parallel efficiency "
                  f"{speedup / 2:.0%}   goal >= 1.7x")
            full = {w: t / fraction for w, t in times.items()}
            print(f"    projected full release on this machine: {full[1] / 60:.1f} min with 1 "
                  f"worker, {full[2] / 60:.1f} min with 2 (scaled by 1/{fraction:g})")
        print(f"  load average at the end: {os.getloadavg()[0]:.2f} (other work on the machine "
              "skews the efficiency)")
        return 0
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
