"""Runs the reference evaluator (multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/
evaluation.py, imported unchanged from a checkout given as argv[1]) on the
fixture, with os.cpu_count() patched to 4, and prints the exact metrics as
JSON. Needs numpy, rapidfuzz, scikit-learn, pydantic, tabulate, loguru.
Run from this directory: python3 run_reference.py <dir holding mlperf_inf_mm_q3vl>"""
import json, os, sys, types

sys.path.insert(0, sys.argv[1])
ds_mod = types.ModuleType("datasets")
ds_mod.load_dataset = lambda repo_id, token=None, split=None: json.load(open(repo_id))
sys.modules["datasets"] = ds_mod
os.cpu_count = lambda: 4
from mlperf_inf_mm_q3vl import evaluation

captured = {}
real_tabulate = evaluation.tabulate
def tabulate(rows, **kw):
    captured["rows"] = [[r[0]] + [float(x) for x in r[1:]] for r in rows]
    captured["table"] = real_tabulate(rows, **kw)
    return captured["table"]
evaluation.tabulate = tabulate
from loguru import logger
logger.remove()
logger.add(lambda m: captured.setdefault("log", []).append(str(m)), format="{message}")

evaluation.run_evaluation(random_seed=12345, filename="mlperf_log_accuracy.json",
                          dataset=types.SimpleNamespace(repo_id="dataset.json", token=None, split=["train"]))
out = {"rows": captured["rows"], "table": captured["table"],
       "unparsable_line": captured["log"][-1].split("\n")[0],
       "accuracy_txt": open("accuracy.txt").read()}
os.remove("accuracy.txt")
print(json.dumps(out, ensure_ascii=False, indent=1))
