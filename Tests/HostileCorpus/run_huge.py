#!/usr/bin/env python3
"""The hostile inputs too big or too slow for `swift test`: real millions of entries and a
64 MB document, each given to every command the test suite runs, under the same checks.

    Tests/HostileCorpus/run_huge.py [--docctl PATH] [--memory MiB] [--seconds S] [--keep DIR]

Builds a good bundle with docctl, writes make_corpus.py's `huge` family (about 600 MB of
disk, a minute), runs info, cat, validate, validate --deep, export (zip, folder) and import
on each file with the address space capped (RLIMIT_AS, default 1024 MiB; 4 GiB for the
64 MB document, whose JSON parsed into values takes ~30 bytes per byte) and a time limit
(default 120 s), and prints one line per run: status, seconds, peak resident memory, the
error line. Exits 1 if any run crashed, timed out, gave another status than expected,
printed more than one error line, left files behind, or changed its input.

docctl defaults to .build/release/docctl when it exists, else .build/debug/docctl.
"""
import argparse
import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

COMMANDS = {
    "info": lambda f: ["info", f],
    "cat": lambda f: ["cat", f],
    "validate": lambda f: ["validate", f],
    "deep": lambda f: ["validate", "--deep", f],
    "zip": lambda f: ["export", f, "--format", "zip", "-o", "../out/x.zip"],
    "dir": lambda f: ["export", f, "--format", "dir", "-o", "../out/x"],
    "import": lambda f: ["import", f, "-o", "../out/x.dkproj"],
}
OUTPUTS = {"zip": "x.zip", "dir": "x", "import": "x.dkproj"}

# Expected exit status per file and command (validate: 0 with warnings only, 1 with errors).
READABLE = {"info": 0, "cat": 0, "validate": 0, "deep": 0, "zip": 0, "dir": 0, "import": 64}
REFUSED = {"info": 65, "cat": 65, "validate": 1, "deep": 1, "zip": 65, "dir": 65, "import": 65}
EXPECTED = {
    "huge-entries-1000000.dkproj": READABLE,                 # exactly at the limit
    "huge-entries-1000001.dkproj": REFUSED,                  # one past it
    "huge-entries-2000000.dkproj": REFUSED,
    "huge-import-entries-1000000.zip": dict(REFUSED, **{"import": 0}),
    "huge-import-entries-1000001.zip": REFUSED,
    "huge-document-wide-64MB.dkproj": {"info": 0, "cat": 0, "validate": 1, "deep": 1, "zip": 0, "dir": 0, "import": 64},
}
# Parsing JSON into values costs up to ~30 bytes per byte of dense text (`[0],[0],…`):
# the 64 MB document is given 4 GiB, and the peak it reaches is what this run reports.
MEMORY = {"huge-document-wide-64MB.dkproj": 4096}


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run(docctl, arguments, cwd, memory, seconds, env):
    """Runs docctl; returns its exit status (negative: the signal), seconds, peak resident
    bytes (wait4's rusage of this process alone), stderr and whether it was killed."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    start = time.monotonic()
    process = subprocess.Popen([docctl] + arguments, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.append(process.stderr.read()))
    reader.start()
    timed_out = False
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if not timed_out and time.monotonic() - start > seconds:
            process.kill()
            timed_out = True
        time.sleep(0.01)
    process.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    return process.returncode, time.monotonic() - start, usage.ru_maxrss * 1024, b"".join(chunks).decode(errors="replace"), timed_out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    release = os.path.join(ROOT, ".build/release/docctl")
    parser.add_argument("--docctl", default=release if os.path.exists(release) else os.path.join(ROOT, ".build/debug/docctl"))
    parser.add_argument("--memory", type=int, default=1024, help="address space cap, MiB")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--keep", help="build the corpus here and keep it")
    options = parser.parse_args()

    work = options.keep or tempfile.mkdtemp(prefix="documentkit-huge-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600", TZ="UTC", LC_ALL="C.UTF-8",
               XDG_CONFIG_HOME="/dev/null/docctl-tests", TMPDIR=os.path.join(work, "tmp"))
    docctl = os.path.abspath(options.docctl)
    subprocess.run([docctl, "new", "good.dkproj", "--name", "Good"], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([docctl, "set", "good.dkproj", "tasks[+]", '{"title": "t"}'], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(work, "b.png"), "wb") as f:
        f.write(b"hello, blob\n")
    subprocess.run([docctl, "attach", "good.dkproj", "b.png"], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    corpus = os.path.join(work, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    os.makedirs(corpus)
    started = time.monotonic()
    subprocess.run([sys.executable, os.path.join(ROOT, "Tests/HostileCorpus/make_corpus.py"), "good.dkproj", corpus,
                    "--families=huge"], cwd=work, check=True, stdout=subprocess.DEVNULL)
    print(f"corpus built in {time.monotonic() - started:.1f} s with {docctl}")
    files = sorted(os.listdir(corpus))
    before = {f: digest(os.path.join(corpus, f)) for f in files}

    failures = 0
    for name in files:
        for command, arguments in COMMANDS.items():
            out, tmp = os.path.join(work, "out"), os.path.join(work, "tmp")
            for folder in (out, tmp):
                shutil.rmtree(folder, ignore_errors=True)
                os.makedirs(folder)
            memory = MEMORY.get(name, options.memory) << 20
            status, seconds, peak, stderr, timed_out = run(docctl, arguments(name), corpus, memory, options.seconds, env)
            measured = f"{peak >> 20:5d} MiB"
            expected = EXPECTED[name][command]
            lines = stderr.splitlines()
            written = sorted(os.listdir(out))
            problems = []
            if timed_out:
                problems.append("timed out")
            if status != expected:
                problems.append(f"exit {status}, expected {expected}")
            if command not in ("validate", "deep") and status not in (0, None) and (len(lines) != 1 or not lines[0].startswith(f"error: {name}: ")):
                problems.append("not one error line naming the file")
            if "Fatal error" in stderr or status < 0:
                problems.append("crashed")
            if written != ([OUTPUTS[command]] if status == 0 and command in OUTPUTS else []):
                problems.append(f"wrote {written}")
            if os.listdir(tmp):
                problems.append("left files in TMPDIR")
            failures += bool(problems)
            print(f"{name:34} {command:8} {status:4} {seconds:7.2f} s {measured}  {'; '.join(problems) or 'ok'}  {lines[0][:110] if lines else ''}")
    for f in files:
        if digest(os.path.join(corpus, f)) != before[f]:
            print(f"{f} changed")
            failures += 1
    if not options.keep:
        shutil.rmtree(work)
    print(f"{len(files) * len(COMMANDS)} runs, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
