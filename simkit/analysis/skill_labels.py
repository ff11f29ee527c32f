"""The four labels a verdict gets across skill levels, and the sentence that states one
(GLOSSARY: robust, skill-dependent, style-dependent, undetermined; docs/statistics.md
"Across skill levels").

:func:`label_of` decides a combination's label from its verdict per level and the tested
differences between its levels (rows of :func:`simkit.analysis.skill.slot_differences`);
:func:`sentence` states it in words: the shift and its size, the range among players of
equal strength, or what an undecided level would need. Only the rule and its words: the
tests are in :mod:`simkit.analysis.skill`, which players the level check separated in
:mod:`simkit.analysis.skill_levels`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from simkit.analysis.fairness import FAIR, UNFAIR
from simkit.analysis.skill_levels import EQUAL, SEPARATED, UNMEASURED

ROBUST = "robust"
DEPENDENT = "skill-dependent"
STYLE = "style-dependent"
UNDETERMINED = "undetermined"
LABELS = (ROBUST, DEPENDENT, STYLE, UNDETERMINED)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _pp(x: float) -> str:
    return f"{100 * x:+.1f}"


def _interval(r: Any) -> str:
    return f"{_pp(r['diff'])} pp [{_pp(r['low'])}, {_pp(r['high'])}]"


def shift_text(r: Any) -> str:
    """How a slot's distance from fair moves between two levels, with the tested difference.

    ``slot 4's deficit grows from -2.5 pp with greedy:tuned to -13.9 pp with search:64,
    difference -11.4 pp [-13.0, -9.8]`` (a row of :func:`slot_differences`, as a Series).
    """
    a, b = r["rate_a"] - r["fair_rate"], r["rate_b"] - r["fair_rate"]
    frm, to = f"{_pp(a)} pp with {r['level_a']}", f"{_pp(b)} pp with {r['level_b']}"
    slot = int(r["slot"])
    if a < 0 and b < 0:
        what = f"slot {slot}'s deficit {'grows' if b < a else 'shrinks'}"
    elif a > 0 and b > 0:
        what = f"slot {slot}'s edge {'grows' if b > a else 'shrinks'}"
    else:
        what = f"slot {slot} moves"
    return f"{what} from {frm} to {to}, difference {_interval(r)}"


def _beyond(tests: pd.DataFrame, strength: str) -> pd.DataFrame:
    """The rows significantly beyond the tolerance between players of that ``strength``."""
    if not len(tests):
        return tests
    kind = tests["strength"] if "strength" in tests else pd.Series(UNMEASURED, tests.index)
    return tests[tests["beyond"].astype(bool) & (kind == strength)]


def label_of(verdicts: dict[str, str], tests: pd.DataFrame) -> str:
    """The label of one combination from its verdict per level and its tested differences:
    skill-dependent only on a difference significantly beyond the tolerance between levels
    the level check separates, style-dependent on one between players it finds of equal
    strength (a difference between unmeasured levels leaves it undetermined)."""
    if len(_beyond(tests, SEPARATED)):
        return DEPENDENT
    if len(_beyond(tests, EQUAL)):
        return STYLE
    decided = all(v in (FAIR, UNFAIR) for v in verdicts.values())
    if decided and len(set(verdicts.values())) == 1 and not len(_beyond(tests, UNMEASURED)):
        return ROBUST
    return UNDETERMINED


def _grouped(by_level: dict[str, str]) -> str:
    groups: dict[str, list[str]] = {}
    for level, verdict in by_level.items():
        groups.setdefault(verdict, []).append(level)
    return ", ".join(f"{v} with {_and(ls)}" for v, ls in groups.items())


def _tolerance(tests: pd.DataFrame) -> float:
    """The margin the study's differences were tested against (0: against zero)."""
    return float(tests["tolerance"].iloc[0]) if len(tests) and "tolerance" in tests else 0.0


def _pm(tol: float) -> str:
    return f"±{100 * tol:g} pp"


def _no_difference(tol: float) -> str:
    """``no difference between levels significantly beyond ±2 pp`` (or ``no significant
    difference between levels`` without a tolerance)."""
    if tol > 0:
        return f"no difference between levels significantly beyond {_pm(tol)}"
    return "no significant difference between levels"


def _small_shift(tests: pd.DataFrame, tol: float) -> str:
    """The most significant shift that is real (against 0) but not shown beyond the
    tolerance, if any: ``; slot 1 shifts +1.5 pp [+0.7, +2.2] (greedy:tuned - greedy),
    significant but within ±2 pp``. Its interval is that difference's own 95% interval,
    while the label rests on Holm's correction over the study: a shift whose own interval
    lies beyond the tolerance but whose corrected test does not show it says exactly that,
    with the number of differences corrected over and the adjusted p."""
    if not tol > 0 or "beyond" not in tests:
        return ""
    small = tests[tests["significant"] & ~tests["beyond"]]
    if small.empty:
        return ""
    r = small.sort_values(["p_adjusted", "p"], kind="stable").iloc[0]
    more = f" (and {len(small) - 1} more)" if len(small) > 1 else ""
    head = f"; slot {int(r['slot'])} shifts {_interval(r)} ({r['level_b']} - {r['level_a']}"
    if r["p_beyond"] < 0.05:
        over = int(r["holm_over"]) if "holm_over" in r else len(tests)
        return (
            f"{head}; its own 95% interval), beyond {_pm(tol)} on its own but not after "
            f"Holm's correction over the study's {over} differences (adjusted p "
            f"{r['p_beyond_adjusted']:.2g}){more}"
        )
    if abs(r["diff"]) <= tol:
        return f"{head}), significant but within {_pm(tol)}{more}"
    return (
        f"{head}), significant; its estimate passes {_pm(tol)} but its interval reaches "
        f"within it, so it is not shown beyond it{more}"
    )


