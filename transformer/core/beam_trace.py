"""The search tree of one beam search, recorded from transformer.core.decode.beam_search itself.

`trace_beam_search` runs the real beam search with a `BeamTree` as its recorder (an observer:
the result is the same as without it) and returns both. The tree holds every candidate the
search looked at: at each step the 2*beam best one-token extensions of the alive hypotheses,
in rank order, and what became of each one:

    kept        one of the `beam` best that do not end: alive at the next step
    pruned      not among them: the beam was full
    finished    </s> among the step's `beam` best: a finished hypothesis
    eos_pruned  </s>, but ranked below `beam`: dropped (as fairseq does)

Each node carries its log-probability log P(Y | X) (the sum of its tokens' log-probabilities),
its last token's log-probability, and its length-normalised score log P / lp(|Y|), the number
beam search ranks finished hypotheses by (|Y| counts </s>; lp from transformer.core.decode).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from transformer.core.decode import DecodeResult, beam_search, length_penalty

STATUSES = ("kept", "pruned", "finished", "eos_pruned")


@dataclass
class Node:
    id: int
    step: int  # tokens on the path, </s> counted; the root (<s>) is step 0
    parent: int | None
    token: int | None  # None for the root
    tokens: list[int]  # the path after <s>, ending with </s> for a finished node
    logp: float  # log P(tokens | source)
    token_logp: float  # log P(token | the path before it, source)
    score: float  # logp / lp(step): the length-normalised score
    status: str  # "root" or one of STATUSES
    rank: int  # rank among its step's candidates, 0 = highest log-probability


@dataclass
class BeamTree:
    """Recorder for beam_search: call `trace_beam_search` rather than filling one by hand."""

    beam: int
    alpha: float
    lp: str = "gnmt"
    eos_id: int = 2
    nodes: list[Node] = field(default_factory=list)
    best: int | None = None  # id of the node beam_search returned
    _alive: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self):
        if not self.nodes:
            self.nodes.append(Node(0, 0, None, None, [], 0.0, 0.0, 0.0, "root", 0))
            self._alive = [0]

    # -- the recorder interface (transformer.core.decode.beam_search) -------------------------------
    def step(self, pos: int, seen: list[tuple[int, int, float, str]]) -> None:
        kept = []
        for rank, (h, tok, s, what) in enumerate(seen):
            parent = self.nodes[self._alive[h]]
            tokens = parent.tokens + [int(tok)]
            node = Node(len(self.nodes), pos + 1, parent.id, int(tok), tokens, float(s),
                        float(s) - parent.logp,
                        float(s) / length_penalty(len(tokens), self.alpha, self.lp), what, rank)
            self.nodes.append(node)
            if what == "kept":
                kept.append(node.id)
        self._alive = kept

    def done(self, tokens: list[int], score: float, raw: float, ended: bool) -> None:
        path = list(tokens) + ([self.eos_id] if ended else [])
        want = "finished" if ended else "kept"
        found = [n for n in self.nodes if n.status == want and n.tokens == path]
        if not found:
            raise AssertionError(f"beam tree: the returned hypothesis {path} was never recorded")
        self.best = found[-1].id

    # -- reading it ----------------------------------------------------------------------------
    @property
    def steps(self) -> int:
        return max(n.step for n in self.nodes)

    def at_step(self, step: int) -> list[Node]:
        return sorted((n for n in self.nodes if n.step == step), key=lambda n: n.rank)

    def path(self, node_id: int | None = None) -> list[Node]:
        """Root ... node (default: the best one)."""
        i = self.best if node_id is None else node_id
        out = []
        while i is not None:
            out.append(self.nodes[i])
            i = self.nodes[i].parent
        return out[::-1]

    def finished(self) -> list[Node]:
        """The hypotheses that ended with </s> (and, when none did, the ones alive at the end),
        best score first."""
        done = [n for n in self.nodes if n.status == "finished"]
        if not done and self.best is not None:
            done = [self.nodes[self.best]]
        return sorted(done, key=lambda n: n.score, reverse=True)


def trace_beam_search(model, src_ids, beam: int = 4, alpha: float = 0.6,
                      max_len: int | None = None, **kw) -> tuple[DecodeResult, BeamTree]:
    """beam_search(model, src_ids, beam, alpha, max_len, **kw) and the tree it searched."""
    tree = BeamTree(beam, alpha, kw.get("lp", "gnmt"), model.cfg.eos_id)
    res = beam_search(model, src_ids, beam, alpha, max_len, recorder=tree, **kw)
    return res, tree
