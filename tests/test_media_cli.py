"""`br-eval prepare` and `br-eval cache` on the generated sample snapshot."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from evaluator.cli import main
from media_cache import MediaCache


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def counts(out: str) -> tuple[int, int, int]:
    m = re.search(r"(\d+) prepared, (\d+) already cached, (\d+) failed", out)
    assert m, out
    return tuple(int(x) for x in m.groups())


def test_prepare_then_nothing_left_to_do(sample_snapshot, tmp_path, capsys):
    cache_dir = tmp_path / "cache"
    code, out, err = run_cli(capsys, "prepare", "--data", str(sample_snapshot),
                             "--cache-dir", str(cache_dir), "--frames", "4", "--dpi", "50")
    assert code == 0, err
    prepared, cached, failed = counts(out)
    assert prepared > 0 and failed == 0
    assert re.search(r"\d+ videos with \d+ frames \(4 frames\)", out)
    assert "cache " + str(cache_dir) in out and re.search(r"holds [\d.]+ (KB|MB)", out)

    # Resumable: a second run (two worker processes this time) finds everything cached.
    code, out2, err = run_cli(capsys, "prepare", "--data", str(sample_snapshot), "--cache-dir",
                              str(cache_dir), "--frames", "4", "--dpi", "50", "--workers", "2")
    assert code == 0, err
    assert counts(out2) == (0, prepared + cached, 0)

    # What `run` reads with the same settings is a hit, PDF page maps applied.
    from beyondrecall.pdfmap import read_pdf_map

    pdf_map = read_pdf_map(sample_snapshot)
    assert pdf_map, "the sample is expected to carry a PDF_PREPROCESSING.json"
    rel, entry = sorted(pdf_map.items())[0]
    cache = MediaCache(cache_dir)
    pages = cache.pdf_pages(sample_snapshot / "benchmark" / rel, dpi=50,
                            page_map=[(p, p in entry.evidence_pages) for p in entry.original_pages])
    assert pages.from_cache
    assert [p.original_page for p in pages.pages] == list(entry.original_pages)
    assert {p.original_page for p in pages.evidence_pages} == set(entry.evidence_pages)

    # Other settings are other entries.
    code, out3, _ = run_cli(capsys, "prepare", "--data", str(sample_snapshot), "--cache-dir",
                            str(cache_dir), "--fps", "1", "--dpi", "50")
    p3, c3, _ = counts(out3)
    assert p3 > 0 and "fps=1" in out3

    code, info_out, _ = run_cli(capsys, "cache", "info", "--cache-dir", str(cache_dir))
    assert code == 0
    for op in ("image", "pdf_pages", "video_frames", "audio"):
        assert re.search(rf"^\s+{op}\s+\d+\s+[\d.]+ [KM]?B$", info_out, re.M), info_out
    code, js, _ = run_cli(capsys, "cache", "info", "--json", "--cache-dir", str(cache_dir))
    data = json.loads(js)
    assert data["entries"] == sum(o["entries"] for o in data["operations"].values())
    assert data["invalid"] == 0


def test_prepare_reports_a_corrupt_file_and_keeps_the_rest(sample_copy, tmp_path, capsys):
    from beyondrecall import load_tasks

    media = sorted(set().union(*(t.media_paths() for t in load_tasks(sample_copy))))
    video = next(m for m in media if m.endswith(".mp4"))
    (sample_copy / "benchmark" / video).write_bytes(b"\x00" * 500)
    cache_dir = tmp_path / "cache"
    code, out, err = run_cli(capsys, "prepare", "--data", str(sample_copy), "--cache-dir",
                             str(cache_dir), "--frames", "2", "--dpi", "30")
    assert code == 1
    assert f"{video}: " in err and err.strip().splitlines()[-1].startswith("br-eval: error: 1 of ")
    assert "Traceback" not in err
    prepared, cached, failed = counts(out)
    assert failed == 1 and prepared > 0
    # The finished work was kept: a rerun only retries the broken file.
    code, out2, _ = run_cli(capsys, "prepare", "--data", str(sample_copy), "--cache-dir",
                            str(cache_dir), "--frames", "2", "--dpi", "30")
    assert code == 1 and counts(out2) == (0, prepared + cached, 1)


def test_prepare_summary_counts_add_up(sample_copy, tmp_path, capsys):
    """Both summary lines count media files: the kinds add up to the files, and prepared + already
    cached + failed add up to them too, on a fresh cache, a rerun with other settings, and with a
    broken file (issue 11)."""
    def check(out: str) -> tuple[int, int, int]:
        m = re.search(r"(\d+) media files \((\d+) images, (\d+) PDFs .*, (\d+) videos with", out)
        assert m, out
        n, images, pdfs, videos = map(int, m.groups())
        assert images + pdfs + videos == n
        assert f"{n} media files: " in out
        done = counts(out)
        assert sum(done) == n, out
        return done

    cache_dir = ["--cache-dir", str(tmp_path / "cache"), "--dpi", "30", "--no-progress"]
    code, out, _ = run_cli(capsys, "prepare", "--data", str(sample_copy), *cache_dir, "--frames", "2")
    prepared, cached, failed = check(out)
    assert code == 0 and prepared > 0 and failed == 0
    # The sample repeats some files' content under other names: those are already cached.
    assert cached > 0
    code, out, _ = run_cli(capsys, "prepare", "--data", str(sample_copy), *cache_dir, "--fps", "1")
    prepared2, cached2, _ = check(out)
    assert 0 < prepared2 < prepared and cached2 > cached      # only the videos are new

    from beyondrecall import load_tasks

    media = sorted(set().union(*(t.media_paths() for t in load_tasks(sample_copy))))
    video = next(m for m in media if m.endswith(".mp4"))
    (sample_copy / "benchmark" / video).write_bytes(b"\x00" * 500)
    code, out, _ = run_cli(capsys, "prepare", "--data", str(sample_copy), *cache_dir, "--fps", "2")
    assert code == 1 and check(out)[2] == 1


def test_prepare_captions_need_weights_and_say_so(sample_snapshot, tmp_path, capsys, monkeypatch):
    import huggingface_hub.constants as hf_constants

    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", str(tmp_path / "empty_hub"))
    code, out, err = run_cli(capsys, "prepare", "--data", str(sample_snapshot), "--cache-dir",
                             str(tmp_path / "cache"), "--captions")
    assert code == 1
    lines = err.strip().splitlines()
    assert lines[-1].startswith("br-eval: error: CLIP weights for ViT-B-32")
    assert "--clip-pretrained" in lines[-1]
    assert not (tmp_path / "cache" / "video_frames").exists()     # failed before any work


def test_prepare_with_captions_from_a_tiny_local_clip(sample_snapshot, tmp_path, capsys):
    """A random-weight one-layer CLIP: shows the flags reach the model, not caption quality."""
    open_clip = pytest.importorskip("open_clip")
    torch = pytest.importorskip("torch")
    config = tmp_path / "br-eval-cli-tiny-clip.json"
    config.write_text(json.dumps({
        "embed_dim": 8,
        "vision_cfg": {"image_size": 32, "layers": 1, "width": 16, "patch_size": 16, "head_width": 8},
        "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 16, "heads": 2, "layers": 1},
    }))
    open_clip.add_model_config(config)
    torch.manual_seed(1)
    weights = tmp_path / "tiny.pt"
    torch.save(open_clip.create_model(config.stem).state_dict(), weights)
    vocab = tmp_path / "labels.txt"
    vocab.write_text("cat\nharbour\nbakery\n")
    args = ["prepare", "--data", str(sample_snapshot), "--cache-dir", str(tmp_path / "cache"),
            "--frames", "2", "--dpi", "30", "--captions", "--clip-model", str(config),
            "--clip-pretrained", str(weights), "--clip-vocabulary", str(vocab)]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert re.search(r"CLIP captions for \d+ images \(\d+ distinct\)", out)
    info = MediaCache(tmp_path / "cache").store.info()
    assert info.ops["clip_image"].entries > 0 and info.ops["clip_text"].entries == 1
    code, out2, _ = run_cli(capsys, *args)
    assert code == 0 and counts(out2)[0] == 0
    assert re.search(r"CLIP captions for \d+ images \(\d+ distinct\) with .*: 0 computed, [1-9]\d* "
                     r"already cached", out2)


def test_cache_prune_command(tmp_path, capsys):
    from media_cache.synthetic import make_image

    cache_dir = tmp_path / "cache"
    cache = MediaCache(cache_dir)
    kept = cache.image(make_image(tmp_path / "a.webp", fmt="WEBP"))
    # An entry of an older producer version (its manifest parses: br-eval's own, stale).
    bogus = kept.path.parent.parent / ("f" * 64)
    shutil.copytree(kept.path.parent, bogus)
    m = json.loads((bogus / "manifest.json").read_text())
    m["version"] = 0
    (bogus / "manifest.json").write_text(json.dumps(m))
    # A folder whose manifest does not parse is not recognisably br-eval's: left alone (issue 17).
    unknown = kept.path.parent.parent / ("e" * 64)
    unknown.mkdir()
    (unknown / "manifest.json").write_text("{not json")
    code, out, _ = run_cli(capsys, "cache", "info", "--cache-dir", str(cache_dir))
    assert "stale or invalid entries: 1" in out and "1 items that are not br-eval entries" in out
    code, out, _ = run_cli(capsys, "cache", "prune", "--cache-dir", str(cache_dir), "--dry-run")
    assert code == 0 and out.startswith("would remove 1 stale") and bogus.exists()
    code, out, _ = run_cli(capsys, "cache", "prune", "--cache-dir", str(cache_dir))
    assert out.startswith("removed 1 stale") and "kept 1 entries" in out and not bogus.exists()
    assert "left alone 1 items" in out and (unknown / "manifest.json").exists()
    assert kept.path.is_file()
    code, out, _ = run_cli(capsys, "cache", "prune", "--all", "--cache-dir", str(cache_dir))
    assert code == 0 and MediaCache(cache_dir).store.info().entries == 0


def test_prepare_usage_errors(capsys):
    assert main(["prepare", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["prepare", "--frames", "4", "--fps", "1"])
    assert e.value.code == 2
