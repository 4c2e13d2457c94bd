"""`python -m transformer.convert marian`: a converted MarianMT model equals transformers' own.

Offline: tiny SentencePiece models are trained here (English source, German target, one
vocab.json over both, Marian's specials </s>=0, <unk>=1, <pad>=last), a tiny MarianMTModel is
built with transformers (swish, scaled embeddings, final_logits_bias, never emits <pad>), saved,
converted, and compared: tokenizer, logits and every attention weight (to 1e-5), greedy and beam
output token for token, and the inspect CLI's output text.

Two models: "random" (transformers' initialisation, then weights redrawn wider so attention is
not uniform) and "trained" (80 Adam steps on six sentence pairs, so outputs differ from step to
step and end at different lengths: a beam search has something to decide).
"""
from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest
import torch

transformers = pytest.importorskip(
    "transformers",
    reason="transformers is a test-only dependency (pip install -r requirements-dev.txt)")
import sentencepiece as spm  # noqa: E402

from transformer.ops import convert  # noqa: E402
from transformer.core.checkpoint import load_checkpoint  # noqa: E402
from transformer.core.decode import beam_search, greedy, translate  # noqa: E402
from transformer.core.pair_tokenizer import PairTokenizer  # noqa: E402
from transformer.core.text import source_ids  # noqa: E402
from transformer.core.trace import record  # noqa: E402

EN = ["The dog saw the cup because it was hungry .", "A man rides a bike down the street .",
      "The cat did not cross the road because it was too tired .", "Its tail was long .",
      "Two women are sitting on a bench in the park .", "The girl threw the ball to her brother ."]
DE = ["Der Hund sah die Tasse , weil er hungrig war .",
      "Ein Mann fährt mit dem Fahrrad die Straße hinunter .",
      "Die Katze überquerte die Straße nicht , weil sie zu müde war .",
      "Sein Schwanz war lang .",
      "Zwei Frauen sitzen auf einer Bank im Park .", "Das Mädchen warf den Ball ihrem Bruder zu ."]
UNSEEN = ["The girl saw the dog because it was tired .", "A cat rides the bike .",
          "Zwölf Äpfel , 3 emoji 🙂 and x"]
MAX_NEW = 60
TOL = 1e-5


def _spm(lines: list[str]) -> bytes:
    w = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines * 20), model_writer=w,
                                   vocab_size=90, model_type="unigram", hard_vocab_limit=False,
                                   minloglevel=2, num_threads=1)
    return w.getvalue()


def _vocab(*models: bytes) -> dict[str, int]:
    pieces: set[str] = set()
    for blob in models:
        sp = spm.SentencePieceProcessor()
        sp.LoadFromSerializedProto(blob)
        pieces |= {sp.id_to_piece(i) for i in range(sp.get_piece_size())
                   if not (sp.is_control(i) or sp.is_unknown(i))}
    vocab = {"</s>": 0, "<unk>": 1}
    for p in sorted(pieces):
        vocab[p] = len(vocab)
    vocab["<pad>"] = len(vocab)
    return vocab


