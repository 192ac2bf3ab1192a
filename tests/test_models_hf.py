"""The hf backend with tiny transformers models built here from configs with random weights.

The models are a LLaVA (2-layer CLIP vision tower + 2-layer Llama) and a 2-layer text-only
Llama, each with a byte-level BPE tokenizer trained on two sentences, saved with save_pretrained
and loaded back through HFChatModel the way a user's folder would be. Their weights are random,
so these tests CANNOT show answer quality; they show that loading, the chat template, the image
plumbing (two images, e.g. a photo and a video frame, reach the vision tower as pixels), decoding
and token counting work, and that bad folders fail with one clear line. Nothing is downloaded.
"""

from __future__ import annotations

import pytest
from PIL import Image

from evaluator.errors import EvalError
from evaluator.models import make_model
from evaluator.models.base import Generation, ImagePart, Message, ModelCallError, TextPart

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

IMAGE_SIZE, PATCH = 32, 8
TOKENS_PER_IMAGE = (IMAGE_SIZE // PATCH) ** 2   # LLaVA "default" strategy drops CLS: 16

CHAT_TEMPLATE = (
    "{% for message in messages %}{{ message['role'] | upper }}: "
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>\n{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    # transformers renders templates with trim_blocks, so newlines after a tag are written as {{ '\\n' }}
    "{% endfor %}{% endif %}{{ '\\n' }}{% endfor %}{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)


def tiny_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>", "<s>", "</s>", "<pad>", "<image>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(["USER: what colour was the mug in the photo? ASSISTANT: it was red.",
                             "SYSTEM: you remember the user's life."], trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>",
                                   pad_token="<pad>", chat_template=CHAT_TEMPLATE)


def llama_config(vocab_size: int):
    from transformers import LlamaConfig

    return LlamaConfig(vocab_size=vocab_size, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                       bos_token_id=1, eos_token_id=2, pad_token_id=3)


def build_tiny_llava(folder):
    """A random-weight LLaVA with its processor saved into `folder` (built from configs)."""
    from transformers import (CLIPImageProcessor, CLIPVisionConfig, LlavaConfig,
                              LlavaForConditionalGeneration, LlavaProcessor)

    tokenizer = tiny_tokenizer()
    image_processor = CLIPImageProcessor(size={"shortest_edge": IMAGE_SIZE},
                                         crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE})
    processor = LlavaProcessor(image_processor=image_processor, tokenizer=tokenizer, patch_size=PATCH,
                               vision_feature_select_strategy="default", num_additional_image_tokens=1,
                               chat_template=CHAT_TEMPLATE)
    vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                              image_size=IMAGE_SIZE, patch_size=PATCH, projection_dim=32)
    config = LlavaConfig(vision_config=vision, text_config=llama_config(len(tokenizer)),
                         image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
                         image_seq_length=TOKENS_PER_IMAGE)
    torch.manual_seed(0)
    LlavaForConditionalGeneration(config).save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_llava(tmp_path_factory):
    return build_tiny_llava(tmp_path_factory.mktemp("tiny-llava"))


@pytest.fixture(scope="module")
def tiny_text_lm(tmp_path_factory):
    from transformers import LlamaForCausalLM

    folder = tmp_path_factory.mktemp("tiny-llama")
    tokenizer = tiny_tokenizer()
    torch.manual_seed(0)
    LlamaForCausalLM(llama_config(len(tokenizer))).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture
def images(tmp_path):
    photo, frame = tmp_path / "photo.png", tmp_path / "video_frame_0003.jpg"
    Image.new("RGB", (48, 40), (255, 0, 0)).save(photo)              # a red photo
    Image.new("RGB", (64, 36), (0, 0, 255)).save(frame, format="JPEG")  # a blue 16:9 frame
    return photo, frame


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def spy_on_generate(model):
    """Record what reaches the underlying transformers model's generate()."""
    seen = {}
    original = model._model.generate

    def spy(**kwargs):
        seen.update(kwargs)
        return original(**kwargs)

    model._model.generate = spy
    return seen


def test_vlm_gets_text_and_two_images_through_the_chat_template(tiny_llava, images):
    model = make_model("hf", {"pretrained": str(tiny_llava), "device": "cpu", "max_new_tokens": 6})
    assert model.supports_images and model.local_files_only
    photo, frame = images
    messages = [Message.text("system", "you remember the user's life."),
                Message("user", (ImagePart(str(photo)), TextPart("and in the video:"), ImagePart(str(frame)),
                                 TextPart("what colour was the mug?")))]
    model.load()
    seen = spy_on_generate(model)
    generation = model.generate(messages)

    assert isinstance(generation, Generation) and isinstance(generation.text, str)
    assert 1 <= generation.output_tokens <= 6
    image_token = model._tokenizer.convert_tokens_to_ids("<image>")
    input_ids = seen["input_ids"][0]
    assert generation.input_tokens == input_ids.numel()
    assert int((input_ids == image_token).sum()) == 2 * TOKENS_PER_IMAGE
    assert seen["do_sample"] is False and seen["max_new_tokens"] == 6
    # Both images reached the vision tower as pixels, in order: red first, then blue.
    pixels = seen["pixel_values"]
    assert tuple(pixels.shape) == (2, 3, IMAGE_SIZE, IMAGE_SIZE)
    red, blue = pixels[0].mean(dim=(1, 2)), pixels[1].mean(dim=(1, 2))
    assert red[0] > red[2] and blue[2] > blue[0]
    # The text of both turns went through the template.
    prompt = model._tokenizer.decode(input_ids[input_ids != image_token])
    assert prompt.startswith("SYSTEM: you remember the user's life.\nUSER: ")
    assert "and in the video:" in prompt and prompt.endswith("what colour was the mug?\nASSISTANT:")

    # Greedy by default: the same request gives the same text.
    assert model.generate(messages).text == generation.text


def test_every_generation_runs_on_one_model_thread_whatever_thread_asks(tiny_llava, images):
    """Issue 25, item 10: with --num_concurrent N the run loop calls generate() from N threads;
    the model itself always runs on the backend's one thread (torch's worker pool stays warm),
    and every caller gets its own request's answer."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    model = make_model("hf", {"pretrained": str(tiny_llava), "device": "cpu", "max_new_tokens": 4})
    model.load()
    ran_on, original = [], model._model.generate

    def spy(**kwargs):
        ran_on.append(threading.get_ident())
        return original(**kwargs)

    model._model.generate = spy
    asks = [[Message("user", (ImagePart(str(images[i % 2])), TextPart("what colour" + " mug" * i)))]
            for i in range(8)]                 # prompts of 8 different lengths
    alone = [model.generate(m).input_tokens for m in asks]
    callers: set[int] = set()

    def ask(messages):
        callers.add(threading.get_ident())
        return model.generate(messages).input_tokens

    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(ask, asks))
    assert together == alone and len(set(alone)) == 8     # each caller got its own request's answer
    assert len(set(ran_on)) == 1 and len(ran_on) == 16
    assert ran_on[0] not in callers | {threading.get_ident()}


def test_vlm_sampling_settings_and_max_tokens(tiny_llava, images):
    model = make_model("hf", {"pretrained": str(tiny_llava), "device": "cpu"})
    model.load()
    seen = spy_on_generate(model)
    first = model.generate([Message("user", (ImagePart(str(images[0])), TextPart("hi")))],
                           temperature=0.8, top_p=0.9, seed=3, max_tokens=2)
    assert seen["do_sample"] is True and seen["temperature"] == 0.8 and seen["top_p"] == 0.9
    assert seen["max_new_tokens"] == 2 and first.output_tokens <= 2
    second = model.generate([Message("user", (ImagePart(str(images[0])), TextPart("hi")))],
                            temperature=0.8, top_p=0.9, seed=3, max_tokens=2)
    assert second.text == first.text        # the seed makes sampling repeatable


def test_missing_or_broken_image_is_a_call_error(tiny_llava, tmp_path):
    model = make_model("hf", {"pretrained": str(tiny_llava), "device": "cpu"})
    with pytest.raises(ModelCallError, match="image file not found: .*gone.png"):
        model.generate([Message("user", (ImagePart(str(tmp_path / "gone.png")), TextPart("?")))])
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(ModelCallError, match="cannot read image"):
        model.generate([Message("user", (ImagePart(str(broken)), TextPart("?")))])


def test_text_only_model_works_and_refuses_images(tiny_text_lm, images):
    model = make_model("hf", {"pretrained": str(tiny_text_lm), "device": "cpu", "max_new_tokens": 3})
    assert model.supports_images is False
    generation = model.generate([Message.text("system", "you remember."), Message.text("user", "the mug?")])
    assert 1 <= generation.output_tokens <= 3 and generation.input_tokens > 5
    with pytest.raises(EvalError, match="text-only model but the request has images"):
        model.generate([Message("user", (ImagePart(str(images[0])), TextPart("?")))])


def test_missing_folder_fails_with_one_line(tmp_path):
    with pytest.raises(EvalError) as info:
        make_model("hf", {"pretrained": str(tmp_path / "no-such-model")})
    assert "model folder not found" in str(info.value) and "\n" not in str(info.value)


def test_folder_without_config_fails(tmp_path):
    with pytest.raises(EvalError, match="no config.json"):
        make_model("hf", {"pretrained": str(tmp_path)})


def test_folder_without_weights_fails_on_load_with_one_line(tiny_llava, tmp_path):
    import shutil

    broken = tmp_path / "no-weights"
    shutil.copytree(tiny_llava, broken)
    for weights in broken.glob("*.safetensors"):
        weights.unlink()
    model = make_model("hf", {"pretrained": str(broken), "device": "cpu"})   # config is fine
    with pytest.raises(EvalError) as info:
        model.generate([Message.text("user", "hi")])
    assert f"cannot load {broken}" in str(info.value) and "\n" not in str(info.value)


def test_hub_id_not_in_cache_is_not_downloaded_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(EvalError, match="not a local folder nor in the Hugging Face cache"):
        make_model("hf", {"pretrained": "br-eval-tests/no-such-model"})


def test_bad_dtype_and_device_are_rejected_before_loading(tiny_llava):
    with pytest.raises(EvalError, match="unknown dtype 'float8'"):
        make_model("hf", {"pretrained": str(tiny_llava), "dtype": "float8"})
    with pytest.raises(EvalError, match="unknown device 'gpu'"):
        make_model("hf", {"pretrained": str(tiny_llava), "device": "gpu"})
