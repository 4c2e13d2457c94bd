"""The guided tour: its stops come in the sidebar's order, and each stop's link opens its page with
the stop's sentence (or example) already in the page's input box, in both languages.

Once only the Step link carried its sentence (the others showed it to type), and the tour's order
(positional encoding first) was not the sidebar's (Attention first).
"""
from __future__ import annotations

import ast
from pathlib import Path
from urllib.parse import parse_qs as _parse_qs

import pytest

from app_helpers import no_errors, open_app

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "checkpoints"
# the widget each page fills from its link
BOX = {"pages/attention.py": "attention_text", "pages/step.py": "step_text",
       "pages/heads.py": "heads_abl_text", "pages/positional-encoding.py": "positional_encoding_sentence",
       "pages/masks.py": "masks_text", "pages/worked-examples.py": "worked_examples_example"}


def _literal(path: Path, name: str):
    return next(ast.literal_eval(n.value) for n in ast.parse(path.read_text()).body
                if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == name)


STOPS = _literal(ROOT / "ui" / "tour_view.py", "STOPS")
BLOG_PAIR = _literal(ROOT / "ui" / "tour_view.py", "BLOG_PAIR")


def test_tour_order_is_the_sidebar_order():
    from ui import navigation

    sidebar = navigation.files()
    tour = [s[2] for s in STOPS]
    assert all(p in sidebar for p in tour)
    assert tour == sorted(tour, key=sidebar.index)
    assert set(tour) == set(BOX)  # every stop's page fills a box from its link


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_stop_opens_its_page_with_its_sentence(monkeypatch, tmp_path, lang):
    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: lang)
    at = open_app(monkeypatch, SHIPPED, tmp_path, lang=lang)  # the tour is the default page
    no_errors(at)
    links = [el.proto for el in at.get("page_link")]

    def parse_qs(query: str) -> dict:  # the links keep the language (?lang=zh, issue 50)
        q = _parse_qs(query)
        assert q.pop("lang", None) == ([lang] if lang != "en" else None), query
        return q

    # the first stop also opens the blog post's pair side by side (Two sentences page), and the
    # same pair with the swap on
    pair = [ln for ln in links if ln.page.endswith("pair.py") or "pair" in ln.page]
    assert len(pair) == 2
    assert parse_qs(pair[0].query_string) == {"text": [BLOG_PAIR[0]], "text2": [BLOG_PAIR[1]]}
    assert parse_qs(pair[1].query_string) == {"text": [BLOG_PAIR[0]], "text2": [BLOG_PAIR[1]],
                                              "swap": ["1"]}
    assert STOPS[0][4] == BLOG_PAIR[0]
    links = [ln for ln in links if ln not in pair]
    assert len(links) == len(STOPS)
    for link, (_, _, page, _, value, param) in zip(links, STOPS):
        q = parse_qs(link.query_string)
        assert q == {param: [value]}, (page, q)
        if param == "text":  # the caption quotes what the link fills in
            shown = " / ".join(value.splitlines())
            assert any(shown in c.value for c in at.caption), shown
    ck = at.session_state["ckpt_path"]
    for _, _, page, _, value, param in STOPS:
        at.query_params.clear()
        at.query_params[param] = value
        at.switch_page(page)
        at.session_state["ckpt_path"] = ck
        at.session_state["lang"] = lang
        at.run()
        no_errors(at)
        assert at.session_state[BOX[page]] == value, page
        if page == "pages/heads.py":
            assert at.text_input(key="heads_abl_text").value == value
        elif page == "pages/worked-examples.py":
            assert at.selectbox(key="worked_examples_example").value == value
        elif page == "pages/masks.py":
            assert at.text_area(key="masks_text").value == value
        else:
            assert at.text_input(key=BOX[page]).value == value