def _build(d: Path, kind: str):
    """Write a MarianMT directory (as transformers saves one) and return (model, tokenizer)."""
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    d.mkdir(parents=True)
    src, tgt = _spm(EN), _spm(DE)
    (d / "source.spm").write_bytes(src)
    (d / "target.spm").write_bytes(tgt)
    vocab = _vocab(src, tgt)
    (d / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    with warnings.catch_warnings():  # "Recommended: pip install sacremoses"
        warnings.simplefilter("ignore")
        tok = MarianTokenizer(source_spm=str(d / "source.spm"), target_spm=str(d / "target.spm"),
                              vocab=str(d / "vocab.json"))
    tok.save_pretrained(d)
    (d / "README.md").write_text("---\nlanguage:\n- en\n- de\nlicense: cc-by-4.0\n---\n# tiny\n")
    v = len(vocab)
    cfg = MarianConfig(vocab_size=v, d_model=32, encoder_layers=2, decoder_layers=2,
                       encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
                       decoder_ffn_dim=64, max_position_embeddings=64,
                       activation_function="swish", scale_embedding=True, pad_token_id=v - 1,
                       eos_token_id=0, decoder_start_token_id=v - 1, forced_eos_token_id=None)
    torch.manual_seed(0)
    model = MarianMTModel(cfg)
    if kind == "random":
        with torch.no_grad():
            for name, p in model.named_parameters():
                if "embed_positions" not in name:
                    p.normal_(1.0 if "layer_norm.weight" in name else 0.0, 0.3)
            model.final_logits_bias.normal_(0.0, 1.0)
    else:
        batch = tok(EN, text_target=DE, return_tensors="pt", padding=True)
        labels = batch["labels"].masked_fill(batch["labels"] == v - 1, -100)
        opt = torch.optim.Adam(model.parameters(), lr=3e-3)
        model.train()
        for _ in range(80):
            loss = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                         labels=labels).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.generation_config.bad_words_ids = [[v - 1]]  # as OPUS-MT's: never generate <pad>
    model.generation_config.forced_eos_token_id = None
    model.eval()
    model.save_pretrained(d)
    return model, tok


@pytest.fixture(scope="module", params=["random", "trained"])
def pair(request, tmp_path_factory):
    """(transformers model with eager attention, its tokenizer, our converted checkpoint)."""
    from transformers import MarianMTModel

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp(f"marian-{request.param}")
    _, tok = _build(root / "hf", request.param)
    hf = MarianMTModel.from_pretrained(root / "hf", attn_implementation="eager").eval()
    assert convert.main(["marian", str(root / "hf"), "--out", str(root / "ours")]) == 0
    return hf, tok, load_checkpoint(root / "ours"), root


def _hf_ids(hf_seq: list[int], cfg) -> tuple[list[int], bool]:
    """generate()'s row [start, t1, ..., (eos), pad...] -> (tokens, ended with eos)."""
    body = hf_seq[1:]
    if cfg.eos_id in body:
        return body[:body.index(cfg.eos_id)], True
    return body, False


# -- configuration and tokenizer ----------------------------------------------------------------
def test_converted_config_and_files(pair):
    _, _, ck, root = pair
    cfg = ck.model_config
    assert (cfg.activation, cfg.pe_layout, cfg.scale_embedding, cfg.logits_bias, cfg.emit_pad) \
        == ("silu", "halves", True, True, False)
    assert cfg.bos_id == cfg.pad_id == cfg.vocab_size - 1 and (cfg.eos_id, cfg.unk_id) == (0, 1)
    assert (cfg.d_model, cfg.n_heads, cfg.n_encoder_layers, cfg.d_ff) == (32, 4, 2, 64)
    assert isinstance(ck.tokenizer, PairTokenizer)
    files = {p.name for p in (root / "ours").iterdir()}
    assert {"model.safetensors", "config.json", "source.spm", "target.spm", "vocab.json",
            "README.md"} <= files and "tokenizer.model" not in files
    card = ck.card
    assert "hf" in card and "python -m transformer.convert marian" in card
    assert "**Licence of the weights:** cc-by-4.0" in card  # from the source card's front matter
    # it says what it knows: its source, and no word list (so nothing is called "never seen")
    rec = ck.history["knowledge"]
    assert "OPUS" in rec["domain"]["en"] and "OPUS" in rec["domain"]["zh"]
    from transformer.probing import knowledge
    assert all(m.seen is None for m in knowledge.mark(ck.tokenizer, rec, "a dog runs"))