def _group(tests: pd.DataFrame, level: str) -> list[str]:
    """The players the level check found of one strength with ``level``, itself included,
    through chains of such pairs (in the order the tests list them)."""
    equal = tests[tests["strength"] == EQUAL] if "strength" in tests else tests.iloc[:0]
    found, todo = [level], [level]
    while todo:
        lv = todo.pop()
        for r in equal.itertuples():
            other = r.level_b if r.level_a == lv else r.level_a if r.level_b == lv else None
            if other is not None and other not in found:
                found.append(other)
                todo.append(other)
    order = list(dict.fromkeys([*tests["level_a"], *tests["level_b"]]))
    return sorted(found, key=order.index)


def style_text(tests: pd.DataFrame, fields: dict[str, str] | None = None) -> str:
    """The most significant difference among players of one strength, as a range of the
    slot's win rate among them: ``slot 4 wins 7.8-14.2% among the strong field
    (search:64 and X); X - search:64 +6.4 pp [+4.5, +8.3]``."""
    rows = _beyond(tests, EQUAL).sort_values(["p_beyond_adjusted", "p"], kind="stable")
    top = rows.iloc[0]
    slot, group = int(top["slot"]), _group(tests, str(top["level_a"]))
    mine = tests[(tests["slot"] == slot)]
    rate = {
        **dict(zip(mine["level_a"], mine["rate_a"], strict=True)),
        **dict(zip(mine["level_b"], mine["rate_b"], strict=True)),
    }
    rates = [rate[lv] for lv in group if lv in rate]
    named = {(fields or {}).get(lv) for lv in group}
    who = (
        f"the {named.pop()} ({_and(group)})"
        if len(named) == 1 and None not in named and len(group) > 1
        else f"players of equal strength here ({_and(group)})"
    )
    text = (
        f"slot {slot} wins {100 * min(rates):.1f}-{100 * max(rates):.1f}% among {who}; "
        f"{top['level_b']} - {top['level_a']} {_interval(top)}"
    )
    if len(rows) > 1:
        text += f" (and {len(rows) - 1} more difference{'s' * (len(rows) > 2)} beyond it)"
    return text


def sentence(
    by_level: dict[str, str],
    tests: pd.DataFrame,
    needs: dict[str, str] | None = None,
    distinct: dict[tuple[str, str], str] | None = None,
    fields: dict[str, str] | None = None,
) -> str:
    """What a combination's verdict does across levels, in one sentence with its label.

    Args:
        by_level: the verdict word per level, in level order.
        tests: the combination's rows of :func:`slot_differences`.
        needs: per undecided level, what it would take (``~12,000 races would decide``).
        distinct: per pair of adjacent levels measured not to differ in strength here, why
            (:mod:`simkit.ladder`'s level check): their difference is then no skill effect.
        fields: bot -> the name of its field (``strong field``), to name a group of equal
            players by it.
    """
    label = label_of(by_level, tests)
    tol = _tolerance(tests)
    none = _no_difference(tol)
    beyond = f", beyond {_pm(tol)}" if tol > 0 else ""
    if label == DEPENDENT:
        sig = _beyond(tests, SEPARATED).sort_values(["p_beyond_adjusted", "p"], kind="stable")
        top = sig.iloc[0]
        text = f"{DEPENDENT}: {shift_text(top)}{beyond}"
        if len(sig) > 1:
            text += f" (and {len(sig) - 1} more difference{'s' * (len(sig) > 2)} beyond it)"
        if len(_beyond(tests, EQUAL)):
            text += f"; also {STYLE}: {style_text(tests, fields)}{beyond}"
    elif label == STYLE:
        text = f"{STYLE}: {style_text(tests, fields)}{beyond}"
    elif label == ROBUST:
        verdict = next(iter(by_level.values()))
        text = (
            f"{ROBUST}: {verdict} at every skill level ({', '.join(by_level)}), {none}"
            + _small_shift(tests, tol)
        )
    else:
        undecided = [lv for lv, v in by_level.items() if v not in (FAIR, UNFAIR)]
        unmeasured = _beyond(tests, UNMEASURED).sort_values(["p_beyond_adjusted", "p"])
        if len(unmeasured):
            top = unmeasured.iloc[0]
            text = (
                f"{UNDETERMINED}: {shift_text(top)}{beyond}, but the level check did not "
                f"measure whether {top['level_a']} and {top['level_b']} differ in strength "
                "here (check_levels = false, or a run from before it), so skill cannot be "
                "told from style"
            )
        elif undecided:
            what = "; ".join(
                f"{by_level[lv]} with {lv}" + (f" ({needs[lv]})" if needs and lv in needs else "")
                for lv in undecided
            )
            text = f"{UNDETERMINED}: {none}; {what}"
        else:
            text = f"{UNDETERMINED}: {_grouped(by_level)}, but {none} after the correction"
        text += _small_shift(tests, tol)
        if len(tests) and not len(unmeasured):
            widest = tests.loc[(tests["high"] - tests["low"]).idxmax()]
            # The interval is per comparison; the label rests on Holm's adjusted p of the
            # test against the tolerance, so an interval that excludes 0 (or reaches past
            # the tolerance) can stand beside "no difference ... beyond".
            text += (
                f"; widest: slot {int(widest['slot'])}, {widest['level_b']} - "
                f"{widest['level_a']} {_interval(widest)} (uncorrected interval; Holm p "
                f"{widest['p_beyond_adjusted']:.2g}{f' against {_pm(tol)}' if tol > 0 else ''})"
            )
    if distinct:
        text += "; " + "; ".join(
            f"{a} and {b} are not two skill levels here ({why.rstrip('.')})"
            for (a, b), why in distinct.items()
        )
    return text
