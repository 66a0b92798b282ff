#!/usr/bin/env python3
"""Writes the benchmark corpus as an importable folder: document.json (~5 MB, a project
with 25,000 tasks) and blobs/<sha-256>: 2,000 blobs of 64 KiB (task attachments) and one
of 512 MiB (the thumbnail). Random bytes, so nothing compresses. Deterministic for a seed.

Usage: make_corpus.py FOLDER [--big-mib 512] [--blobs 2000] [--tasks 25000]
"""
import argparse, hashlib, json, os, random

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--big-mib", type=int, default=512)
    parser.add_argument("--blobs", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=25000)
    args = parser.parse_args()
    rng = random.Random(20261122)
    blobs = os.path.join(args.folder, "blobs")
    os.makedirs(blobs, exist_ok=True)

    def store(data_chunks):
        digest = hashlib.sha256()
        temporary = os.path.join(blobs, "incoming")
        size = 0
        with open(temporary, "wb") as f:
            for chunk in data_chunks:
                digest.update(chunk)
                f.write(chunk)
                size += len(chunk)
        name = digest.hexdigest()
        os.replace(temporary, os.path.join(blobs, name))
        return {"$blob": name, "size": size, "mediaType": "application/octet-stream"}

    attachments = [store([rng.randbytes(64 << 10)]) for _ in range(args.blobs)]
    thumbnail = store(rng.randbytes(1 << 20) for _ in range(args.big_mib))
    thumbnail["mediaType"] = "image/png"
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()
    tasks = []
    for index in range(args.tasks):
        task = {
            "id": "%08x-0000-4000-8000-%012x" % (index, index),
            "title": "Task %d: %s" % (index, " ".join(rng.choice(words) for _ in range(4))),
            "status": "done" if index % 3 == 0 else "todo",
            "priority": ["low", "medium", "high"][index % 3],
            "notes": " ".join(rng.choice(words) for _ in range(18)),
        }
        if index < len(attachments):
            task["attachments"] = [attachments[index]]
        tasks.append(task)
    document = {"name": "Benchmark corpus", "createdAt": "2026-01-01T00:00:00Z", "isArchived": False,
                "tasks": tasks, "thumbnail": thumbnail}
    with open(os.path.join(args.folder, "document.json"), "w") as f:
        json.dump(document, f, indent=2, sort_keys=True)

if __name__ == "__main__":
    main()
