"""Fit the expert's playout-horizon evaluation (:mod:`lanuno.bots.evaluation`).

The playout policy plays rounds against itself on the fast core (official rules, 2, 3 and 4
seats); at random moments every seat's features are recorded, and once the round is over,
who won. A conditional logit (softmax over the seats) is fitted by Newton's method with a
small ridge, and its weights are written to ``lanuno/bots/eval_weights.py``. It prints the
held-out log loss of the fit against the old rule (a share falling by exp(-0.6) a card).

    python scripts/fit_eval.py --rounds 20000        # needs numpy (the bench extra)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lanuno.bots import fastcore as fc
from lanuno.bots.evaluation import FEATURES, features
from lanuno.bots.search import out_of_turn, policy
from lanuno.engine.rules import official, with_options

OUT = Path(__file__).resolve().parents[1] / "lanuno" / "bots" / "eval_weights.py"
RECORD = 0.12
"""Chance of recording a position at each move."""
RIDGE = 1.0


def play(n: int, rng: random.Random) -> tuple[list[list[list[float]]], list[list[int]], int]:
    """One self-play round: the recorded feature matrices, the hand sizes, the winner."""
    rules = with_options(official(), ["target=none"])
    r = fc.deal(
        rules,
        (False,) * n,
        fc.RandomIntShuffler(rng),
        round_no=1,
        dealer=rng.randrange(n),
        scores=[0] * n,
    )
    recorded: list[list[list[float]]] = []
    sizes: list[list[int]] = []
    for _ in range(5000):
        if r.phase == fc.ROUND_OVER:
            break
        out_of_turn(r, -1, rng)
        if r.phase == fc.ROUND_OVER:
            break
        if rng.random() < RECORD:
            recorded.append([features(r, s) for s in range(n)])
            sizes.append([len(h) for h in r.hands])
        r.apply(policy(r, r.actor, rng))
    assert r.winner is not None
    return recorded, sizes, r.winner


def fit(groups: Sequence[tuple[np.ndarray, np.ndarray]], dims: int) -> np.ndarray:
    w = np.zeros(dims)
    for _ in range(30):
        grad = -RIDGE * w
        hess = -RIDGE * np.eye(dims)
        for x, y in groups:
            s = x @ w
            s -= s.max(axis=1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=1, keepdims=True)
            mean = np.einsum("ms,msf->mf", p, x)
            grad += (x[np.arange(len(y)), y] - mean).sum(axis=0)
            second = np.einsum("ms,msf,msg->fg", p, x, x)
            hess -= second - mean.T @ mean
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def log_loss(groups: Sequence[tuple[np.ndarray, np.ndarray]], w: np.ndarray) -> float:
    total, count = 0.0, 0
    for x, y in groups:
        s = x @ w
        s -= s.max(axis=1, keepdims=True)
        logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
        total -= logp[np.arange(len(y)), y].sum()
        count += len(y)
    return total / count


def old_rule_loss(groups: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> float:
    total, count = 0.0, 0
    for sizes, y in ((g[2], g[1]) for g in groups):
        weights = np.exp(-0.6 * np.minimum(sizes, 40))
        p = weights / weights.sum(axis=1, keepdims=True)
        total -= np.log(p[np.arange(len(y)), y]).sum()
        count += len(y)
    return total / count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=20000, help="self-play rounds per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--dry-run", action="store_true", help="fit and report, write nothing")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    train: list[tuple[np.ndarray, np.ndarray]] = []
    test: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for n in args.seats:
        xs: list[list[list[float]]] = []
        ys: list[int] = []
        ss: list[list[int]] = []
        for _ in range(args.rounds):
            recorded, sizes, winner = play(n, rng)
            xs.extend(recorded)
            ss.extend(sizes)
            ys.extend([winner] * len(recorded))
        x, y, s = np.array(xs), np.array(ys), np.array(ss)
        cut = len(y) * 4 // 5  # whole rounds stay on one side but for one
        train.append((x[:cut], y[:cut]))
        test.append((x[cut:], y[cut:], s[cut:]))
        print(f"{n} seats: {len(y)} positions from {args.rounds} rounds")
    w = fit(train, len(FEATURES))
    held_out = [(x, y) for x, y, _ in test]
    print(
        f"held-out log loss: fitted {log_loss(held_out, w):.4f}, old rule {old_rule_loss(test):.4f}"
    )
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:<22} {value:+.3f}")
    if args.dry_run:
        return 0
    body = ",\n".join(
        f"    {value:.4f},  # {name}" for name, value in zip(FEATURES, w, strict=True)
    )
    OUT.write_text(
        '"""Weights of :mod:`lanuno.bots.evaluation`, written by\n'
        f"``scripts/fit_eval.py --rounds {args.rounds} --seed {args.seed}``"
        ' (do not edit by hand)."""\n\n'
        f"WEIGHTS: tuple[float, ...] = (\n{body},\n)\n"
    )
    print(f"wrote {OUT}")
    return 0 if math.isfinite(float(w.sum())) else 1


if __name__ == "__main__":
    sys.exit(main())
