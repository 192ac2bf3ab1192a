"""Audio path speed: extraction and transcript-cache hits, next to raw PyAV decoding in the same run.

    python bench/audio.py                 # 60 s and 10 min videos with an AAC stereo tone
    python bench/audio.py --quick         # 20 s and 2 min
    python bench/audio.py --lengths 5     # one 5 s video (a smoke run)
    python bench/audio.py --asr DIR       # a real local speech model (e.g. a Whisper folder)

Without --asr the transcript rows use the tiny random-weight Whisper of tests/audio_models.py:
its cold time says nothing about a real model's speed, but the cache-hit rows do not depend on
the model (a hit reads one manifest; it neither decodes audio nor loads the model).

Rows (best of --repeat):
  raw PyAV decode -> 16 kHz mono       decode + resample the first audio stream into one numpy
                                       array in memory (the reference)
  cache cold (audio)                   the same into a WAV in a fresh cache (hash on a 2nd thread)
  cache warm (audio)                   a second call with a new MediaCache object
  transcript cold                      extraction + ASR + writing the entry (fresh cache)
  transcript hit                       a second call with a new MediaCache object
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def best(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def raw_pyav(path: Path):
    import av
    import numpy as np

    with av.open(str(path)) as c:
        stream = c.streams.audio[0]
        res = av.AudioResampler(format="flt", layout="mono", rate=16000)
        chunks = [f.to_ndarray().reshape(-1) for fr in c.decode(stream) for f in res.resample(fr)]
        chunks += [f.to_ndarray().reshape(-1) for f in res.resample(None)]
    return np.concatenate(chunks)


def row(label: str, seconds: float, ref: float | None = None, note: str = "") -> None:
    rel = f"{seconds / ref:7.2f}x raw" if ref else " " * 11
    print(f"  {label:<44} {seconds * 1000:10.1f} ms  {rel}  {note}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--asr", default=None, help="local speech-recognition model folder")
    ap.add_argument("--lengths", default=None, metavar="S,S",
                    help="video lengths in seconds (default 60,600; with --quick 20,120)")
    args = ap.parse_args()

    from media_cache import MediaCache
    from media_cache.synthetic import make_video

    work = Path(tempfile.mkdtemp(prefix="br-bench-audio-"))
    try:
        asr = args.asr
        if asr is None:
            from tests.audio_models import tiny_whisper

            asr = str(tiny_whisper(work / "tiny-whisper"))
            print("ASR model: tiny random-weight Whisper (cold ASR time is not a real model's)")
        else:
            print(f"ASR model: {asr}")
        lengths = ((20, 120) if args.quick else (60, 600)) if args.lengths is None else \
            tuple(int(s) for s in args.lengths.split(","))
        n = 0

        def fresh() -> Path:
            nonlocal n
            n += 1
            return work / f"cache{n}"

        for seconds in lengths:
            t = time.perf_counter()
            video = make_video(work / f"v{seconds}.mp4", seconds=seconds, fps=10, width=64, height=48,
                               options={"preset": "ultrafast", "g": "20"})
            print(f"\n{video.name}: {seconds} s, AAC stereo 44.1 kHz "
                  f"({video.stat().st_size / 1e6:.1f} MB, generated in {time.perf_counter() - t:.1f} s)")
            t_raw, samples = best(lambda: raw_pyav(video), args.repeat)
            row("raw PyAV decode -> 16 kHz mono (memory)", t_raw)

            def cold_audio():
                from media_cache import store

                store._sha_memo.clear()
                return MediaCache(fresh()).audio(video)

            t_cold, track = best(cold_audio, args.repeat)
            row("cache cold (audio -> WAV)", t_cold, t_raw, f"{track.duration:.1f} s of audio")
            assert abs(len(samples) / 16000 - track.duration) < 0.05
            root = fresh()
            MediaCache(root).audio(video)
            t_warm, hit = best(lambda: MediaCache(root).audio(video), args.repeat)
            assert hit.from_cache
            row("cache warm (audio)", t_warm, t_raw, f"= {t_cold / t_warm:,.0f}x faster than cold")

            t_tr_cold, tr = best(lambda: MediaCache(fresh()).transcript(video, model=asr), 1)
            row("transcript cold (extract + ASR + write)", t_tr_cold, t_raw, f"{len(tr.segments)} segments")
            MediaCache(root).transcript(video, model=asr)
            t_tr_hit, hit = best(lambda: MediaCache(root).transcript(video, model=asr), args.repeat)
            assert hit.from_cache and hit.text == tr.text
            row("transcript hit", t_tr_hit, t_raw, f"= {t_raw / t_tr_hit:,.0f}x faster than raw decode")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    from _common import run

    raise SystemExit(run(main))
