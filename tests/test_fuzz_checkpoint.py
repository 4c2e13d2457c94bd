"""Fuzzing the checkpoint loader and the .zip upload with hypothesis.

Every broken checkpoint (truncated, oversized-header, wrong-dtype, wrong-shape, NaN-filled,
renamed-tensor safetensors; broken config.json / history.json; random bytes in any file; random
and mangled .zip files through transformer.ops.upload.extract_checkpoint_zip) must be refused with a
CheckpointError whose message is one line, never loaded, and no other exception may escape. The
tests print nothing; they count the files they fuzzed (COUNTS) and the last test checks the counts.

CI mode: derandomized, 12 examples per strategy (about 200 files, ~30 s).

    ATTENTION_LAB_LONG_TESTS=1 python -m pytest tests/test_fuzz_checkpoint.py

runs 1000 random examples per strategy. ATTENTION_LAB_FUZZ_REPORT=FILE writes the counts there
as JSON.

Config values are fuzzed within small integer ranges on purpose: a config.json that asks for a
model too big for memory is a known bug with its own test (test_huge_model_config_is_refused),
and fuzzing into it would make the machine allocate gigabytes.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import struct
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from transformer.core.checkpoint import (CARD, CONFIG, HISTORY, TOKENIZER, WEIGHTS, CheckpointError,
                                         load_checkpoint, save_checkpoint, unique_state)
from helpers import zipped
from transformer.ops.upload import extract_checkpoint_zip

LONG = os.environ.get("ATTENTION_LAB_LONG_TESTS") == "1"
N = 1000 if LONG else 12
FUZZ = settings(max_examples=N, deadline=None, database=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much])
COUNTS: Counter = Counter()

DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
          torch.float64, torch.complex64]
MODEL_FIELDS = ["vocab_size", "d_model", "n_heads", "n_encoder_layers", "n_decoder_layers",
                "d_ff", "dropout", "attn_dropout", "max_len", "norm_first", "positional",
                "tie_embeddings", "layer_norm_eps", "pad_id", "bos_id", "eos_id", "unk_id"]


# -- one small, valid checkpoint to break -----------------------------------------------------
class Base:
    files: dict[str, bytes]
    tensors: dict[str, torch.Tensor]
    config: dict


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Base:
    from helpers import CORPUS, tiny_config
    from transformer.core.model import Transformer
    from transformer.core.tokenizer import Tokenizer

    tok = Tokenizer.train(CORPUS, vocab_size=60)
    torch.manual_seed(0)
    model = Transformer(tiny_config(vocab_size=tok.vocab_size, d_model=8, n_heads=2,
                                    n_encoder_layers=1, n_decoder_layers=1, d_ff=16,
                                    max_len=32)).eval()
    path = save_checkpoint(tmp_path_factory.mktemp("fuzz") / "base", model, tok,
                           train_config={"task": "fuzz"}, history={"train": [[1, 2.0]]})
    load_checkpoint(path)  # the unbroken one loads
    b = Base()
    b.files = {p.name: p.read_bytes() for p in path.iterdir()}
    b.tensors = {k: v.clone() for k, v in unique_state(model).items()}
    b.config = json.loads(b.files[CONFIG])
    return b


def _st_bytes(tensors: dict[str, torch.Tensor]) -> bytes:
    from safetensors.torch import save

    return save({k: v.contiguous() for k, v in tensors.items()}, metadata={"format": "x"})


def refused(files: dict[str, bytes], kind: str) -> str:
    """Write the files as a checkpoint directory; load_checkpoint must raise CheckpointError with
    a one-line message (any other exception fails the test). Returns the message."""
    COUNTS[kind] += 1
    d = Path(tempfile.mkdtemp(prefix="fuzz-"))
    try:
        for name, data in files.items():
            (d / name).write_bytes(data)
        with pytest.raises(CheckpointError) as ei:
            load_checkpoint(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    msg = str(ei.value)
    assert msg.strip() and "\n" not in msg and "\r" not in msg, repr(msg[:300])
    return msg


def refused_weights(base, tensors: dict[str, torch.Tensor], kind: str) -> str:
    """`refused` for the base checkpoint with these tensors as its weights."""
    return refused({**base.files, WEIGHTS: _st_bytes(tensors)}, kind)


# ============================================================== safetensors: bytes and header
@FUZZ
@given(cut=st.floats(0, 1, exclude_max=True))
def test_truncated_weights(base, cut):
    w = base.files[WEIGHTS]
    refused({**base.files, WEIGHTS: w[: int(len(w) * cut)]}, "truncated_weights")


@FUZZ
@given(length=st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 1 << 20),
                        st.sampled_from([2**63, 2**64 - 1, 100_000_001, 0, 1, 7])),
       keep_header=st.booleans())
def test_oversized_or_wrong_header_length(base, length, keep_header):
    w = base.files[WEIGHTS]
    (real,) = struct.unpack("<Q", w[:8])
    assume(length != real)
    body = w[8:] if keep_header else b"{}"
    refused({**base.files, WEIGHTS: struct.pack("<Q", length) + body}, "header_length")


@FUZZ
@given(header=st.one_of(
    st.binary(max_size=200),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                 lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c,
                                                                     max_size=4),
                 max_leaves=20).map(lambda v: json.dumps(v).encode())),
    payload=st.binary(max_size=256))
def test_garbage_header(base, header, payload):
    refused({**base.files, WEIGHTS: struct.pack("<Q", len(header)) + header + payload},
            "garbage_header")


@FUZZ
@given(data=st.data())
def test_header_offsets_tampered(base, data):
    """A well-formed header whose dtype / shape / data_offsets lie about the buffer."""
    w = base.files[WEIGHTS]
    (n,) = struct.unpack("<Q", w[:8])
    header = json.loads(w[8:8 + n])
    name = data.draw(st.sampled_from(sorted(k for k in header if k != "__metadata__")))
    field = data.draw(st.sampled_from(["dtype", "shape", "data_offsets"]))
    value = data.draw({
        "dtype": st.sampled_from(["F64", "I64", "BOOL", "U8", "F8_E4M3", "XX", "", "F32 "]),
        "shape": st.lists(st.integers(0, 10**6), max_size=4),
        "data_offsets": st.lists(st.integers(0, 2**63), min_size=0, max_size=3),
    }[field])
    assume(header[name][field] != value)
    header[name][field] = value
    hb = json.dumps(header).encode()
    refused({**base.files, WEIGHTS: struct.pack("<Q", len(hb)) + hb + w[8 + n:]},
            "header_tampered")


# ============================================================== safetensors: tensor contents
@FUZZ
@given(data=st.data())
def test_wrong_dtype(base, data):
    name = data.draw(st.sampled_from(sorted(base.tensors)))
    dtype = data.draw(st.sampled_from(DTYPES))
    tensors = {**base.tensors, name: base.tensors[name].to(dtype)}
    assert name in refused_weights(base, tensors, "wrong_dtype")


@FUZZ
@given(data=st.data())
def test_wrong_shape(base, data):
    name = data.draw(st.sampled_from(sorted(base.tensors)))
    old = tuple(base.tensors[name].shape)
    shape = tuple(data.draw(st.lists(st.integers(0, 40), min_size=0, max_size=3)))
    assume(shape != old)
    assert name in refused_weights(base, {**base.tensors, name: torch.zeros(shape)}, "wrong_shape")


@FUZZ
@given(data=st.data())
def test_nan_or_inf_filled(base, data):
    name = data.draw(st.sampled_from(sorted(base.tensors)))
    bad = data.draw(st.sampled_from([math.nan, math.inf, -math.inf]))
    t = {k: v.clone() for k, v in base.tensors.items()}
    flat = t[name].view(-1)
    idx = data.draw(st.lists(st.integers(0, flat.numel() - 1), min_size=1, max_size=5))
    flat[idx] = bad
    dtype = data.draw(st.sampled_from([torch.float32, torch.float16, torch.bfloat16]))
    t = {k: v.to(dtype) for k, v in t.items()}
    assert "NaN or infinite" in refused_weights(base, t, "nan_filled")


@FUZZ
@given(data=st.data())
def test_renamed_dropped_or_extra_tensor(base, data):
    t = dict(base.tensors)
    name = data.draw(st.sampled_from(sorted(t)))
    how = data.draw(st.sampled_from(["rename", "drop", "extra"]))
    new = data.draw(st.text(min_size=1, max_size=40))
    if how == "rename":
        assume(new not in t)
        t[new] = t.pop(name)
    elif how == "drop":
        t.pop(name)
    else:
        assume(new not in t)
        t[new] = torch.zeros(2)
    refused_weights(base, t, "renamed_tensor")


# ==================================================================== config and history JSON
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 64) | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=8)


@FUZZ
@given(data=st.data())
def test_model_config_field_changed(base, data):
    """One model field set to another value or type: refused (a different shape no longer
    matches the weights); the same value is skipped."""
    cfg = json.loads(json.dumps(base.config))
    field = data.draw(st.sampled_from(MODEL_FIELDS + ["unknown_field"]))
    how = data.draw(st.sampled_from(["set", "delete"]))
    if how == "delete":
        assume(field in cfg["model"])
        # A missing field takes the paper's default (d_model 512, ...): only test those that
        # differ from the checkpoint's own value, as they must then fail to match.
        from transformer.core.config import ModelConfig

        default = getattr(ModelConfig(), field)
        assume(default != cfg["model"][field])
        del cfg["model"][field]
    else:
        value = data.draw(JSON_VALUES)
        old = cfg["model"].get(field)
        assume(not (value == old and type(value) is type(old)))
        # Truthy stand-ins for booleans are a separate, known finding (see
        # test_non_boolean_flags_are_refused); keep them out of the fuzz.
        cfg["model"][field] = value
    assume(not _same_shapes(base, cfg["model"]))
    refused({**base.files, CONFIG: json.dumps(cfg, allow_nan=True).encode()}, "config_field")


def _same_shapes(base, model_cfg) -> bool:
    """The oracle: a config that is valid and builds a model with the very same tensors (another
    dropout, n_heads, eps ...) may load; every other one must be refused. Truthy stand-ins for
    booleans land here too (a known finding: test_non_boolean_flags_are_refused)."""
    from transformer.core.config import ModelConfig
    from transformer.core.model import Transformer

    try:
        m = Transformer(ModelConfig.from_dict(model_cfg))
    except (TypeError, ValueError):
        return False
    shapes = {k: tuple(v.shape) for k, v in unique_state(m).items()}
    return shapes == {k: tuple(v.shape) for k, v in base.tensors.items()}


@FUZZ
@given(doc=JSON_VALUES)
def test_config_replaced_by_random_json(base, doc):
    refused({**base.files, CONFIG: json.dumps(doc).encode()}, "config_random_json")


@FUZZ
@given(data=st.data())
def test_json_file_truncated_or_corrupted(base, data):
    """config.json or history.json cut short, with invalid UTF-8, or with bytes flipped so that
    it no longer parses."""
    name = data.draw(st.sampled_from([CONFIG, HISTORY]))
    raw = base.files[name]
    how = data.draw(st.sampled_from(["truncate", "bad_utf8", "flip"]))
    if how == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    elif how == "bad_utf8":
        i = data.draw(st.integers(0, len(raw)))
        raw = raw[:i] + data.draw(st.sampled_from([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80",
                                                   b"\x80"])) + raw[i:]
    else:
        i = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:i] + bytes([raw[i] ^ data.draw(st.integers(1, 255))]) + raw[i + 1:]
    try:
        json.loads(raw.decode("utf-8"))
        assume(False)  # still valid JSON: not this test's case
    except (UnicodeDecodeError, json.JSONDecodeError):
        pass
    refused({**base.files, name: raw}, "json_broken")


# ========================================================= random bytes and missing files
@FUZZ
@given(data=st.data())
def test_random_bytes_in_a_file(base, data):
    name = data.draw(st.sampled_from([WEIGHTS, CONFIG, TOKENIZER]))
    blob = data.draw(st.binary(max_size=4096))
    assume(blob != base.files[name])
    refused({**base.files, name: blob}, "random_bytes")


@FUZZ
@given(data=st.data())
def test_tokenizer_truncated_or_flipped(base, data):
    raw = base.files[TOKENIZER]
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    else:
        i = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:i] + bytes([raw[i] ^ 0xFF]) + raw[i + 1:]
    from transformer.core.tokenizer import Tokenizer

    try:  # a flip inside a piece's text can leave a valid, same-size model: skip those
        same = Tokenizer.from_bytes(raw).vocab_size == base.config["model"]["vocab_size"]
    except Exception:  # noqa: BLE001 - unreadable is the case we want
        same = False
    assume(not same)
    refused({**base.files, TOKENIZER: raw}, "tokenizer_broken")


@pytest.mark.parametrize("missing", [WEIGHTS, CONFIG, TOKENIZER])
def test_missing_file(base, missing):
    files = {k: v for k, v in base.files.items() if k != missing}
    assert missing in refused(files, "missing_file")


# ======================================================================= .zip uploads
def _zip_case(data: bytes, root: Path, kind: str, may_load: bool = False) -> None:
    """extract_checkpoint_zip: CheckpointError with one line (or, when `may_load`, a checkpoint
    that loads inside root); nothing written outside root; nothing left behind on refusal."""
    COUNTS[kind] += 1
    dest = root / "uploads"
    try:
        out = extract_checkpoint_zip(data, dest)
    except CheckpointError as e:
        msg = str(e)
        assert msg.strip() and "\n" not in msg, repr(msg[:300])
        left = sorted(p.name for p in dest.iterdir()) if dest.exists() else []
        assert left == [], f"a refused upload left {left}"
    else:
        assert may_load, "a broken .zip was accepted"
        assert out.parent == dest and out.name.startswith("upload-")
        load_checkpoint(out)
        shutil.rmtree(out)
    assert sorted(p.name for p in root.iterdir()) in ([], ["uploads"]), "wrote outside uploads/"


@FUZZ
@given(blob=st.binary(max_size=2048))
def test_random_bytes_as_zip(blob):
    with tempfile.TemporaryDirectory() as d:
        _zip_case(blob, Path(d), "zip_random_bytes")


NAMES = [WEIGHTS, CONFIG, TOKENIZER, HISTORY, CARD, "../" + WEIGHTS, "/etc/" + CONFIG,
         "a/b/" + WEIGHTS, "ck/" + WEIGHTS, "ck/" + CONFIG, "__MACOSX/._x", ".hidden",
         "evil.py", "model.pkl", "..\\" + CONFIG, "C:/" + TOKENIZER, "ck/../../" + WEIGHTS,
         WEIGHTS + "\x00.txt", "ck/"]


@FUZZ
@given(data=st.data())
def test_random_zip_of_members(base, data):
    """Members drawn from good, hostile and odd names, each holding a good file, a broken one or
    random bytes. Only a zip holding the unbroken files under accepted names may load."""
    chosen = data.draw(st.lists(st.sampled_from(NAMES), min_size=0, max_size=7))
    members, intact = [], True
    for name in chosen:
        plain = name.split("/")[-1]
        if plain in base.files and data.draw(st.booleans()):
            members.append((name, base.files[plain]))
        else:
            members.append((name, data.draw(st.binary(max_size=64))))
            intact = False
    names_ok = all(n in base.files or (n.startswith("ck/") and n.count("/") == 1)
                   for n, _ in members)
    plain_names = [n.split("/")[-1] for n, _ in members]
    may_load = (intact and names_ok and len(set(plain_names)) == len(plain_names)
                and {WEIGHTS, CONFIG, TOKENIZER} <= set(plain_names))
    with tempfile.TemporaryDirectory() as d:
        _zip_case(zipped(members), Path(d), "zip_members", may_load=may_load)


@FUZZ
@given(data=st.data())
def test_mangled_zip_bytes(base, data):
    """A valid (stored) upload with bytes flipped or cut: CRC, header and loader checks refuse
    it; a flip in a field nobody reads (a timestamp) may still load."""
    z = bytearray(zipped(sorted(base.files.items())))
    if data.draw(st.booleans()):
        z = z[: data.draw(st.integers(0, len(z) - 1))]
        may = False
    else:
        for _ in range(data.draw(st.integers(1, 4))):
            i = data.draw(st.integers(0, len(z) - 1))
            z[i] ^= data.draw(st.integers(1, 255))
        may = True
    with tempfile.TemporaryDirectory() as d:
        _zip_case(bytes(z), Path(d), "zip_mangled", may_load=may)


@FUZZ
@given(data=st.data())
def test_zip_with_broken_checkpoint_inside(base, data):
    """A well-formed zip whose checkpoint is broken the ways above: the loader refuses it and the
    unpacked directory is removed."""
    files = dict(base.files)
    t = dict(base.tensors)
    name = data.draw(st.sampled_from(sorted(t)))
    how = data.draw(st.sampled_from(["nan", "dtype", "shape", "rename", "truncate"]))
    if how == "nan":
        t[name] = t[name].clone().fill_(math.nan)
    elif how == "dtype":
        t[name] = t[name].to(data.draw(st.sampled_from(DTYPES)))
    elif how == "shape":
        t[name] = torch.zeros(3, 5)
    elif how == "rename":
        t[name + ".x"] = t.pop(name)
    files[WEIGHTS] = _st_bytes(t)
    if how == "truncate":
        files[WEIGHTS] = base.files[WEIGHTS][: data.draw(st.integers(0, len(base.files[WEIGHTS]) - 1))]
    folder = data.draw(st.sampled_from(["", "ck/"]))
    with tempfile.TemporaryDirectory() as d:
        _zip_case(zipped([(folder + k, v) for k, v in files.items()]), Path(d), "zip_broken_inside")


def test_zip_bomb_header_sizes_are_not_trusted(base, tmp_path):
    """A member that inflates far beyond the limit: refused without inflating it all."""
    from transformer.ops.upload import ALLOWED

    bomb = zipped([(CONFIG, b" " * (ALLOWED[CONFIG] + 10)), (WEIGHTS, base.files[WEIGHTS]),
                 (TOKENIZER, base.files[TOKENIZER])], method=zipfile.ZIP_DEFLATED)
    assert len(bomb) < 100_000
    _zip_case(bomb, tmp_path, "zip_bomb")


# ================================================================ known bugs, each pinned
# Regression tests for bugs this fuzzing found (fixed since): deep JSON nesting, a config asking
# for an enormous model, non-boolean flags, corrupt compressed zip members, failed uploads left
# on disk.


@pytest.mark.parametrize("name", [CONFIG, HISTORY])
def test_deeply_nested_json_is_refused(base, name):
    refused({**base.files, name: b"[" * 100_000 + b"]" * 100_000}, "json_deep")


def test_huge_model_config_is_refused(base):
    cfg = json.loads(json.dumps(base.config))
    cfg["model"]["vocab_size"] = 10**15  # fails at once (no allocation is attempted)
    refused({**base.files, CONFIG: json.dumps(cfg).encode()}, "config_huge_model")


def test_non_boolean_flags_are_refused(base):
    cfg = json.loads(json.dumps(base.config))
    cfg["model"]["tie_embeddings"] = "no"
    refused({**base.files, CONFIG: json.dumps(cfg).encode()}, "config_bool_flag")


def _corrupt_compressed(base, method) -> bytes:
    z = bytearray(zipped(sorted(base.files.items()), method=method))
    start = z.find(WEIGHTS.encode()) + len(WEIGHTS)  # the first member's data follows its name
    for k in range(start + 8, start + 72):
        z[k] ^= 0x55
    return bytes(z)


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA],
                         ids=["deflate", "lzma"])
def test_corrupt_compressed_member_is_refused(base, tmp_path, method):
    _zip_case(_corrupt_compressed(base, method), tmp_path, "zip_corrupt_compressed")


def test_corrupt_bzip2_member_is_refused(base, tmp_path):
    _zip_case(_corrupt_compressed(base, zipfile.ZIP_BZIP2), tmp_path, "zip_corrupt_compressed")


def test_failed_upload_leaves_nothing_behind(base, tmp_path):
    dest = tmp_path / "uploads"
    data = zipped([(CONFIG, b"[" * 100_000 + b"]" * 100_000), (WEIGHTS, base.files[WEIGHTS]),
                 (TOKENIZER, base.files[TOKENIZER])])
    try:
        extract_checkpoint_zip(data, dest)
    except Exception:  # noqa: BLE001 - whichever escapes, the directory must go
        pass
    # nothing behind: no folder at all (validation happens in a scratch folder first) or an empty one
    assert not dest.exists() or sorted(p.name for p in dest.iterdir()) == []


# ======================================================================== the counts
def test_zz_counts():
    """Runs last: every strategy fuzzed its files (none of them printed anything)."""
    if not COUNTS:
        pytest.skip("run with the fuzz tests above")
    report = os.environ.get("ATTENTION_LAB_FUZZ_REPORT")
    if report:
        Path(report).write_text(json.dumps({"total": sum(COUNTS.values()), **COUNTS}, indent=1))
    single = ("missing_file", "zip_bomb", "json_deep", "config_huge_model", "config_bool_flag",
              "zip_corrupt_compressed")
    fuzzed = {k: v for k, v in COUNTS.items() if k not in single}
    assert len(fuzzed) >= 17 and all(v >= 5 for v in fuzzed.values()), fuzzed
