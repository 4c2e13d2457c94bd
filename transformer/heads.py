"""The head finder: score every attention kind, layer and head for a relation.

Anaphora (the paper's Figure 4, whose heads are encoder self-attention, layer 5 of 6; a trained
model may hold such a head in its decoder instead, as the shipped anaphora model does): for each
probe sentence, the head's attention from the pronoun is
taken at word level (pieces of a key word summed, pieces of the pronoun averaged), the pronoun
itself and special tokens are left out, and the head scores a hit when its strongest remaining
word belongs to the antecedent: the antecedent noun phrase, i.e. the noun and the article right
before it ("the dog", "den Becher"). The article counts because in German it is where the gender
lives, and a pronoun-resolving head in a decoder reads it there. Hits are also split by where they
land (the article or the noun), so a page can say which of the two a head reads instead of
claiming "the noun". Beside it stand the nearest-noun and first-noun baselines.

Other relations score the same (layers x heads) grid from a batch of sentences: previous token,
same token, first token / end-of-sentence sink, diagonal and anti-diagonal alignment.

    python -m transformer.heads --checkpoint DIR --probe anaphora --json
    python -m transformer.heads --checkpoint DIR --probe my_probe.jsonl
"""
from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import torch

from .cli_util import OneLineParser
from .masks import decoder_mask, padding_mask
from .names import CLI_ERROR, KINDS, Head, Trace, ablate_map
from .text import TextError, clean_text, source_ids, target_ids
from .trace import record

PRONOUNS_DE = ("er", "sie", "es")
RELATIONS = ("previous_token", "self", "same_token", "first_token", "eos_sink", "diagonal",
             "anti_diagonal")
MAX_PROBE_LINES = 5000


@dataclass
class ProbeItem:
    """One probe sentence: word positions over whitespace-split words."""

    text: str
    pronoun: int
    antecedent: int
    target: str | None = None  # reference translation (teacher forcing), if known
    tgt_pronoun: int | None = None  # word positions on the target side, if known
    tgt_antecedent: int | None = None
    candidates: list[int] = field(default_factory=list)  # candidate antecedent nouns
    antecedent_span: tuple[int, int] | None = None  # first and last word of the noun phrase
    tgt_antecedent_span: tuple[int, int] | None = None
    # True when a translation must put the pronoun where the reference does (generated data);
    # False for hand-written probes, whose free translations may order words differently
    exact_position: bool = True

    def span(self, target_side: bool) -> tuple[int, int]:
        if target_side:
            return self.tgt_antecedent_span or (self.tgt_antecedent, self.tgt_antecedent)
        return self.antecedent_span or (self.antecedent, self.antecedent)


ARTICLES = {"the", "a", "an", "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen",
            "einem", "einer"}


def noun_phrase(words: list[str], noun: int) -> tuple[int, int]:
    """(article, noun) word span when an article stands right before the noun, else (noun, noun)."""
    if noun > 0 and words[noun - 1].lower() in ARTICLES:
        return noun - 1, noun
    return noun, noun


def anaphora_probe(split: str = "test", n: int = 200, seed: int = 0) -> list[ProbeItem]:
    from .data import load_task

    items = []
    for ex in load_task("anaphora", split, n=n, seed=seed):
        m = ex.meta
        t_ante = m.get("tgt_antecedent_pos")
        items.append(ProbeItem(
            ex.src, m["pronoun_pos"], m["antecedent_pos"], ex.tgt, m.get("tgt_pronoun_pos"),
            t_ante, sorted({m["antecedent_pos"], m["other_pos"]}),
            noun_phrase(ex.src.split(), m["antecedent_pos"]),
            noun_phrase(ex.tgt.split(), t_ante) if t_ante is not None else None))
    return items


CLASSROOM_PROBE = Path(__file__).parent / "probes" / "classroom_pronouns_en.jsonl"
# tasks whose models translate pronouns, and so have a pronoun accuracy to measure
PRONOUN_TASKS = ("anaphora", "classroom", "classroom_pronouns")


def task_probe(task: str | None, n: int | None = None) -> list[ProbeItem] | None:
    """The probe a model of `task` is measured on (its card's numbers and the pages' agree): the
    synthetic task's held-out split (first n, default 200), or, for the classroom models, the
    hand-written caption probe (all 186 sentences, or the first n). None for other tasks."""
    if task == "anaphora":
        return anaphora_probe("test", n=n or 200)
    if task in ("classroom", "classroom_pronouns"):
        items = read_probe_file(CLASSROOM_PROBE)
        return items[:n] if n else items
    return None


