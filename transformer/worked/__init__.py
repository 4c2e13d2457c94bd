"""Worked examples: every step of scaled dot-product attention, checked against the notes.

The study notes under ``shared/seeds/`` work attention out by hand and print the numbers they
got. This module recomputes every step from the same inputs, in float64 numpy (no torch: the
point is to show plain matrix arithmetic a student can redo on paper), and says, entry by
entry, whether the notes' number agrees *within the notes' own rounding*.

Agreement rule (documented because a page shows its verdicts to students):

* The notes print a number to some decimals; the true value rounded to those decimals should
  give the printed number, so a claim agrees if ``|claim - value| <= half a unit in the last
  printed place``.  JSON drops trailing zeros (the notes' ``20.50`` is stored as ``20.5``), so in
  a fixed-point table every entry is read with as many decimals as the most precise entry of
  that table; a table written with e-notation (torch printouts, significant figures) is read
  entry by entry.
* Propagated rounding: when the notes computed a step from numbers they had already printed
  rounded (e.g. QK^T from Q and K printed to 2 decimals), and those earlier numbers agree, the
  tolerance also admits the exact effect of that rounding: ``|f(notes' rounded inputs) -
  f(exact inputs)|`` per entry. No fixed relative fudge: a real slip is still flagged. Where an
  earlier claim is partly wrong, the slack is computed from a "repaired" input (the notes'
  entries where they agree, the true ones where they do not), so an entry that uses only right
  inputs (QK^T[0,0] from row 0 of Q and K) keeps their rounding and one that uses a wrong input
  gets none; the step also reports whether the notes' arithmetic is right *given their wrong
  input* ("inherited") or is a new slip.
* A table the notes print with mixed decimals (``0.61 & 0.16 & 0.675``) is marked in its
  example's ``printed_per_entry`` list and read entry by entry.
* Hypotheses ("consistent with"): for a wrong claim, alternatives are computed (another
  divisor, 0 instead of -inf, opposite triangle, weights taken from the notes, ...). An
  alternative *matches* when it agrees within the same tolerance, and *roughly matches* when
  it is within 0.5 % (the notes often round intermediate steps silently).

Modules: ``maths`` (numbers and the tolerance rule), ``graph`` (steps and the chain), ``steps``
(attention and Add & Norm as steps, with hypotheses), ``verdicts`` (checking claims), ``checks``
(the other printed numbers), ``statements`` (what the notes say in words), ``examples`` (the
shipped examples), ``wording`` (labels, notes, verdicts and input errors as codes), ``words`` (the codes in
sentences, through a lookup by key and language), ``english`` (the codes' English, as data), ``cli``.

Public API: :func:`list_examples`, :func:`load_examples`, :func:`run_example`,
:func:`attention_steps` (free mode), :func:`positional_encoding`, :func:`add_norm_steps`,
:class:`Step`, :class:`WorkedResult`. CLI: ``python -m transformer.worked --list`` and
``python -m transformer.worked ID [--json]`` (steps, checks and the example's statements in
words, each with its verdict; the summary counts all three) and ``python -m transformer.worked
--statements [--json]`` (every statement, those about no single example included); in JSON, -inf
is written as the string ``"-inf"`` (likewise ``"inf"``/``"nan"``) so the output is strict JSON.
"""
