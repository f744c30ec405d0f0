"""Text the golden generators encode and decode: written here, no data set downloaded.

Edge cases first (the clean-up patterns, contractions in both cases, every whitespace kind,
scripts whose marks are not letters, emoji sequences, digits of other scripts), then random
strings drawn from the same pools, so the pre-tokenizer split meets them in every order.
"""

FIXED = [
    "",
    " ",
    "Hello world",
    "Hello world, isn't it . great ? Yes ! No , maybe ' quoted ' I 'm sure it 's what we 've got , they 're here .",
    "I don't know. He can't, won't, shouldn't; they'd've gone. It's JOHN'S car. I'M HERE. WE'LL SEE. 'S 'T 'RE 'VE 'M 'LL 'D",
    " n't  n't . . , , ! ! ? ? ' ' ' 's 'm 've 're",
    "a ' ' b ' 's c",
    "The U.S. economy grew 3.2% in Q3 2024 -- analysts said (Reuters) .",
    "(CNN)  -- The 12-year-old boy, who was \"very scared\", said: 'I didn't want to go.' Officials haven't commented .",
    "Smart quotes: \u201chello\u201d \u2018world\u2019 don\u2019t it\u2019s \u2014 em dash \u2013 en dash \u2026 ellipsis",
    "Numbers: 1 12 123 1234 12345 123456 3.14159 1,000,000 0x1F 1e-9 \u0663\u0664\u0665 \u0967\u0968 \u2460\u2461 \u00bd",
    "Tabs\tand\ttabs\t\tdouble\n\nnewlines\r\nCRLF\rCR   three spaces   \n  \n\n\n   end   ",
    "\u00a0non-breaking\u00a0space \u3000ideographic\u3000space \u2028line sep\u2029para sep \u000bvt\u000cff \u0085nel",
    "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 Stra\u00dfe \u00c5ngstr\u00f6m \u0130stanbul \u0131\u0130 \u01c5 \u1e9e \u212a",
    "Combining: e\u0301 a\u0308 n\u0303 \u0915\u094d\u0937 \u0939\u093f\u0928\u094d\u0926\u0940 \u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22",
    "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3002\u6771\u4eac\u306f\u65e5\u672c\u306e\u9996\u90fd\u3067\u3059\u3002 \u4e2d\u6587\u53e5\u5b50\uff0c\u5305\u542b\u6807\u70b9\u7b26\u53f7\u3002 \ud55c\uad6d\uc5b4 \ubb38\uc7a5\uc785\ub2c8\ub2e4.",
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 \u0646\u0635 \u0639\u0631\u0628\u064a. \u05e2\u05d1\u05e8\u05d9\u05ea. \u0420\u0443\u0441\u0441\u043a\u0438\u0439 \u0442\u0435\u043a\u0441\u0442. \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac.",
    "Emoji: \U0001f600 \U0001f44d\U0001f3fd \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 \U0001f1fa\U0001f1f8 \u2764\ufe0f \U0001f9d1\U0001f3ff\u200d\U0001f4bb #\ufe0f\u20e3",
    "Math: \u2200x\u2208\u211d, x\u00b2 \u2265 0; \u222b\u2080\u00b9 f(x)dx \u2248 \u03c0/4 \u2260 \u221e. \U0001d400\U0001d401\U0001d402",
    "Code: def f(x):\n    return x**2  # comment\n\tif (a && b) { c->d[0] = \"s\"; }\n",
    "<html><body><p class=\"x\">Hi &amp; bye</p></body></html>",
    "URLs: https://example.com/path?q=1&r=2#frag user@example.org C:\\Windows\\System32",
    "Special text: <|begin_of_text|>Hi<|eot_id|> <|start_header_id|>user<|end_header_id|>\n\n<|reserved_special_token_5|> <|not_special|>",
    "<s>[INST] <<SYS>> sys <</SYS>> hi [/INST] ok </s><unk>",
    "Repeated: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa !!!!!!!!!!!!!!!! ............ \u2581\u2581 \u2581a",
    "Lone marks: \u0301\u0301 \u200b\u200c\u200d\ufeff \ufffd \U0010fffd \ue000",
    "   leading spaces",
    "trailing spaces   ",
    "\n\n\nleading newlines",
    "'s",
    "'S",
    "x's y'S z'Re",
    "don't",
    "5 . 3 , 2 ! 1 ? 0",
    "Long s: it'\u017f, IT'\u017f, x'\u017fy; Kelvin: it'\u212a",
    "Mark then letters: \u0301abc \u0301\u0301 'abc '\n\u00a0x \u3000y \u2028z",
    " \n word\t\n\tword\r\n\r\n  x  \n",
]

POOLS = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789",
    " " * 8 + "\t\n\r",
    ".,!?;:'\"()-_/\\[]{}<>@#$%^&*+=~`|",
    "\u00e9\u00e8\u00fc\u00f6\u00df\u00e7\u00f1\u0130\u0131\u00c9",
    "\u65e5\u672c\u8a9e\u4e2d\u6587\u3002\u3001\uff0c\u3042\u30a2\ud55c",
    "\u0915\u094d\u0937\u093f\u0301\u0308\u0e20\u0e32",
    "\U0001f600\U0001f44d\U0001f3fd\u200d\u2764\ufe0f\U0001f1fa\U0001f1f8",
    "\u00a0\u3000\u2028\u0085\u000b\u000c",
    "\u0663\u0664\u0967\u00bd\u2460\u00b2",
    "\u2581\ufffd\u200b\ue000",
]

WORDS = [" n't", " 's", " 'm", " 've", " 're", " ' ", " .", " ?", " !", " ,", "'s", "'S", "'ll", "'D",
         " the", " The", "ing", " don't", " <|eot_id|>", "<s>", "</s>", "\u2581"]


def random_text(rng):
    parts = []
    for _ in range(rng.randrange(1, 40)):
        if rng.random() < 0.2:
            parts.append(rng.choice(WORDS))
        else:
            pool = rng.choice(POOLS)
            parts.append("".join(rng.choice(pool) for _ in range(rng.randrange(1, 8))))
    return "".join(parts)


def corpus_texts(rng, n_random=1500):
    texts = list(FIXED)
    texts.append(" ".join(FIXED))
    texts += [random_text(rng) for _ in range(n_random)]
    return texts


def mutate_ids(rng, ids, specials, high):
    """Cut a sequence anywhere and drop specials and lone high bytes into it."""
    ids = list(ids)
    if ids:
        a = rng.randrange(len(ids) + 1)
        b = rng.randrange(a, len(ids) + 1)
        ids = ids[a:b]
    for _ in range(rng.randrange(4)):
        pos = rng.randrange(len(ids) + 1)
        ids.insert(pos, rng.choice(specials if rng.random() < 0.5 else high))
    return ids
