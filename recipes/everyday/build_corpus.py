"""The corpus the default model was trained on, as files: one command, and a hash to check it by.

    python -m recipes.everyday.build_corpus --out runs/everyday-corpus
    python -m recipes.everyday.build_corpus --out runs/everyday-corpus --check checkpoints/everyday-en-de/manifest.json

The mix (recipes/everyday/mix.py) with the seed and --task-opt values a checkpoint's config.json
recorded (default checkpoints/everyday-en-de: seed 43, m30k_repeat 3, daily 25000, talk 12000,
pronouns 24000, textbook 40000, life 20000, scenes 30000), read from Multi30k (../shared/data/multi30k)
and Ding (../shared/data/ding), neither of which is committed. It writes, under --out:

    train.tsv                 English<TAB>German, one training pair a line, in the trainer's order
    train.meta.jsonl          each pair's meta (its source, pronoun positions for supervision)
    val/<name>.tsv, val/<name>.meta.jsonl   the validation sets: multi30k (validated on), ding
                              (reported beside it as held out), textbook

and prints the sha256 of those files' bytes concatenated in sorted relative-path order, with the
counts. --check MANIFEST compares that sha256 with the manifest's (exit 1 when they differ);
--write-manifest MANIFEST writes the corpus fields of a manifest (command, sha256, commit, seed,
options, counts, files), keeping its other fields (init_chain: the commands that made the weights).

The generators' code is what decides the bytes: the manifest's "commit" is the code that builds
this corpus, which is not necessarily the code that generated the text the weights read (the card
and recipes/everyday/HISTORY.md say which commit each chunk of training ran at).
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from recipes.everyday import mix
from transformer.core.cli_util import OneLineParser
from transformer.data.ding import find_ding
from transformer.data.example import Example

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CHECKPOINT = "checkpoints/everyday-en-de"
COMMAND = "python -m recipes.everyday.build_corpus --out {out}"


def _where(path: str | None) -> str | None:
    """PATH as given when it exists from here, else from the repository root (config.json's paths
    are written from there)."""
    if not path or Path(path).exists() or Path(path).is_absolute():
        return path
    return str(ROOT / path) if (ROOT / path).exists() else path


def recorded(checkpoint: str | Path) -> tuple[int, dict, str | None]:
    """(seed, --task-opt values, Multi30k folder) a checkpoint's config.json recorded."""
    cfg = json.loads((Path(checkpoint) / "config.json").read_text(encoding="utf-8"))["train"]
    if cfg.get("task") != "everyday":
        raise ValueError(f"{checkpoint}: task {cfg.get('task')!r}, not everyday")
    extra = cfg.get("extra") or {}
    return int(cfg.get("seed") or 0), dict(extra.get("task_opts") or {}), extra.get("data_dir")


def _source(meta: dict) -> str:
    return meta.get("source") or meta.get("task") or meta.get("corpus") or "other"


def _lines(examples: list[Example]) -> tuple[bytes, bytes]:
    """(the TSV bytes, the meta JSONL bytes) of EXAMPLES."""
    tsv, meta = [], []
    for ex in examples:
        for side in (ex.src, ex.tgt):
            if "\t" in side or "\n" in side or "\r" in side:
                raise ValueError(f"a tab or line break inside a sentence: {side!r}")
        tsv.append(f"{ex.src}\t{ex.tgt}\n")
        meta.append(json.dumps(ex.meta or {}, ensure_ascii=False, sort_keys=True) + "\n")
    return "".join(tsv).encode("utf-8"), "".join(meta).encode("utf-8")


def files_of(train: list[Example], val: dict[str, list[Example]]) -> dict[str, bytes]:
    """Relative path -> bytes of every file of the corpus."""
    out = {}
    out["train.tsv"], out["train.meta.jsonl"] = _lines(train)
    for name, exs in val.items():
        out[f"val/{name}.tsv"], out[f"val/{name}.meta.jsonl"] = _lines(exs)
    return out


def digest(files: dict[str, bytes]) -> str:
    """sha256 of the files' bytes concatenated in sorted relative-path order."""
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(files[rel])
    return h.hexdigest()