def read_probe_file(path: str | Path) -> list[ProbeItem]:
    """JSON lines of {"text", "pronoun", "antecedent"} (word positions), optionally "target" (a
    reference translation), "tgt_pronoun" and "tgt_antecedent" (word positions in it: the decoder
    heads are scored only then) and "candidates" (the candidate nouns, for the baselines).
    Errors name the line."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ValueError(f"{path.name}: cannot read ({e.strerror})") from None
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ValueError(f"{path.name}:{line}: not UTF-8") from None
    items = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(items) >= MAX_PROBE_LINES:
            raise ValueError(f"{path.name}: more than {MAX_PROBE_LINES} probe lines")
        try:
            obj = json.loads(line)
            text = clean_text(obj["text"])
            words = text.split()
            pron, ante = obj["pronoun"], obj["antecedent"]
            for name, v in (("pronoun", pron), ("antecedent", ante)):
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(words):
                    raise ValueError(f"{name} must be a word position in [0, {len(words)})")
            if pron == ante:
                raise ValueError("pronoun and antecedent are the same word")
            cands = obj.get("candidates") or []
            if not all(isinstance(c, int) and 0 <= c < len(words) for c in cands):
                raise ValueError("candidates must be word positions")
        except RecursionError:
            raise ValueError(f"{path.name}:{no}: nested too deeply") from None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, TextError) as e:
            msg = f"missing field {e}" if isinstance(e, KeyError) else str(e).splitlines()[0]
            raise ValueError(f"{path.name}:{no}: {msg}") from None
        tgt = obj.get("target")
        tgt = tgt if isinstance(tgt, str) and tgt.strip() else None
        t_pron, t_ante = obj.get("tgt_pronoun"), obj.get("tgt_antecedent")
        if (t_pron is None) != (t_ante is None):
            raise ValueError(f"{path.name}:{no}: give both tgt_pronoun and tgt_antecedent, or neither")
        if t_pron is not None:
            t_words = (tgt or "").split()
            for name, v in (("tgt_pronoun", t_pron), ("tgt_antecedent", t_ante)):
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(t_words):
                    raise ValueError(f"{path.name}:{no}: {name} must be a word position of "
                                     f"\"target\" in [0, {len(t_words)})")
        items.append(ProbeItem(text, pron, ante, tgt, t_pron, t_ante,
                               candidates=list(cands), antecedent_span=noun_phrase(words, ante),
                               tgt_antecedent_span=(noun_phrase(tgt.split(), t_ante)
                                                    if t_ante is not None else None),
                               exact_position=False))
    if not items:
        raise ValueError(f"{path.name}: no probe lines")
    return items


def _word_of_position(tokenizer, ids: list[int]) -> list[int]:
    """Token position -> word index over whitespace words (-1 for special tokens)."""
    groups = tokenizer.words(ids)
    owner = [-1] * len(ids)
    w = 0
    for g in groups:
        if len(g) == 1 and tokenizer.is_special(ids[g[0]]):  # a converted model's <pad> start too
            continue
        for p in g:
            owner[p] = w
        w += 1
    return owner


def word_attention(weights: torch.Tensor, q_owner: list[int], k_owner: list[int],
                   n_q_words: int, n_k_words: int) -> torch.Tensor:
    """(..., T, S) token weights -> (..., Wq, Wk) word weights: summed over a key word's pieces,
    averaged over a query word's pieces; specials (owner -1) dropped."""
    t, s = weights.shape[-2:]
    qm = torch.zeros(n_q_words, t)
    for i, w in enumerate(q_owner[:t]):
        if w >= 0:
            qm[w, i] = 1.0
    qm = qm / qm.sum(-1, keepdim=True).clamp(min=1)
    km = torch.zeros(s, n_k_words)
    for j, w in enumerate(k_owner[:s]):
        if w >= 0:
            km[j, w] = 1.0
    return qm @ weights @ km  # (Wq,T) @ (...,T,S) @ (S,Wk) -> (...,Wq,Wk)


