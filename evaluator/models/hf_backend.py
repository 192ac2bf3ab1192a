"""A local transformers model: a VLM through its processor's chat template, or a text-only LM.

`--model hf --model_args pretrained=Qwen/Qwen2-VL-2B-Instruct,dtype=bfloat16,device=cuda`

- Vision-language models (any model type transformers maps to AutoModelForImageTextToText:
  Qwen2-VL, Qwen2.5-VL, LLaVA, Idefics3, SmolVLM, Gemma 3, ...) load with AutoProcessor and get
  images (video frames and PDF pages included, they are image files by now) as PIL images inside
  the chat template's messages.
- Audio-language models (a config with an audio encoder: Qwen2-Audio, Qwen2.5-Omni) load with
  AutoProcessor too and take audio parts (a video's 16 kHz track) through the processor's
  `audio=` (older transformers: `audios=`) argument; `supports_audio` says so.
- Text-only models load with AutoTokenizer + AutoModelForCausalLM; a message with an image then
  fails with a clear error, because strategies must send captions instead (they can check
  `supports_images`, known without loading the weights).

Decoding follows the shared generation defaults (evaluator.models._common.GEN_DEFAULTS): greedy
(temperature 0) and at most 512 new tokens unless --gen_kwargs (or max_new_tokens in
--model_args) says otherwise; sampling when temperature > 0 or do_sample=True.
The config is checked when the model is made, the weights load on the first call (a rerun that
is answered entirely from the response cache never loads them).

One model thread: every generate() runs on the backend's own single thread, whatever thread of
the run loop asks (`--num_concurrent` only lets requests queue up; their images and audio are read
on the model thread too, so waiting callers take no cores from torch). torch's intra-op worker pool then stays with one thread: with
every call on another loop thread, `--num_concurrent 4` gave 0.80x (fp32) / 0.73x (bf16) the
throughput of 1 in issue 25's measurement (tiny Qwen2-VL, 2-core CPU); bench/hf_threads.py
compares the two. On GPUs, a vLLM server through `--model openai` is the fast path for
concurrent requests (it batches them). Nothing is downloaded when
HF_HUB_OFFLINE is set: the model must be a local folder or already in the Hugging Face cache.
"""

from __future__ import annotations

import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from evaluator.errors import EvalError
from evaluator.models._common import (GEN_DEFAULTS, generate_one_by_one, one_line,
                                      resolve_gen_kwargs, truncate_at_stop)
from evaluator.models.base import (AudioPart, Generation, ImagePart, Message, ModelCallError, ModelSetupError,
                                   TextPart)

INSTALL_HINT = "pip install 'br-eval[vlm]'"


def require_transformers() -> None:
    """One line naming the extra when transformers or torch is missing (a base install)."""
    import importlib.util

    for module in ("transformers", "torch"):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise ModelSetupError(f"the hf backend needs {module}, which is not installed: {INSTALL_HINT}")

_DTYPES = {
    "auto": "auto",
    "float32": "float32", "fp32": "float32", "float": "float32",
    "float16": "float16", "fp16": "float16", "half": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
}
_DEVICE = re.compile(r"^(auto|cpu|mps|cuda(:\d+)?)$")


def _env_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _looks_like_local_path(name: str) -> bool:
    # A hub id is "name" or "org/name"; anything else that has a path shape is meant as a folder.
    return (name.startswith(("/", "./", "../", "~", "\\")) or name.count("/") > 1
            or os.sep != "/" and os.sep in name or re.match(r"^[A-Za-z]:[\\/]", name) is not None)


