"""Can a learned filter over auto's selected blocks lift wcxb-dev F1 on sites it
has not seen? (docs/BENCHMARKS.md, "Why 0.88 is not reached".)

    cargo run --release --example blocks ../shared/datasets/wcxb-dev > /tmp/blocks.jsonl
    python3 scripts/block_study.py /tmp/blocks.jsonl ../shared/datasets/wcxb-dev

Needs numpy and scikit-learn. Labels each block noise when over half its words
are not in the page's truth; logistic regression over hashed DOM features, five
folds grouped by site; prints page-F1 after dropping blocks above each
threshold, held out and in-sample.
"""
import collections
import json
import math
import random
import re
import sys
from urllib.parse import urlparse

import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score


def toks(s):
    return re.findall(r"\w+", s.lower())


def f1(pred, truth):
    if not truth:
        return 1.0 if not pred else 0.0
    ov = sum((pred & truth).values())
    if not ov:
        return 0.0
    p, r = ov / sum(pred.values()), ov / sum(truth.values())
    return 2 * p * r / (p + r)


def features(page, b):
    f = {}
    pt = page["pt"]
    words = toks(b["t"])
    n = len(words)
    f["pt=" + pt] = 1
    f["logw"] = math.log1p(n)
    f["lc"] = b["lc"] / max(1, b["c"])
    f["pos"] = b["pos"]
    f["pos2"] = b["pos"] ** 2
    f["same"] = math.log1p(b["same"])
    f["punct_end"] = 1 if b["t"].rstrip()[-1:] in ".!?:" else 0
    f["short"] = 1 if n <= 3 else 0
    f["digits"] = sum(w.isdigit() for w in words) / max(1, n)
    for k in ("lc", "logw", "pos"):
        f[f"pt_{k}_{pt}"] = f[k]
    for level, link in enumerate(b["chain"]):
        tag, names = link.split("|", 1)
        if level < 2:
            f[f"L{level}tag={tag}"] = 1
        f["anytag=" + tag] = 1
        for t in set(re.split(r"[^a-z0-9]+", names.lower())):
            if t and not t.isdigit() and len(t) < 25:
                f["name=" + t] = 1
                if level == 0:
                    f["n0=" + t] = 1
    return f


def main(blocks_path, dataset):
    pages = []
    for line in open(blocks_path):
        r = json.loads(line)
        g = json.load(open(f"{dataset}/ground-truth/{r['id']}.json"))
        r["truth"] = collections.Counter(toks(g["ground_truth"].get("main_content") or ""))
        r["host"] = urlparse(r["url"] or "").netloc.removeprefix("www.")
        pages.append(r)
    hosts = sorted({p["host"] for p in pages})
    random.seed(0)
    random.shuffle(hosts)
    fold = {h: i % 5 for i, h in enumerate(hosts)}
    X, Y, G, idx = [], [], [], []
    for pi, p in enumerate(pages):
        for bi, b in enumerate(p["blocks"]):
            words = toks(b["t"])
            if not words:
                continue
            X.append(features(p, b))
            G.append(fold[p["host"]])
            idx.append((pi, bi))
            Y.append(1 if sum(w not in p["truth"] for w in words) / len(words) > 0.5 else 0)
    X = FeatureHasher(2**18).transform(X)
    Y, G = np.array(Y), np.array(G)
    held = np.zeros(len(Y))
    for k in range(5):
        m = LogisticRegression(C=1.0, max_iter=2000).fit(X[G != k], Y[G != k])
        held[G == k] = m.predict_proba(X[G == k])[:, 1]
    fitted = LogisticRegression(C=1.0, max_iter=2000).fit(X, Y).predict_proba(X)[:, 1]
    print(f"blocks {len(Y)}, noise share {Y.mean():.3f}")
    print(f"AUC held out {roc_auc_score(Y, held):.3f}, in-sample {roc_auc_score(Y, fitted):.3f}")
    for name, prob in (("held out", held), ("in-sample", fitted)):
        p_of = dict(zip(idx, prob))
        for thr in (1.01, 0.9, 0.8, 0.7, 0.6, 0.5):
            scores = []
            for pi, p in enumerate(pages):
                kept = collections.Counter()
                for bi, b in enumerate(p["blocks"]):
                    if p_of.get((pi, bi), 0.0) < thr:
                        kept.update(toks(b["t"]))
                scores.append(f1(kept, p["truth"]))
            label = "none dropped" if thr > 1 else f"drop p > {thr}"
            print(f"{name:9s} {label:14s} page-F1 {np.mean(scores):.4f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
