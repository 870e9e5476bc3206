"""bench/season.py over several seeds, with and without divisions, compared seed by seed.

    python bench/season_seeds.py [--seeds 1-5] [--divisions 50] [--jobs 2] [--out FILE]
                                 [-- season.py's own options, e.g. --before-minutes 10]

Each seed runs the same season twice, once as one ladder and once in divisions of
`--divisions`: a seed fixes the true strengths, the warm ratings, who submits a new version
and when, so the two runs of a seed differ only by the divisions (and the random draws that
follow from them). Each figure is given per configuration as its mean over the seeds with a
95% Student t interval; the difference divisions − one ladder of each rank correlation is a
paired difference over the seeds, with its 95% t interval and the paired t test (two-sided,
H0: no difference). The interval and the test are the same computation, so they always agree:
the test rejects at 5% exactly when the interval leaves out 0.

Results go line by line to `--out` (JSON lines); a run already there is not run again, so a
long comparison can be resumed.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import season  # the simulation beside this file (a script's folder is on its path)

FIGURES = (
    ("matches_per_bot_hour_before", "matches per bot per hour, before the burst"),
    ("matches_per_bot_hour_burst", "matches per bot per hour, during the burst"),
    ("first_match_wait_s.median", "a new version's first rated match, median wait (s)"),
    ("first_match_wait_s.p90", "a new version's first rated match, p90 wait (s)"),
    ("first_match_wait_s.max", "a new version's first rated match, max wait (s)"),
    ("first_match_wait_s.over_target", "new versions over the 5-minute target"),
    ("rank_correlation_old_start", "Spearman, old entries, at the start"),
    ("rank_correlation_old.spearman", "Spearman, old entries"),
    ("rank_correlation_old.mean_rated_matches", "rated matches, old entries (mean)"),
    ("rank_correlation_new.spearman", "Spearman, new versions"),
    ("rank_correlation_new.mean_rated_matches", "rated matches, new versions (mean)"),
    ("scheduler_cpu_ms_per_table", "scheduler CPU per table (ms)"),
)
COMPARED = ("rank_correlation_old.spearman", "rank_correlation_new.spearman")


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((a - 1.0 + m2) * (a + m2)),
                   -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2))):  # fmt: skip
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    if x <= 0.0 or x >= 1.0:
        return 0.0 if x <= 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1.0 - x))  # fmt: skip
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    return _betai(df / 2.0, 0.5, df / (df + t * t))


def t_quantile_975(df: int) -> float:
    """The 97.5th percentile of Student's t (the half-width factor of a 95% interval)."""
    low, high = 0.0, 1000.0
    for _ in range(200):
        mid = (low + high) / 2.0
        low, high = (mid, high) if t_two_sided_p(mid, df) > 0.05 else (low, mid)
    return (low + high) / 2.0


def t_summary(values: list[float]) -> dict:
    """Mean, 95% t interval, and the t test of mean 0 (two-sided)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return {"n": n, "mean": mean, "low": None, "high": None, "p": None}
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    se = sd / math.sqrt(n)
    half = t_quantile_975(n - 1) * se
    p = t_two_sided_p(mean / se, n - 1) if se > 0 else (0.0 if mean else 1.0)
    return {"n": n, "mean": mean, "sd": sd, "low": mean - half, "high": mean + half, "p": p}


def _get(result: dict, dotted: str) -> float | None:
    value = result
    for part in dotted.split("."):
        value = None if value is None else value.get(part)
    return value


def _run(argv: list[str]) -> dict:
    return season.simulate(season.parser().parse_args(argv))


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def compare(results: list[dict], divisions: int) -> dict:
    by = {(r["divisions"], r["seed"]): r for r in results}
    seeds = sorted({r["seed"] for r in results})
    paired = [s for s in seeds if (0, s) in by and (divisions, s) in by]
    out: dict = {"seeds": paired, "configurations": {}, "differences": {}}
    for config in (0, divisions):
        rows = [by[(config, s)] for s in paired]
        values = {key: [_get(r, key) for r in rows] for key, _ in FIGURES}
        # a figure that a run lacks (a cold ladder's start) is left out
        out["configurations"][config] = {
            key: t_summary(v) for key, v in values.items() if v and None not in v
        }
    for key in COMPARED:
        pairs = [(_get(by[(divisions, s)], key), _get(by[(0, s)], key)) for s in paired]
        if pairs and None not in {x for pair in pairs for x in pair}:
            diffs = [a - b for a, b in pairs]
            out["differences"][key] = {"per_seed": diffs, **t_summary(diffs)}
    return out


def _fmt(summary: dict, digits: int) -> str:
    if summary["low"] is None:
        return f"{summary['mean']:.{digits}f}"
    mean, low, high = (f"{summary[k]:.{digits}f}" for k in ("mean", "low", "high"))
    return f"{mean} [{low}, {high}]"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="1-5", help="e.g. 1-5 or 1,2,7")
    parser.add_argument("--divisions", type=int, default=50, help="the size compared with none")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="season_seeds.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out_path = Path(args.out)
    done = []
    if out_path.exists():
        done = [json.loads(line) for line in out_path.read_text().splitlines() if line.strip()]
    have = {(r["divisions"], r["seed"]) for r in done}
    todo = [(d, s) for s in _seeds(args.seeds) for d in (0, args.divisions) if (d, s) not in have]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(_run, [*extra, "--seed", str(s), "--divisions", str(d)])
                   for d, s in todo]  # fmt: skip
        for future in futures:
            result = future.result()
            with out_path.open("a") as f:
                f.write(json.dumps(result) + "\n")
            done.append(result)
            print(f"seed {result['seed']}, divisions {result['divisions']}: done in "
                  f"{result['wall_seconds']} s", file=sys.stderr)  # fmt: skip
    wanted = set(_seeds(args.seeds))
    report = compare([r for r in done if r["seed"] in wanted], args.divisions)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"seeds {report['seeds']}; mean over the seeds [95% Student t interval]")
    print(f"{'figure':<54} {'one ladder':>24} {f'divisions of {args.divisions}':>24}")
    for key, label in FIGURES:
        if key not in report["configurations"][0]:
            continue
        digits = 3 if "spearman" in key or "start" in key else 1
        cells = [_fmt(report["configurations"][c][key], digits) for c in (0, args.divisions)]
        print(f"{label:<54} {cells[0]:>24} {cells[1]:>24}")
    for key, d in report["differences"].items():
        verdict = ("divisions differ" if d["p"] is not None and d["p"] < 0.05
                   else "no difference shown")  # fmt: skip
        print(f"{key}: divisions − one ladder = {_fmt(d, 4)} (paired t over {d['n']} seeds, "
              f"p = {d['p']:.3g}): {verdict}; per seed "
              f"{', '.join(f'{x:+.3f}' for x in d['per_seed'])}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
