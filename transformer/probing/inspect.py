"""One sentence through a model, every intermediate recorded: the library call behind the app's
pages and `python -m transformer.inspect`.

    python -m transformer.inspect --checkpoint DIR --text "A dog runs ." [--target "..."] --json
"""
from __future__ import annotations

import contextlib
import json
import re
import sys
from dataclasses import dataclass, field

import torch

from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.decode import beam_search, check_coverage, greedy
from transformer.core import notes as N
from transformer.core.names import KINDS, Trace, attention_kind, count_layers, stack_of, trace_key
from transformer.probing import contributions as CB
from transformer.probing import dropped as D
from transformer.probing.logit_lens import logit_lens
from transformer.probing.rollout import rollout
from transformer.probing.rollout import to_json as rollout_json
from transformer.core.text import TextError, source_ids, target_ids
from transformer.core.trace import ablation, record

# The command line's wording of the core's notes (transformer.core.notes codes), English and terse;
# the app says them in the session's language from ui/strings/notes.py.
CLI_NOTES = {
    "source_cut": "source truncated to {n} tokens (the model's limit)",
    "target_cut": "target truncated to {n} tokens",
    "source_cut_words": "source truncated to {n} tokens (the model's limit): the first {words} of "
                        "{total} words are read",
}


def cli_text(note: N.Note) -> str:
    """The note as `python -m transformer.inspect` prints it."""
    return CLI_NOTES[note.code].format(**note.params)


@dataclass
class Inspected:
    src_ids: list[int]
    tgt_ids: list[int]  # decoder input: [BOS] + pieces
    src_tokens: list[str]  # display forms, one per id
    tgt_tokens: list[str]
    output: str  # the decoded output text (or the given target)
    teacher_forced: bool
    trace: Trace  # a dict: trace key -> tensor, with accessors (transformer.core.names.Trace)
    notes: list[N.Note] = field(default_factory=list)  # e.g. source cut (transformer.core.notes)
    beam: int = 1  # the output's search: 1 greedy, > 1 beam search of that width (not forced)

    def weights(self, kind: str, layer: int) -> torch.Tensor:
        """(H, queries, keys) attention weights of one layer."""
        return self.trace[trace_key(kind, layer, "weights")][0]  # works for a plain dict too

    def queries_keys(self, kind: str) -> tuple[list[str], list[str]]:
        """The display tokens of this kind's queries and keys."""
        return attention_kind(kind).pick(self.src_tokens, self.tgt_tokens)

    def query_key_ids(self, kind: str) -> tuple[list[int], list[int]]:
        """The token ids of this kind's queries and keys."""
        return attention_kind(kind).pick(self.src_ids, self.tgt_ids)


# -- what a server keeps of a trace (issue 48) ---------------------------------------------------
def compact(key: str) -> bool:
    """The trace keys every page of a sentence reads (the attention weights of every layer and
    the logits): a server keeps these for each sentence; the other intermediates (q, k, v,
    scores, the feed-forward's hidden units, ...), four fifths of a trace's bytes, are recorded
    one layer at a time when a page asks for them (`LazyTrace`)."""
    return key == "logits" or key.endswith(".weights")


_LAYER = re.compile(r"^((?:encoder|decoder)\.layers\.\d+)\.")


def group_of(key: str) -> str:
    """The recording `key` belongs to: its layer (`encoder.layers.1`), or "" for what lies
    outside every layer (embeddings, positional encoding, the final norm, the logits)."""
    m = _LAYER.match(key)
    return m.group(1) if m else ""


def in_group(group: str):
    """A names filter (transformer.core.trace.record) keeping exactly the keys of `group`."""
    return lambda key: group_of(key) == group