@dataclass
class HeadScores:
    kind: str
    accuracy: torch.Tensor  # (layers, heads): share of items whose top word is in the antecedent
    mean_weight: torch.Tensor  # (layers, heads): mean word-level weight on the antecedent phrase
    n: int
    # (layers, heads): share of items whose top word is the article / the noun of the antecedent
    # phrase (on_article + on_noun == accuracy; on_article is 0 where no article precedes the noun)
    on_article: torch.Tensor | None = None
    on_noun: torch.Tensor | None = None


def _batch(model, tokenizer, items: list[ProbeItem]):
    cfg = model.cfg
    srcs, tgts = [], []
    for it in items:
        srcs.append(source_ids(tokenizer, it.text, cfg.max_len)[0])
        tgts.append([cfg.bos_id] + (target_ids(tokenizer, it.target, cfg.max_len)[0]
                                    if it.target else []))
    dev = next(model.parameters()).device
    s, t = max(map(len, srcs)), max(map(len, tgts))
    src = torch.full((len(items), s), cfg.pad_id, dtype=torch.long, device=dev)
    tgt = torch.full((len(items), t), cfg.pad_id, dtype=torch.long, device=dev)
    for i, (a, b) in enumerate(zip(srcs, tgts)):
        src[i, :len(a)] = torch.tensor(a)
        tgt[i, :len(b)] = torch.tensor(b)
    return srcs, tgts, src, tgt


def _layers(trace: Trace, kind: str) -> list[torch.Tensor]:
    return trace.layers(kind, "weights")  # L x (B,H,T,S)


def score_anaphora(model, tokenizer, items: list[ProbeItem], batch_size: int = 64,
                   ablate=None) -> dict[str, HeadScores]:
    """Score every head of every kind that the probe's positions allow: encoder self-attention
    always; cross and decoder self-attention when items carry target-side positions."""
    hits: dict[str, torch.Tensor] = {}
    article: dict[str, torch.Tensor] = {}
    noun: dict[str, torch.Tensor] = {}
    weight: dict[str, torch.Tensor] = {}
    counts: dict[str, int] = {}
    for b in range(0, len(items), batch_size):
        chunk = items[b:b + batch_size]
        srcs, tgts, src, tgt = _batch(model, tokenizer, chunk)
        with torch.inference_mode(), record(ablate) as tr:
            model(src, tgt)
        for kind in KINDS:
            layers = _layers(tr, kind)
            if not layers:
                continue
            w_all = torch.stack(layers, 1)  # L x (B,H,T,S) -> (B,L,H,T,S)
            for i, it in enumerate(chunk):
                src_owner = _word_of_position(tokenizer, srcs[i])
                tgt_owner = [-1] + _word_of_position(tokenizer, tgts[i][1:])  # BOS is special
                if kind == "encoder_self":
                    q_owner, k_owner, qpos, span = src_owner, src_owner, it.pronoun, it.span(False)
                elif it.tgt_pronoun is None:
                    continue
                elif kind == "cross":
                    q_owner, k_owner, qpos, span = tgt_owner, src_owner, it.tgt_pronoun, it.span(False)
                else:
                    if it.tgt_antecedent is None:
                        continue
                    q_owner, k_owner, qpos, span = tgt_owner, tgt_owner, it.tgt_pronoun, it.span(True)
                # The decoder input at position p is the token BEFORE output word p: the query
                # that produces the German pronoun sits one position earlier than the word.
                if kind != "encoder_self":
                    q_owner = q_owner[1:] + [-1]
                nq, nk = max(q_owner) + 1, max(k_owner) + 1
                if qpos >= nq or span[1] >= nk:
                    continue
                t, s = len(q_owner), len(k_owner)
                ww = word_attention(w_all[i, :, :, :t, :s], q_owner, k_owner, nq, nk)  # (L,H,Wq,Wk)
                row = ww[:, :, qpos, :].clone()  # (L,H,Wk)
                if kind != "cross" and qpos < nk:
                    row[..., qpos] = -1.0  # the pronoun itself is left out
                top = row.argmax(-1)  # (L,H)
                hit = (top >= span[0]) & (top <= span[1])
                hits[kind] = hits.get(kind, 0) + hit.float()
                on_noun = top == span[1]
                article[kind] = article.get(kind, 0) + (hit & ~on_noun).float()
                noun[kind] = noun.get(kind, 0) + on_noun.float()
                weight[kind] = weight.get(kind, 0) + ww[:, :, qpos, span[0]:span[1] + 1].sum(-1)
                counts[kind] = counts.get(kind, 0) + 1
    return {k: HeadScores(k, hits[k] / counts[k], weight[k] / counts[k], counts[k],
                          article[k] / counts[k], noun[k] / counts[k]) for k in counts}


