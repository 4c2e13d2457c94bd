"""Head atlas: every head of every kind labelled by what it does, each score beside its chance level.

The head finder asks one question (does the pronoun's row land on the antecedent?). The atlas
asks every cheap question of every head at once, over a set of sentences (a task's held-out
data, a probe, or the sentences shipped with the project), and names the behaviour that
describes the head best, or "none" (no clear role):

    previous    weight on the token just before the query (self-attention)
    next        weight on the token just after it (encoder self-attention; the decoder is masked)
    diagonal    weight on the query's own position (self-attention), or, for cross-attention,
                on the source token at the same position (what copying needs)
    reversed    cross-attention on the source token mirrored from the end (what reversing needs)
    sink        self-attention: weight on the first token or on </s>, a "no-op" resting place;
                cross-attention: weight on </s> or the source's punctuation (never the first
                source word, which is a real word)
    broad       the row's entropy over the keys it may see, divided by the largest possible (log
                of their number): 1 is uniform attention
    punctuation weight on punctuation keys (".", ",", "?", ...)
    monotonic   cross-attention whose strongest source word, when it moves from one output token
                to the next, moves forward (share of the moves; a strongest word that stays put is
                no step either way, so near-uniform rows that tie at the first key score 0): an
                alignment that reads the source in order
    pronoun     share of probe sentences in which the head's strongest word from the pronoun is
                the antecedent (transformer.probing.heads.score_anaphora); only with a probe

Rows. A query row scores only when it has a choice: a row that may see one key (the decoder's
first row, <s>, which sees nothing but itself) says nothing about the head and is left out of
every score (and of the row count), as are fully masked rows and, in the encoder, the rows of
special tokens (</s>). Every score is an average over the scored rows of all sentences
(monotonic: over the moves of the strongest word; pronoun: over probe items).

Chance (issue 49, 1). Every tested score comes with its chance level, computed by the same code
on the same sentences under a null that destroys the behaviour and keeps the rest:
  * previous, next, diagonal, reversed, sink, punctuation: each row's weights permuted at random
    over the keys that row may see (its own prefix in the decoder). The chance level is the mean
    score over the permutations, about (keys of the behaviour) / (keys the row may see).
  * monotonic: each sentence's sequence of strongest source words shuffled over its rows (the
    issue's one-step model: near-uniform rows tie at the first key and never move backwards;
    scored over moves only, and against this null, its cross heads find nothing).
  * pronoun: the head's own strongest words kept, the antecedents shuffled: within each minimal
    pair (the probe's `pair`; the two sentences differ in one word, so positions agree on both
    sides), items without a pair across each other. A head that lands on the same word in both
    sentences of every pair scores exactly its null (p = 1). The chance level is the highest of
    the null's mean, the first-noun rule and the nearest-noun rule (transformer.probing.
    probe_items.baselines), so a pronoun label must beat both rules by the margin; the p-value
    is the shuffle's.
  * broad is a description, not a finding: permuting a row does not change its entropy, so its
    null is the score itself. It is never tested (its chance equals its score, its p-value is
    None) and is given only to a head with no finding.
The null is a fixed-seed Monte Carlo permutation test (SEED; one draw serves every head of a
kind, so heads are compared on the same shuffles), p = (1 + #{null >= observed}) / (1 + n_perm),
one-sided. The p-values of every (head, behaviour) tested in the model (broad excluded) are
corrected together with Holm's step-down method (family-wise error ALPHA = 0.05 over all heads
and behaviours). The smallest p a permutation test can give is 1 / (n_perm + 1), and Holm's
strictest threshold is ALPHA / m for m tests (everyday-en-de: m = 408), so 200 permutations could
never pass: n_perm = max(N_PERM_MIN, 2 m / ALPHA) (everyday-en-de: 16,320; the smallest p is then
half the strictest threshold). The draws are vectorised (one random top-k per row and draw, a
gather and a contraction), a few seconds on one CPU thread.

Labels. A behaviour is a finding when its score >= LABEL_BAR (0.5), it is at least MARGIN (0.1)
above its chance level, and its Holm-corrected p < ALPHA. `label` takes the most specific
finding: pronoun, then a position (diagonal, reversed, previous, next), then sink / punctuation /
monotonic; with no finding a head whose broad score reaches the bar is "broad" (a description:
it spreads its weight), and any other head is "none": no behaviour of the list is clearly above
what chance gives on these sentences (it may do something unnamed, several things at once, or
nothing measurable).

Taught heads (issue 49, 5): a head whose behaviour attention supervision or interchange training
asked for carries `taught` (transformer.probing.taught), a list such as ["supervised",
"interchange"] (empty when not taught): its label is what it was trained to do, not a discovery.

Sentences: `inputs_for` (and `sentences_for`, its sentences) is the one default the CLI and the
Heads page share: a synthetic task's held-out data (the anaphora task's test items as the probe
too), else the first N_DEFAULT // 2 of the hand-written minimal pairs (minimal_pairs_en.jsonl,
also the pronoun probe: N_DEFAULT items) and the project's shipped caption and everyday sentences.

    python -m transformer.atlas --checkpoint checkpoints/copy-tiny [--probe FILE] [--json]
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import torch

from transformer.core.cli_util import OneLineParser
from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.names import KINDS
from transformer.data import tasks as data
from transformer.probing.heads import score_anaphora
from transformer.probing.inspect import inspect_text
from transformer.probing.probe_items import (MINIMAL_PAIRS_PROBE, anaphora_probe, baselines,
                                             read_probe_file)
from transformer.probing.atlas_null import (groups, holm, keyed_null, monotonic_null, moves,
                                            p_value, pronoun_null)
from transformer.probing.taught import taught as taught_heads

BEHAVIOURS = ("previous", "next", "diagonal", "reversed", "sink", "broad", "punctuation",
              "monotonic", "pronoun")
APPLIES = {  # which behaviours a kind can show
    "encoder_self": ("previous", "next", "diagonal", "sink", "broad", "punctuation", "pronoun"),
    "decoder_self": ("previous", "diagonal", "sink", "broad", "punctuation", "pronoun"),
    "cross": ("diagonal", "reversed", "sink", "broad", "punctuation", "monotonic", "pronoun"),
}
DESCRIPTIVE = ("broad",)  # described, never tested (a permutation leaves a row's entropy as it is)
KEYED = ("previous", "next", "diagonal", "reversed", "sink", "punctuation")  # weight on some keys
LABEL_BAR = 0.5
MARGIN = 0.1  # a finding's score must be at least this far above its chance level
ALPHA = 0.05  # family-wise error over every (head, behaviour) tested, Holm-corrected
CORRECTION = "Holm"
N_PERM_MIN = 1000
SEED = 0
N_DEFAULT = 40  # sentences (and probe items) the CLI and the Heads page measure by default
NO_ROLE = "none"
PUNCTUATION = set(".,;:!?\"'()-–—…«»„“”")
PROBES = Path(__file__).resolve().parents[1] / "probes"
SOURCES = {  # what `inputs_for` measured, as the CLI says it (the page has its own strings)
    "task": "this task's held-out data",
    "probe": "the hand-written minimal pairs (minimal_pairs_en.jsonl, also the pronoun probe), "
             "plus the project's caption and everyday sentences",
    "sentences": "the project's caption and everyday sentences",
    "file": "the given probe file",
}


@dataclass
class HeadRole:
    kind: str
    layer: int
    head: int
    label: str  # one of BEHAVIOURS, or NO_ROLE
    score: float  # the label's score (for NO_ROLE: the best score that fell short)
    scores: dict[str, float] = field(default_factory=dict)
    chance: dict[str, float] = field(default_factory=dict)  # behaviour -> its chance level
    p: dict[str, float | None] = field(default_factory=dict)  # permutation p (None: not tested)
    p_holm: dict[str, float | None] = field(default_factory=dict)  # Holm-corrected p
    taught: list[str] = field(default_factory=list)  # "supervised", "interchange" (issue 49, 5)


@dataclass
class Report:
    roles: list[HeadRole]
    n_perm: int  # permutations per null
    tests: int  # (head, behaviour) pairs tested together (the Holm family)
    rules: dict[str, float]  # the pronoun rules on the probe (first_noun, nearest_noun)


# -- which rows and keys each behaviour reads ------------------------------------------------------
@dataclass
class _Layout:
    rows: list[int]  # the scored query rows (a choice of keys, not masked, not a special in the encoder)
    allowed: list[int]  # per scored row: the keys it may see are 0 .. allowed - 1
    keys: dict[str, torch.Tensor]  # behaviour -> (rows, K) bool: the keys whose weight it counts


def _is_punct(tok: str) -> bool:
    return bool(tok.strip()) and set(tok.strip()) <= PUNCTUATION


def _layout(w: torch.Tensor, kind: str, k_tok: list[str], q_special: list[bool],
            k_special: list[bool]) -> _Layout:
    """The rows a sentence is scored on and, per behaviour of KEYED, the keys each row's weight
    is counted on. w: (L, H, Q, K) weights of one sentence."""
    n_q, n_k = w.shape[-2:]
    rows, allowed = [], []
    for q in range(n_q):
        a = min(q + 1, n_k) if kind == "decoder_self" else n_k  # the causal prefix
        if kind == "encoder_self" and q_special[q]:
            continue
        if a < 2 or float(w[0, 0, q].sum()) <= 0:  # no choice, or fully masked: nothing to say
            continue
        rows.append(q)
        allowed.append(a)
    words_k = [i for i in range(n_k) if not k_special[i]]  # the source's words (no </s>)
    n_src = len(words_k)
    punct = [k for k in range(n_k) if _is_punct(k_tok[k])]
    ends = [k for k in range(n_k) if k_tok[k] == "</s>"]
    keys = {b: torch.zeros(len(rows), n_k, dtype=torch.bool) for b in KEYED}
    for r, (q, a) in enumerate(zip(rows, allowed)):
        def put(b, k):
            if k is not None and 0 <= k < a:
                keys[b][r, k] = True
        put("previous", q - 1 if q > 0 else None)
        put("next", q + 1)
        if kind == "cross":
            # decoder input q (BOS at 0) writes output token q: its source partner is q (copy)
            # or n_src - 1 - q (reverse), over the source's words
            put("diagonal", words_k[q] if q < n_src else None)
            put("reversed", words_k[n_src - 1 - q] if q < n_src else None)
            for k in ends + punct:  # a cross sink is </s> or punctuation, not the first word
                put("sink", k)
        else:
            put("diagonal", q)
            for k in [0] + ends:
                put("sink", k)
        for k in punct:
            put("punctuation", k)
    return _Layout(rows, allowed, keys)


def _entropy(w: torch.Tensor, lay: _Layout) -> torch.Tensor:
    """(rows, L, H): each scored row's entropy over the keys it may see / log(their number)."""
    out = []
    for q, a in zip(lay.rows, lay.allowed):
        p = w[:, :, q, :a].clamp_min(1e-12)
        out.append(-(p * p.log()).sum(-1) / math.log(a))
    return torch.stack(out) if out else torch.zeros(0, *w.shape[:2], dtype=w.dtype)


