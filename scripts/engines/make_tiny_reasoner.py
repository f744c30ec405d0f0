"""Writes a tiny Llama 3.1 folder that reasons, offline: for vLLM's reasoning parser in the
real-engine tests (cmd/mlperf-go/vllm_bench_test.go).

    make_tiny_reasoner.py TINY_LLAMA OUTDIR

TINY_LLAMA is make_tiny_llama.py's folder (its tokenizer and config). OUTDIR gets the same
tokenizer with two reserved special tokens renamed <think> and </think> (ordinary added tokens,
as DeepSeek-R1's are, so they stay in the text vLLM's deepseek_r1 parser reads), and weights
that make the model a fixed chain: every layer's output projections are zero, so each position's
logits depend on its own token alone (embedding -> final norm -> lm_head), and the chain's tokens
have one-hot embeddings whose lm_head rows name the next. After the chat template's last token
(the assistant header's "\n\n") it answers, greedily or sampled alike:

    <think> r1 .. rK </think> a1 .. aM <|eot_id|>

Prints {"reasoning": K, "answer": M, "length": K + M + 2} (the tokens before <|eot_id|>).
"""

import json
import os
import shutil
import sys

import torch
from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

THINK, END_THINK = "<think>", "</think>"
# Two of Llama 3's reserved special tokens, renamed.
RENAMED = {128011: THINK, 128012: END_THINK}
EOT = 128009
# Ordinary tokens of the Llama 3 vocabulary: the reasoning's and the answer's.
# " alpha beta gamma delta epsilon eta theta so" (K = 8)
REASONING = [8451, 13746, 22350, 9665, 32304, 40097, 19034, 779]
# " the answer is forty two." (M = 6)
ANSWER = [279, 4320, 374, 36498, 1403, 13]
MARGIN = 60.0


def rename(src: str, out: str) -> None:
    for name in os.listdir(src):
        if name.startswith("tokenizer") or name in ("special_tokens_map.json", "chat_template.jinja"):
            shutil.copyfile(os.path.join(src, name), os.path.join(out, name))
    path = os.path.join(out, "tokenizer.json")
    with open(path) as f:
        tj = json.load(f)
    for t in tj["added_tokens"]:
        if t["id"] in RENAMED:
            t["content"], t["special"] = RENAMED[t["id"]], False
    with open(path, "w") as f:
        json.dump(tj, f, ensure_ascii=False)
    path = os.path.join(out, "tokenizer_config.json")
    with open(path) as f:
        tc = json.load(f)
    for k, v in tc.get("added_tokens_decoder", {}).items():
        if int(k) in RENAMED:
            v["content"], v["special"] = RENAMED[int(k)], False
    with open(path, "w") as f:
        json.dump(tc, f, ensure_ascii=False, indent=2)
    # tokenizer.model (tiktoken) knows nothing of the names: leave it out.
    if os.path.exists(os.path.join(out, "tokenizer.model")):
        os.remove(os.path.join(out, "tokenizer.model"))


def main(src: str, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    rename(src, out)
    tok = AutoTokenizer.from_pretrained(out)
    think, end = tok.convert_tokens_to_ids(THINK), tok.convert_tokens_to_ids(END_THINK)
    if (think, end) != (128011, 128012):
        sys.exit(f"make_tiny_reasoner: <think> and </think> are {think} and {end}, want 128011 and 128012")
    ids = tok.apply_chat_template([{"role": "user", "content": "hello"}], add_generation_prompt=True)
    if hasattr(ids, "input_ids"):
        ids = ids.input_ids
    if isinstance(ids, dict):
        ids = ids["input_ids"]
    chain = [ids[-1], think, *REASONING, end, *ANSWER, EOT]
    if len(set(chain)) != len(chain):
        sys.exit(f"make_tiny_reasoner: the chain {chain} repeats a token")

    cfg = LlamaConfig.from_pretrained(src)
    if len(chain) > cfg.hidden_size or cfg.tie_word_embeddings:
        sys.exit("make_tiny_reasoner: want untied embeddings at least as wide as the chain")
    model = LlamaForCausalLM(cfg)
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
        for layer in model.model.layers:
            # Norms at one (the zeroed projections make them moot).
            layer.input_layernorm.weight.fill_(1.0)
            layer.post_attention_layernorm.weight.fill_(1.0)
        model.model.norm.weight.fill_(1.0)
        emb, head = model.model.embed_tokens.weight, model.lm_head.weight
        for i, t in enumerate(chain[:-1]):
            emb[t, i] = 1.0
            head[chain[i + 1], i] = MARGIN
    model.save_pretrained(out, safe_serialization=True)
    with open(os.path.join(src, "generation_config.json")) as f:
        gen = json.load(f)
    with open(os.path.join(out, "generation_config.json"), "w") as f:
        json.dump(gen, f)
    print(json.dumps({"reasoning": len(REASONING), "answer": len(ANSWER), "length": len(REASONING) + len(ANSWER) + 2}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_tiny_reasoner.py TINY_LLAMA OUTDIR")
    main(sys.argv[1], sys.argv[2])
