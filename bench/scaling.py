#!/usr/bin/env python3
"""Times every docctl command on Projects of growing size and prints how each grows per
doubling of the tasks, with Python's json.load + json.dumps of the same document as the
peer. Cost that grows no faster than the work shows as a factor near 2.0 per doubling;
a quadratic step shows as 4.0.

Usage: scaling.py DOCCTL WORK RUNS SIZES... [--large N]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))

def run_once(command, env, allowed=(0,)):
    start = time.perf_counter()
    process = subprocess.Popen(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               executable="/bin/bash", env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in allowed:
        raise SystemExit(f"failed ({code}): {command}\n{error}")
    return elapsed, usage.ru_maxrss / 1024

def prepare(docctl, work, count, env):
    """A folder to import, the same document as one JSON file, and two bundles: the
    imported one and one with a second version (for diff, log, restore and prune)."""
    folder = os.path.join(work, f"p{count}")
    if not os.path.exists(os.path.join(folder, "document.json")):
        subprocess.run([sys.executable, os.path.join(HERE, "make_project.py"), folder, "--tasks", str(count)], check=True)
    bundle = os.path.join(work, f"p{count}.dkproj")
    history = os.path.join(work, f"h{count}.dkproj")
    for path in (bundle, history):
        if os.path.exists(path):
            os.remove(path)
    subprocess.run([docctl, "import", folder, "-o", bundle], check=True, env=env, stdout=subprocess.DEVNULL)
    shutil.copy(bundle, history)
    subprocess.run([docctl, "set", history, f"tasks[{count // 2}].title", "Changed in the middle"], check=True, env=env, stdout=subprocess.DEVNULL)
    return folder, bundle, history

def commands(docctl, work, count, folder, bundle, history, large):
    """Each: name, command, and a command run untimed before each run (a fresh copy)."""
    edit = os.path.join(work, "edit.dkproj")
    fresh = f"cp {bundle} {edit}"
    fresh_history = f"cp {history} {edit}"
    out = os.path.join(work, "out")
    items = [
        ("python json edit", f"python3 {HERE}/python_edit.py {folder}/document.json {out}.json", None),
        ("import", f"rm -f {out}.dkproj && {docctl} import {folder} -o {out}.dkproj", None),
        ("set one field", f"{docctl} set {edit} 'tasks[{count // 3}].title' edited", fresh),
        ("set tasks[+]", f"{docctl} set {edit} 'tasks[+]' '{{\"title\": \"new\"}}'", fresh),
        ("unset tasks[5]", f"{docctl} unset {edit} 'tasks[5]'", fresh),
        ("cat", f"{docctl} cat {bundle}", None),
        ("get", f"{docctl} get {bundle} 'tasks[-1].title'", None),
        ("diff 1 head", f"{docctl} diff {history} 1 head", None),
        ("validate --deep", f"{docctl} validate --deep {history}", None),
    ]
    if not large:
        items += [
            ("attach", f"{docctl} attach {edit} {HERE}/make_project.py", fresh),
            ("edit one task", f"EDITOR={HERE}/retitle.sh {docctl} edit {edit} 'tasks[7]'", fresh),
            ("validate", f"{docctl} validate {history}", None),
            ("log", f"{docctl} log {history}", None),
            ("info", f"{docctl} info {history}", None),
            ("export zip", f"{docctl} export {bundle} --format zip -o {out}.zip --force", None),
            ("restore 1", f"{docctl} restore {edit} 1", fresh_history),
            ("prune --keep 1", f"{docctl} prune {edit} --keep 1", fresh_history),
            ("state set", f"{docctl} state set {edit} task.last-opened 00000007-0000-4000-8000-000000000007", fresh),
        ]
    return items

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docctl")
    parser.add_argument("work")
    parser.add_argument("runs", type=int)
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--large", type=int, action="append", default=[],
                        help="also time import, edits and reads at this size (with peak memory)")
    args = parser.parse_args()
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600", TZ="UTC", XDG_CONFIG_HOME=os.path.join(args.work, "config"))
    os.makedirs(args.work, exist_ok=True)
    results = {}  # (name, size) -> (median seconds, peak MiB)
    names = []
    for count in args.sizes + args.large:
        large = count in args.large
        print(f"  {count} tasks{' (large)' if large else ''}...", file=sys.stderr)
        folder, bundle, history = prepare(args.docctl, args.work, count, env)
        items = commands(args.docctl, args.work, count, folder, bundle, history, large)
        times = {name: [] for name, _, _ in items}
        memory = {name: 0.0 for name, _, _ in items}
        for _ in range(args.runs):
            for name, command, before in items:
                if before:
                    subprocess.run(before + " && sync", shell=True, check=True, executable="/bin/bash")
                # diff exits 1 when the versions differ, as they do here.
                elapsed, rss = run_once(command, env, allowed=(0, 1) if name.startswith("diff") else (0,))
                times[name].append(elapsed)
                memory[name] = max(memory[name], rss)
        for name, _, _ in items:
            if name not in names:
                names.append(name)
            results[(name, count)] = (statistics.median(times[name]), memory[name])
    sizes = args.sizes
    # The reference size, when it was measured; else the largest.
    reference = 20000 if 20000 in sizes else sizes[-1]
    print(f"| command | " + " | ".join(f"{n:,} tasks" for n in sizes) + " | growth per doubling | x Python at " + f"{reference:,} |")
    print("|---|" + "---|" * len(sizes) + "---|---|")
    python = results.get(("python json edit", reference), (None,))[0]
    for name in names:
        cells = [f"{results[(name, n)][0]:.3f} s" if (name, n) in results else "" for n in sizes]
        factors = []
        for small, big in zip(sizes, sizes[1:]):
            if (name, small) in results and (name, big) in results and big == 2 * small:
                factors.append(results[(name, big)][0] / results[(name, small)][0])
        growth = " ".join(f"{f:.2f}" for f in factors)
        ratio = f"{results[(name, reference)][0] / python:.2f}x" if python and (name, reference) in results else ""
        print(f"| {name} | " + " | ".join(cells) + f" | {growth} | {ratio} |")
    for count in args.large:
        print()
        print(f"At {count:,} tasks:")
        print()
        print("| command | median | peak RSS |")
        print("|---|---|---|")
        for name in names:
            if (name, count) in results:
                seconds, peak = results[(name, count)]
                print(f"| {name} | {seconds:.3f} s | {peak:.1f} MiB |")

if __name__ == "__main__":
    main()
