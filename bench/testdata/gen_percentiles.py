# Writes percentiles.json: numpy's mean, median, population std and
# percentile (default linear method) over arrays with ties, one element,
# and latencies in milliseconds, as vllm bench serve computes its figures.
# Run: /tmp/venv-bench/bin/python bench/testdata/gen_percentiles.py > bench/testdata/percentiles.json
# numpy==2.4.6 (pip install numpy==2.4.6; it came with guidellm==0.8.1).
import json
import random
import sys

import numpy as np

random.seed(7)
ps = [0, 1, 25, 50, 90, 95, 99, 99.9, 100]
arrays = [[1.0], [2.0, 1.0], [1.0, 1.0, 1.0, 5.0], [0.1, 0.2, 0.3]]
for n in (5, 17, 100, 1001):
    arrays.append([random.expovariate(1 / 30.0) for _ in range(n)])
    arrays.append([round(random.uniform(0.5, 2.5), 3) for _ in range(n)])
cases = []
for a in arrays:
    x = np.array(a)
    cases.append({
        "values": a,
        "mean": float(np.mean(x)),
        "median": float(np.median(x)),
        "std": float(np.std(x)),
        "percentiles": {str(p): float(np.percentile(x, p)) for p in ps},
    })
json.dump({"numpy": np.__version__, "python": sys.version.split()[0], "cases": cases}, sys.stdout)
