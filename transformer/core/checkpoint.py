"""Checkpoints: a directory of safetensors and JSON, written atomically, validated on load.

Layout: model.safetensors (weights), config.json (model + training config), tokenizer.model (the
SentencePiece model, a protobuf), history.json (loss curve, metrics), README.md (model card) and,
for resumable training runs, trainer_state.safetensors + trainer_state.json. A converted Marian
model has source.spm, target.spm and vocab.json instead of tokenizer.model, and config.json says
so ("tokenizer": "sentencepiece-pair"; see transformer.core.pair_tokenizer).

Nothing from a checkpoint is executed: no pickle, no torch.load. A file a user uploads goes through
the same loader, so every check names what is wrong in one line (CheckpointError).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load as st_load_bytes
from safetensors.torch import save as st_save_bytes

from transformer.core.config import ModelConfig
from transformer.core.model import Transformer
from transformer.core.pair_tokenizer import PairTokenizer
from transformer.core.tokenizer import Tokenizer

FORMAT = "attention-lab/1"
WEIGHTS, CONFIG, TOKENIZER, HISTORY, CARD = (
    "model.safetensors", "config.json", "tokenizer.model", "history.json", "README.md")
STATE_TENSORS, STATE_JSON = "trainer_state.safetensors", "trainer_state.json"
# A shipped checkpoint's short card for the app's sidebar, {language code: [Markdown lines]}: the
# data a page shows in its language (ui/models.short_card); README.md stays the full card.
SHORT_CARD = "card.json"
TOKENIZER_KINDS = ("sentencepiece", "sentencepiece-pair")  # config.json "tokenizer"; absent: 1st
MAX_WEIGHTS_BYTES = 1 << 30  # 1 GiB: far above any model this app trains
MAX_WEIGHTS_HEADER_BYTES = 1 << 20  # a real header lists a few hundred tensors in tens of kB
MAX_JSON_BYTES = 8 << 20
ALLOWED_DTYPES = {torch.float32, torch.float16, torch.bfloat16}


class CheckpointError(ValueError):
    """A checkpoint that cannot be used; the message is one line saying why."""


@dataclass
class Checkpoint:
    model: Transformer
    tokenizer: Any
    model_config: ModelConfig
    train_config: dict = field(default_factory=dict)
    history: dict = field(default_factory=dict)
    card: str = ""
    path: Path | None = None


# -- weights -----------------------------------------------------------------------------------
def unique_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """state_dict without aliases: tied matrices (embeddings, generator) appear once, under the
    first name that holds them."""
    seen: set[int] = set()
    out: dict[str, torch.Tensor] = {}
    for name, t in model.state_dict().items():
        key = t.data_ptr()
        if key in seen:
            continue
        seen.add(key)
        out[name] = t
    return out


def recover(path: str | os.PathLike) -> bool:
    """If `path` is missing but a previous swap left its old copy aside (a kill between the two
    renames of _atomic_dir), put the old copy back. Returns True when something was restored."""
    path = Path(path)
    if path.exists() or not path.parent.is_dir():
        return False
    olds = sorted(path.parent.glob(f".{path.name}.old-*"), key=lambda p: p.stat().st_mtime)
    if not olds:
        return False
    os.replace(olds[-1], path)
    return True


def _atomic_dir(path: Path, write) -> Path:
    """Write a directory via write(tmp_dir), then swap it into place. An error (full disk, bad
    input) removes the temporary directory and leaves any previous checkpoint untouched; a kill
    between the two renames is repaired by recover() (called here and by the loader)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    recover(path)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.tmp-", dir=path.parent))
    old = None
    try:
        write(tmp)
        for f in tmp.iterdir():
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
        olds = []
        for _ in range(3):
            # A reader's recover() may put an old copy back between our two renames (a page
            # loading `last` of a live run): move it aside again rather than fail the run.
            if path.exists():
                old = path.parent / f".{path.name}.old-{uuid.uuid4().hex[:8]}"
                os.replace(path, old)
                olds.append(old)
            try:
                os.replace(tmp, path)
                break
            except OSError:
                if not path.exists():
                    raise
        else:
            raise OSError(f"{path}: could not swap the new checkpoint into place")
        for o in olds:
            shutil.rmtree(o, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and not path.exists():
            os.replace(old, path)  # the new copy never arrived: the old one goes back
        raise
    return path


def _write_json(p: Path, obj: Any) -> None:
    p.write_text(json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False) + "\n",
                 encoding="utf-8")


