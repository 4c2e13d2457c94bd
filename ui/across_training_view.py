"""The Attention-across-training page's sections: the run (`runs`, `run_choice`: its checkpoints and
the final one loaded; it follows the model chosen in the sidebar, `model_run`, and says which run
it shows when that model has no saved steps, `sidebar_note`), the sentence and the target every
checkpoint is forced to read (`sentence`), the head (`head_choice`), the checkpoint slider linked
to the loss curve (`checkpoint`) and the head's weights at that checkpoint, their emergence and the
strip of every checkpoint (`weights`), with what the chart shows said in words from the data
(`emergence_text`, over viz.evolution.emergence). Figures in viz/evolution.py and
viz/training.py. Widget keys are prefixed `across_training_`."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import streamlit as st

from transformer.core.checkpoint import CheckpointError
from transformer.core.names import KINDS, attention_kind
from transformer.ops import runs
from ui import choices
from ui import i18n, inspect_cache, models, page_kit
from ui import taught_note
from ui.serving import places, text_limits
from ui.strings import across_training as strings
from ui.strings import train as train_strings
from viz import evolution as ve
from viz import training as vt
from viz.attention import heatmap
from viz.tokens import escape_markdown as tv_escape

t = i18n.translator(strings)

def step_checkpoints(r: runs.RunInfo) -> list[str]:
    return [n for n in r.checkpoints if vt.checkpoint_step(n) is not None]


# The user's runs first (newest first), then the shipped ones; a shipped run's key carries a
# prefix so that a user's run of the same name stays distinct.
SHIPPED_PREFIX = "shipped/"


class Run(NamedTuple):
    name: str  # its key (a shipped run's with SHIPPED_PREFIX)
    run: runs.RunInfo
    names: list[str]  # its step checkpoints' names, in order
    steps: list[int]
    paths: list[str]
    final: object  # the last checkpoint, loaded


def runs_with_checkpoints() -> dict[str, runs.RunInfo]:
    """Every run with at least two step checkpoints, by key; none ends the page with a note."""
    by_name = {r.name: r for r in runs.list_runs(places.runs_dir())
               if len(step_checkpoints(r)) >= 2}
    by_name.update({SHIPPED_PREFIX + r.name: r for r in runs.list_runs(models.shipped_runs_dir())
                    if len(step_checkpoints(r)) >= 2})
    if not by_name:
        st.info(t("no_runs", how=t("how_to_save")))
        st.stop()
    return by_name


def model_run(by_name: dict[str, runs.RunInfo], model_path: str | None,
              shipped_dir: Path | None = None) -> str | None:
    """The key of the run (among `by_name`) that trained the checkpoint at `model_path`: the run
    a checkpoint under <run>/checkpoints/ belongs to, or, for a shipped checkpoint
    (`shipped_dir`/<name>), the shipped run of the same name. None when it has no saved steps here."""
    if not model_path:
        return None
    p = Path(model_path).resolve()
    for key, r in by_name.items():
        if p.parent.name == "checkpoints" and p.parent.parent == Path(r.path).resolve():
            return key
    shipped = Path(shipped_dir or models.shipped_dir()).resolve()
    if p.parent == shipped and SHIPPED_PREFIX + p.name in by_name:
        return SHIPPED_PREFIX + p.name
    return None


MODEL_SEEN = "across_training_model"  # the sidebar's model the run choice last followed


def _follow_the_sidebar(by_name: dict[str, runs.RunInfo], model: str | None, own: str | None,
                        q: str | None) -> None:
    """The page's first visit opens the sidebar model's run (a link's ?run= first); a new model in
    the sidebar opens its run, when it has one (else the run shown stays, with a note)."""
    ss = st.session_state
    if ss.get(MODEL_SEEN, "") == model:
        return
    first = MODEL_SEEN not in ss
    ss[MODEL_SEEN] = model
    if own and not (first and q in by_name):
        choices.remember("across_training_run", own)


def _shape(cfg) -> str:
    return t("shape", enc=cfg.n_encoder_layers, dec=cfg.n_decoder_layers, heads=cfg.n_heads,
             vocab=cfg.vocab_size)


def sidebar_note(by_name: dict[str, runs.RunInfo], name: str, own: str | None,
                 model: str | None, final) -> None:
    """Which run the page shows, beside the model chosen in the sidebar: its own run, another run
    (the model's is in the list), or, when the model has no saved steps here, why, and how to
    save the steps of a run of one's own."""
    if not model:
        return
    shown = name.removeprefix(SHIPPED_PREFIX)
    p = Path(model)
    shipped = p.resolve().parent == models.shipped_dir().resolve()
    in_run = not shipped and p.parent.name == "checkpoints"
    # named as the sidebar names it ("run / step-000300" for a run's checkpoint)
    model_name = f"{p.parent.parent.name} / {p.name}" if in_run else p.name
    if own == name:
        st.caption(t("model_run", model=model_name))
        return
    if own:
        st.info(t("model_other_run", run=shown, model=model_name,
                  own=own.removeprefix(SHIPPED_PREFIX)), icon="ℹ️")
        return
    try:
        cfg = models.card_facts(model)["config"]
        shape = _shape(cfg)
    except CheckpointError:  # a checkpoint that fails to read: named without its shape
        shape = "?"
    if shipped:
        why = t("why_shipped")
    elif in_run:
        run_dir = p.parent.parent
        why = t("why_run", run=run_dir.name, n=len([n for n in runs.checkpoints(run_dir)
                                                   if vt.checkpoint_step(n) is not None]))
    else:
        why = t("why_other")
    st.info(t("model_no_steps", model=model_name, shape=shape, why=why, run=shown,
              run_shape=_shape(final.model_config)) + "\n\n" + t("how_to_save"), icon="ℹ️")


def run_choice(by_name: dict[str, runs.RunInfo]) -> Run:
    """The run chosen (?run=NAME opens one), its checkpoints, and its final checkpoint loaded (one
    that fails to load ends the page)."""
    ft = i18n.translator(strings, frozen=True)  # for format_func
    ft_state = i18n.translator(train_strings, frozen=True)
    q = st.query_params.get("run")
    model = models.current_path()
    own = model_run(by_name, model)
    _follow_the_sidebar(by_name, model, own, q)
    choices.keep("across_training_run", q if q in by_name else (own or next(iter(by_name))),
                 list(by_name))

    def run_label(n: str) -> str:
        state = by_name[n].state  # named as the Train page names it
        state = ft_state(f"state_{state}") if f"state_{state}" in train_strings.EN else state
        label = ft("run_label", name=n.removeprefix(SHIPPED_PREFIX), n=len(step_checkpoints(
            by_name[n])), state=state)
        return label + (ft("shipped_suffix") if n.startswith(SHIPPED_PREFIX) else "")

    name = st.selectbox(t("run"), list(by_name), key="across_training_run", help=t("run_help"),
                        format_func=run_label)
    st.query_params["run"] = name
    run = by_name[name]
    names = step_checkpoints(run)
    steps = [vt.checkpoint_step(n) for n in names]
    paths = [str(run.path / "checkpoints" / n) for n in names]
    if run.active:
        st.caption(t("still_training"))

    try:
        final = models.get_checkpoint(paths[-1])
    except CheckpointError as e:
        st.error(t("load_failed", reason=str(e)))
        st.stop()
    sidebar_note(by_name, name, own, model, final)
    return Run(name, run, names, steps, paths, final)


def sentence(r: Run):
    """The sentence and the target every checkpoint is forced to read (by default the final
    checkpoint's own output). Returns the sentence and each checkpoint's trace."""
    name, paths, final = r.name, r.paths, r.final
    if st.session_state.get("across_training_for") != name:  # a new run: its task's example sentence
        choices.remember("across_training_text", page_kit.example_text(final.train_config))
        choices.remember("across_training_target", "")
        st.session_state["across_training_for"] = name
    choices.keep("across_training_text", page_kit.example_text(final.train_config))
    choices.keep("across_training_target", "")
    c1, c2 = st.columns(2)
    text = c1.text_input(t("text"), key="across_training_text", help=t("text_help"),
                         max_chars=text_limits.SENTENCE_CHARS)
    target_in = c2.text_input(t("target"), key="across_training_target", help=t("target_help"),
                              max_chars=text_limits.SENTENCE_CHARS)
    text_limits.stop_if_too_long(text, target_in)
    if not text or not text.strip():
        st.info(t("empty"))
        st.stop()
    with page_kit.page_stops_on_bad_input(t, load_failed=st.error):
        if target_in.strip():
            target = target_in
        else:  # the final checkpoint's own output: the same target tokens for every checkpoint
            target = inspect_cache.inspect(paths[-1], text).output or "."
        inspected = [inspect_cache.inspect(p, text, target) for p in paths]
    st.caption(t("target_used", target=target) if not target_in.strip() else t("target_given"))
    return text, inspected


def head_choice(r: Run) -> tuple[str, int, int]:
    """The head shown: kind, layer, head (a run whose final checkpoint features one opens on it)."""
    ft = i18n.translator(strings, frozen=True)  # for format_func
    name, final, cfg = r.name, r.final, r.final.model_config
    featured = page_kit.apply_featured_head("across_training", name, final.history)
    c1, c2, c3 = st.columns([2, 1, 1])
    choices.keep("across_training_kind", KINDS[0], KINDS)
    kind = c1.radio(t("kind"), KINDS, key="across_training_kind", horizontal=True, help=t("kind_help"),
                    format_func=lambda k: ft(f"kind_{k}"))
    n_layers = attention_kind(kind, cfg).n_layers
    for key, n in (("across_training_layer", n_layers), ("across_training_head", cfg.n_heads)):
        choices.keep(key, 0, range(n))
    layer = c2.selectbox(t("layer"), list(range(n_layers)), key="across_training_layer")
    head = c3.selectbox(t("head"), list(range(cfg.n_heads)), key="across_training_head")

    if featured and (kind, layer, head) == (featured["kind"], featured["layer"], featured["head"]):
        st.success(t("featured", kind=t(f"kind_{kind}"), l=layer, h=head), icon="🎯")
        taught = taught_note.note(final.train_config, kind, layer, head, models.current_path())
        if taught:
            st.caption("🎓 " + taught)
    return kind, layer, head


def checkpoint(r: Run) -> int:
    """The checkpoint slider, linked to the loss curve (and the score at that step). Returns the
    chosen checkpoint's index."""
    ft = i18n.translator(strings, frozen=True)  # for format_func
    run, names, steps = r.run, r.names, r.steps
    choices.keep("across_training_ck", names[-1], names)
    chosen = st.select_slider(t("checkpoint"), names, key="across_training_ck", help=t("checkpoint_help"),
                              format_func=lambda n: ft("step_n", n=vt.checkpoint_step(n)))
    i = names.index(chosen)

    train, evals, _ = vt.split_records(runs.read_metrics(run.path)[0])
    if train:
        st.plotly_chart(vt.loss_figure(
            train, evals, marker_step=steps[i], checkpoint_steps=steps, log_y=True, labels={
                "title": t("loss_title"), "x": t("step"), "y": t("loss"), "raw": t("loss_raw"),
                "smoothed": t("loss_smooth"), "val": t("loss_val"),
                "marker": t("step_n", n=steps[i]), "checkpoints": t("checkpoints")}),
            key="across_training_loss")
        ev = next((r for r in evals if r["step"] == steps[i]), None)
        key = vt.score_name(evals)
        if ev is not None and key and ev.get(key) is not None:
            v = ev[key]
            st.caption(t("score_at", step=steps[i], metric=t(f"metric_{key}"),
                         value=f"{v:.1f}" if key == "bleu" else f"{v:.1%}",
                         loss=ev.get("val_loss") or float("nan")))
    return i


def weights(r: Run, text: str, inspected, kind: str, layer: int, head: int, i: int) -> None:
    """The head's weights at checkpoint `i`, how they emerged over training, and the strip of
    every checkpoint."""
    names, steps, paths = r.names, r.steps, r.paths
    mats = [ins.weights(kind, layer)[head].numpy() for ins in inspected]
    q_tokens, k_tokens = inspected[-1].queries_keys(kind)
    kind_name = t(f"kind_{kind}")

    c1, c2 = st.columns([3, 2])
    with c1:
        st.plotly_chart(heatmap(mats[i], q_tokens, k_tokens, title=t(
            "heat_title", kind=kind_name, l=layer, h=head, step=steps[i]), x_title=t("keys"),
            y_title=t("queries")), key="across_training_heatmap")
    with c2:
        st.plotly_chart(ve.emergence_figure(steps, mats, selected=i, labels={
            "title": t("emerge_title"), "x": t("step"), "distance": t("distance"),
            "entropy": t("entropy")}), key="across_training_emerge")
        st.caption(t("emerge_help"))
        e = ve.emergence(steps, mats, skip_rows=(0,) if kind == "decoder_self" else ())
        st.markdown(emergence_text(e, q_tokens, k_tokens))
        st.caption(t("output_at", step=steps[i], output=inspect_cache.inspect(paths[i], text).output))

    st.subheader(t("strip_title"))
    st.caption(t("strip_help", n=len(names)))
    st.plotly_chart(ve.strip(mats, q_tokens, k_tokens, titles=[t("step_n", n=s) for s in steps],
                             selected=i), key="across_training_strip")


def emergence_text(e: ve.Emergence, q_labels, k_labels, lang: str | None = None) -> str:
    """What the emergence chart shows, in words, from the data (viz.evolution.emergence): whether
    the pattern was there at the first saved step, when it settles or that it has not, and where
    its sharpest row looks first and last. `lang`: a language (tests), else the session's."""
    tr = t if lang is None else (lambda key, **kw: i18n.text(strings, key, lang, **kw))
    if e.code == "already":
        out = tr("emerge_already", first=e.first_step, d=e.first_distance, settled=ve.SETTLED)
    elif e.code == "emerges":
        a, b, da, db = e.fall or (e.first_step, e.settled_step, e.first_distance,
                                  e.settled_distance)
        out = tr("emerge_emerges", d0=e.first_distance, first=e.first_step, settled=ve.SETTLED,
                 s=e.settled_step, ds=e.settled_distance, a=a, b=b, da=da, db=db)
    else:
        out = tr("emerge_still", prev=e.steps[-2], dp=e.distances[-2], settled=ve.SETTLED,
                 d0=e.first_distance, first=e.first_step)
    r = e.row
    if r is not None:
        esc = tv_escape
        q, k, k0 = esc(q_labels[r.query]), esc(k_labels[r.final_key]), esc(k_labels[r.first_key])
        if r.first_key == r.final_key:
            out += " " + tr("emerge_row_same", q=q, k=k, w=r.final_weight, w0=r.first_on_final,
                            first=e.first_step)
        else:
            out += " " + tr("emerge_row_moves", q=q, k0=k0, w0=r.first_weight, first=e.first_step,
                            k=k, since=r.since_step, w=r.final_weight)
    return out
