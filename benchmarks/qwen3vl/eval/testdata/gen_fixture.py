"""Builds the synthetic qwen3-vl fixture: dataset.json (rows with the
reference's ground-truth field names) and mlperf_log_accuracy.json (LoadGen's
layout). Deterministic (random.Random(7)). Run: python3 gen_fixture.py"""
import json, random

rng = random.Random(7)
levels = [["Apparel & Accessories", "Home & Garden", "Électronique", "玩具"],
          ["Clothing", "Kitchen", "Phones", "积木", "Shoes "],
          ["Shirts", "Cookware", "Cases", "Sets"]]
brands = ["Acme", "Adidas", "Giorgio Armani", "Nestlé", "ΟΔΥΣΣΕΑΣ", "İstanbul Co",
          "\x1cPadded\x1f", "  spaced  ", "😀 Emoji Brand", "Zoë & Co", "北京牌", "",
          "Levi's", "L'ORÉAL", "Straße"]

def category():
    n = rng.randint(1, 3)
    return " > ".join(rng.choice(levels[i]) for i in range(n))

rows = []
for i in range(300):
    gt = category()
    pot = list({category() for _ in range(rng.randint(0, 4))} | {gt})
    pot.sort()
    if i % 50 == 0:
        pot = [gt]  # single candidate: numpy draws nothing
    rows.append({"ground_truth_category": gt, "ground_truth_brand": rng.choice(brands),
                 "ground_truth_is_secondhand": rng.random() < 0.3,
                 "potential_product_categories": pot})

def typo(s):
    if len(s) > 3 and rng.random() < 0.5:
        j = rng.randrange(len(s))
        return s[:j] + s[j + 1:]
    return s

def response(row):
    r = rng.random()
    gt = row["ground_truth_category"]
    cat = gt if rng.random() < 0.6 else category()
    if rng.random() < 0.2:
        cat = " > ".join(" " + c + " " for c in cat.split(" > "))
    brand = row["ground_truth_brand"]
    brand = rng.choice([brand, brand.upper(), brand.lower(), typo(brand), typo(typo(brand)), " " + brand + "\t", rng.choice(brands)])
    sh = row["ground_truth_is_secondhand"] if rng.random() < 0.8 else not row["ground_truth_is_secondhand"]
    obj = {"category": cat, "brand": brand, "is_secondhand": sh}
    if r < 0.05:
        return "```json\n" + json.dumps(obj) + "\n```"
    if r < 0.08:
        obj["extra"] = 1
    elif r < 0.10:
        del obj["brand"]
    elif r < 0.12:
        obj["is_secondhand"] = rng.choice(["yes", "No", "1", 0, 1.0, "maybe", None, 2])
    elif r < 0.13:
        return json.dumps(obj)[:-3]
    elif r < 0.14:
        return ""
    elif r < 0.16:
        return json.dumps(obj, ensure_ascii=True, indent=2)
    return json.dumps(obj, ensure_ascii=rng.random() < 0.5)

order = list(range(300))
rng.shuffle(order)
order = [i for i in order if i not in (5, 17)] + [42, 42, 99]  # 2 missing, duplicates
entries = []
for seq, idx in enumerate(order):
    data = response(rows[idx]).encode("utf-8").hex().upper()
    entries.append('{ "seq_id" : %d, "qsl_idx" : %d, "data" : "%s", "token_count" : %d }' % (seq, idx, data, len(data) // 8))
with open("dataset.json", "w") as f:
    json.dump(rows, f, ensure_ascii=False, indent=0)
with open("mlperf_log_accuracy.json", "w") as f:
    f.write("[" + "".join(("\n" if k == 0 else ",\n") + e for k, e in enumerate(entries)) + "\n]\n")