def save_checkpoint(path: str | os.PathLike, model: Transformer, tokenizer, *,
                    train_config: dict | None = None, history: dict | None = None,
                    card: str | None = None, trainer_state: dict | None = None,
                    weights_dtype: str = "float32") -> Path:
    if weights_dtype not in ("float32", "float16"):
        raise ValueError(f"weights_dtype: must be float32 or float16 (got {weights_dtype!r})")
    dtype = torch.float16 if weights_dtype == "float16" else torch.float32
    tensors = {k: v.detach().to("cpu", dtype).contiguous() for k, v in unique_state(model).items()}
    weights = st_save_bytes(tensors, metadata={"format": FORMAT})
    if tokenizer is None:
        tok_files = {}
    elif hasattr(tokenizer, "files"):  # a PairTokenizer: source.spm, target.spm, vocab.json
        tok_files = tokenizer.files()
    else:  # a Tokenizer: one SentencePiece model
        tok_files = {TOKENIZER: tokenizer.to_bytes()}
    config = {"format": FORMAT, "model": model.cfg.to_dict(), "train": train_config or {},
              "weights_dtype": weights_dtype}
    if getattr(tokenizer, "kind", TOKENIZER_KINDS[0]) != TOKENIZER_KINDS[0]:
        config["tokenizer"] = tokenizer.kind
    state_pair = _encode_state(trainer_state) if trainer_state is not None else None

    def write(d: Path) -> None:
        (d / WEIGHTS).write_bytes(weights)
        _write_json(d / CONFIG, config)
        for name, blob in tok_files.items():
            (d / name).write_bytes(blob)
        _write_json(d / HISTORY, history or {})
        (d / CARD).write_text(card or default_card(model.cfg, train_config), encoding="utf-8")
        if state_pair is not None:
            (d / STATE_TENSORS).write_bytes(st_save_bytes(state_pair[0]) if state_pair[0]
                                            else st_save_bytes({}))
            _write_json(d / STATE_JSON, state_pair[1])

    return _atomic_dir(Path(path), write)


def default_card(cfg: ModelConfig, train_config: dict | None) -> str:
    tc = train_config or {}
    return (f"# Checkpoint\n\nTask: {tc.get('task', 'unknown')}\n\n"
            f"Model: d_model={cfg.d_model}, heads={cfg.n_heads}, layers={cfg.n_encoder_layers}+"
            f"{cfg.n_decoder_layers}, d_ff={cfg.d_ff}, vocab={cfg.vocab_size}\n")


# -- loading -----------------------------------------------------------------------------------
def _read_json(p: Path, what: str) -> Any:
    if not p.is_file():
        raise CheckpointError(f"{what}: missing")
    if p.stat().st_size > MAX_JSON_BYTES:
        raise CheckpointError(f"{what}: larger than {MAX_JSON_BYTES >> 20} MiB")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{what}: not valid JSON ({str(e).splitlines()[0]})") from None
    except RecursionError:
        raise CheckpointError(f"{what}: nested too deeply") from None


def read_config(path: str | os.PathLike) -> tuple[ModelConfig, dict, dict]:
    """Validate config.json alone (cheap: the sidebar lists checkpoints with it)."""
    raw = _read_json(Path(path) / CONFIG, CONFIG)
    if not isinstance(raw, dict) or "model" not in raw:
        raise CheckpointError(f"{CONFIG}: expected an object with a 'model' field")
    if raw.get("format") != FORMAT:
        raise CheckpointError(f"{CONFIG}: format must be {FORMAT!r} (got {raw.get('format')!r})")
    try:
        cfg = ModelConfig.from_dict(raw["model"])
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"{CONFIG}: {e}") from None
    train = raw.get("train") or {}
    if not isinstance(train, dict):
        raise CheckpointError(f"{CONFIG}: 'train' must be an object")
    if raw.get("tokenizer", TOKENIZER_KINDS[0]) not in TOKENIZER_KINDS:
        raise CheckpointError(f"{CONFIG}: 'tokenizer' must be one of {', '.join(TOKENIZER_KINDS)}")
    return cfg, train, raw