class LazyTrace(Trace):
    """A compact trace (see `compact`) that fetches any other key's layer when it is read:
    `load(group)` returns the trace of that group (one teacher-forced pass recording only it).
    Pages read it as a whole trace; what they never read is never recorded. `in` and indexing
    answer for every key of the model's layers; iteration lists what is held now."""

    def __init__(self, held, load, groups):
        super().__init__(held)
        self._load, self._groups, self._loaded = load, frozenset(groups), set()

    def _fetch(self, key: str) -> bool:
        group = group_of(key)
        if group in self._loaded or group not in self._groups or self._load is None:
            return False
        self._loaded.add(group)
        self.update(self._load(group))
        return dict.__contains__(self, key)

    def __missing__(self, key):
        if isinstance(key, str) and self._fetch(key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or (isinstance(key, str) and self._fetch(key))

    def get(self, *args):
        if len(args) == 3:
            return self[trace_key(*args)]
        key, default = args[0], (args[1] if len(args) > 1 else None)
        try:
            return self[key]
        except KeyError:
            return default


def layer_groups(trace) -> set[str]:
    """The groups (`group_of`) a model with this compact trace has: every layer with recorded
    weights, and the one outside the layers."""
    return {group_of(k) for k in trace} | {""}


def record_pass(model, src: list[int], tgt: list[int], ablate=None, names=None) -> Trace:
    """One teacher-forced forward pass over `src` and the decoder input `tgt`, recorded (only
    the keys `names` accepts, or all)."""
    dev = next(model.parameters()).device
    with torch.inference_mode(), record(ablate, names) as tr:
        model(torch.tensor([src], device=dev), torch.tensor([tgt], device=dev))  # (1,S), (1,T)
    return tr


def inspect_text(model, tokenizer, text: str, target: str | None = None,
                 ablate=None, names=None, beam: int = 1, alpha: float = 0.6,
                 coverage: float = 0.0) -> Inspected:
    """Encode `text`, get the output (greedy, or beam search when `beam` > 1 with GNMT's length
    penalty `alpha` and coverage penalty `coverage`, unless a target is given: teacher forcing),
    and record one forward pass over source and [BOS] + output. Raises TextError for unusable
    text. `names`: which trace keys to keep (e.g. `compact`), None for all.

    Why one pass after a beam search shows the search's own numbers: the decoder is causal, so
    position t of a pass over [BOS] + the chosen hypothesis computes exactly what the search
    computed for that hypothesis at step t, to rounding (the other beams never mix into it)."""
    cfg = model.cfg
    notes: list[N.Note] = []
    src, cut = source_ids(tokenizer, text, cfg.max_len)
    if cut:  # how many whole words fit (the last token is </s>)
        groups = tokenizer.words(tokenizer.encode(text))
        kept = sum(1 for g in groups if max(g) < cfg.max_len - 1)
        total = len(text.split())  # a trailing space is a piece of its own, not a word
        notes.append(N.source_cut_words(cfg.max_len, min(kept, total), total))
    if target is not None and target.strip():
        pieces, cut_t = target_ids(tokenizer, target, cfg.max_len)
        if cut_t:
            notes.append(N.target_cut(cfg.max_len - 1))
        forced = True
    else:
        ctx = ablation(ablate) if ablate else contextlib.nullcontext()
        with ctx:
            limit = min(len(src) + 50, cfg.max_len - 1)
            pieces = (beam_search(model, src, beam, alpha, max_len=limit, coverage=coverage)
                      if beam > 1
                      else greedy(model, src, max_len=limit)).tokens
        forced = False
    tgt = [cfg.bos_id] + pieces
    tr = record_pass(model, src, tgt, ablate, names)
    return Inspected(src, tgt, tokenizer.display(src), tokenizer.display(tgt),
                     tokenizer.decode(pieces), forced, tr, notes, 1 if forced else max(1, beam))


def to_json(ins: Inspected, digits: int = 6, note_text=None, model=None, tokenizer=None) -> dict:
    """``ins`` as JSON; each note as ``note_text(note)`` (words) or, without it, as its code.
    With MODEL and TOKENIZER also "contributions" (ALTI+, transformer/probing/contributions.py:
    one forward pass of its own) and "dropped" (the source words the dropped-word alarm marks,
    transformer/probing/dropped.py)."""
    attention = {}
    for kind in KINDS:
        layers = [torch.round(ins.weights(kind, i).double(), decimals=digits).tolist()  # (H,T,S)
                  for i in range(count_layers(ins.trace, kind))]
        q, k = ins.queries_keys(kind)
        attention[kind] = {"stack": stack_of(kind), "queries": q, "keys": k, "layers": layers}
    return {"source_tokens": ins.src_tokens, "target_tokens": ins.tgt_tokens,
            "output": ins.output, "teacher_forced": ins.teacher_forced, "beam": ins.beam,
            "notes": [note_text(n) if note_text else n.to_dict() for n in ins.notes],
            "attention": attention,
            # decoder position t (which writes output token t) rolled back to the source tokens
            "rollout": rollout_json(rollout(ins), digits)} | (
        _contribution_json(ins, model, tokenizer, digits) if model is not None else {})


def _contribution_json(ins: Inspected, model, tokenizer, digits: int) -> dict:
    c = CB.contributions(model, ins.src_ids, ins.tgt_ids, D.METHOD)
    a = D.alarm(model, tokenizer, ins.src_ids, ins.tgt_ids, c=c)
    return {"contributions": CB.to_json(c, digits), "dropped": [a.src_words[i] for i in a.dropped],
            # what each decoder layer would write if it were the last (issue 52, 2)
            "logit_lens": logit_lens(model, tokenizer, ins, k=5, digits=digits)}


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(
        prog="python -m transformer.inspect",
        description="Run one sentence through a checkpoint and print its attention.")
    ap.add_argument("--checkpoint", required=True, help="checkpoint directory")
    ap.add_argument("--text", required=True, help="source sentence")
    ap.add_argument("--target", default=None, help="target sentence for teacher forcing")
    ap.add_argument("--beam", type=int, default=1,
                    help="the output's search without a target: 1 greedy (default); the pages "
                         "write with --beam 5 --alpha 1.0 --coverage 0.4")
    ap.add_argument("--alpha", type=float, default=0.6, help="beam search's length penalty")
    ap.add_argument("--coverage", type=float, default=0.0,
                    help="beam search's coverage penalty beta (Wu et al. 2016); 0 is off")
    ap.add_argument("--json", action="store_true", help="print JSON (else a short summary)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    if args.beam < 1:
        ap.error(f"--beam must be at least 1 (got {args.beam})")
    try:
        check_coverage(args.coverage, "--coverage")
    except ValueError as e:
        ap.error(str(e))

    torch.set_num_threads(max(1, args.threads))
    try:
        ck = load_checkpoint(args.checkpoint)
        ins = inspect_text(ck.model, ck.tokenizer, args.text, args.target,
                           beam=args.beam, alpha=args.alpha, coverage=args.coverage)
    except (CheckpointError, TextError) as e:
        ap.error(str(e))
    if args.json:
        json.dump(to_json(ins, note_text=cli_text, model=ck.model, tokenizer=ck.tokenizer),
                  sys.stdout, ensure_ascii=False)
        print()
    else:
        print("source:", " ".join(ins.src_tokens))
        print("output:", ins.output)
        for n in ins.notes:
            print("note:", cli_text(n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
