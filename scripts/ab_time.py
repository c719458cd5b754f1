#!/usr/bin/env python3
"""Paired whole-process timing of two commands, A B A B ...: the speed figures
in docs/BENCHMARKS.md are medians of runs taken this way (wall from start to
exit, user and system time and peak RSS from the kernel's accounting of the
reaped child). Pairing keeps the ratio A/B meaningful when the machine's speed
drifts during the call. Python's standard library only.

    scripts/ab_time.py [-n RUNS] [--warmup W] [--timeout S] \\
        --vs 'COMMAND_B' -- COMMAND_A [ARG ...]

COMMAND_B is one string split as a shell splits words (write a pipe or a
redirection as sh -c '...'); output of both commands is thrown away.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import threading
import time


def run(argv, deadline):
    """Runs argv once; returns (wall s, user s, sys s, peak MiB, exit code)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A blocking wait (no polling to add to the wall time), with a timer
    # that kills the command at the bound.
    timer = threading.Timer(max(0.0, deadline - start), proc.kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if time.monotonic() > deadline:
        sys.exit("ab_time: time bound reached")
    wall = time.monotonic() - start
    # ru_maxrss is in KiB on Linux.
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def row(name, values):
    return f"{name:<14} {min(values):>10.3f} {statistics.median(values):>10.3f} {max(values):>10.3f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=5, help="pairs timed (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs of each first (default 1)")
    p.add_argument("--timeout", type=float, default=3600, help="bound on the whole call, seconds")
    p.add_argument("--vs", required=True, help="command B, one string")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- command A and its arguments")
    args = p.parse_args()
    a = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not a:
        p.error("command A is missing (after --)")
    b = shlex.split(args.vs)
    deadline = time.monotonic() + args.timeout
    for _ in range(args.warmup):
        run(a, deadline)
        run(b, deadline)
    ra, rb = [], []
    for _ in range(args.n):
        ra.append(run(a, deadline))
        rb.append(run(b, deadline))
    print(f"{'':<14} {'min':>10} {'median':>10} {'max':>10}   n = {args.n} pairs, A first")
    for name, rs in (("A", ra), ("B", rb)):
        print(row(f"{name} wall s", [r[0] for r in rs]))
        print(row(f"{name} cpu s", [r[1] + r[2] for r in rs]))
        print(row(f"{name} peak MiB", [r[3] for r in rs]))
    print(row("A/B wall", [x[0] / y[0] for x, y in zip(ra, rb)]))
    print(row("A/B cpu", [(x[1] + x[2]) / (y[1] + y[2]) for x, y in zip(ra, rb)]))
    codes = sorted({r[4] for r in ra + rb})
    print(f"exit codes: {codes}")


if __name__ == "__main__":
    main()