def baselines(items: list[ProbeItem]) -> dict[str, float]:
    """What rules without a model score on the probe: the nearest candidate noun before the
    pronoun, the first candidate, a random candidate (expected value), and a random word (the
    expected score of a head whose strongest word is uniformly random: a hit is any word of the
    antecedent's noun phrase, out of every word but the pronoun). The first three need the
    probe's candidate nouns; the random word needs nothing, so every probe gets a baseline."""
    near = first = rand_c = 0.0
    n_c = 0
    rand_w = 0.0
    for it in items:
        n_words = len(it.text.split())
        lo, hi = it.span(False)
        rand_w += (hi - lo + 1) / max(1, n_words - 1)
        cands = [c for c in it.candidates if c != it.pronoun]
        if not cands:
            continue
        before = [c for c in cands if c < it.pronoun] or cands
        near += max(before) == it.antecedent
        first += min(cands) == it.antecedent
        rand_c += (it.antecedent in cands) / len(cands)
        n_c += 1
    out = {"random_word": rand_w / len(items)} if items else {}
    if n_c:
        out.update(nearest_noun=near / n_c, first_noun=first / n_c, random_noun=rand_c / n_c)
    return out


def best_head(scores: dict[str, HeadScores]) -> tuple[str, int, int, float, float]:
    best = None
    for kind, sc in scores.items():
        acc = sc.accuracy
        flat = int(torch.argmax(acc + 1e-6 * sc.mean_weight))
        layer, head = divmod(flat, acc.size(1))
        cand = (kind, layer, head, float(acc[layer, head]), float(sc.mean_weight[layer, head]))
        if best is None or (cand[3], cand[4]) > (best[3], best[4]):
            best = cand
    return best


# -- the causal test: switch heads off, translate, check the pronoun ----------------------------------------------------------------------------
def pronoun_class(word: str) -> str | None:
    """The gender/number a German pronoun word shows: "m" (er, ihn), "n" (es), "f/pl" (sie,
    ihnen, ihr-), "m/n" (sein-, ihm: masculine and neuter share them). None for any other word."""
    w = word.strip(".,;:!?\"'").lower()
    if w in ("er", "ihn"):
        return "m"
    if w == "ihm":  # dative of er and of es
        return "m/n"
    if w == "es":
        return "n"
    if w in ("sie", "ihnen") or (w.startswith("ihr") and w[3:] in POSSESSIVE_ENDINGS):
        return "f/pl"
    if w.startswith("sein") and w[4:] in POSSESSIVE_ENDINGS:
        return "m/n"
    return None


POSSESSIVE_ENDINGS = ("", "e", "en", "em", "er", "es")


def pronoun_hit(hyp: str, target: str | None, tgt_pronoun: int | None) -> bool | None:
    """Does the hypothesis use the reference's German pronoun? With `tgt_pronoun` (a word
    position the probe knows, e.g. the anaphora task's meta), the same word must stand at the
    same position. Without one (free translations of natural sentences, whose word order may
    differ), the reference's last pronoun (er/sie/es, sein-/ihr- possessives) gives the wanted
    gender; the hypothesis must show that gender in some pronoun, and any other pronoun it has
    must fit one of the reference's pronouns (a sentence with "ihr Bruder ... es" has two).
    None when the reference has no pronoun (not scored)."""
    if not target:
        return None
    strip = lambda w: w.strip(".,;:!?\"'").lower()
    ref = target.split()
    words = hyp.split()
    if tgt_pronoun is not None and 0 <= tgt_pronoun < len(ref):
        want = strip(ref[tgt_pronoun])
        return tgt_pronoun < len(words) and strip(words[tgt_pronoun]) == want
    marks = [pronoun_class(w) for w in ref]
    wanted = next((m for m in reversed(marks) if m), None)
    if wanted is None:
        return None
    got = {pronoun_class(w) for w in words} - {None}
    compatible = {"m": {"m", "m/n"}, "n": {"n", "m/n"}, "f/pl": {"f/pl"}, "m/n": {"m", "n", "m/n"}}
    # the wanted gender must be shown, and every other pronoun must be one the reference has too
    # ("ihr Bruder fängt es": ihr is the girl's, es the frisbee's; the reference scores itself)
    in_ref = {m for m in marks if m}
    return (any(g in compatible[wanted] for g in got)
            and all(any(g in compatible[r] for r in in_ref) for g in got))