class HFChatModel:
    name = "hf"

    def __init__(
        self,
        pretrained: str,
        *,
        dtype: str = "auto",
        device: str = "auto",
        max_new_tokens: int | None = None,
        trust_remote_code: bool = False,
        local_files_only: bool | None = None,
        revision: str | None = None,
        attn_implementation: str | None = None,
        context_length: int | None = None,
    ) -> None:
        require_transformers()
        if max_new_tokens is None:
            max_new_tokens = GEN_DEFAULTS["max_tokens"]
        if not pretrained:
            raise EvalError("hf backend: pretrained is empty (a local model folder or a Hub model id)")
        dtype_name = _DTYPES.get(str(dtype).lower())
        if dtype_name is None:
            raise EvalError(f"hf backend: unknown dtype {dtype!r} (use auto, float32, float16 or bfloat16)")
        if not _DEVICE.match(str(device)):
            raise EvalError(f"hf backend: unknown device {device!r} (use auto, cpu, cuda, cuda:N or mps)")
        if int(max_new_tokens) < 1:
            raise EvalError("hf backend: max_new_tokens must be at least 1")
        self.model_id = str(pretrained)
        self.dtype = dtype_name
        self.device_request = str(device)
        self.max_new_tokens = int(max_new_tokens)
        self.trust_remote_code = bool(trust_remote_code)
        self.local_files_only = _env_offline() if local_files_only is None else bool(local_files_only)
        self.revision = revision
        self.attn_implementation = attn_implementation

        self._source = self._resolve_source()
        self._config = self._load_config()
        from transformers.models.auto.modeling_auto import MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES

        self.supports_images = self._config.model_type in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES
        # The context window in tokens: given, else the config's max_position_embeddings.
        if context_length is not None:
            self.context_length, self.context_length_source = int(context_length), "model_args"
        else:
            self.context_length = _config_context_length(self._config)
            self.context_length_source = "config.json" if self.context_length else None
        self.served_model = self.model_id
        self.supports_audio = _audio_capable(self._config)
        self._model = None
        self._processor = None     # VLMs only
        self._tokenizer = None
        self.device: str | None = None
        self._lock = threading.RLock()
        self._thread: ThreadPoolExecutor | None = None     # the one model thread, made on first use

    def __repr__(self) -> str:
        return f"HFChatModel({self.model_id!r}, dtype={self.dtype!r}, device={self.device_request!r})"

    def cache_settings(self) -> dict[str, Any]:
        """Settings besides gen_kwargs that change outputs (the response cache keys on them)."""
        return {"default_max_new_tokens": self.max_new_tokens, "dtype": self.dtype, "revision": self.revision}

    def generation_settings(self, gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        """The settings a request is made with (defaults, then max_new_tokens, then gen_kwargs)."""
        given = dict(gen_kwargs or {})
        settings = resolve_gen_kwargs(given)
        if not any(k in given for k in ("max_tokens", "max_new_tokens", "max_gen_toks")):
            settings["max_tokens"] = self.max_new_tokens
        return settings

    def describe(self, gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"backend": self.name, "model_id": self.model_id, "served_model": self.served_model,
                "model_type": self._config.model_type, "dtype": self.dtype, "revision": self.revision,
                "device": self.device or self.device_request, "context_length": self.context_length,
                "context_length_source": self.context_length_source,
                "supports_images": self.supports_images,
                "generation": self.generation_settings(gen_kwargs), "generation_defaults": dict(GEN_DEFAULTS)}

    def preflight(self, images: bool, audio: bool = False, *,
                  gen_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
        """Load the weights and processor and generate one token (with a 64x64 image when
        `images` and the model takes images): a folder without a processor or chat template, or a
        broken checkpoint, stops here with one line. A text-only model is not an error: agents
        send it media as text (supports_images is False)."""
        self.generation_settings(gen_kwargs)
        if audio:
            raise ModelSetupError(f"hf backend: {self.model_id} is not set up for audio input here; "
                                  "run without audio")
        self.load()
        parts: list = [TextPart("Reply with the word OK.")]
        if images and self.supports_images:
            import tempfile

            from evaluator.models._probe import tiny_png_bytes

            with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as fh:
                fh.write(tiny_png_bytes())
            parts.insert(0, ImagePart(fh.name))
        try:
            self.generate([Message("user", tuple(parts))], **{**(gen_kwargs or {}), "max_tokens": 1})
        except ModelCallError as exc:
            raise ModelSetupError(f"preflight failed: {exc}") from None
        finally:
            if len(parts) > 1:
                os.unlink(parts[0].path)
        return {"backend": self.name, "requested_model": self.model_id, "served_model": self.model_id,
                "context_length": self.context_length, "context_length_source": self.context_length_source,
                "supports_images": self.supports_images, "supports_audio": False, "device": self.device,
                "listed_models": [self.model_id]}

    # -- loading ------------------------------------------------------------------------------
    def _hub_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"local_files_only": self.local_files_only,
                                  "trust_remote_code": self.trust_remote_code}
        if self.revision:
            kwargs["revision"] = self.revision
        return kwargs

    def _resolve_source(self) -> str:
        path = Path(self.model_id).expanduser()
        if path.exists():
            if not path.is_dir():
                raise EvalError(f"hf backend: {path} is a file; pretrained must be a model folder or a Hub id")
            if not (path / "config.json").is_file():
                raise EvalError(f"hf backend: no config.json in {path}: not a transformers model folder")
            return str(path)
        if _looks_like_local_path(self.model_id):
            raise EvalError(f"hf backend: model folder not found: {self.model_id}")
        return self.model_id

    def _load_config(self):
        from transformers import AutoConfig

        try:
            return AutoConfig.from_pretrained(self._source, **self._hub_kwargs())
        except OSError as exc:
            if self.local_files_only:
                raise EvalError(
                    f"hf backend: model {self.model_id!r} is not a local folder nor in the Hugging Face "
                    "cache, and downloads are off (HF_HUB_OFFLINE / local_files_only); download it first "
                    "or pass its folder"
                ) from None
            raise EvalError(f"hf backend: cannot find model {self.model_id!r}: {one_line(exc)}") from None
        except ValueError as exc:
            raise EvalError(f"hf backend: cannot read the config of {self.model_id!r}: {one_line(exc)}") from None

    def load(self) -> None:
        """Load the tokenizer/processor and the weights (once; later calls return at once)."""
        with self._lock:
            if self._model is not None:
                return
            import torch
            import transformers

            kwargs = self._hub_kwargs()
            try:
                if self.supports_images or self.supports_audio:
                    try:
                        processor = transformers.AutoProcessor.from_pretrained(self._source, **kwargs)
                    except (OSError, ValueError, KeyError, TypeError) as exc:
                        raise EvalError(f"hf backend: {self.model_id} takes images or audio but its "
                                        f"processor cannot be loaded ({one_line(exc, 160)}); the folder needs "
                                        "the processor files (preprocessor_config.json, tokenizer)") from None
                    if self.supports_audio and getattr(processor, "feature_extractor", None) is None:
                        raise EvalError(f"hf backend: {self.model_id} takes audio but its folder has no "
                                        "feature extractor config (preprocessor_config.json)")
                    if self.supports_images and getattr(processor, "image_processor", None) is None:
                        raise EvalError(f"hf backend: {self.model_id} is a vision-language model but its "
                                        "folder has no image processor config")
                    tokenizer = processor.tokenizer
                    has_template = bool(getattr(processor, "chat_template", None) or tokenizer.chat_template)
                    model_class = (transformers.AutoModelForImageTextToText if self.supports_images
                                   else _audio_model_class(transformers, self._config))
                else:
                    processor = None
                    tokenizer = transformers.AutoTokenizer.from_pretrained(self._source, **kwargs)
                    has_template = bool(tokenizer.chat_template)
                    model_class = transformers.AutoModelForCausalLM
                if not has_template:
                    raise EvalError(f"hf backend: {self.model_id} has no chat template; use an instruct/chat model")
                load_kwargs = dict(kwargs)
                load_kwargs["dtype"] = self.dtype if self.dtype == "auto" else getattr(torch, self.dtype)
                if self.attn_implementation:
                    load_kwargs["attn_implementation"] = self.attn_implementation
                model = model_class.from_pretrained(self._source, **load_kwargs)
            except EvalError:
                raise
            except (OSError, ValueError, KeyError) as exc:
                raise EvalError(f"hf backend: cannot load {self.model_id}: {one_line(exc)}") from None

            device = self.device_request
            if device == "auto":
                if torch.cuda.is_available():
                    device = "cuda"
                elif getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
                    device = "mps"
                else:
                    device = "cpu"
            elif device.startswith("cuda") and not torch.cuda.is_available():
                raise EvalError(f"hf backend: device={device} but torch sees no CUDA device")
            model.to(device)
            model.eval()
            self._model, self._processor, self._tokenizer, self.device = model, processor, tokenizer, device

    # -- calls --------------------------------------------------------------------------------
    def generate(self, messages: list[Message], **gen_kwargs) -> Generation:
        settings = self.generation_settings(gen_kwargs)
        if not self.supports_images and any(isinstance(p, ImagePart) for m in messages for p in m.content):
            raise EvalError(f"hf backend: {self.model_id} is a text-only model but the request has images; "
                            "send captions/page text instead (check the model's supports_images)")
        if not self.supports_audio and any(isinstance(p, AudioPart) for m in messages for p in m.content):
            raise EvalError(f"hf backend: {self.model_id} takes no audio but the request has audio; "
                            "send transcripts instead (check the model's supports_audio)")
        self.load()
        try:
            return self._model_thread().submit(self._answer_here, messages, settings).result()
        except (EvalError, ModelCallError):
            raise
        except Exception as exc:  # a failed call (OOM, template error) is this request's error
            raise ModelCallError(f"hf backend: {self.model_id}: {type(exc).__name__}: {one_line(exc)}") from None

    def _answer_here(self, messages: list[Message], settings: dict[str, Any]) -> Generation:
        """One request, whole, on the model thread: its images and audio are read here too, so that
        callers waiting in line add no CPU work beside the generation (on a CPU, work on other
        threads takes cores from torch's intra-op pool)."""
        return self._generate_here(self._conversation(messages), settings)

    def _model_thread(self) -> ThreadPoolExecutor:
        """The single thread every generation runs on (requests queue in arrival order)."""
        with self._lock:
            if self._thread is None:
                self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="br-eval-hf-model")
            return self._thread

    def generate_many(self, requests: list[list[Message]], **gen_kwargs) -> list[Generation | ModelCallError]:
        """One request after another (a local model uses the whole device for each)."""
        return generate_one_by_one(self, requests, gen_kwargs)

    def _conversation(self, messages: list[Message]) -> list[dict[str, Any]]:
        conversation = []
        for message in messages:
            if not (self.supports_images or self.supports_audio):
                text = "\n".join(p.text for p in message.content if isinstance(p, TextPart))
                conversation.append({"role": message.role, "content": text})
                continue
            parts = []
            for part in message.content:
                if isinstance(part, TextPart):
                    parts.append({"type": "text", "text": part.text})
                elif isinstance(part, ImagePart):
                    parts.append({"type": "image", "image": _load_image(part.path)})
                elif isinstance(part, AudioPart):
                    parts.append({"type": "audio", "audio": _load_audio(part.path)})
                else:
                    raise ModelCallError(f"hf backend: unsupported message part {type(part).__name__}")
            conversation.append({"role": message.role, "content": parts})
        return conversation

    def _generate_here(self, conversation: list[dict[str, Any]], settings: dict[str, Any]) -> Generation:
        import torch

        template_owner = self._processor if self._processor is not None else self._tokenizer
        if _has_audio(conversation):
            inputs = self._audio_inputs(conversation)
        else:
            inputs = template_owner.apply_chat_template(
                conversation, add_generation_prompt=True, tokenize=True, return_dict=True, return_tensors="pt"
            )
        model_dtype = self._model.dtype
        inputs = {
            name: (value.to(self.device, dtype=model_dtype) if torch.is_floating_point(value) else value.to(self.device))
            for name, value in inputs.items()
        }
        tokenizer = self._tokenizer
        gen: dict[str, Any] = {"max_new_tokens": settings["max_tokens"]}
        temperature = settings.get("temperature")
        do_sample = settings.get("do_sample", temperature is not None and temperature > 0)
        gen["do_sample"] = do_sample
        if do_sample:
            if temperature is not None and temperature > 0:
                gen["temperature"] = temperature
            if "top_p" in settings:
                gen["top_p"] = settings["top_p"]
        pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        if pad_id is not None:
            gen["pad_token_id"] = pad_id
        stop = settings.get("stop")
        if stop:
            gen["stop_strings"] = stop
            gen["tokenizer"] = tokenizer
        if "seed" in settings:
            torch.manual_seed(settings["seed"])

        prompt_length = inputs["input_ids"].shape[-1]
        with torch.inference_mode():
            output = self._model.generate(**inputs, **gen)
        new_tokens = output[0, prompt_length:]
        text = tokenizer.decode(new_tokens, skip_special_tokens=True)
        return Generation(
            text=truncate_at_stop(text, stop).strip(),
            input_tokens=int(prompt_length),
            output_tokens=int(new_tokens.numel()),
            raw={"device": self.device},
            requested_model=self.model_id,
            served_model=self.model_id,
        )

    def _audio_inputs(self, conversation: list[dict[str, Any]]) -> dict:
        """A request with audio: the chat template writes the text (an audio part becomes the
        model's audio placeholder), then the processor gets the text, the images and the audio
        arrays together, as Qwen2-Audio / Qwen2.5-Omni processors take them (`audio=`, or
        `audios=` in older transformers)."""
        import inspect

        processor = self._processor
        text = processor.apply_chat_template(conversation, add_generation_prompt=True, tokenize=False)
        parts = [p for m in conversation if isinstance(m["content"], list) for p in m["content"]]
        audio = [p["audio"] for p in parts if p["type"] == "audio"]
        images = [p["image"] for p in parts if p["type"] == "image"]
        params = inspect.signature(processor.__call__).parameters
        audio_kw = "audio" if "audio" in params or "audios" not in params else "audios"
        kwargs: dict[str, Any] = {"text": [text], audio_kw: audio, "return_tensors": "pt"}
        rate = getattr(getattr(processor, "feature_extractor", None), "sampling_rate", None)
        if rate:
            kwargs["sampling_rate"] = rate
        if images:
            kwargs["images"] = images
        return dict(processor(**kwargs))