def _tops(w: torch.Tensor, lay: _Layout) -> torch.Tensor:
    """(L, H, rows): each scored row's strongest key (cross-attention: a source position)."""
    if not lay.rows:
        return torch.zeros(*w.shape[:2], 0, dtype=torch.long)
    return w[:, :, lay.rows, :].argmax(-1)


def _sums(w: torch.Tensor, kind: str, q_tok: list[str], k_tok: list[str],
          q_special: list[bool], k_special: list[bool]) -> dict[str, torch.Tensor]:
    """Per behaviour, the (layers, heads) sum over this sentence's scored query rows, and the
    number of rows ("_rows"; "_steps" for monotonic). w: (L, H, Q, K) weights of one sentence."""
    n_l, n_h = w.shape[:2]
    lay = _layout(w, kind, k_tok, q_special, k_special)
    out: dict[str, torch.Tensor] = {}
    if lay.rows:
        wr = w[:, :, lay.rows, :]  # (L, H, rows, K)
        for b, m in lay.keys.items():
            out[b] = (wr * m.to(w.dtype)).sum((-1, -2))
        out["broad"] = _entropy(w, lay).sum(0)
    else:
        out.update({b: torch.zeros(n_l, n_h, dtype=w.dtype) for b in (*KEYED, "broad")})
    if kind == "cross":
        top = _tops(w, lay)
        fwd, n_moves = moves(top)
        out["monotonic"], out["_steps"] = fwd.to(w.dtype), n_moves.to(w.dtype)
    out["_rows"] = torch.full((n_l, n_h), float(len(lay.rows)))
    return out


