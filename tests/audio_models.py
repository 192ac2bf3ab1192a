"""Tiny random-weight audio models for tests, built from configs and saved to a folder.

- `tiny_whisper(folder)`: a 1-layer Whisper (16 mel bins) with a byte-level BPE tokenizer that
  has Whisper's special tokens, a WhisperFeatureExtractor and a generation config with language
  and task ids, saved with save_pretrained the way a user's checkpoint folder would be.
- `tiny_qwen2_audio(folder)`: a Qwen2-Audio (1-layer Whisper-style audio encoder + 1-layer Qwen2)
  with a Qwen2AudioProcessor and a chat template that writes <|audio_bos|><|AUDIO|><|audio_eos|>
  for an audio part.

Their weights are random: they show that loading, feature extraction, the audio plumbing and
decoding work, never what a real model would hear or say. Nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

WHISPER_SPECIALS = ["<|endoftext|>", "<|startoftranscript|>", "<|en|>", "<|de|>", "<|transcribe|>",
                    "<|translate|>"]
# As in a real Whisper vocabulary, <|notimestamps|> and the timestamp tokens come last: Whisper's
# generate counts every id above <|notimestamps|> as a timestamp.
WHISPER_TAIL = ["<|notimestamps|>", "<|0.00|>", "<|0.02|>"]
QWEN_SPECIALS = ["<unk>", "<s>", "</s>", "<pad>", "<|AUDIO|>", "<|audio_bos|>", "<|audio_eos|>",
                 "<image>"]
QWEN_AUDIO_TEMPLATE = (
    "{% for message in messages %}{{ message['role'] | upper }}: "
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'audio' %}<|audio_bos|><|AUDIO|><|audio_eos|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}{{ '\\n' }}{% endfor %}{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)


def _bpe(specials: list[str], unk: str, corpus: list[str]):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token=unk))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(corpus, trainer)
    return tok


def tiny_whisper(folder: Path, says: str | None = "beach") -> Path:
    """`says`: the decoder's final layer norm is set so that every step predicts this word's
    first token (random weights otherwise emit mostly special tokens, i.e. empty text)."""
    import torch
    from transformers import (GenerationConfig, WhisperConfig, WhisperFeatureExtractor,
                              WhisperForConditionalGeneration, WhisperProcessor,
                              WhisperTokenizerFast)

    tok = _bpe(WHISPER_SPECIALS, "<|endoftext|>",
               ["we went to the beach and the dog ran after the ball", "hello from the video",
                "the beach " * 50])
    tok.add_special_tokens(WHISPER_TAIL)
    tokenizer = WhisperTokenizerFast(tokenizer_object=tok, unk_token="<|endoftext|>",
                                     bos_token="<|endoftext|>", eos_token="<|endoftext|>",
                                     pad_token="<|endoftext|>")
    names = WHISPER_SPECIALS + WHISPER_TAIL
    ids = dict(zip(names, tokenizer.convert_tokens_to_ids(names)))
    assert ids["<|notimestamps|>"] == len(tokenizer) - len(WHISPER_TAIL)
    processor = WhisperProcessor(feature_extractor=WhisperFeatureExtractor(feature_size=16),
                                 tokenizer=tokenizer)
    eot, sot = ids["<|endoftext|>"], ids["<|startoftranscript|>"]
    config = WhisperConfig(vocab_size=len(tokenizer), num_mel_bins=16, d_model=32, encoder_layers=1,
                           decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2,
                           encoder_ffn_dim=32, decoder_ffn_dim=32, max_source_positions=1500,
                           max_target_positions=64, decoder_start_token_id=sot, eos_token_id=eot,
                           pad_token_id=eot, bos_token_id=eot)
    torch.manual_seed(0)
    model = WhisperForConditionalGeneration(config)
    if says:
        pieces = tokenizer.tokenize(" " + says)
        assert len(pieces) == 1, pieces
        word = tokenizer.convert_tokens_to_ids(pieces[0])
        with torch.no_grad():
            norm = model.model.decoder.layer_norm
            norm.weight.zero_()
            norm.bias.copy_(model.model.decoder.embed_tokens.weight[word] * 10)
    model.generation_config = GenerationConfig(
        decoder_start_token_id=sot, eos_token_id=eot, pad_token_id=eot, max_length=24,
        no_timestamps_token_id=ids["<|notimestamps|>"], is_multilingual=True,
        lang_to_id={"<|en|>": ids["<|en|>"], "<|de|>": ids["<|de|>"]},
        task_to_id={"transcribe": ids["<|transcribe|>"], "translate": ids["<|translate|>"]})
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return Path(folder)


def tiny_qwen2_audio(folder: Path) -> Path:
    import torch
    from transformers import (PreTrainedTokenizerFast, Qwen2AudioConfig, Qwen2AudioEncoderConfig,
                              Qwen2AudioForConditionalGeneration, Qwen2AudioProcessor, Qwen2Config,
                              WhisperFeatureExtractor)

    tok = _bpe(QWEN_SPECIALS, "<unk>", ["USER: what did they say in the video? ASSISTANT: hello.",
                                        "SYSTEM: you remember the user's life."])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                                        eos_token="</s>", pad_token="<pad>",
                                        chat_template=QWEN_AUDIO_TEMPLATE)
    processor = Qwen2AudioProcessor(feature_extractor=WhisperFeatureExtractor(feature_size=16),
                                    tokenizer=tokenizer, chat_template=QWEN_AUDIO_TEMPLATE)
    audio_config = Qwen2AudioEncoderConfig(num_mel_bins=16, d_model=32, encoder_layers=1,
                                           encoder_attention_heads=2, encoder_ffn_dim=32,
                                           max_source_positions=1500)
    text_config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                              num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                              max_position_embeddings=2048, bos_token_id=1, eos_token_id=2,
                              pad_token_id=3)
    config = Qwen2AudioConfig(audio_config=audio_config, text_config=text_config,
                              audio_token_index=tokenizer.convert_tokens_to_ids("<|AUDIO|>"))
    torch.manual_seed(0)
    Qwen2AudioForConditionalGeneration(config).save_pretrained(folder)
    processor.save_pretrained(folder)
    return Path(folder)