def _config_context_length(config) -> int | None:
    for owner in (config, getattr(config, "text_config", None)):
        value = getattr(owner, "max_position_embeddings", None) if owner is not None else None
        if isinstance(value, int) and value > 0:
            return value
    return None


_AUDIO_SAMPLE_RATE = 16_000


def _audio_capable(config) -> bool:
    """A model with an audio encoder: Qwen2-Audio (audio_config), Qwen2.5-Omni and its thinker
    (thinker_config.audio_config), and the like."""
    if getattr(config, "audio_config", None) is not None:
        return True
    thinker = getattr(config, "thinker_config", None)
    return thinker is not None and getattr(thinker, "audio_config", None) is not None


def _audio_model_class(transformers, config):
    """The generating class of an audio-text model that is not an image-text-to-text model."""
    auto = getattr(transformers, "AutoModelForMultimodalLM", None)
    if auto is not None:
        return auto
    for name in getattr(config, "architectures", None) or []:
        cls = getattr(transformers, name, None)
        if cls is not None:
            return cls
    raise EvalError(f"hf backend: this transformers version has no class for {config.model_type} audio models")


def _has_audio(conversation: list[dict[str, Any]]) -> bool:
    return any(isinstance(m["content"], list) and any(p["type"] == "audio" for p in m["content"])
               for m in conversation)