def _check_weights_header(p: Path, max_tensors: int | None) -> None:
    """The safetensors header read on its own first (8 bytes of length, then JSON): refused when
    it is larger than MAX_WEIGHTS_HEADER_BYTES or lists far more tensors than the model has
    (over twice as many), before the whole file is parsed (issue 22, J: a 1 MB upload listing
    400,000 tensors)."""
    with open(p, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise CheckpointError(f"{WEIGHTS}: not a readable safetensors file (too short)")
        n = int.from_bytes(head, "little")
        if n > MAX_WEIGHTS_HEADER_BYTES:
            raise CheckpointError(f"{WEIGHTS}: its header of {n:,} bytes is larger than "
                                  f"{MAX_WEIGHTS_HEADER_BYTES:,} bytes")
        if max_tensors is None:
            return
        try:
            header = json.loads(f.read(n))
        except (ValueError, RecursionError):
            raise CheckpointError(f"{WEIGHTS}: not a readable safetensors file (its header is "
                                  "not JSON)") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{WEIGHTS}: not a readable safetensors file (its header is not "
                              "an object)")
    count = len(header) - ("__metadata__" in header)
    if count > 2 * max_tensors + 16:  # a few too many get check_weights' detailed message
        raise CheckpointError(f"{WEIGHTS}: lists {count:,} tensors, far more than the "
                              f"{max_tensors:,} of the model its config describes")


def _read_weights(p: Path, max_tensors: int | None = None) -> dict[str, torch.Tensor]:
    if not p.is_file():
        raise CheckpointError(f"{WEIGHTS}: missing")
    if p.stat().st_size > MAX_WEIGHTS_BYTES:
        raise CheckpointError(f"{WEIGHTS}: larger than {MAX_WEIGHTS_BYTES >> 20} MiB")
    _check_weights_header(p, max_tensors)
    try:
        return st_load_bytes(p.read_bytes())
    except (SafetensorError, ValueError, RuntimeError, OverflowError, TypeError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise CheckpointError(f"{WEIGHTS}: not a readable safetensors file ({msg})") from None


def check_weights(model: Transformer, tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Names, shapes, dtypes and finiteness against the model the config builds; returns float32
    copies."""
    expected = {k: tuple(v.shape) for k, v in unique_state(model).items()}
    missing = sorted(set(expected) - set(tensors))
    extra = sorted(set(tensors) - set(expected))
    if missing:
        raise CheckpointError(f"{WEIGHTS}: missing tensor(s) {missing[:3]}"
                              f"{' and more' if len(missing) > 3 else ''}")
    if extra:
        raise CheckpointError(f"{WEIGHTS}: unexpected tensor(s) {extra[:3]}"
                              f"{' and more' if len(extra) > 3 else ''}")
    out = {}
    for name, shape in expected.items():
        t = tensors[name]
        if t.dtype not in ALLOWED_DTYPES:
            raise CheckpointError(f"{WEIGHTS}: {name} has dtype {t.dtype}, expected a float type")
        if tuple(t.shape) != shape:
            raise CheckpointError(f"{WEIGHTS}: {name} has shape {tuple(t.shape)}, expected {shape}")
        t = t.float()
        if not torch.isfinite(t).all():
            raise CheckpointError(f"{WEIGHTS}: {name} contains NaN or infinite values")
        out[name] = t
    return out


def _name(path: Path) -> str:
    return repr(str(path)[-80:])


def estimated_parameters(cfg: ModelConfig) -> int:
    """Parameter count from the shape alone (no allocation), to refuse absurd configs early."""
    d, ff, v = cfg.d_model, cfg.d_ff, cfg.vocab_size
    attn, ffn = 4 * d * d + 4 * d, 2 * d * ff + ff + d
    emb = v * d * (1 if cfg.tie_embeddings else 3)
    return (emb + cfg.n_encoder_layers * (attn + ffn + 4 * d)
            + cfg.n_decoder_layers * (2 * attn + ffn + 6 * d))


def load_checkpoint(path: str | os.PathLike, device: str = "cpu") -> Checkpoint:
    path = Path(path)
    try:
        recover(path)
        is_dir = path.is_dir()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        is_dir = False
    if not is_dir:
        raise CheckpointError(f"{_name(path)}: not a checkpoint directory")
    cfg, train, raw = read_config(path)
    weights_bytes = (path / WEIGHTS).stat().st_size if (path / WEIGHTS).is_file() else 0
    n_params = estimated_parameters(cfg)
    if 2 * n_params > max(weights_bytes, 0) * 1.05 + (1 << 20):  # float16 is the smallest
        raise CheckpointError(f"{CONFIG}: describes a model of {n_params:,} parameters, more "
                              f"than {WEIGHTS} ({weights_bytes:,} bytes) can hold")
    try:
        model = Transformer(cfg)
    except (RuntimeError, MemoryError) as e:
        raise CheckpointError(f"{CONFIG}: the model cannot be built ({type(e).__name__})") from None
    tensors = check_weights(model, _read_weights(path / WEIGHTS,
                                                 max_tensors=len(unique_state(model))))
    tokenizer = load_tokenizer(path, cfg, raw.get("tokenizer", TOKENIZER_KINDS[0]))
    missing, unexpected = model.load_state_dict(tensors, strict=False)
    # Aliased (tied) names are filled through their shared storage.
    aliases = set(model.state_dict()) - set(tensors)
    if set(missing) - aliases or unexpected:
        raise CheckpointError(f"{WEIGHTS}: could not be loaded into the model")
    model.to(device).eval()
    history = _read_json(path / HISTORY, HISTORY) if (path / HISTORY).exists() else {}
    card = (path / CARD).read_text(encoding="utf-8", errors="replace") if (path / CARD).exists() else ""
    return Checkpoint(model=model, tokenizer=tokenizer, model_config=cfg, train_config=train,
                      history=history if isinstance(history, dict) else {}, card=card, path=path)


def load_tokenizer(path: Path, cfg: ModelConfig, kind: str = TOKENIZER_KINDS[0]):
    if kind == "sentencepiece-pair":
        return _load_pair_tokenizer(Path(path), cfg)
    p = Path(path) / TOKENIZER
    if not p.is_file():
        raise CheckpointError(f"{TOKENIZER}: missing")
    if p.stat().st_size > 64 << 20:
        raise CheckpointError(f"{TOKENIZER}: larger than 64 MiB")
    try:
        tok = Tokenizer.from_bytes(p.read_bytes())
    except Exception as e:  # sentencepiece raises RuntimeError/OSError on bad protobufs
        raise CheckpointError(f"{TOKENIZER}: not a SentencePiece model ({type(e).__name__})") from None
    if tok.vocab_size != cfg.vocab_size:
        raise CheckpointError(f"{TOKENIZER}: vocabulary of {tok.vocab_size} pieces, but the model "
                              f"expects {cfg.vocab_size}")
    return tok


def _load_pair_tokenizer(path: Path, cfg: ModelConfig):
    try:
        tok = PairTokenizer.load(path)
    except ValueError as e:
        raise CheckpointError(str(e)) from None
    if tok.vocab_size != cfg.vocab_size:
        raise CheckpointError(f"vocab.json: {tok.vocab_size} pieces, but the model expects "
                              f"{cfg.vocab_size}")
    got, want = (tok.pad_id, tok.eos_id, tok.unk_id), (cfg.pad_id, cfg.eos_id, cfg.unk_id)
    if got != want:
        raise CheckpointError(f"vocab.json: pad/eos/unk ids {got}, but {CONFIG} says {want}")
    return tok


# -- trainer state (optimizer, RNG, data position) without pickle ------------------------------
def _encode_state(obj: Any) -> tuple[dict[str, torch.Tensor], Any]:
    tensors: dict[str, torch.Tensor] = {}

    def enc(x: Any, key: str) -> Any:
        if isinstance(x, torch.Tensor):
            tensors[key] = x.detach().cpu().contiguous()
            return {"__tensor__": key}
        if isinstance(x, dict):
            return {"__dict__": [[k, enc(v, f"{key}.{k}")] for k, v in x.items()]}
        if isinstance(x, (list, tuple)):
            return {"__list__": [enc(v, f"{key}.{i}") for i, v in enumerate(x)],
                    "tuple": isinstance(x, tuple)}
        if isinstance(x, float) and not math.isfinite(x):
            return {"__float__": repr(x)}
        if x is None or isinstance(x, (bool, int, float, str)):
            return x
        raise TypeError(f"trainer state: cannot store {type(x).__name__} at {key}")

    return tensors, enc(obj, "s")


def _decode_state(tensors: dict[str, torch.Tensor], obj: Any) -> Any:
    if isinstance(obj, dict):
        if "__tensor__" in obj:
            return tensors[obj["__tensor__"]]
        if "__dict__" in obj:
            return {k: _decode_state(tensors, v) for k, v in obj["__dict__"]}
        if "__list__" in obj:
            items = [_decode_state(tensors, v) for v in obj["__list__"]]
            return tuple(items) if obj.get("tuple") else items
        if "__float__" in obj:
            return float(obj["__float__"])
    return obj


def load_trainer_state(path: str | os.PathLike) -> dict:
    path = Path(path)
    js = _read_json(path / STATE_JSON, STATE_JSON)
    p = path / STATE_TENSORS
    if not p.is_file():
        raise CheckpointError(f"{STATE_TENSORS}: missing")
    try:
        tensors = st_load_bytes(p.read_bytes())
    except (SafetensorError, ValueError, RuntimeError) as e:
        raise CheckpointError(f"{STATE_TENSORS}: unreadable ({str(e).splitlines()[0]})") from None
    try:
        return _decode_state(tensors, js)
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(f"{STATE_JSON}: inconsistent with {STATE_TENSORS} ({e})") from None
