"""Writes a tiny random-weight Qwen2-VL model folder that vLLM serves, offline.

    make_tiny_qwen2vl.py OUTDIR

A byte-level BPE tokenizer made here (the 256 byte tokens, no merges, Qwen2-VL's special
tokens), Qwen2-VL's chat template and image processor config (few pixels, so few image
tokens), and a Qwen2-VL of hidden size 64 with a 1-layer vision tower, float32, seeded
random weights. Nothing is downloaded.
"""

import json
import os
import sys

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import (PreTrainedTokenizerFast, Qwen2VLConfig, Qwen2VLForConditionalGeneration,
                          Qwen2VLImageProcessor, Qwen2VLProcessor, Qwen2VLVideoProcessor)
from transformers.convert_slow_tokenizer import bytes_to_unicode

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>",
            "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>"]
CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n{% endif %}"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def main(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    byte_chars = list(bytes_to_unicode().values())
    vocab = {c: i for i, c in enumerate(byte_chars)}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   extra_special_tokens=SPECIALS, model_max_length=32768)
    fast.chat_template = CHAT_TEMPLATE
    ids = {s: fast.convert_tokens_to_ids(s) for s in SPECIALS}
    if len(fast) != 256 + len(SPECIALS) or any(i < 256 for i in ids.values()):
        sys.exit(f"make_tiny_qwen2vl: tokenizer of {len(fast)} tokens, specials {ids}")
    images = Qwen2VLImageProcessor(min_pixels=56 * 56, max_pixels=112 * 112)
    processor = Qwen2VLProcessor(image_processor=images, tokenizer=fast, video_processor=Qwen2VLVideoProcessor(),
                                 chat_template=CHAT_TEMPLATE)
    processor.save_pretrained(out)

    cfg = Qwen2VLConfig(
        text_config=dict(vocab_size=320, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=8192,
                         rope_parameters={"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [4, 6, 6]},
                         bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"]),
        vision_config=dict(depth=1, embed_dim=32, hidden_size=64, num_heads=2, mlp_ratio=2, patch_size=14,
                           spatial_merge_size=2, temporal_patch_size=2, in_channels=3),
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=False,
    )
    torch.manual_seed(0)
    model = Qwen2VLForConditionalGeneration(cfg)
    with torch.no_grad():
        model.lm_head.weight[ids["<|im_end|>"]] *= 1.8
    model.save_pretrained(out, safe_serialization=True)
    with open(os.path.join(out, "generation_config.json"), "w") as f:
        json.dump({"bos_token_id": ids["<|endoftext|>"], "eos_token_id": [ids["<|im_end|>"], ids["<|endoftext|>"]]}, f)
    print(out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_tiny_qwen2vl.py OUTDIR")
    main(sys.argv[1])
