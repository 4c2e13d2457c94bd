"""What a model knows: the domain it learned from, the words it saw, and how well its vocabulary
covers them.

A model trained on image captions answers a teacher's "The animal didn't cross the street because
it was too tired ." with fluent nonsense and no warning. The app cannot make the model know more,
but it can say what it does not know: which words of the sentence never occurred in training, and
which ones the tokenizer cut into many pieces (a word in three or more pieces is one the
vocabulary did not learn, and attention to it is spread over fragments).

Recorded once per checkpoint, in ``history.json`` under ``"knowledge"`` (a key any older reader
ignores): ``domain`` in English and Chinese, ``seen_words`` (the source side's distinct lower-cased
words), ``coverage`` (how many of the training corpus's running words are one piece) and
``examples`` (sentences inside the domain that the box can offer).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import sacrebleu

from transformer.core.checkpoint import CheckpointError, load_checkpoint
from transformer.core import decode
from transformer.data import builders
from transformer.data import tasks as data

KEY = "knowledge"
MANY_PIECES = 3  # a word cut into this many pieces or more is marked
MAX_SEEN_WORDS = 50_000  # bounds history.json (each word is a few bytes)

# What each corpus is, in English and Chinese: data (domains.json) that a checkpoint's history.json
# records; the app shows it as it finds it there. A corpus of the user's own is "your_corpus", a
# synthetic task "synthetic", a converted model "converted".
DOMAINS_PATH = Path(__file__).with_name("domains.json")
DOMAINS = {k: v for k, v in json.loads(DOMAINS_PATH.read_text(encoding="utf-8")).items() if not k.startswith("_")}


_WORD = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)


def words(text: str) -> list[str]:
    """The words of a sentence as the knowledge check sees them: runs of letters and digits
    (with inner apostrophes, "didn't"), lower-cased and NFC-normalised; punctuation is not a
    word a model can fail to know."""
    return [m.group(0).lower() for m in _WORD.finditer(unicodedata.normalize("NFC", text))]


# Scripts a model that reads English (or German, French) does not: their text becomes byte
# pieces it never learned, and its output is word salad without a warning
_CJK = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC")


def foreign_script(text: str) -> str | None:
    """"cjk" when at least a third of the letters are Chinese, Japanese or Korean, "other" when
    at least a third are of another non-Latin script (Cyrillic, Greek, Arabic, ...), else None."""
    letters = [c for c in unicodedata.normalize("NFC", text) if c.isalpha()]
    if not letters:
        return None
    names = [unicodedata.name(c, "") for c in letters]
    cjk = sum(any(n.startswith(k) for k in _CJK) for n in names)
    latin = sum(n.startswith("LATIN") for n in names)
    if 3 * cjk >= len(letters):
        return "cjk"
    if 3 * (len(letters) - latin - cjk) >= len(letters):
        return "other"
    return None


def domain_for(task: str, **params: str) -> dict[str, str]:
    """The domain of a model trained on ``task`` ({"en", "zh"}; ``params``: "converted"'s source)."""
    if task == "tsv" or (builders.is_builder_task(task) and task not in DOMAINS):  # your builder
        key = "your_corpus"
    elif task in DOMAINS and (task != "converted" or "source" in params) and task != "synthetic":
        key = task
    else:
        key, params = "synthetic", {"task": task}
    return {lang: text.format(**params) for lang, text in DOMAINS[key].items()}


def n_pieces(tokenizer, word: str) -> int:
    """Pieces of ``word`` as it appears inside a sentence (after a space), the way the model
    reads it."""
    return len(tokenizer.encode(word))


def build(tokenizer, sources: Iterable[str], task: str,
          examples: Sequence[str] = (), max_examples: int | None = None) -> dict:
    """The knowledge record of a model trained on ``sources`` (its source-side training text)."""
    counts: Counter[str] = Counter()
    for s in sources:
        counts.update(words(s))
    running = sum(counts.values())
    one_piece = sum(c for w, c in counts.items() if n_pieces(tokenizer, w) == 1)
    many = sum(c for w, c in counts.items() if n_pieces(tokenizer, w) >= MANY_PIECES)
    seen = [w for w, _ in counts.most_common(MAX_SEEN_WORDS)]
    return {
        "domain": domain_for(task),
        "seen_words": sorted(seen),
        "seen_words_complete": len(counts) <= MAX_SEEN_WORDS,
        "coverage": {
            "distinct_words": len(counts),
            "running_words": running,
            "one_piece_share": round(one_piece / running, 4) if running else 0.0,
            "many_pieces_share": round(many / running, 4) if running else 0.0,
            "vocab_size": tokenizer.vocab_size,
        },
        # offered sentences use only words the model saw in training (an example drawn from
        # validation text may hold a word training never had: "snapshot")
        "examples": [e for e in examples if all(w in counts for w in words(e))][:max_examples],
    }


@dataclass(frozen=True)
class WordMark:
    """One word of a sentence and what the model knows of it."""

    word: str
    pieces: int
    seen: bool | None  # None: the checkpoint records no word list

    @property
    def marked(self) -> bool:
        return self.seen is False or self.pieces >= MANY_PIECES


def mark(tokenizer, knowledge: dict | None, text: str) -> list[WordMark]:
    """Every word of ``text`` with its piece count and whether training saw it."""
    seen = set((knowledge or {}).get("seen_words") or ())
    complete = bool((knowledge or {}).get("seen_words_complete")) and bool(seen)
    out = []
    for w in words(text):
        known: bool | None = (w in seen) if seen else None
        if known is False and not complete:
            known = None  # a truncated list cannot say "never seen"
        out.append(WordMark(w, n_pieces(tokenizer, w), known))
    return out


def pick_examples(model, tokenizer, sources: Sequence[str], references: Sequence[str],
                  seen: set[str], k: int = 6, min_words: int = 5, max_words: int = 12,
                  pool: int = 300) -> list[str]:
    """Sentences the model handles, for the sentence boxes: short ones whose every word was seen
    and is at most two pieces, ranked by the model's own greedy translation against the
    reference (sentence chrF), best first. Measured, so a box never offers a sentence the model
    mangles."""

    strict, loose = [], []  # loose: every word seen, some cut into many pieces (tiny vocabularies)
    for s, r in zip(sources, references):
        ws = words(s)
        if min_words <= len(ws) <= max_words and all(w in seen for w in ws):
            whole = all(n_pieces(tokenizer, w) < MANY_PIECES for w in ws)
            (strict if whole else loose).append((s, r))
        if len(strict) >= pool:
            break
    cands = strict if len(strict) >= k else strict + loose[:pool]
    if not cands:
        return []
    hyps = decode.translate(model, tokenizer, [s for s, _ in cands])
    # best chrF first; whole-word sentences before the loose ones at equal score
    rank = {s: i for i, (s, _) in enumerate(cands)}
    scored = sorted(((sacrebleu.sentence_chrf(h, [r]).score, s) for (s, r), h in zip(cands, hyps)),
                    key=lambda x: (-round(x[0], 1), rank[x[1]] >= len(strict)))
    return [s for _, s in scored[:k]]


def write(checkpoint_dir, record: dict) -> None:
    """Put ``record`` into the checkpoint's history.json, atomically (temp file, then rename)."""
    p = Path(checkpoint_dir) / "history.json"
    history = json.loads(p.read_text(encoding="utf-8")) if p.exists() else {}
    history[KEY] = record
    tmp = p.with_name(".history.json.tmp")
    tmp.write_text(json.dumps(history, indent=2, ensure_ascii=False, allow_nan=False) + "\n",
                   encoding="utf-8")
    os.replace(tmp, p)


def main(argv: list[str] | None = None, prog: str = "python -m transformer.probing.knowledge") -> int:
    """Record what a checkpoint knows (the words of its training text, and examples made of them) in
    its history.json, for checkpoints trained before the trainer recorded it. A record already there
    is kept unless --force: it was made from the text the model read, and today's code may build
    other text from the same options (the shipped default's did: its held-out pairs are left out
    now)."""
    ap = argparse.ArgumentParser(prog=prog, description=main.__doc__)
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--task", required=True,
                    help="multi30k, classroom, a synthetic task name, or a corpus builder "
                         "(MODULE:FUNCTION; everyday: python -m recipes.everyday.knowledge)")
    ap.add_argument("--data-dir", help="the Multi30k folder (multi30k, classroom)")
    ap.add_argument("--examples", type=int, default=6)
    ap.add_argument("--force", action="store_true",
                    help="replace a record the checkpoint already has (default: refuse)")
    args = ap.parse_args(argv)
    try:
        ck = load_checkpoint(args.checkpoint)
        if not args.force and KEY in ck.history:
            had = ck.history[KEY].get("coverage", {}).get("distinct_words", "?")
            ap.error(f"{args.checkpoint} already records what it knows ({had} words seen); "
                     "pass --force to replace that record")
        if builders.is_builder_task(args.task):  # a corpus builder (everyday: Ding's held out)
            if not args.data_dir:
                ap.error(f"--data-dir is required for {args.task} (the Multi30k folder)")
            # the mix the checkpoint was trained on (its recorded --task-opt values and seed, which
            # picks the generated sentences), so words only an optional source holds (life=N) count
            opts = dict((ck.train_config.get("extra") or {}).get("task_opts") or {})
            train, vals, _ = builders.resolve(args.task)(
                args.data_dir, int(ck.train_config.get("seed") or 0), **opts)
            sources = [e.src for e in train]
            first, held = builders.validation_sets(vals)  # the held-out set offers the examples
            val = held if held is not None else first
        elif args.task in ("multi30k", "classroom"):
            if not args.data_dir:
                ap.error("--data-dir is required for multi30k and classroom")
            train = data.load_multi30k(args.data_dir, "train")
            val = data.load_multi30k(args.data_dir, "val")
            sources = [e.src for e in train]
            if args.task == "classroom":
                sources += [e.src for e in data.load_task("classroom_pronouns", "train")]
        else:
            train = data.load_task(args.task, "train")
            val = data.load_task(args.task, "val")  # what training validates on
            sources = [e.src for e in train]
    except (CheckpointError, ValueError, OSError, KeyError) as e:
        ap.error(str(e).splitlines()[0] if str(e) else type(e).__name__)
    record = build(ck.tokenizer, sources, args.task)
    record["examples"] = pick_examples(ck.model, ck.tokenizer, [e.src for e in val],
                                       [e.tgt for e in val], set(record["seen_words"]),
                                       k=args.examples)
    write(args.checkpoint, record)
    cov = record["coverage"]
    print(f"{args.checkpoint}: {cov['distinct_words']} words seen, "
          f"{cov['one_piece_share']:.1%} of running words are one piece, "
          f"{cov['many_pieces_share']:.1%} are {MANY_PIECES}+ pieces; "
          f"{len(record['examples'])} examples")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