def _load_audio(path: str):
    """Samples of a mono 16 kHz WAV (the float32 track media_cache writes, or 16-bit PCM)."""
    import wave

    import numpy as np

    from media_cache.audio import read_wav_float32
    from media_cache.errors import MediaError

    try:
        samples, rate = read_wav_float32(path)
    except FileNotFoundError:
        raise ModelCallError(f"hf backend: audio file not found: {path}") from None
    except MediaError:
        try:
            with wave.open(path, "rb") as w:
                if w.getsampwidth() != 2 or w.getnchannels() != 1:
                    raise ModelCallError(f"hf backend: {path}: need mono float32 or 16-bit WAV")
                rate = w.getframerate()
                samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype("float32") / 32768
        except (wave.Error, EOFError, OSError) as exc:
            raise ModelCallError(f"hf backend: cannot read audio {path}: {one_line(exc)}") from None
    if rate != _AUDIO_SAMPLE_RATE:
        raise ModelCallError(f"hf backend: {path}: audio at {rate} Hz, the processor needs "
                             f"{_AUDIO_SAMPLE_RATE} Hz (media_cache writes 16 kHz)")
    return samples


def _load_image(path: str):
    """RGB pixels of an image file, decoded once per run and shared by the questions that show
    it (media_cache.delivery.load_rgb: an in-process memo keyed by the file's identity)."""
    from media_cache.delivery import load_rgb
    from media_cache.errors import MediaError

    if not os.path.isfile(path):
        raise ModelCallError(f"hf backend: image file not found: {path}")
    try:
        return load_rgb(path)
    except MediaError as exc:
        raise ModelCallError(f"hf backend: cannot read image {path}: {one_line(exc)}") from None
