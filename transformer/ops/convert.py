"""Convert a pretrained MarianMT (OPUS-MT) model into an ordinary Attention Lab checkpoint.

    python -m transformer.convert marian SRC --out DIR [--allow-pickle] [--revision REV]

SRC is a local MarianMT directory (config.json, model.safetensors, source.spm, target.spm,
vocab.json) or a Hugging Face hub name such as Helsinki-NLP/opus-mt-en-de (downloaded with
huggingface_hub; needs internet). DIR holds model.safetensors, config.json, the two SentencePiece
models and vocab.json, and a model card naming the source, its licence and this command.

Marian is the paper's architecture with five differences, each an option of the one model class
(transformer.core.config.ModelConfig): swish FFN (activation="silu"), a sinusoidal table with the sines
in the first half of the columns (pe_layout="halves"), a bias on the tied generator
(logits_bias), decoding that starts from <pad> and never emits it (bos_id = pad_id,
emit_pad=False), and two SentencePiece models over one vocabulary (transformer.core.pair_tokenizer).
tests/test_convert.py holds a converted model equal to transformers' own.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import torch
from safetensors.torch import load_file

from transformer.core.checkpoint import CheckpointError, save_checkpoint
from transformer.core.cli_util import OneLineParser
from transformer.core.config import ModelConfig
from transformer.core.model import Transformer, sinusoidal_table
from transformer.core.pair_tokenizer import FILES as TOKENIZER_FILES
from transformer.core.pair_tokenizer import PairTokenizer
from transformer.probing.knowledge import domain_for

ACTIVATIONS = {"relu": "relu", "gelu": "gelu", "swish": "silu", "silu": "silu"}
HUB_FILES = ["config.json", "generation_config.json", "model.safetensors", "README.md",
             *TOKENIZER_FILES]
PICKLE = "pytorch_model.bin"


class ConvertError(ValueError):
    """A source that cannot be converted; the message says why in one line."""


# -- reading the source -------------------------------------------------------------------------
def fetch(name: str, revision: str | None, allow_pickle: bool) -> Path:
    """Download a hub repository's needed files (never the pickle unless allowed)."""
    try:  # deferred: huggingface_hub is optional, needed only to download from the hub
        from huggingface_hub import snapshot_download
    except ImportError:
        raise ConvertError(f"{name!r} is not a directory, and downloading it needs "
                           "huggingface_hub (pip install huggingface_hub)") from None
    patterns = HUB_FILES + ([PICKLE] if allow_pickle else [])
    try:
        return Path(snapshot_download(name, revision=revision, allow_patterns=patterns))
    except Exception as e:  # network, unknown repository, gated model
        raise ConvertError(f"could not download {name!r}: {type(e).__name__}: "
                           f"{str(e).splitlines()[0] if str(e) else ''}") from None


def read_weights(src: Path, allow_pickle: bool) -> dict[str, torch.Tensor]:
    """model.safetensors; pytorch_model.bin (a pickle) only when allowed, and only through
    torch.load(weights_only=True) on torch >= 2.6 (which unpickles tensors and plain containers,
    never arbitrary objects)."""
    if (src / "model.safetensors").is_file():
        try:
            return load_file(str(src / "model.safetensors"))
        except Exception as e:  # SafetensorError, OSError: a truncated or foreign file
            raise ConvertError(f"model.safetensors: not readable ({type(e).__name__})") from None
    if not (src / PICKLE).is_file():
        raise ConvertError(f"{src}: no model.safetensors" + (
            f" nor {PICKLE}" if allow_pickle else f"; if the model has only {PICKLE} (a pickle), "
            "pass --allow-pickle to fetch and read it with torch.load(weights_only=True)"))
    if not allow_pickle:
        raise ConvertError(f"{src} has only {PICKLE}, a pickle: pass --allow-pickle to read it "
                           "with torch.load(weights_only=True)")
    if torch.torch_version.TorchVersion(torch.__version__) < (2, 6):
        raise ConvertError(f"reading {PICKLE} needs torch >= 2.6 (weights_only=True is not safe "
                           f"enough before it); this is torch {torch.__version__}")
    try:
        sd = torch.load(src / PICKLE, map_location="cpu", weights_only=True)
    except Exception as e:  # UnpicklingError: something other than tensors in plain containers
        raise ConvertError(f"{PICKLE}: refused or unreadable ({type(e).__name__}: "
                           f"{str(e).splitlines()[0][:200] if str(e) else ''})") from None
    if not isinstance(sd, dict) or not all(isinstance(v, torch.Tensor) for v in sd.values()):
        raise ConvertError(f"{PICKLE}: not a dictionary of tensors")
    return sd


