"""Many sentences at once: one head's queries and keys from a few hundred sentences in one 2-D map
(after AttentionViz, Yeh et al. 2023), and how well the map's distances track the dot product
(issue 52).

    python -m transformer.qk --checkpoint DIR --head encoder_self:2:0 [--probe FILE] --json

The map: every query vector q and key vector k of the head (its `q` and `k` trace points, before
the 1/sqrt(d_k) scaling) from every sentence. As AttentionViz does, the keys are translated so
that their mean is the queries' mean (k' = k - mean(k) + mean(q): for one query this adds the same
number to every key's score, so the softmax is unchanged), then queries are multiplied by c and
keys divided by c, c = sqrt(mean |k'| / mean |q|), so both have the same mean norm (q . k is
unchanged). One PCA of the queries and keys together gives the two coordinates (PCA only: t-SNE
or UMAP would add a dependency and lose the linear link to the dot product).

How well it does: the Spearman rank correlation, over every within-sentence (query, key) pair the
head can attend (decoder self-attention: the key at or before the query), between the pair's
distance on the map and its q . k. Negative is good (near on the map = a large dot product).

Sentences: a file (one source sentence a line, optionally `<TAB>target`, or JSON lines with
"text" and optionally "target"), or by default 200 held-out sentences of the model's task
(`default_sentences`). Decoder-side vectors need a target: the given one (teacher forcing) or the
model's greedy output.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.cli_util import OneLineParser, read_utf8
from transformer.core.names import Head, attention_kind
from transformer.core.text import TextError, clean_text, source_ids, target_ids
from transformer.core.trace import record
from transformer.data.tasks import load_task
from transformer.probing.pronouns import translate_ids

DEFAULT_N = 200
MAX_SENTENCES = 1000
# the held-out generator each task's map reads by default (transformer.data.tasks.load_task)
DEFAULT_TASK = {"everyday": "textbook", "classroom": "classroom_pronouns",
                "multi30k": "classroom_pronouns", "classroom_pronouns": "classroom_pronouns",
                "anaphora": "anaphora", "textbook": "textbook", "copy": "copy",
                "reverse": "reverse", "sort": "sort"}


class ProbeError(ValueError):
    """A sentence file that cannot be used; one line naming the line at fault."""


def default_sentences(task: str | None, n: int = DEFAULT_N) -> tuple[str, list[tuple[str, None]]]:
    """(where from, [(source, None), ...]): `n` held-out sentences of the task's generator (the
    caption generator for tasks without one)."""
    gen = DEFAULT_TASK.get(task or "", "classroom_pronouns")
    return f"{gen} test split", [(e.src, None) for e in load_task(gen, "test", n=n)]


def parse_sentences(text: str, name: str = "sentences") -> list[tuple[str, str | None]]:
    """(source, target or None) per usable line of a sentence file; ProbeError naming the line."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r").lstrip("\ufeff") if n == 1 else line.rstrip("\r")
        if not line.strip():
            continue
        if len(out) >= MAX_SENTENCES:
            raise ProbeError(f"{name}: more than {MAX_SENTENCES} sentences")
        try:
            if line.lstrip().startswith("{"):
                obj = json.loads(line)
                if not isinstance(obj, dict) or "text" not in obj:
                    raise ValueError('a JSON line needs a "text"')
                src, tgt = obj["text"], obj.get("target")
            else:
                fields = line.split("\t")
                if len(fields) > 2:
                    raise ValueError("expected a sentence, optionally a TAB and its target")
                src, tgt = fields[0], (fields[1] if len(fields) == 2 else None)
            out.append((clean_text(src, "source"),
                        clean_text(tgt, "target") if tgt not in (None, "") else None))
        except (ValueError, TextError) as e:
            raise ProbeError(f"{name} line {n}: {str(e).splitlines()[0]}") from None
    if not out:
        raise ProbeError(f"{name}: no sentence in the file")
    return out


def read_sentences(path: str | Path) -> list[tuple[str, str | None]]:
    return parse_sentences(read_utf8(path, ProbeError), Path(path).name)