def translate_ids(model, tokenizer, texts: Sequence[str], ablate=None, batch_size: int = 64,
                  max_len: int | None = None) -> list[list[int]]:
    """Greedy outputs (ids) of many sentences, with `ablate` heads switched off (each sentence
    decoded as `transformer.decode.greedy` would, up to `max_len` tokens)."""
    from .decode import greedy_batch
    from .trace import ablation

    ids = [source_ids(tokenizer, t, model.cfg.max_len)[0] for t in texts]
    out: list[list[int]] = []
    ctx = ablation(ablate) if ablate else contextlib.nullcontext()
    with ctx, torch.inference_mode():
        for b in range(0, len(ids), batch_size):
            out += greedy_batch(model, ids[b:b + batch_size], max_len)
    return out


@dataclass
class PronounResult:
    accuracy: float | None  # share of scored items with the right pronoun (None: none scored)
    n_scored: int
    hypotheses: list[str]
    hits: list[bool | None]  # per item; None = not scored (no reference pronoun)


def pronoun_accuracy(model, tokenizer, items, ablate=None,
                     max_len: int | None = None) -> PronounResult:
    """Translate every probe item (transformer.heads.ProbeItem: text, target, tgt_pronoun) with
    greedy decoding, `ablate` heads off, and check its German pronoun."""
    hyps = [tokenizer.decode(h) for h in translate_ids(model, tokenizer,
                                                      [it.text for it in items], ablate,
                                                      max_len=max_len)]
    hits = [pronoun_hit(h, it.target, it.tgt_pronoun if it.exact_position else None)
            for h, it in zip(hyps, items)]
    scored = [h for h in hits if h is not None]
    acc = sum(scored) / len(scored) if scored else None
    return PronounResult(acc, len(scored), hyps, hits)


# -- generic relations -------------------------------------------------------------------------
def relation_scores(model, tokenizer, pairs: list[tuple[str, str | None]], relation: str,
                    kind: str, batch_size: int = 64) -> torch.Tensor:
    """(layers, heads) share of queries whose strongest key is the one the relation names."""
    if relation not in RELATIONS:
        raise ValueError(f"relation: must be one of {', '.join(RELATIONS)}")
    if kind not in KINDS:
        raise ValueError(f"kind: must be one of {', '.join(KINDS)}")
    items = [ProbeItem(s, 0, 1, t) for s, t in pairs]
    total, n = None, 0
    for b in range(0, len(items), batch_size):
        chunk = items[b:b + batch_size]
        srcs, tgts, src, tgt = _batch(model, tokenizer, chunk)
        with torch.inference_mode(), record() as tr:
            model(src, tgt)
        w = torch.stack(_layers(tr, kind), 1)  # (B,L,H,T,S)
        for i in range(len(chunk)):
            q_ids = srcs[i] if kind == "encoder_self" else tgts[i]
            k_ids = tgts[i] if kind == "decoder_self" else srcs[i]
            t, s = len(q_ids), len(k_ids)
            target = _relation_targets(relation, q_ids, k_ids, model.cfg)
            rows = [q for q in range(t) if target[q] is not None]
            if not rows:
                continue
            top = w[i, :, :, :t, :s].argmax(-1)  # (L,H,T)
            want = torch.tensor([target[q] for q in rows])
            hit = (top[:, :, rows] == want).float().sum(-1)  # (L,H)
            total = hit if total is None else total + hit
            n += len(rows)
    if total is None:
        raise ValueError("no query in these sentences fits this relation")
    return total / n


