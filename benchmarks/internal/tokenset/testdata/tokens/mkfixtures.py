# Writes qsl/testdata fixtures with pandas/pyarrow, the libraries the
# reference uses, so the Go readers are tested on files real tooling produced.
import json
import numpy as np
import pandas as pd

tmpl = {"llama": "Summarize the following news article in 128 tokens. Please output the summary only, without any other text.\n\nArticle:\n{input}\n\nSummary:"}
recs = [
    {"instruction": tmpl, "input": "First article, with \"quotes\".", "tok_input": [128000, 9370, 5730, 553, 0], "output": "First summary."},
    {"instruction": tmpl, "input": "Zweiter Artikel: Größe €", "tok_input": [128000, 128255], "output": "Résumé – two."},
    {"instruction": tmpl, "input": "third", "tok_input": [1, 2, 3, 4, 5, 6, 7], "output": ""},
]
# As language/llama3.1-8b/download_cnndm.py writes cnn_eval.json.
with open("llama_cnn_eval.json", "w") as f:
    json.dump(recs, f, indent=4, ensure_ascii=False)
df = pd.DataFrame(recs)
for orient in ["records", "columns", "index", "split"]:
    df.to_json(f"llama_orient_{orient}.json", orient=orient, force_ascii=False)

gpt = pd.DataFrame({
    "dataset": ["aime25", "gpqa_diamond", "livecodebench_v6"],
    "question": ["q0", "q1", "q2"],
    "ground_truth": ["42", None, "lcb-id-7"],
    "tok_input": [np.array([200006, 17360, 200008], dtype=np.int64),
                  np.array([1, 201087], dtype=np.int64),
                  np.array([5, 6, 7, 8], dtype=np.int64)],
})
gpt.to_parquet("gptoss_tok_input_int64.parquet")
g32 = gpt.rename(columns={"tok_input": "input_tokens"})
g32["input_tokens"] = [np.asarray(x, dtype=np.int32) for x in g32["input_tokens"]]
g32.to_parquet("gptoss_input_tokens_int32.parquet")
gpt.to_json("gptoss_orient_columns.json")  # DataFrame.to_json's default orient