def test_tokenizer_equals_marian_tokenizer(pair):
    _, tok, ck, _ = pair
    ours = ck.tokenizer
    for text in EN + DE + UNSEEN + [">>deu<< The dog .", "a  b"]:
        assert ours.encode(text) + [ours.eos_id] == tok(text)["input_ids"], text
        assert ours.encode_target(text) + [ours.eos_id] == tok(text_target=text)["input_ids"]
    g = torch.Generator().manual_seed(0)
    for _ in range(30):
        ids = torch.randint(0, ours.vocab_size, (12,), generator=g).tolist()
        assert ours.decode(ids) == tok.decode(ids, skip_special_tokens=True), ids
    ids = ours.encode(EN[0]) + [ours.eos_id]
    assert ours.display(ids)[-1] == "</s>" and ours.pieces(ids) == tok.convert_ids_to_tokens(ids)


# -- logits and every attention weight ----------------------------------------------------------
def _padded(rows: list[list[int]], pad: int) -> torch.Tensor:
    out = torch.full((len(rows), max(map(len, rows))), pad, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, :len(r)] = torch.tensor(r)
    return out


def max_differences(hf, ck, texts: list[str], targets: list[str]) -> dict[str, float]:
    """Teacher-forced batch (padded on both sides) through both models -> max |difference| of
    the logits and of each kind of attention weight, over all layers, heads and real rows."""
    cfg, tok = ck.model_config, ck.tokenizer
    src = _padded([source_ids(tok, t, cfg.max_len)[0] for t in texts], cfg.pad_id)
    tgt = _padded([[cfg.bos_id] + tok.encode_target(t) for t in targets], cfg.pad_id)
    src_keep, tgt_keep = src != cfg.pad_id, tgt != cfg.pad_id
    tgt_keep[:, 0] = True  # the start token is <pad> but real
    with torch.no_grad():
        out = hf(input_ids=src, attention_mask=src_keep.long(), decoder_input_ids=tgt,
                 decoder_attention_mask=tgt_keep.long(), output_attentions=True)
    with torch.inference_mode(), record() as tr:
        logits = ck.model(src, tgt)
    q_src, q_tgt = src_keep[:, None, :, None], tgt_keep[:, None, :, None]  # real query rows
    diffs = {"logits": float(((logits - out.logits).abs() * q_tgt[:, 0]).max())}
    pairs = {"encoder_self": (out.encoder_attentions, "encoder.layers.{}.self_attn", q_src),
             "decoder_self": (out.decoder_attentions, "decoder.layers.{}.self_attn", q_tgt),
             "cross": (out.cross_attentions, "decoder.layers.{}.cross_attn", q_tgt)}
    for kind, (theirs, path, rows) in pairs.items():
        assert len(theirs) == (cfg.n_encoder_layers if kind == "encoder_self"
                               else cfg.n_decoder_layers)
        diffs[kind] = max(float(((tr[f"{path.format(i)}.weights"] - w).abs() * rows).max())
                          for i, w in enumerate(theirs))  # (B,H,T,S) each
    return diffs


def test_logits_and_every_attention_weight_equal_transformers(pair):
    hf, _, ck, _ = pair
    diffs = max_differences(hf, ck, EN[:3] + UNSEEN[:1], DE[:3] + DE[3:4])
    assert max(diffs.values()) <= TOL, diffs


def test_trace_names_unchanged_on_a_converted_model(pair):
    _, _, ck, _ = pair
    src = source_ids(ck.tokenizer, EN[0], 64)[0]
    with torch.inference_mode(), record() as tr:
        ck.model(torch.tensor([src]), torch.tensor([[ck.model_config.bos_id, 5, 6]]))
    for name in ("src_embed.pe", "encoder.layers.1.self_attn.weights",
                 "decoder.layers.0.ffn.hidden",
                 "decoder.layers.1.cross_attn.masked", "decoder.layers.0.norm3.output", "logits"):
        assert name in tr, name
    assert bool(tr["decoder.layers.0.self_attn.mask"][0, 0, 2, 0])  # the <pad> start is visible


