#!/usr/bin/env python3
"""Runs commands several times each and reports the median wall time and the peak
resident memory of each run (from wait4), as a Markdown table with ratios to peers.

Usage: measure.py SPEC.json RUNS   (SPEC: [{"group", "name", "cmd", "shell"?}], written by run.sh)
"""
import json, os, statistics, subprocess, sys, time

def run_once(command):
    start = time.perf_counter()
    process = subprocess.Popen(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, executable="/bin/bash")
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) not in (0,):
        raise SystemExit(f"failed ({os.waitstatus_to_exitcode(status)}): {command}\n{error}")
    return elapsed, usage.ru_maxrss / 1024  # MiB

def main():
    spec = json.load(open(sys.argv[1]))
    runs = int(sys.argv[2])
    results = {}
    for item in spec:
        if item.get("setup"):
            subprocess.run(item["setup"], shell=True, check=True, executable="/bin/bash")
        times, memory = [], []
        for _ in range(runs):
            if item.get("before"):
                subprocess.run(item["before"], shell=True, check=True, executable="/bin/bash")
            elapsed, rss = run_once(item["cmd"])
            times.append(elapsed)
            memory.append(rss)
        results[item["name"]] = (statistics.median(times), max(memory))
        print(f"  {item['name']}: median {statistics.median(times):.3f} s, peak {max(memory):.1f} MiB", file=sys.stderr)
    print("| group | command | median | peak RSS | vs peer |")
    print("|---|---|---|---|---|")
    for item in spec:
        median, rss = results[item["name"]]
        peer = item.get("peer")
        ratio = f"{median / results[peer][0]:.2f}x {peer}" if peer else ""
        print(f"| {item['group']} | {item['name']} | {median:.3f} s | {rss:.1f} MiB | {ratio} |")

if __name__ == "__main__":
    main()