def n_perm_for(tests: int) -> int:
    """Enough permutations for Holm over `tests` p-values to be passable: the smallest p,
    1 / (n_perm + 1), is at most half the strictest threshold ALPHA / tests."""
    return max(N_PERM_MIN, math.ceil(2 * tests / ALPHA))


# -- measuring -------------------------------------------------------------------------------------
def measure(model, tokenizer, sentences: list[str], probe_items=None, n_perm: int | None = None,
            seed: int = SEED) -> tuple[dict[str, dict[str, dict[str, torch.Tensor]]], dict]:
    """kind -> behaviour -> {"score", "chance", "p"} (layers, heads) tensors ("p" None for broad),
    over SENTENCES (each run through the model with its own greedy output as the decoder's input,
    as the app shows it) and, for the pronoun, PROBE_ITEMS; and {"n_perm", "tests", "rules"}."""
    per_kind: dict[str, dict] = {}
    for text in sentences:
        ins = inspect_text(model, tokenizer, text)
        for kind in KINDS:
            layers = ins.trace.layers(kind, "weights")
            if not layers:
                continue
            w = torch.stack([x[0] for x in layers]).double()  # L x (H,Q,K) -> (L,H,Q,K)
            q_ids, k_ids = ins.query_key_ids(kind)
            _, k_tok = ins.queries_keys(kind)
            lay = _layout(w, kind, k_tok, [tokenizer.is_special(i) for i in q_ids],
                          [tokenizer.is_special(i) for i in k_ids])
            acc = per_kind.setdefault(kind, {"shape": w.shape[:2], "w": [], "allowed": [],
                                             "keys": [], "broad": [], "tops": []})
            if not lay.rows:
                continue
            acc["w"].append(w[:, :, lay.rows, :].flatten(0, 1).permute(1, 2, 0))  # (rows, K, L*H)
            acc["allowed"] += lay.allowed
            acc["keys"].append(lay.keys)
            acc["broad"].append(_entropy(w, lay).flatten(1))  # (rows, L*H)
            if kind == "cross":
                acc["tops"].append(_tops(w, lay).flatten(0, 1))  # (L*H, rows)
    pron: dict[str, tuple] = {}
    rules: dict[str, float] = {}
    if probe_items:
        for kind, sc in score_anaphora(model, tokenizer, probe_items).items():
            if sc.tops is None:
                continue
            done = [i for i in range(len(probe_items)) if int(sc.tops[i].flatten()[0]) >= 0]
            if not done:
                continue
            spans = torch.tensor([probe_items[i].span(kind == "decoder_self") for i in done])
            pron[kind] = (sc.tops[done].flatten(1), spans[:, 0], spans[:, 1], done,
                          groups([probe_items[i] for i in done]))
        rules = {k: v for k, v in baselines(probe_items).items() if k in ("first_noun", "nearest_noun")}
    tested = {kind: [b for b in APPLIES[kind] if b not in DESCRIPTIVE and b != "pronoun"
                     and (b != "monotonic" or any(t.shape[-1] > 1 for t in acc["tops"]))]
              + (["pronoun"] if kind in pron else [])
              for kind, acc in per_kind.items()}
    tests = sum(math.prod(per_kind[k]["shape"]) * len(v) for k, v in tested.items())
    n_perm = n_perm or n_perm_for(tests)
    gen = torch.Generator().manual_seed(seed)
    out: dict[str, dict[str, dict[str, torch.Tensor]]] = {}
    for kind in KINDS:
        if kind not in per_kind:
            continue
        acc, shape = per_kind[kind], per_kind[kind]["shape"]
        res: dict[str, dict[str, torch.Tensor]] = {}
        n_rows = float(len(acc["allowed"]))
        keyed = [b for b in tested[kind] if b in KEYED]
        if acc["w"]:
            n_k = max(x.shape[1] for x in acc["w"])
            w_rows = torch.cat([torch.nn.functional.pad(x, (0, 0, 0, n_k - x.shape[1]))
                                for x in acc["w"]])  # (R, K, L*H)
            keys = {b: torch.cat([torch.nn.functional.pad(k[b], (0, n_k - k[b].shape[1]))
                                  for k in acc["keys"]]) for b in keyed}
            null = keyed_null(w_rows, torch.tensor(acc["allowed"]), keys, n_perm, gen)
            for b in keyed:
                obs = torch.einsum("rkh,rk->h", w_rows, keys[b].to(w_rows.dtype))
                res[b] = {"score": obs / n_rows, "chance": null[b].mean(0) / n_rows,
                          "p": p_value(null[b], obs)}
            broad = torch.cat(acc["broad"]).sum(0) / n_rows
            res["broad"] = {"score": broad, "chance": broad.clone(), "p": None}
        if "monotonic" in tested[kind]:
            fwd = sum(moves(t)[0].double() for t in acc["tops"])
            n_moves = sum(moves(t)[1].double() for t in acc["tops"])
            obs = fwd / n_moves.clamp_min(1)
            null = monotonic_null(acc["tops"], n_perm, gen)
            res["monotonic"] = {"score": obs, "chance": null.mean(0), "p": p_value(null, obs)}
        if kind in pron:
            tops, lo, hi, done, grp = pron[kind]
            obs, null = pronoun_null(tops, lo, hi, grp, n_perm, gen)
            chance = torch.clamp(null.mean(0) / len(done), min=max(rules.values(), default=0.0))
            res["pronoun"] = {"score": obs / len(done), "chance": chance,
                              "p": p_value(null, obs, tol=0.5)}
        if not res:
            continue
        out[kind] = {b: {k: (v.reshape(shape).float() if v is not None else None)
                         for k, v in res[b].items()}
                     for b in APPLIES[kind] if b in res}
    return out, {"n_perm": n_perm, "tests": tests, "rules": rules}