# -- decoding -----------------------------------------------------------------------------------
def test_greedy_equals_generate(pair):
    hf, tok, ck, _ = pair
    cfg = ck.model_config
    for text in EN + UNSEEN:
        src = source_ids(ck.tokenizer, text, cfg.max_len)[0]
        seq = hf.generate(torch.tensor([src]), num_beams=1, do_sample=False,
                          max_new_tokens=MAX_NEW)[0].tolist()
        ours = greedy(ck.model, src, max_len=MAX_NEW)
        assert (ours.tokens, ours.finished) == _hf_ids(seq, cfg), text
    batch = tok(EN + UNSEEN, return_tensors="pt", padding=True)  # batched, padded sources
    theirs = tok.batch_decode(hf.generate(**batch, num_beams=1, max_new_tokens=MAX_NEW),
                              skip_special_tokens=True)
    assert translate(ck.model, ck.tokenizer, EN + UNSEEN, beam=1, max_len=MAX_NEW) == theirs


@pytest.mark.parametrize("alpha", [0.6, 1.0])
def test_beam_equals_generate(pair, alpha):
    """beam_search(lp="length") divides by length**alpha as generate does. early_stopping=False
    (generate's default) must agree everywhere; early_stopping=True wherever generate's best
    hypothesis ended (at max_len generate also ranks unfinished ones, this search only when
    none finished)."""
    hf, _, ck, root = pair
    cfg = ck.model_config
    compared = {False: 0, True: 0}
    for text in EN + UNSEEN:
        src = source_ids(ck.tokenizer, text, cfg.max_len)[0]
        for early in (False, True):
            seq = hf.generate(torch.tensor([src]), num_beams=4, do_sample=False,
                              length_penalty=alpha, early_stopping=early,
                              max_new_tokens=MAX_NEW)[0].tolist()
            want, ended = _hf_ids(seq, cfg)
            ours = beam_search(ck.model, src, beam=4, alpha=alpha, max_len=MAX_NEW, lp="length",
                               early_stopping=early)
            if early and not ended:
                continue
            assert (ours.tokens, ours.finished) == (want, ended), (text, early)
            compared[early] += 1
    assert compared[False] == len(EN + UNSEEN)
    if "trained" in root.name:  # the random model's hypotheses rarely end
        assert compared[True] >= 5