def _json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConvertError(f"{path.name}: not valid JSON ({type(e).__name__})") from None


def marian_config(hf: dict, gen: dict, tok: PairTokenizer) -> ModelConfig:
    """transformers' MarianConfig (config.json, generation_config.json) -> ModelConfig; refuses
    what the one model class cannot be (pre-LN, unshared vocabularies, unequal stacks)."""
    if hf.get("model_type") != "marian":
        raise ConvertError(f"config.json: model_type is {hf.get('model_type')!r}, not 'marian'")
    refuse = {"normalize_before": True, "normalize_embedding": True,
              "add_final_layer_norm": True, "static_position_embeddings": False}
    for key, bad in refuse.items():
        if key in hf and hf[key] == bad:
            raise ConvertError(f"config.json: {key}={bad} is not supported")
    v = hf.get("vocab_size")
    if hf.get("decoder_vocab_size") not in (None, v) or not hf.get(
            "share_encoder_decoder_embeddings", True) or not hf.get("tie_word_embeddings", True):
        raise ConvertError("config.json: separate source and target vocabularies are not "
                           "supported (one shared, tied vocabulary only)")
    for a, b in (("encoder_attention_heads", "decoder_attention_heads"),
                 ("encoder_ffn_dim", "decoder_ffn_dim")):
        if hf.get(a) != hf.get(b):
            raise ConvertError(f"config.json: {a}={hf.get(a)} differs from {b}={hf.get(b)}")
    act = ACTIVATIONS.get(hf.get("activation_function", "gelu"))
    if act is None:
        raise ConvertError(f"config.json: activation_function {hf.get('activation_function')!r}"
                           f" is not one of {', '.join(ACTIVATIONS)}")
    pad, eos = hf.get("pad_token_id"), hf.get("eos_token_id")
    if isinstance(eos, list) and len(eos) == 1:  # newer configs may list it
        eos = eos[0]
    start = gen.get("decoder_start_token_id", hf.get("decoder_start_token_id", pad))
    if (pad, eos) != (tok.pad_id, tok.eos_id):
        raise ConvertError(f"config.json: pad/eos ids {(pad, eos)} differ from vocab.json's "
                           f"{(tok.pad_id, tok.eos_id)}")
    bad_words = gen.get("bad_words_ids", hf.get("bad_words_ids")) or []
    try:
        return ModelConfig(
            vocab_size=v, d_model=hf["d_model"], n_heads=hf["encoder_attention_heads"],
            n_encoder_layers=hf["encoder_layers"], n_decoder_layers=hf["decoder_layers"],
            d_ff=hf["encoder_ffn_dim"], dropout=float(hf.get("dropout", 0.1)),
            attn_dropout=float(hf.get("attention_dropout", 0.0)),
            max_len=hf.get("max_position_embeddings", 512), norm_first=False,
            positional="sinusoidal", tie_embeddings=True, layer_norm_eps=1e-5,
            pad_id=pad, bos_id=start, eos_id=eos, unk_id=tok.unk_id, activation=act,
            pe_layout="halves", scale_embedding=bool(hf.get("scale_embedding", False)),
            logits_bias=True, emit_pad=[pad] not in bad_words)
    except (KeyError, TypeError, ValueError) as e:
        raise ConvertError(f"config.json: {e}") from None


