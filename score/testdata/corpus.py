"""Seeded generator of news-summary-like prediction/target pairs.

Used by gen_golden.py (the committed golden corpus) and time_python.py (the
benchmark corpus, not committed). Plain Python, no dependencies: the same
seed gives the same corpus on any CPython 3.
"""
import random

FIRST = ["John", "Mary", "José", "Zoë", "Ahmed", "Li", "Olga", "Łukasz", "Søren", "Aïcha",
         "Priya", "Kenji", "Chloé", "Ngozi", "Mateo", "Anna", "İlkay", "Björn", "Dmitri", "Fatima"]
LAST = ["Smith", "Müller", "O'Brien", "García", "Nakamura", "Kowalski", "Ødegaard", "Dubois",
        "Rowling", "Okafor", "Ivanova", "Nguyen", "Schäfer", "Sánchez", "Chen", "Brown"]
TITLES = ["Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "Sen.", "Gov.", "Gen.", "Rep.", "St.", "Lt.", "Col."]
ORGS = ["the U.S. Senate", "Acme Corp.", "Globex Inc.", "the U.N.", "NASA", "the E.U.", "Initech Ltd.",
        "the Fed", "U.K. Treasury", "the N.Y. Police Dept.", "Wayne Enterprises", "the I.M.F."]
PLACES = ["Washington", "London", "Zürich", "São Paulo", "New York", "Paris", "Kraków", "Tokyo",
          "Lagos", "Montréal", "Reykjavík", "the U.S.", "Calif.", "Wash.", "Ariz.", "İstanbul"]
NOUNS = ["report", "investigation", "agreement", "storm", "election", "market", "study", "trial",
         "company", "hospital", "school", "policy", "flight", "vaccine", "budget", "museum",
         "relationship", "generalization", "happiness", "conditional", "hopefulness", "operator",
         "replacement", "adjustments", "communities", "controlling", "sensitivity", "analogies"]
VERBS = ["announced", "rejected", "approved", "investigated", "reported", "denied", "confirmed",
         "criticized", "celebrated", "postponed", "launching", "stopping", "hoping", "tried",
         "cries", "dying", "agreed", "generalizes", "organizing", "fizzed", "hopping", "failing"]
ADJ = ["new", "controversial", "historic", "unexpected", "federal", "local", "private", "major",
       "final", "early", "happy", "cheerful", "relational", "effective", "defensible", "electrical"]
ADV = ["quickly", "reportedly", "officially", "finally", "however", "meanwhile", "generously"]
UNITS = ["million", "billion", "percent", "km", "p.m.", "a.m.", "kg"]
EMOJI = ["🙂", "🚀", "🇺🇸", "…", "—", "–", "™", "€", "£", "°C", "½"]
FOREIGN = ["日本語のテキスト。", "Ελληνικά κείμενα.", "Русский текст.", "نص عربي.", "١٢٣ ٤٥٦",
           "ΣΟΦΊΑ ΣΑΣ", "straße Straße", "ﬁnance ﬂow", "Kelvin 5\u212a", "e\u0301te\u0301"]
QUOTES = [('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("\u2018", "\u2019"), ("\u00ab", "\u00bb"),
          ("(", ")"), ("[", "]")]


def name(r):
    x = r.random()
    if x < 0.3:
        return f"{r.choice(TITLES)} {r.choice(LAST)}"
    if x < 0.45:
        return f"{r.choice('ABCDEFGHJKLMNPRSTW')}. {r.choice('ABCDEFGHJKLMNPRSTW')}. {r.choice(LAST)}"
    if x < 0.55:
        return f"{r.choice(FIRST)} {r.choice('ABCDEFGHJKLMNPRSTW')}. {r.choice(LAST)}"
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def number(r):
    x = r.random()
    if x < 0.2:
        return f"{r.randint(1, 99)}.{r.randint(0, 9)}"
    if x < 0.35:
        return f"{r.randint(1, 999)},{r.randint(100, 999)}"
    if x < 0.45:
        return f"${r.randint(1, 99)}.{r.randint(1, 9)} {r.choice(UNITS)}"
    if x < 0.55:
        return f"No. {r.randint(1, 40)}"
    if x < 0.62:
        return f"{r.randint(1, 12)}:{r.randint(10, 59)} {r.choice(['p.m.', 'a.m.'])}"
    if x < 0.7:
        return f"{r.randint(1900, 2030)}"
    return str(r.randint(2, 500))


def clause(r):
    parts = [r.choice([name(r), r.choice(ORGS), "The " + r.choice(ADJ) + " " + r.choice(NOUNS)]),
             r.choice(ADV) if r.random() < 0.2 else "",
             r.choice(VERBS), "the", r.choice(ADJ), r.choice(NOUNS)]
    if r.random() < 0.5:
        parts += ["in", r.choice(PLACES)]
    if r.random() < 0.4:
        parts += ["on", r.choice(["Jan.", "Feb.", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."]),
                  str(r.randint(1, 28))]
    if r.random() < 0.4:
        parts += ["worth", number(r)]
    if r.random() < 0.15:
        parts += [r.choice(["e.g.", "i.e.", "etc.", "vs.", "approx."]), r.choice(NOUNS)]
    if r.random() < 0.08:
        parts.append(r.choice(EMOJI))
    return " ".join(p for p in parts if p)


def sentence(r):
    s = clause(r)
    x = r.random()
    if x < 0.1:
        s += ", and " + clause(r)[0].lower() + clause(r)[1:]
    elif x < 0.15:
        s += " -- " + r.choice(NOUNS) + " --"
    elif x < 0.2:
        s += " (" + clause(r) + ")"
    end = r.choices([".", "!", "?", "...", "…", "?!", ".)", "", "!!!"],
                    [70, 4, 6, 4, 2, 1, 2, 3, 1])[0]
    s += end
    if r.random() < 0.12:
        q = r.choice(QUOTES)
        s = f'{name(r)} said {q[0]}{s}{q[1]}'
        if r.random() < 0.3:
            s += "."
    if r.random() < 0.03:
        s = r.choice(FOREIGN) + " " + s
    return s


def paragraph(r, nsent):
    out = []
    style = r.random()
    for i in range(nsent):
        s = sentence(r)
        if style < 0.08:
            s = r.choice(["- ", "* ", "• ", f"{i + 1}. ", f"{i + 1}) "]) + s
            out.append(s + "\n")
        elif style < 0.14 and r.random() < 0.3:
            out.append(s + r.choice(["\n", "\n\n", " \n ", "\r\n"]))
        else:
            out.append(s + r.choice([" ", " ", " ", "  ", "\t"]))
    return "".join(out)


def perturb(r, target):
    """A prediction that shares much of target, as a model's summary would."""
    words = target.split(" ")
    out = []
    for w in words:
        x = r.random()
        if x < 0.12:
            continue
        if x < 0.2:
            out.append(r.choice(NOUNS + VERBS + ADJ))
        elif x < 0.23:
            out.append(w.upper())
        else:
            out.append(w)
        if r.random() < 0.03:
            out.append(sentence(r))
    return " ".join(out)


EDGE = ["", " ", "   \n\t ", "\n\n", ".", "...", "!!!", "?", "U.S.", "Dr.", "e.g.", "No. 5",
        "the the the the", "Hello world", "hello. world.", "A. B. C.", "(Sent1.) Sent2.",
        '"Quoted."  Next one.', "\u201cCurly.\u201d Then more.", "Mr. Smith. Mrs. Smith.",
        "3.5 percent. 4.5 percent.", "It ended... Or did it?", "- one\n- two\n- three",
        "1. First.\n2. Second.\n3. Third.", "\u00a0nbsp\u00a0", "\x1c\x1dsep\x1e\x1f", "İİİ. KKK.",
        "日本語のテキスト。", "ΣΟΦΊΑ.", "tab\tseparated.\tText.", "trailing space.   ",
        "Line one\nLine two\n\nLine four.", "J. K. Rowling wrote it. She did.", "--dash-- ..ell.. . . . x"]


def pairs(seed, n, min_sent=2, max_sent=6, long_every=0):
    """n (prediction, target, token_count) triples from seed."""
    r = random.Random(seed)
    out = []
    for i in range(n):
        target = paragraph(r, r.randint(min_sent, max_sent))
        x = r.random()
        if x < 0.85:
            pred = perturb(r, target)
        elif x < 0.95:
            pred = paragraph(r, r.randint(min_sent, max_sent))
        else:
            pred = target
        if long_every and i % long_every == long_every - 1:
            pred = paragraph(r, r.randint(150, 300))
        if r.random() < 0.02:
            pred = r.choice(EDGE)
        if r.random() < 0.01:
            target = r.choice(EDGE)
        if r.random() < 0.1:
            pred = r.choice(["", " ", "\n", "  "]) + pred + r.choice(["", "\n", "  \n"])
        out.append((pred, target, max(1, round(len(pred) / 4.3))))
    return out