def test_inspect_json_output_equals_transformers(pair, capsys):
    from transformer.probing import inspect

    hf, tok, ck, root = pair
    text = EN[0]
    assert inspect.main(["--checkpoint", str(root / "ours"), "--text", text, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    src = source_ids(ck.tokenizer, text, ck.model_config.max_len)[0]
    limit = min(len(src) + 50, ck.model_config.max_len - 1)  # inspect's greedy limit
    seq = hf.generate(**tok([text], return_tensors="pt"), num_beams=1, max_new_tokens=limit)
    assert got["output"] == tok.batch_decode(seq, skip_special_tokens=True)[0]
    assert got["source_tokens"][-1] == "</s>" and got["target_tokens"][0] == "<pad>"
    assert len(got["attention"]["cross"]["layers"]) == 2
    assert len(got["attention"]["cross"]["layers"][0]) == 4  # heads


def test_head_finder_and_ablation_run_on_a_converted_model(pair, capsys):
    """Offline, the head finder runs on a converted model and scores every head; what it finds
    in a random model means nothing (a real download is needed to find heads)."""
    from transformer.probing import heads

    _, _, ck, root = pair
    probe = Path(heads.__file__).parents[1] / "probes" / "natural_pronouns_en.jsonl"
    assert heads.main(["--checkpoint", str(root / "ours"), "--probe", str(probe), "--json",
                       "--threads", "1", "--ablate", "encoder_self:0:1"]) == 0
    out = json.loads(capsys.readouterr().out)
    enc = out["heads"]["encoder_self"]["accuracy"]
    assert len(enc) == 2 and len(enc[0]) == 4 and out["n"] > 0


# -- the command line ---------------------------------------------------------------------------
def test_pickle_weights_need_the_flag(pair, tmp_path, capsys):
    """A pytorch_model.bin is read only with --allow-pickle (torch.load(weights_only=True)), and
    gives the same checkpoint as model.safetensors. It is written here in the layout of the
    OPUS-MT hub exports of 2020 (every tied copy of the embedding, lm_head, both sinusoidal
    tables as transformers computes them) with their legacy config keys."""
    from safetensors.torch import load_file

    hf, _, ck, root = pair
    src = tmp_path / "bin"
    src.mkdir()
    for f in (root / "hf").iterdir():
        if f.name != "model.safetensors":
            (src / f.name).write_bytes(f.read_bytes())
    sd = load_file(root / "hf" / "model.safetensors")
    emb = sd["model.shared.weight"]
    sd.update({"model.encoder.embed_tokens.weight": emb, "model.decoder.embed_tokens.weight": emb,
               "lm_head.weight": emb,
               "model.encoder.embed_positions.weight": hf.model.encoder.embed_positions.weight,
               "model.decoder.embed_positions.weight": hf.model.decoder.embed_positions.weight})
    torch.save({k: v.detach().clone() for k, v in sd.items()}, src / "pytorch_model.bin")
    cfg = json.loads((src / "config.json").read_text())
    cfg.update(normalize_before=False, normalize_embedding=False, add_final_layer_norm=False,
               static_position_embeddings=True, add_bias_logits=False,
               bad_words_ids=[[cfg["pad_token_id"]]])
    (src / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(SystemExit) as e:
        convert.main(["marian", str(src), "--out", str(tmp_path / "a")])
    assert e.value.code == 2 and "--allow-pickle" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
    assert convert.main(["marian", str(src), "--out", str(tmp_path / "b"), "--allow-pickle"]) == 0
    assert (tmp_path / "b" / "model.safetensors").read_bytes() == \
        (root / "ours" / "model.safetensors").read_bytes()
    sd["lm_head.weight"] = emb + 1  # untied copies are refused, not silently dropped
    torch.save({k: v.detach().clone() for k, v in sd.items()}, src / "pytorch_model.bin")
    with pytest.raises(SystemExit):
        convert.main(["marian", str(src), "--out", str(tmp_path / "c"), "--allow-pickle"])
    assert "not tied" in capsys.readouterr().err


def test_help_names_the_pickle_rule(capsys):
    with pytest.raises(SystemExit):
        convert.main(["marian", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "pickle" in text and "weights_only=True" in text and "2.6" in text


@pytest.mark.parametrize("change, message", [
    ({"model_type": "bart"}, "not 'marian'"),
    ({"normalize_before": True}, "normalize_before"),
    ({"share_encoder_decoder_embeddings": False}, "vocabularies"),
    ({"activation_function": "tanh"}, "activation_function"),
    ({"decoder_ffn_dim": 8}, "decoder_ffn_dim"),
])
def test_unsupported_configs_are_refused(pair, tmp_path, change, message, capsys):
    _, _, _, root = pair
    src = tmp_path / "src"
    src.mkdir()
    for f in (root / "hf").iterdir():
        (src / f.name).write_bytes(f.read_bytes())
    cfg = json.loads((src / "config.json").read_text())
    (src / "config.json").write_text(json.dumps({**cfg, **change}))
    with pytest.raises(SystemExit) as e:
        convert.main(["marian", str(src), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and err.count("\n") == 1


def test_not_a_directory_nor_a_hub_name(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        convert.main(["marian", str(tmp_path / "nope" / "x" / "y"), "--out", str(tmp_path / "o")])
    assert e.value.code == 2 and "not a directory" in capsys.readouterr().err


def test_a_converted_checkpoint_uploads_as_a_zip(pair, tmp_path):
    import zipfile

    from transformer.core.checkpoint import CheckpointError
    from transformer.ops.upload import extract_checkpoint_zip

    _, _, ck, root = pair

    def zipped(skip: str = "") -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for p in (root / "ours").iterdir():
                if p.name != skip:
                    z.writestr(f"ck/{p.name}", p.read_bytes())
        return buf.getvalue()

    dest = extract_checkpoint_zip(zipped(), tmp_path / "u")
    assert load_checkpoint(dest).tokenizer == ck.tokenizer
    with pytest.raises(CheckpointError, match="lacks vocab.json"):
        extract_checkpoint_zip(zipped(skip="vocab.json"), tmp_path / "u")


@pytest.mark.parametrize("allow_pickle", [False, True])
def test_a_hub_name_is_downloaded_with_huggingface_hub(pair, tmp_path, monkeypatch, allow_pickle):
    """Offline stand-in for the hub: what is asked for, and that the pickle is never fetched
    without --allow-pickle."""
    huggingface_hub = pytest.importorskip("huggingface_hub")
    _, _, ck, root = pair
    asked = {}

    def fake_download(repo_id, revision=None, allow_patterns=None):
        asked.update(repo_id=repo_id, revision=revision, patterns=list(allow_patterns))
        return str(root / "hf")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_download)
    argv = ["marian", "Helsinki-NLP/opus-mt-en-de", "--out", str(tmp_path / "o"),
            "--revision", "main"]
    assert convert.main(argv + (["--allow-pickle"] if allow_pickle else [])) == 0
    assert asked["repo_id"] == "Helsinki-NLP/opus-mt-en-de" and asked["revision"] == "main"
    assert ("pytorch_model.bin" in asked["patterns"]) == allow_pickle
    assert {"model.safetensors", "source.spm", "target.spm", "vocab.json"} <= set(asked["patterns"])
    card = (tmp_path / "o" / "README.md").read_text()
    assert "Helsinki-NLP/opus-mt-en-de" in card


@pytest.mark.parametrize("page", ["pages/attention.py", "pages/step.py",
                                  "pages/heads.py", "pages/decode.py"])
def test_pages_open_a_converted_checkpoint(pair, page, monkeypatch, tmp_path):
    import shutil

    from app_helpers import no_errors, open_app

    _, _, _, root = pair
    if "random" in root.name:
        pytest.skip("the pages are checked on the trained model (one is enough)")
    shutil.copytree(root / "ours", tmp_path / "cks" / "tiny-marian")
    at = open_app(monkeypatch, tmp_path / "cks", tmp_path, page)
    no_errors(at)
    if page == "pages/step.py":  # its charts are in parts drawn when opened (page_kit.lazy_expander)
        at.session_state["step_part_matrix"] = True
        at.run()
        no_errors(at)
    assert at.get("plotly_chart")  # drawn from the converted model


def test_broken_sources_give_one_line_errors(pair, tmp_path, capsys):
    _, _, _, root = pair

    def source(name: str, blob: bytes | None, drop: str = "") -> Path:
        d = tmp_path / f"src-{name}"
        d.mkdir()
        for f in (root / "hf").iterdir():
            if f.name != drop:
                (d / f.name).write_bytes(f.read_bytes())
        if blob is not None:
            (d / name).write_bytes(blob)
        return d

    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    evil = io.BytesIO()
    torch.save({"x": Evil()}, evil)
    cases = [(source("model.safetensors", b"\x00" * 40), [], "model.safetensors"),
             (source("config.json", b"{not json"), [], "config.json"),
             (source("vocab.json", None, drop="vocab.json"), [], "vocab.json: missing"),
             (source("pytorch_model.bin", evil.getvalue(), drop="model.safetensors"),
              ["--allow-pickle"], "pytorch_model.bin: refused")]
    for src, extra, message in cases:
        with pytest.raises(SystemExit) as e:
            convert.main(["marian", str(src), "--out", str(tmp_path / "o"), *extra])
        out = capsys.readouterr()
        assert e.value.code == 2 and message in out.err and out.err.count("\n") == 1, out.err
        assert "pwned" not in out.out and not (tmp_path / "o").exists()