# -- the weights --------------------------------------------------------------------------------
def convert_weights(sd: dict[str, torch.Tensor], cfg: ModelConfig) -> dict[str, torch.Tensor]:
    """transformers' Marian state dict -> this project's names. Raises on anything left over."""
    sd = {k.removeprefix("model."): v for k, v in sd.items()}  # MarianMTModel -> MarianModel names
    used: set[str] = set()

    def take(name: str) -> torch.Tensor:
        if name not in sd:
            raise ConvertError(f"weights: {name} is missing")
        used.add(name)
        return sd[name].float()

    # One embedding matrix (V,D) for source, target and the generator; all copies must agree.
    names = [n for n in ("shared.weight", "encoder.embed_tokens.weight",
                         "decoder.embed_tokens.weight", "lm_head.weight") if n in sd]
    if not names:
        raise ConvertError("weights: no token embedding (shared.weight) found")
    emb = take(names[0])
    for n in names[1:]:
        if not torch.equal(take(n), emb):
            raise ConvertError(f"weights: {n} differs from {names[0]}: embeddings are not tied")
    out = {"src_embed.token.weight": emb,  # (V,D)
           "generator.bias": take("final_logits_bias").reshape(-1)}  # (1,V) -> (V,)

    table = sinusoidal_table(cfg.max_len, cfg.d_model, "halves")  # (L,D), what the model computes
    for n in ("encoder.embed_positions.weight", "decoder.embed_positions.weight"):
        if n in sd:  # older exports store the table: it must be the one we compute
            if not torch.allclose(take(n), table, atol=1e-6):
                raise ConvertError(f"weights: {n} is not Marian's sinusoidal table")

    def attention(hf: str, ours: str) -> None:
        # q_proj, k_proj, v_proj: 3 x (D,D) -> in_proj (3D,D), rows W_Q | W_K | W_V
        for part in ("weight", "bias"):
            out[f"{ours}.in_proj.{part}"] = torch.cat(
                [take(f"{hf}.{p}_proj.{part}") for p in "qkv"], dim=0)
            out[f"{ours}.out_proj.{part}"] = take(f"{hf}.out_proj.{part}")  # (D,D), (D,)

    def copy(hf: str, ours: str) -> None:
        for part in ("weight", "bias"):
            out[f"{ours}.{part}"] = take(f"{hf}.{part}")

    # Both use the layer paths encoder.layers.{i} / decoder.layers.{i}; inside a layer, post-LN
    # sublayer n's LayerNorm is sublayers.{n}.norm (self-attn, [cross-attn,] FFN).
    for stack, n_layers in (("encoder", cfg.n_encoder_layers), ("decoder", cfg.n_decoder_layers)):
        for i in range(n_layers):
            layer = f"{stack}.layers.{i}"
            attention(f"{layer}.self_attn", f"{layer}.self_attn")
            copy(f"{layer}.self_attn_layer_norm", f"{layer}.sublayers.0.norm")
            if stack == "decoder":
                attention(f"{layer}.encoder_attn", f"{layer}.cross_attn")
                copy(f"{layer}.encoder_attn_layer_norm", f"{layer}.sublayers.1.norm")
            copy(f"{layer}.fc1", f"{layer}.ffn.w1")  # (d_ff,D)
            copy(f"{layer}.fc2", f"{layer}.ffn.w2")  # (D,d_ff)
            last = 2 if stack == "decoder" else 1
            copy(f"{layer}.final_layer_norm", f"{layer}.sublayers.{last}.norm")
    left = sorted(set(sd) - used)
    if left:
        raise ConvertError(f"weights: {len(left)} tensor(s) this converter does not understand, "
                           f"e.g. {left[:3]}")
    return out


# -- the model card -----------------------------------------------------------------------------
def licence_of(src: Path) -> str:
    """The `license:` of the source's model card front matter, if it has one."""
    card = src / "README.md"
    text = card.read_text(encoding="utf-8", errors="replace") if card.is_file() else ""
    m = re.match(r"---\s*\n(.*?)\n---", text, re.S)
    lic = re.search(r"^license:\s*(\S.*)$", m.group(1), re.M) if m else None
    return lic.group(1).strip().strip("'\"") if lic else "not stated in the source (check it)"