def _relation_targets(relation: str, q_ids: list[int], k_ids: list[int], cfg) -> list[int | None]:
    t, s = len(q_ids), len(k_ids)
    if relation == "previous_token":
        return [q - 1 if 1 <= q <= s else None for q in range(t)]
    if relation == "self":
        return [q if q < s else None for q in range(t)]
    if relation == "same_token":
        out = []
        for q in range(t):
            same = [k for k in range(s) if k_ids[k] == q_ids[q] and k != q]
            out.append(same[0] if same else None)
        return out
    if relation == "first_token":
        return [0] * t
    if relation == "eos_sink":
        eos = [k for k in range(s) if k_ids[k] == cfg.eos_id]
        return [eos[-1] if eos else None] * t
    if relation == "diagonal":  # copy: the query producing output word q reads source word q
        return [q if q < s - 1 else None for q in range(t)]
    if relation == "anti_diagonal":  # reverse: it reads source word S-2-q (EOS is last)
        return [s - 2 - q if 0 <= s - 2 - q else None for q in range(t)]
    raise ValueError(relation)


def parse_ablate(specs: list[str]) -> dict[str, list[int]]:
    """["decoder_self:1:1", "cross:0:2"] -> {"decoder.layers.1.self_attn": [1], ...}."""
    heads = []
    for spec in specs:
        try:
            heads.append(Head.parse(spec, form="cli"))
        except ValueError:
            raise ValueError("--ablate: " + CLI_ERROR.format(spec=spec)) from None
    return ablate_map(heads, merge=False)


# -- CLI ---------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(
        prog="python -m transformer.heads",
        description="Score every attention head for pronoun -> antecedent attention.")
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--probe", default="anaphora",
                    help="'anaphora' (the held-out split of the synthetic task) or a JSONL file")
    ap.add_argument("--n", type=int, default=200, help="probe sentences for --probe anaphora")
    ap.add_argument("--ablate", action="append", default=[], metavar="KIND:LAYER:HEAD",
                    help="also translate the probe with these heads switched off and report "
                         "pronoun accuracy with and without (e.g. decoder_self:1:1); repeatable")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    try:
        ablate = parse_ablate(args.ablate)
    except ValueError as e:
        ap.error(str(e))
    from .checkpoint import CheckpointError, load_checkpoint

    torch.set_num_threads(max(1, args.threads))
    if args.n < 1:
        ap.error("--n must be at least 1")
    try:
        ck = load_checkpoint(args.checkpoint)
        items = anaphora_probe(n=args.n) if args.probe == "anaphora" else read_probe_file(args.probe)
    except (CheckpointError, ValueError) as e:
        ap.error(str(e))
    cfg = ck.model.cfg
    for path, heads in ablate.items():
        n_layers = cfg.n_encoder_layers if path.startswith("encoder") else cfg.n_decoder_layers
        if int(path.split(".")[2]) >= n_layers or max(heads) >= cfg.n_heads:
            ap.error(f"--ablate: {path} head {max(heads)} is not in this model "
                     f"({n_layers} layers, {cfg.n_heads} heads)")
    scores = score_anaphora(ck.model, ck.tokenizer, items)
    kind, layer, head, acc, mw = best_head(scores)
    out = {"probe": args.probe, "n": len(items), "baselines": baselines(items),
           "best": {"kind": kind, "layer": layer, "head": head, "accuracy": round(acc, 4),
                    "mean_weight": round(mw, 4),
                    "on_article": round(float(scores[kind].on_article[layer, head]), 4),
                    "on_noun": round(float(scores[kind].on_noun[layer, head]), 4)},
           "heads": {k: {"accuracy": torch.round(v.accuracy, decimals=4).tolist(),
                         "mean_weight": torch.round(v.mean_weight, decimals=4).tolist(),
                         "n": v.n} for k, v in scores.items()}}
    if ablate or args.probe == "anaphora" or any(it.target for it in items):
        base = pronoun_accuracy(ck.model, ck.tokenizer, items)
        out["pronoun_accuracy"] = base.accuracy
        if ablate:
            off = pronoun_accuracy(ck.model, ck.tokenizer, items, ablate=ablate)
            out["ablation"] = {"heads": args.ablate, "pronoun_accuracy": off.accuracy}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"probe {args.probe}: {len(items)} sentences; baselines {out['baselines']}")
        print(f"best head: {kind} layer {layer} head {head}: accuracy {acc:.3f}, "
              f"mean weight {mw:.3f}")
        if out.get("pronoun_accuracy") is not None:
            print(f"pronoun accuracy (greedy): {out['pronoun_accuracy']:.3f}")
        if "ablation" in out:
            print(f"with {', '.join(args.ablate)} switched off: "
                  f"{out['ablation']['pronoun_accuracy']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
