#!/usr/bin/env python3
"""Before against after: times the same docctl commands with two builds, alternating
between them run by run, and prints medians and their ratio as Markdown tables.

Usage: bench/ab.py BEFORE_DOCCTL AFTER_DOCCTL [RUNS]   (default 15 runs)

Needs the corpora of bench/run.sh and bench/history.sh (bench/corpus/work and
bench/corpus/history). Reads are timed as wall time; the commands that move hundreds of
megabytes also as user CPU time, since the kernel's share of their wall time swings with
the page cache. Build a commit's docctl in a worktree with scripts/build-docctl.sh."""
import os, shutil, statistics, subprocess, sys, tempfile, time

if len(sys.argv) < 3 or sys.argv[1] == "--help":
    print(__doc__.strip())
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] == "--help" else 64)
builds = {"before": sys.argv[1], "after": sys.argv[2]}
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 15
root = os.path.dirname(os.path.abspath(__file__))
work, history = f"{root}/corpus/work", f"{root}/corpus/history"
scratch = tempfile.mkdtemp(prefix="docctl-ab-")

def fresh(source, name):
    """A copy of `source` flushed to disk, so that a timed save's fsync writes only its own bytes."""
    target = f"{scratch}/{name}"
    shutil.copy(source, target)
    os.sync()
    return target

def clear(*names):
    for name in names:
        path = f"{scratch}/{name}"
        shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.path.exists(path) and os.remove(path)
    os.sync()

# name: (arguments after docctl, preparation run untimed before each run)
reads = {
    "cat big": (lambda: ["cat", f"{work}/big.dkproj"], None),
    "cat small": (lambda: ["cat", f"{work}/small.dkproj"], None),
    "cat long-1000": (lambda: ["cat", f"{history}/long-1000-f3.dkproj"], None),
    "cat one": (lambda: ["cat", f"{history}/one-f3.dkproj"], None),
    "get big": (lambda: ["get", f"{work}/big.dkproj", "tasks[24999].title"], None),
    "set long-1000": (lambda: ["set", fresh(f"{history}/long-1000-f3.dkproj", "e.dkproj"), "tasks[7].title", "X"], None),
    "set one": (lambda: ["set", fresh(f"{history}/one-f3.dkproj", "o.dkproj"), "tasks[7].title", "X"], None),
    "import small": (lambda: ["import", f"{work}/small-source", "-o", f"{scratch}/i.dkproj", "--force"], None),
    "validate --deep small": (lambda: ["validate", "--deep", f"{work}/small.dkproj"], None),
    "cat long --version 1": (lambda: ["cat", f"{history}/long-1000-f3.dkproj", "--version", "1"], None),
}
heavy = {
    "extract": (lambda: ["extract", f"{work}/big.dkproj", "thumbnail", "-o", f"{scratch}/thumb.bin", "--force"], lambda: clear("thumb.bin")),
    "export tar.zst": (lambda: ["export", f"{work}/big.dkproj", "--format", "tar.zst", "-o", f"{scratch}/big.tar.zst", "--force"], lambda: clear("big.tar.zst")),
    "export dir": (lambda: ["export", f"{work}/big.dkproj", "--format", "dir", "-o", f"{scratch}/big.dir"], lambda: clear("big.dir")),
    "import corpus": (lambda: ["import", f"{root}/corpus/source", "-o", f"{scratch}/c.dkproj", "--force"], lambda: clear("c.dkproj")),
    "validate --deep big": (lambda: ["validate", "--deep", f"{work}/big.dkproj"], None),
}

def measure(commands):
    wall = {(name, build): [] for name in commands for build in builds}
    user = {(name, build): [] for name in commands for build in builds}
    for run in range(runs):
        for name, (arguments, prepare) in commands.items():
            order = list(builds) if run % 2 == 0 else list(reversed(builds))
            for build in order:
                if prepare: prepare()
                command = [builds[build]] + arguments()
                start = time.perf_counter()
                process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                _, status, usage = os.wait4(process.pid, 0)
                wall[(name, build)].append(time.perf_counter() - start)
                user[(name, build)].append(usage.ru_utime)
                if os.waitstatus_to_exitcode(status) not in (0, 1):
                    sys.exit(f"error: {' '.join(command)} failed: {process.stderr.read().decode()[:300]}")
    return ({key: statistics.median(values) for key, values in wall.items()},
            {key: statistics.median(values) for key, values in user.items()})

wall, _ = measure(reads)
print("| command | before | after | after / before |\n|---|---|---|---|")
for name in reads:
    before, after = wall[(name, "before")], wall[(name, "after")]
    print(f"| `{name}` | {before * 1000:.1f} ms | {after * 1000:.1f} ms | {after / before:.2f}x |")
print("\n| ratio | before | after |\n|---|---|---|")
for big, small in [("cat big", "cat small"), ("cat long-1000", "cat one"), ("set long-1000", "set one")]:
    print(f"| {big} / {small} | " + " | ".join(f"{wall[(big, b)] / wall[(small, b)]:.2f}x" for b in builds) + " |")
wall, user = measure(heavy)
print("\n| command | before (user CPU) | after (user CPU) | after / before | wall before | wall after |\n|---|---|---|---|---|---|")
for name in heavy:
    before, after = user[(name, "before")], user[(name, "after")]
    print(f"| `{name}` | {before * 1000:.0f} ms | {after * 1000:.0f} ms | {after / before:.2f}x "
          f"| {wall[(name, 'before')] * 1000:.0f} ms | {wall[(name, 'after')] * 1000:.0f} ms |")
shutil.rmtree(scratch, ignore_errors=True)