def model_card(source: str, licence: str, command: str, cfg: ModelConfig, n_params: int) -> str:
    return f"""# Converted MarianMT model: {source}

- **Source:** `{source}` (MarianMT, trained with Marian by the OPUS-MT project; weights taken
  unchanged).
- **Licence of the weights:** {licence}. Cite and credit the source as its licence asks.
- **Converted with:** `{command}`
- **Shape:** {cfg.n_encoder_layers} + {cfg.n_decoder_layers} layers, d_model {cfg.d_model},
  {cfg.n_heads} heads, d_ff {cfg.d_ff}, vocabulary {cfg.vocab_size:,} (one shared by source and
  target), {n_params:,} parameters, positions up to {cfg.max_len}.
- **How it differs from the paper's base model** (each an option of the same model class):
  FFN activation {cfg.activation} (Marian's swish) instead of ReLU; the sinusoidal table's sines in
  the first half of the columns, cosines in the second (same values, other order); a bias on the
  tied output layer; decoding starts from `<pad>` (shown as the first decoder token) and never
  emits it; source and target text are cut by two SentencePiece models (source.spm, target.spm)
  numbered by one vocab.json.
- **Equivalence:** `tests/test_convert.py` converts a small random MarianMTModel and checks the
  logits and every attention weight against transformers to 1e-5, greedy and beam output token
  for token (beam: `lp="length"`, transformers' length penalty).
- **Decoding here vs transformers:** beam search in this app uses GNMT's length penalty unless
  asked otherwise; `transformer.core.decode.beam_search(..., lp="length", early_stopping=False)`
  reproduces `generate(num_beams=..., length_penalty=alpha)`.
"""


# -- the command --------------------------------------------------------------------------------
def convert_marian(source: str, out: str | Path, *, allow_pickle: bool = False,
                   revision: str | None = None, command: str | None = None) -> Path:
    src = Path(source)
    if not src.is_dir():
        if src.exists() or not re.fullmatch(r"[\w.-]+/[\w.-]+", source):
            raise ConvertError(f"{source!r}: not a directory nor a hub name like "
                               "Helsinki-NLP/opus-mt-en-de")
        src = fetch(source, revision, allow_pickle)
    try:
        tok = PairTokenizer.load(src)
    except ValueError as e:
        raise ConvertError(f"tokenizer: {e}") from None
    cfg = marian_config(_json(src / "config.json"), _json(src / "generation_config.json"), tok)
    if tok.vocab_size != cfg.vocab_size:
        raise ConvertError(f"vocab.json has {tok.vocab_size} pieces, config.json says "
                           f"{cfg.vocab_size}")
    tensors = convert_weights(read_weights(src, allow_pickle), cfg)
    model = Transformer(cfg)
    model.load_state_dict(tensors, strict=False)
    missing = set(model.state_dict()) - set(tensors) - {"tgt_embed.token.weight",
                                                         "generator.weight"}  # tied aliases
    if missing:
        raise ConvertError(f"weights: nothing for {sorted(missing)[:3]}")
    model.eval()
    command = command or "python -m transformer.convert marian " + shlex.join(
        [source, "--out", str(out)] + (["--allow-pickle"] if allow_pickle else []))
    card = model_card(source, licence_of(src), command, cfg, model.num_parameters())
    train = {"task": "converted", "extra": {"source": source, "converter": "marian",
                                            "revision": revision}}
    # what the model knows, as far as a converted model can say: its source; no word list (the
    # sentence boxes then mark only words cut into many pieces)
    knowledge = {"domain": domain_for("converted", source=source),
                 "seen_words": [], "seen_words_complete": False,
                 "coverage": {"vocab_size": tok.vocab_size}, "examples": []}
    return save_checkpoint(out, model, tok, train_config=train, history={"knowledge": knowledge},
                           card=card)


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(
        prog="python -m transformer.convert",
        description="Convert a pretrained model into an Attention Lab checkpoint.")
    sub = ap.add_subparsers(dest="family", required=True, parser_class=OneLineParser)
    m = sub.add_parser("marian", help="a MarianMT (OPUS-MT) model",
                       description="Convert a MarianMT model (e.g. Helsinki-NLP/opus-mt-en-de).")
    m.add_argument("source", metavar="SRC",
                   help="a local MarianMT directory (config.json, model.safetensors, source.spm, "
                        "target.spm, vocab.json) or a hub name (needs internet and "
                        "huggingface_hub)")
    m.add_argument("--out", required=True, metavar="DIR", help="checkpoint directory to write")
    m.add_argument("--revision", default=None, help="hub revision (branch, tag or commit)")
    m.add_argument("--allow-pickle", action="store_true",
                   help=f"when the source has no model.safetensors, read {PICKLE}. It is a "
                        "pickle: it is read only with this flag, only with "
                        "torch.load(weights_only=True), and only on torch >= 2.6")
    m.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, args.threads))

    try:
        path = convert_marian(args.source, args.out, allow_pickle=args.allow_pickle,
                              revision=args.revision)
    except (ConvertError, CheckpointError, OSError) as e:
        ap.error(str(e))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