# -- the map ------------------------------------------------------------------------------------
def align_keys(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AttentionViz's normalisation: keys translated onto the queries' mean, then q * c and
    k / c with c = sqrt(mean |k| / mean |q|). Returns (q', k')."""
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    k = k - k.mean(0) + q.mean(0)
    nq, nk = np.linalg.norm(q, axis=1).mean(), np.linalg.norm(k, axis=1).mean()
    c = np.sqrt(nk / nq) if nq > 0 and nk > 0 else 1.0
    return q * c, k / c


def pca2(x: np.ndarray) -> np.ndarray:
    """(N, d) -> (N, 2): the first two principal components (signs fixed: each axis's largest
    coordinate positive; zeros where d < 2)."""
    x = np.asarray(x, np.float64)
    xc = x - x.mean(0)
    _, _, vt = np.linalg.svd(xc, full_matrices=False)
    out = np.zeros((len(x), 2))
    comps = vt[:2]
    proj = xc @ comps.T
    for a in range(proj.shape[1]):
        col = proj[:, a]
        out[:, a] = col if col[np.argmax(np.abs(col))] >= 0 else -col
    return out


def _ranks(x: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties given their average rank."""
    x = np.asarray(x, np.float64)
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x))
    xs = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and xs[j + 1] == xs[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a, b) -> float | None:
    """Spearman's rank correlation (ties averaged); None when either side is constant or there
    are fewer than 2 values."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if len(a) < 2:
        return None
    ra, rb = _ranks(a), _ranks(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    den = np.sqrt((ra ** 2).sum() * (rb ** 2).sum())
    return float((ra * rb).sum() / den) if den > 0 else None


def layout(queries: list[np.ndarray], keys: list[np.ndarray], masks: list[np.ndarray]
           ) -> tuple[list[np.ndarray], list[np.ndarray], float | None]:
    """The map of per-sentence queries (Tq, d) and keys (Tk, d), with masks (Tq, Tk) True where
    the query may attend the key: (2-D queries per sentence, 2-D keys per sentence, the Spearman
    correlation of 2-D distance and q . k over the allowed within-sentence pairs)."""
    nq = [len(q) for q in queries]
    q_all, k_all = np.concatenate(queries), np.concatenate(keys)
    q2, k2 = align_keys(q_all, k_all)
    xy = pca2(np.concatenate([q2, k2]))
    qxy, kxy = xy[:len(q_all)], xy[len(q_all):]
    q_out, k_out, dist, dots = [], [], [], []
    qo = ko = 0
    for q, k, m in zip(queries, keys, masks):
        a, b = qxy[qo:qo + len(q)], kxy[ko:ko + len(k)]
        qo, ko = qo + len(q), ko + len(k)
        q_out.append(a)
        k_out.append(b)
        d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=-1)  # (Tq,Tk)
        dot = np.asarray(q, np.float64) @ np.asarray(k, np.float64).T
        m = np.asarray(m, bool)
        dist.append(d[m])
        dots.append(dot[m])
    assert sum(nq) == qo
    rho = spearman(np.concatenate(dist), np.concatenate(dots)) if dist else None
    return q_out, k_out, rho


def head_vectors(model, head: Head, src: list[int], tgt: list[int]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One head's queries (Tq, dk), keys (Tk, dk) and its allowed-pairs mask (Tq, Tk) for one
    teacher-forced pass over `src` and the decoder input `tgt`."""
    wanted = {head.key("q"), head.key("k"), head.key("mask")}
    dev = next(model.parameters()).device
    with torch.inference_mode(), record(names=wanted.__contains__) as tr:
        model(torch.tensor([src], device=dev), torch.tensor([tgt], device=dev))
    q = tr[head.key("q")][0, head.head].numpy()
    k = tr[head.key("k")][0, head.head].numpy()
    mask = tr[head.key("mask")][0]  # (H or 1, Tq or 1, Tk)
    mask = (mask[head.head] if mask.size(0) > 1 else mask[0]).expand(len(q), len(k))
    return q, k, mask.numpy().astype(bool)


