#!/usr/bin/env python3
"""Times commands against each other on a noisy machine: the commands of a group run
round-robin (one run of each, RUNS times), so load that comes and goes hits them alike.
Reports the median wall time and the peak resident memory (from wait4) of each command,
then the ratios the spec asks for, with their targets.

Usage: measure.py SPEC.json RUNS
SPEC: {"commands": [{"group", "name", "cmd", "before"?}], "ratios": [{"of", "to", "target"?, "max"?}]}
"""
import json, os, statistics, subprocess, sys, time

def run_once(command):
    start = time.perf_counter()
    process = subprocess.Popen(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, executable="/bin/bash")
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed ({os.waitstatus_to_exitcode(status)}): {command}\n{error}")
    return elapsed, usage.ru_maxrss / 1024  # MiB

def main():
    spec = json.load(open(sys.argv[1]))
    runs = int(sys.argv[2])
    groups = {}
    for item in spec["commands"]:
        groups.setdefault(item["group"], []).append(item)
    times = {item["name"]: [] for item in spec["commands"]}
    memory = {item["name"]: 0.0 for item in spec["commands"]}
    for group, items in groups.items():
        print(f"  {group}...", file=sys.stderr)
        for _ in range(runs):
            for item in items:
                if item.get("before"):
                    subprocess.run(item["before"], shell=True, check=True, executable="/bin/bash")
                elapsed, rss = run_once(item["cmd"])
                times[item["name"]].append(elapsed)
                memory[item["name"]] = max(memory[item["name"]], rss)
    median = {name: statistics.median(values) for name, values in times.items()}
    print("| group | command | median | peak RSS |")
    print("|---|---|---|---|")
    for item in spec["commands"]:
        label = item["label"].replace("|", "\\|")  # a pipe would end the table cell
        print(f"| {item['group']} | `{label}` | {median[item['name']]:.3f} s | {memory[item['name']]:.1f} MiB |")
    print()
    print("| ratio | measured | target | |")
    print("|---|---|---|---|")
    for ratio in spec["ratios"]:
        value = median[ratio["of"]] / median[ratio["to"]]
        limit = ratio.get("max")
        verdict = "" if limit is None else ("met" if value <= limit else "**missed**")
        print(f"| {ratio['of']} / {ratio['to']} | {value:.2f}x | {ratio.get('target', '')} | {verdict} |")
    peak = max(memory[item["name"]] for item in spec["commands"] if "docctl" in item["label"])
    print()
    print(f"Largest docctl peak RSS: {peak:.1f} MiB (target: under 64 MiB: {'met' if peak < 64 else '**missed**'}).")

if __name__ == "__main__":
    main()