# The most specific description wins: a diagonal head is also monotonic, a pronoun head may
# also rest on a sink; broad is a description, given only where nothing is found.
TIERS = (("pronoun",), ("diagonal", "reversed", "previous", "next"),
         ("sink", "punctuation", "monotonic"), ("broad",))


def found(b: str, scores: dict[str, float], chance: dict[str, float],
          p_holm: dict[str, float | None]) -> bool:
    """A finding: score >= LABEL_BAR, at least MARGIN above chance, Holm-corrected p < ALPHA."""
    p = p_holm.get(b)
    return (b not in DESCRIPTIVE and p is not None and p < ALPHA
            and scores.get(b, 0.0) >= LABEL_BAR
            and scores.get(b, 0.0) - chance.get(b, 1.0) >= MARGIN - 1e-9)


def label(scores: dict[str, float], chance: dict[str, float],
          p_holm: dict[str, float | None]) -> tuple[str, float]:
    """(label, score): the first tier of TIERS with a finding (`found`), its highest-scoring
    one; with none, "broad" when the broad score reaches LABEL_BAR; else (NO_ROLE, the best
    score that fell short)."""
    for tier in TIERS[:-1]:
        got = [(b, scores[b]) for b in tier if found(b, scores, chance, p_holm)]
        if got:
            return max(got, key=lambda kv: kv[1])
    if scores.get("broad", 0.0) >= LABEL_BAR:
        return "broad", scores["broad"]
    return NO_ROLE, max(scores.values(), default=0.0)