def qk_map(model, tokenizer, head: Head, sentences: list[tuple[str, str | None]],
           source: str = "", digits: int | None = 5) -> dict:
    """The map's JSON: {"head", "method": "pca", "source", "sentences" (the source texts),
    "points": [{"role": "query"|"key", "sentence", "position", "token", "x", "y"}],
    "distance_dot_spearman": rho, "pairs": how many pairs it is measured on}."""
    cfg = model.cfg
    if head.layer >= attention_kind(head.kind, cfg).n_layers or head.head >= cfg.n_heads:
        raise ValueError(f"{head.cli}: the model has {attention_kind(head.kind, cfg).n_layers} "
                         f"layers of {head.kind} with {cfg.n_heads} heads")
    if not sentences:
        raise ValueError("no sentences to map")
    srcs = [source_ids(tokenizer, s, cfg.max_len)[0] for s, _ in sentences]
    needs_target = attention_kind(head.kind).query == "target"
    tgts: list[list[int]] = [[cfg.bos_id]] * len(sentences)
    if needs_target:
        missing = [i for i, (_, t) in enumerate(sentences) if t is None]
        greedy = translate_ids(model, tokenizer, [sentences[i][0] for i in missing]) if missing else []
        out = dict(zip(missing, greedy))
        tgts = [[cfg.bos_id] + (out[i] if t is None else target_ids(tokenizer, t, cfg.max_len)[0])
                for i, (_, t) in enumerate(sentences)]
    qs, ks, ms, q_tok, k_tok = [], [], [], [], []
    for src, tgt in zip(srcs, tgts):
        q, k, m = head_vectors(model, head, src, tgt)
        qs.append(q)
        ks.append(k)
        ms.append(m)
        qt, kt = attention_kind(head.kind).pick(tokenizer.display(src), tokenizer.display(tgt))
        q_tok.append(qt)
        k_tok.append(kt)
    q2, k2, rho = layout(qs, ks, ms)
    r = (lambda x: round(float(x), digits)) if digits is not None else float
    points = []
    for s, (a, b) in enumerate(zip(q2, k2)):
        points += [{"role": "query", "sentence": s, "position": p, "token": q_tok[s][p],
                    "x": r(x), "y": r(y)} for p, (x, y) in enumerate(a)]
        points += [{"role": "key", "sentence": s, "position": p, "token": k_tok[s][p],
                    "x": r(x), "y": r(y)} for p, (x, y) in enumerate(b)]
    return {"head": head.cli, "method": "pca", "source": source,
            "sentences": [s for s, _ in sentences], "points": points,
            "distance_dot_spearman": None if rho is None else r(rho),
            "pairs": int(sum(m.sum() for m in ms))}


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.qk",
                       description="One head's queries and keys from many sentences in one 2-D "
                                   "map (PCA, AttentionViz's key translation and scaling).")
    ap.add_argument("--checkpoint", required=True, help="checkpoint directory")
    ap.add_argument("--head", required=True, help="KIND:LAYER:HEAD, e.g. encoder_self:2:0")
    ap.add_argument("--probe", default=None,
                    help="sentence file: one source a line (optionally TAB target), or JSON lines "
                         "with \"text\" (default: 200 held-out sentences of the model's task)")
    ap.add_argument("--n", type=int, default=DEFAULT_N, help="default sentences (no --probe)")
    ap.add_argument("--json", action="store_true", help="print JSON (else a summary)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, args.threads))
    try:
        head = Head.parse(args.head, form="cli")
        ck = load_checkpoint(args.checkpoint)
        if args.probe:
            source, sents = Path(args.probe).name, read_sentences(args.probe)
        else:
            source, sents = default_sentences((ck.train_config or {}).get("task"), args.n)
        res = qk_map(ck.model, ck.tokenizer, head, sents, source)
    except (CheckpointError, ProbeError, ValueError) as e:
        ap.error(str(e).splitlines()[0])
    if args.json:
        json.dump(res, sys.stdout, ensure_ascii=False)
        print()
    else:
        rho = res["distance_dot_spearman"]
        print(f"{res['head']}: {len(res['sentences'])} sentences ({res['source']}), "
              f"{len(res['points'])} points, {res['pairs']} pairs; Spearman(distance, q.k) = "
              + ("undefined" if rho is None else f"{rho:.3f}"))
    return 0
