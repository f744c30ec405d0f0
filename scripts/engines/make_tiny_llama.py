"""Writes a tiny random-weight Llama 3.1 model folder that vLLM serves, offline.

    make_tiny_llama.py TOKENIZER_MODEL OUTDIR

TOKENIZER_MODEL is Meta's Llama 3 tiktoken file (PyPI's llama-models==0.3.0 ships it as
llama_models/llama3/tokenizer.model). OUTDIR gets config.json, generation_config.json,
model.safetensors (hidden 128, 2 layers, 2 heads, Llama 3's vocabulary of 128,256 tokens,
float32, seeded random weights) and the tokenizer as the Hub's Llama 3.1 Instruct has it:
tokenizer.json with the 256 special tokens (transformers' convert_llama_weights_to_hf.py
names for 3.1) and its <|begin_of_text|> post-processor, tokenizer_config.json with Llama
3.1's chat template, and tokenizer.model.
Nothing is downloaded; the answers are nonsense but real: vLLM tokenizes, samples and
detokenizes as it does for the real model. The <|eot_id|> row of the output layer is scaled
up, so that some greedy answers stop before their cap, as real ones do.
"""

import json
import os
import shutil
import sys

import torch
from tokenizers import processors
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
from transformers.convert_slow_tokenizer import TikTokenConverter

# The Llama 3 pre-tokenizer pattern (llama_models/llama3/tokenizer.py).
PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# DEFAULT_LLAMA_SPECIAL_TOKENS["3.1"] of transformers' convert_llama_weights_to_hf.py.
NAMED = [
    "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|reserved_special_token_2|>",
    "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>",
]
SPECIALS = NAMED + [f"<|reserved_special_token_{i}|>" for i in range(3, 3 + 256 - len(NAMED))]
BOS, EOT = 128000, 128009
EOS_IDS = [128001, 128008, 128009]
# Meta-Llama-3.1-8B-Instruct's chat template, without its tool-calling branches.
CHAT_TEMPLATE = (
    "{{- bos_token }}"
    "{%- if messages[0]['role'] == 'system' %}"
    "{%- set system_message = messages[0]['content']|trim %}"
    "{%- set messages = messages[1:] %}"
    "{%- else %}{%- set system_message = \"\" %}{%- endif %}"
    "{{- \"<|start_header_id|>system<|end_header_id|>\\n\\n\" }}"
    "{{- \"Cutting Knowledge Date: December 2023\\n\" }}"
    "{{- \"Today Date: 26 Jul 2024\\n\\n\" }}"
    "{{- system_message }}{{- \"<|eot_id|>\" }}"
    "{%- for message in messages %}"
    "{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'"
    " + message['content'] | trim + '<|eot_id|>' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}"
    "{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}"
    "{%- endif %}"
)


def main(tokenizer_model: str, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    # transformers 5.x names the argument extra_special_tokens: the older
    # additional_special_tokens is ignored there, silently, leaving 128,000 tokens.
    converted = TikTokenConverter(vocab_file=tokenizer_model, pattern=PATTERN,
                                  extra_special_tokens=SPECIALS).converted()
    # As the Hub's Llama 3.1 tokenizer.json: encoding adds <|begin_of_text|> (a text prompt
    # sent to /v1/completions gets it, as the real model's does).
    converted.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(single="<|begin_of_text|> $A",
                                      pair="<|begin_of_text|> $A <|begin_of_text|> $B:1",
                                      special_tokens=[("<|begin_of_text|>", BOS)]),
    ])
    tok = PreTrainedTokenizerFast(tokenizer_object=converted, bos_token="<|begin_of_text|>",
                                  eos_token="<|eot_id|>", clean_up_tokenization_spaces=True,
                                  model_max_length=131072)
    tok.chat_template = CHAT_TEMPLATE
    if len(tok) != 128256:
        sys.exit(f"make_tiny_llama: the tokenizer has {len(tok)} tokens, want 128256")
    tok.save_pretrained(out)
    shutil.copyfile(tokenizer_model, os.path.join(out, "tokenizer.model"))

    cfg = LlamaConfig(
        vocab_size=128256, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=8192,
        rope_theta=500000.0, bos_token_id=BOS, eos_token_id=EOS_IDS, tie_word_embeddings=False,
        torch_dtype="float32",
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(cfg)
    with torch.no_grad():
        model.lm_head.weight[EOT] *= 1.8
    model.save_pretrained(out, safe_serialization=True)
    with open(os.path.join(out, "generation_config.json"), "w") as f:
        json.dump({"bos_token_id": BOS, "eos_token_id": EOS_IDS, "do_sample": False}, f)
    print(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_tiny_llama.py TOKENIZER_MODEL OUTDIR")
    main(sys.argv[1], sys.argv[2])