def atlas_report(model, tokenizer, sentences: list[str], probe_items=None, *,
                 train_config: dict | None = None, n_perm: int | None = None,
                 seed: int = SEED) -> Report:
    """The atlas: one HeadRole per head of every kind (order kind, layer, head), with every
    score, its chance level, its p-value raw and Holm-corrected, and how the head was taught
    (from TRAIN_CONFIG, the checkpoint's training config)."""
    measured, info = measure(model, tokenizer, sentences, probe_items, n_perm, seed)
    how = {(h.kind, h.layer, h.head): list(v) for h, v in taught_heads(train_config).items()}
    cells = []
    for kind in KINDS:
        if kind not in measured:
            continue
        m = measured[kind]
        n_l, n_h = next(iter(m.values()))["score"].shape
        for layer in range(n_l):
            for head in range(n_h):
                pick = lambda key: {b: (None if v[key] is None  # noqa: E731
                                        else float(v[key][layer, head])) for b, v in m.items()}
                cells.append((kind, layer, head, pick("score"), pick("chance"), pick("p")))
    flat = [(i, b) for i, c in enumerate(cells) for b, p in c[5].items() if p is not None]
    adjusted = holm([cells[i][5][b] for i, b in flat])
    p_holm: list[dict] = [{b: None for b in c[5]} for c in cells]
    for (i, b), q in zip(flat, adjusted):
        p_holm[i][b] = q
    roles = []
    for (kind, layer, head, sc, ch, p), ph in zip(cells, p_holm):
        scores = {b: round(v, 4) for b, v in sc.items()}
        chance = {b: round(v, 4) for b, v in ch.items()}
        lab, s = label(scores, chance, ph)
        roles.append(HeadRole(kind, layer, head, lab, s, scores, chance, p, ph,
                              how.get((kind, layer, head), [])))
    return Report(roles, info["n_perm"], len(flat), info["rules"])


