"""The hf backend under concurrency: requests per second with 1 caller thread and with 4 (what
`--num_concurrent 4` does), for a small random-weight LLaVA built here from configs (CLIP vision
tower + Llama, one image and a question per request, 16 greedy new tokens, CPU, float32).

Printed in the same run, each figure measured in a process of its own (alternating the settings,
median of the repeats):
- br-eval: `HFChatModel.generate`, which runs each request whole (its image read too) on the
  backend's one model thread;
- reference: the same generation run on the calling thread under a lock (what the backend did
  before it had its own thread: each call lands on another thread, so torch's intra-op worker
  pool does not stay with one caller).
The weights are random: the figures are about threads and throughput, never answer quality.
Measured (`48 5`, idle 2-core machine, two runs): br-eval 4 / 1 = 1.04x and 1.10x; reference
0.80x and 0.78x (issue 25 measured 0.80x). With other processes on the cores, single figures
varied up to 10x between processes in both modes: measure on an idle machine.

    PYTHONPATH=. python bench/hf_threads.py [REQUESTS] [REPEATS] [HIDDEN]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TEMPLATE = (
    "{% for message in messages %}{{ message['role'] | upper }}: "
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>\n{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}{{ '\\n' }}{% endfor %}{% if add_generation_prompt %}ASSISTANT:{% endif %}")


def build_llava(folder: Path, hidden: int) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (CLIPImageProcessor, CLIPVisionConfig, LlamaConfig, LlavaConfig,
                              LlavaForConditionalGeneration, LlavaProcessor, PreTrainedTokenizerFast)

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(["USER: what colour was the mug in the photo? ASSISTANT: it was red."],
                            trainers.BpeTrainer(vocab_size=400, special_tokens=["<unk>", "<s>", "</s>", "<pad>", "<image>"],
                                                initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                                        eos_token="</s>", pad_token="<pad>", chat_template=TEMPLATE)
    size, patch = 112, 14
    processor = LlavaProcessor(image_processor=CLIPImageProcessor(
        size={"shortest_edge": size}, crop_size={"height": size, "width": size}), tokenizer=tokenizer,
        patch_size=patch, vision_feature_select_strategy="default", num_additional_image_tokens=1,
        chat_template=TEMPLATE)
    vision = CLIPVisionConfig(hidden_size=hidden, intermediate_size=hidden * 4, num_hidden_layers=4,
                              num_attention_heads=4, image_size=size, patch_size=patch, projection_dim=hidden)
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=hidden, intermediate_size=hidden * 4,
                       num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=4,
                       max_position_embeddings=1024, bos_token_id=1, eos_token_id=2, pad_token_id=3)
    config = LlavaConfig(vision_config=vision, text_config=text,
                         image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
                         image_seq_length=(size // patch) ** 2)
    torch.manual_seed(0)
    LlavaForConditionalGeneration(config).save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


def measure(folder: str, photo: str, mode: str, threads: int, n: int) -> float:
    """Requests per second in this process: `threads` callers, `mode` "br-eval" (generate(), on
    the backend's model thread) or "reference" (the generation on the caller's thread, locked)."""
    from evaluator.models import make_model
    from evaluator.models.base import ImagePart, Message, TextPart

    model = make_model("hf", {"pretrained": folder, "device": "cpu", "dtype": "float32",
                              "max_new_tokens": 16})
    model.load()
    asks = [[Message("user", (ImagePart(photo), TextPart("what colour was the mug" + "?" * (i % 3))))]
            for i in range(n)]
    lock = threading.Lock()
    settings = model.generation_settings({})

    def on_caller(messages):
        conversation = model._conversation(messages)
        with lock:
            return model._generate_here(conversation, settings)

    call = model.generate if mode == "br-eval" else on_caller
    with ThreadPoolExecutor(max_workers=threads) as pool:     # warm-up: first-call costs out
        list(pool.map(call, asks[:4]))
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(call, asks))
    return n / (time.perf_counter() - started)


def main(n: int, repeats: int, hidden: int) -> int:
    try:
        import torch
        import transformers  # noqa: F401
        from PIL import Image
    except ImportError as exc:
        print(f"bench/hf_threads.py needs torch and transformers (pip install '.[vlm]'): {exc}")
        return 1
    import subprocess

    with tempfile.TemporaryDirectory(prefix="br-eval-hf-threads-") as tmp:
        tmp = Path(tmp)
        folder = build_llava(tmp / "llava", hidden)
        photo = tmp / "photo.png"
        Image.new("RGB", (160, 120), (200, 30, 30)).save(photo)
        # Each figure in a process of its own (torch's thread pools carry over between runs in
        # one process), alternating the settings, the median of the repeats.
        figures: dict[tuple[str, int], list[float]] = {}
        for _ in range(repeats):
            for mode in ("reference", "br-eval"):
                for threads in (1, 4):
                    out = subprocess.run([sys.executable, __file__, "--measure", str(folder), str(photo),
                                          mode, str(threads), str(n)], capture_output=True, text=True)
                    if out.returncode != 0:
                        print(f"bench/hf_threads.py: a measurement failed: {out.stderr.strip()[-300:]}")
                        return 1
                    figures.setdefault((mode, threads), []).append(float(out.stdout.split()[-1]))
    med = {k: statistics.median(v) for k, v in figures.items()}
    print(f"hf backend, random-weight LLaVA (hidden {hidden}), {n} requests, median of {repeats} "
          f"processes per figure, torch threads {torch.get_num_threads()}")
    for mode, label in (("reference", "reference: generation on the caller's thread"),
                        ("br-eval", "br-eval: one model thread")):
        print(f"{label:46s} 1 caller {med[(mode, 1)]:6.2f} req/s, 4 callers {med[(mode, 4)]:6.2f} req/s, "
              f"4 / 1 = {med[(mode, 4)] / med[(mode, 1)]:.2f}x")
    print(f"br-eval at 4 callers / reference at 4 callers          {med[('br-eval', 4)] / med[('reference', 4)]:.2f}x")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        folder, photo, mode, threads, n = sys.argv[2:7]
        print(f"{measure(folder, photo, mode, int(threads), int(n)):.4f}")
        sys.exit(0)
    args = [int(a) for a in sys.argv[1:4]]
    sys.exit(main(*(args + [24, 3, 256][len(args):])))
