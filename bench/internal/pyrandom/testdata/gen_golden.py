# Writes golden.json: what CPython's random module draws, for
# pyrandom_test.go. Run with the python3 the header of golden.json names:
#   python3 bench/internal/pyrandom/testdata/gen_golden.py > bench/internal/pyrandom/testdata/golden.json
# Only the standard library is used (random, json, sys).
import json
import random
import sys

cases = []
# DashInfer-VLM's benchmark_openai_api.py: random.seed(0xCADE), then
# gen_random_lens("uniform", ...) draws randint(mean - range//2, mean + range//2)
# per request: output lengths first, then image counts.
for seed, draws in [
    (0xCADE, [(88, 152, 100), (3, 3, 100)]),
    (0xCADE, [(56, 184, 50), (2, 4, 50)]),
    (0, [(0, 1, 40), (1, 6, 40), (0, 2**31, 10)]),
    (2**40 + 7, [(-5, 5, 30), (100, 100, 5), (0, 1000, 30)]),
    (123456789, [(1, 2**32 - 2, 20)]),
]:
    r = random.Random(seed)
    out = []
    for a, b, k in draws:
        out.append({"a": a, "b": b, "values": [r.randint(a, b) for _ in range(k)]})
    r2 = random.Random(seed)
    raw = [r2.getrandbits(32) for _ in range(700)]
    cases.append({"seed": seed, "draws": out, "uint32": raw})
json.dump({"python": sys.version.split()[0], "cases": cases}, sys.stdout)