def counts_of(train: list[Example], val: dict[str, list[Example]]) -> dict:
    return {"train": len(train),
            "train_by_source": dict(sorted(Counter(_source(ex.meta or {}) for ex in train).items())),
            "val": {name: len(exs) for name, exs in val.items()}}


def build(data_dir: str, seed: int, options: dict) -> tuple[dict[str, bytes], dict]:
    """(files, counts) of the mix for SEED and OPTIONS."""
    opts = dict(options)
    if opts.get("ding_dir"):
        opts["ding_dir"] = _where(opts["ding_dir"])
    train, val, _ = mix.build(_where(data_dir), seed, **opts)
    return files_of(train, val), counts_of(train, val)


def inputs_of(data_dir: str, ding_dir: str | None) -> dict[str, str]:
    """sha256 of each input file the mix reads outside the repository (Multi30k's train and val,
    Ding's de-en.txt), by a name without the folder: a differing corpus says which input moved."""
    out = {}
    for split in ("train", "val"):
        for lang in ("en", "de"):
            f = Path(_where(data_dir)) / f"{split}.{lang}"
            f = f if f.is_file() else f.with_name(f.name + ".gz")
            if f.is_file():
                out[f"multi30k/{f.name}"] = hashlib.sha256(f.read_bytes()).hexdigest()
    where = find_ding(_where(ding_dir))
    if where is not None:
        out["ding/de-en.txt"] = hashlib.sha256((where / "de-en.txt").read_bytes()).hexdigest()
    return out


def head_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def write_manifest(path: Path, record: dict) -> None:
    """The corpus fields of RECORD into the manifest at PATH (its other fields kept)."""
    old = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    old.update(record)
    path.write_text(json.dumps(old, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = OneLineParser(prog="python -m recipes.everyday.build_corpus",
                      description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="the folder to write the corpus files into")
    p.add_argument("--checkpoint", default=DEFAULT_CHECKPOINT,
                   help="whose recorded seed and --task-opt values to use (default: %(default)s)")
    p.add_argument("--data-dir", help="the Multi30k folder (default: the one the config recorded)")
    p.add_argument("--ding-dir", help="Ding's folder (default: the config's ding_dir)")
    p.add_argument("--seed", type=int, help="another seed (default: the config's; chunk 46 of the "
                   "default's init_chain ran with 46)")
    p.add_argument("--check", metavar="MANIFEST", help="exit 1 unless the sha256 is MANIFEST's")
    p.add_argument("--write-manifest", metavar="MANIFEST",
                   help="write the corpus fields of MANIFEST (keeping its init_chain)")
    a = p.parse_args(argv)
    try:
        seed, options, data_dir = recorded(_where(a.checkpoint))
    except (OSError, ValueError, KeyError) as e:
        p.error(f"--checkpoint: {e}")
    data_dir = a.data_dir or data_dir
    seed = seed if a.seed is None else a.seed
    run_opts = dict(options, **({"ding_dir": a.ding_dir} if a.ding_dir else {}))
    try:
        files, counts = build(data_dir, seed, run_opts)
    except (OSError, ValueError) as e:
        p.error(str(e).splitlines()[0] if str(e) else type(e).__name__)
    out = Path(a.out)
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    sha = digest(files)
    record = {"command": COMMAND, "sha256": sha, "commit": head_commit(), "seed": seed,
              "options": options, "inputs": inputs_of(data_dir, run_opts.get("ding_dir")),
              "counts": counts,
              "files": {rel: hashlib.sha256(files[rel]).hexdigest() for rel in sorted(files)}}
    print(json.dumps({"out": str(out), "sha256": sha, "counts": counts}, indent=2))
    if a.write_manifest:
        write_manifest(Path(a.write_manifest), record)
    if a.check:
        want = json.loads(Path(a.check).read_text(encoding="utf-8")).get("sha256")
        if want != sha:
            print(f"differs from {a.check}: {want} (the manifest) against {sha} (built)",
                  file=sys.stderr)
            return 1
        print(f"matches {a.check}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
