"""Writes a tiny random-weight Llama with a given vocabulary size that SGLang serves, offline.

    make_tiny_vocab_llama.py --vocab N --bos ID --eos ID[,ID...] [--word-tokenizer] OUTDIR

The token-ID benchmarks send their prompts as token IDs below their model's vocabulary size
(gpt-oss-120b 201,088, deepseek-r1 129,280), so the model that answers them needs that many
rows, not the weights: this one is Llama's architecture at hidden size 64, 2 layers, float32,
seeded random weights. The --eos rows of the output layer are scaled up, so that some greedy
answers stop before their cap, as real ones do.

Without --word-tokenizer the folder holds no tokenizer, for `--skip-tokenizer-init` (SGLang
then takes the end tokens from generation_config.json). With it, the folder gets a made-up
word-level tokenizer of exactly N entries ("<bos>", "<eos>" at their IDs, "t<ID>" elsewhere):
SGLang refuses min_new_tokens without a tokenizer (it needs the tokenizer's eos_token_id),
and deepseek-r1 sends min_new_tokens 1. Nothing is downloaded.
"""

import argparse
import json
import os

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, decoders
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast


def word_tokenizer(vocab: int, bos: int, eos: int) -> PreTrainedTokenizerFast:
    words = {f"t{i}": i for i in range(vocab)}
    del words[f"t{bos}"], words[f"t{eos}"]
    words["<bos>"], words["<eos>"] = bos, eos
    tok = Tokenizer(models.WordLevel(vocab=words, unk_token=f"t{vocab - 1}"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.decoder = decoders.Sequence([])  # words joined as they are
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<bos>", eos_token="<eos>",
                                   model_max_length=8192)
    if len(fast) != vocab:
        raise SystemExit(f"make_tiny_vocab_llama: the tokenizer has {len(fast)} tokens, want {vocab}")
    return fast


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--vocab", type=int, required=True)
    p.add_argument("--bos", type=int, required=True)
    p.add_argument("--eos", required=True, help="end token IDs, comma-separated (the first names the tokenizer's)")
    p.add_argument("--word-tokenizer", action="store_true")
    p.add_argument("out")
    a = p.parse_args()
    eos = [int(x) for x in a.eos.split(",")]
    os.makedirs(a.out, exist_ok=True)
    if a.word_tokenizer:
        word_tokenizer(a.vocab, a.bos, eos[0]).save_pretrained(a.out)

    cfg = LlamaConfig(
        vocab_size=a.vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=8192,
        rope_theta=10000.0, bos_token_id=a.bos, eos_token_id=eos, tie_word_embeddings=False,
        torch_dtype="float32",
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(cfg)
    with torch.no_grad():
        for e in eos:
            model.lm_head.weight[e] *= 1.6
    model.save_pretrained(a.out, safe_serialization=True)
    with open(os.path.join(a.out, "generation_config.json"), "w") as f:
        json.dump({"bos_token_id": a.bos, "eos_token_id": eos, "do_sample": False}, f)
    print(a.out)


if __name__ == "__main__":
    main()
