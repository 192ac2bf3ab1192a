"""Real media files made on the spot, for tests and bench/media.py.

Videos are H.264 (or another PyAV encoder) with an optional AAC tone track, written with PyAV;
PDFs are written with PyMuPDF; images with Pillow. Contents are deterministic.
"""

from __future__ import annotations

from pathlib import Path


def make_video(path: Path | str, *, seconds: float = 2.0, fps: int = 10, width: int = 64,
               height: int = 48, audio: bool = True, codec: str = "libx264",
               options: dict | None = None, audio_rate: int = 44_100, tone_hz: float = 440.0,
               noise: bool = True) -> Path:
    """Write a video whose every frame differs (moving gradient, a bar, a noise patch).

    `options` go to the encoder (e.g. {"preset": "ultrafast", "g": "25", "bf": "2"}).
    The noise patch makes any decoding or colour-conversion difference visible.
    """
    import av
    import numpy as np

    path = Path(path)
    n_frames = int(round(seconds * fps))
    container = av.open(str(path), mode="w")
    try:
        vstream = container.add_stream(codec, rate=fps)
        vstream.width, vstream.height = width, height
        vstream.pix_fmt = "yuv420p"
        opts = {"preset": "ultrafast"} if codec == "libx264" else {}
        opts.update(options or {})
        vstream.options = {k: str(v) for k, v in opts.items()}
        astream = container.add_stream("aac", rate=audio_rate) if audio else None
        if astream is not None:
            astream.layout = "stereo"

        rng = np.random.default_rng(0)
        ys, xs = np.mgrid[0:height, 0:width]
        base = np.stack([(xs * 255 // max(width - 1, 1)), (ys * 255 // max(height - 1, 1)),
                         ((xs + ys) * 255 // max(width + height - 2, 1))], axis=-1).astype(np.uint8)
        patch_h, patch_w = max(height // 6, 2), max(width // 6, 2)
        for i in range(n_frames):
            img = np.roll(base, shift=(i * 3) % width, axis=1)
            img[:, (i * 5) % width] = 255                      # a moving bright bar
            if noise:
                img[:patch_h, :patch_w] = rng.integers(0, 256, (patch_h, patch_w, 3), dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            frame.pts = i
            for packet in vstream.encode(frame):
                container.mux(packet)
        for packet in vstream.encode():
            container.mux(packet)

        if astream is not None:
            total = int(round(seconds * audio_rate))
            frame_size = astream.codec_context.frame_size or 1024
            for start in range(0, total, frame_size):
                n = min(frame_size, total - start)
                t = (np.arange(start, start + n) / audio_rate).astype(np.float64)
                tone = (0.3 * np.sin(2 * np.pi * tone_hz * t)).astype(np.float32)
                frame = av.AudioFrame.from_ndarray(np.stack([tone, tone]), format="fltp",
                                                   layout="stereo")
                frame.sample_rate = audio_rate
                frame.pts = start
                for packet in astream.encode(frame):
                    container.mux(packet)
            for packet in astream.encode():
                container.mux(packet)
    finally:
        container.close()
    return path


def make_pdf(path: Path | str, *, pages: int = 3, width: float = 200, height: float = 120,
             text: str = "Page {n} of the test document") -> Path:
    """A PDF with `pages` pages, each with a line of text and a coloured box."""
    import pymupdf

    path = Path(path)
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=width, height=height)
        page.insert_text((10, 30), text.format(n=n), fontsize=11)
        page.draw_rect(pymupdf.Rect(10, 50, 10 + 15 * (n % 10 + 1), 90),
                       color=(0.1, 0.2, 0.7), fill=((n * 37 % 255) / 255, 0.5, 0.3))
    doc.save(str(path))
    doc.close()
    return path


def make_image(path: Path | str, *, size: tuple[int, int] = (48, 32), mode: str = "RGB",
               fmt: str | None = None, seed: int = 0, **save_kwargs) -> Path:
    """A deterministic image (gradient plus noise) in any mode/format Pillow can write."""
    import numpy as np
    from PIL import Image

    path = Path(path)
    w, h = size
    rng = np.random.default_rng(seed)
    arr = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    arr[..., 0] = np.linspace(0, 255, w, dtype=np.uint8)[None, :]
    im = Image.fromarray(arr, "RGB")
    if mode != "RGB":
        im = im.convert(mode)
    im.save(path, format=fmt, **save_kwargs)
    return path