def atlas(model, tokenizer, sentences: list[str], probe_items=None, **kw) -> list[HeadRole]:
    """One HeadRole per head of every kind, in the order kind, layer, head (`atlas_report`)."""
    return atlas_report(model, tokenizer, sentences, probe_items, **kw).roles


# -- what to measure on ----------------------------------------------------------------------------
@dataclass
class Inputs:
    sentences: list[str]
    probe: list | None  # ProbeItems for the pronoun behaviour, or None
    source: str  # a key of SOURCES


def _shipped(n: int) -> list[str]:
    texts = [json.loads(line)["text"] for line in
             (PROBES / "classroom_pronouns_en.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    everyday = [line.split("\t")[0] for line in
                (PROBES / "everyday_en_de.tsv").read_text(encoding="utf-8").splitlines() if "\t" in line]
    return [s for pair in zip(texts, everyday) for s in pair][:n]


def inputs_for(ck, n: int = N_DEFAULT) -> Inputs:
    """The one default the CLI and the Heads page measure a checkpoint on: the anaphora task's
    held-out items (sentences and probe); another synthetic task's held-out data (no probe);
    else the first n // 2 hand-written minimal pairs' sentences and n - n // 2 shipped caption and
    everyday sentences, with the first n minimal-pair items as the pronoun probe."""
    task = (ck.train_config or {}).get("task")
    if task == "anaphora":
        probe = anaphora_probe(n=n)
        return Inputs([it.text for it in probe], probe, "task")
    if task in data.TASKS and task not in ("classroom_pronouns", "textbook"):
        return Inputs([e.src for e in data.load_task(task, "test", n=n, seed=0)], None, "task")
    probe = read_probe_file(MINIMAL_PAIRS_PROBE)[:n]
    return Inputs([it.text for it in probe][: n // 2] + _shipped(n - n // 2), probe, "probe")


def sentences_for(ck, n: int = N_DEFAULT) -> list[str]:
    """The sentences of `inputs_for` (the CLI's and the page's default)."""
    return inputs_for(ck, n).sentences


def to_json(report: Report, checkpoint: str, n_sentences: int, source: str) -> dict:
    return {"checkpoint": checkpoint, "sentences": n_sentences, "source": source,
            "null": {"permutations": report.n_perm, "seed": SEED, "correction": CORRECTION,
                     "tests": report.tests, "alpha": ALPHA, "bar": LABEL_BAR, "margin": MARGIN,
                     "pronoun_rules": report.rules},
            "heads": [r.__dict__ for r in report.roles]}


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="python -m transformer.atlas", description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--probe", help="a JSONL pronoun probe (replaces the default probe; its "
                                    "sentences are measured instead)")
    ap.add_argument("--n", type=int, default=N_DEFAULT,
                    help=f"sentences to measure (default {N_DEFAULT}, as the Heads page)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    torch.set_num_threads(max(1, a.threads))
    try:
        ck = load_checkpoint(a.checkpoint)
        if a.probe:
            items = read_probe_file(a.probe)
            inp = Inputs([it.text for it in items][: a.n], items, "file")
        else:
            inp = inputs_for(ck, a.n)
        with torch.inference_mode():
            rep = atlas_report(ck.model.eval(), ck.tokenizer, inp.sentences, inp.probe,
                               train_config=ck.train_config)
    except (CheckpointError, ValueError, OSError) as e:
        ap.error(str(e).splitlines()[0])
    if a.json:
        print(json.dumps(to_json(rep, a.checkpoint, len(inp.sentences), inp.source),
                         ensure_ascii=False))
        return 0
    print(f"{a.checkpoint}: {len(inp.sentences)} sentences ({SOURCES[inp.source]})"
          + (f", pronoun probe {len(inp.probe)} items" if inp.probe else ""))
    print(f"  a label needs score >= {LABEL_BAR}, score - chance >= {MARGIN} and p < {ALPHA} after "
          f"{CORRECTION}'s correction over {rep.tests} tests ({rep.n_perm} permutations, seed {SEED}); "
          f"broad is a description; none: nothing above chance")
    for r in rep.roles:
        ch = r.chance.get(r.label)
        ph = r.p_holm.get(r.label)
        extra = (f"  chance {ch:.2f}" if ch is not None and r.label != "broad" else "") + \
                (f"  p_holm {ph:.2g}" if ph is not None else "")
        mark = f"  taught: {', '.join(r.taught)}" if r.taught else ""
        print(f"  {r.kind:13s} L{r.layer} H{r.head}  {r.label:12s} {r.score:.2f}{extra}{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
