#!/usr/bin/env python3
"""Writes a Project of N tasks as an importable folder (FOLDER/document.json) or, with
--json, as one JSON file: about 350 bytes of JSON a task, with the relationships a real
board has (every task on one of four columns, which list it back; one task in ten waits
for the task before it), so that every rule of a transaction has work to do. No blobs.
Deterministic: the same N gives the same bytes.

Usage: make_project.py OUTPUT --tasks N [--json]
"""
import argparse, json, os, random

def project(count):
    rng = random.Random(20261124)
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()
    columns = [{"id": "c0000000-0000-4000-8000-%012x" % index, "name": name, "tasks": []}
               for index, name in enumerate(["Backlog", "Doing", "Review", "Done"])]
    tasks = []
    for index in range(count):
        column = columns[index % 4]
        task = {
            "id": "%08x-0000-4000-8000-%012x" % (index, index),
            "title": "Task %d: %s" % (index, " ".join(rng.choice(words) for _ in range(4))),
            "status": ["todo", "inProgress", "done"][index % 3],
            "priority": ["low", "medium", "high"][index % 3],
            "notes": " ".join(rng.choice(words) for _ in range(12)),
            "column": column["id"],
        }
        if index % 5 == 0:
            task["tags"] = [rng.choice(words), rng.choice(words)]
        if index % 10 == 9:
            task["blockedBy"] = [tasks[-1]["id"]]
        column["tasks"].append(task["id"])
        tasks.append(task)
    return {"name": "Scaling project", "createdAt": "2026-01-01T00:00:00Z", "isArchived": False,
            "summary": "A project of %d tasks" % count, "tasks": tasks, "columns": columns}

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--tasks", type=int, required=True)
    parser.add_argument("--json", action="store_true", help="write OUTPUT as a JSON file, not a folder")
    args = parser.parse_args()
    path = args.output
    if not args.json:
        os.makedirs(path, exist_ok=True)
        path = os.path.join(path, "document.json")
    with open(path, "w") as f:
        json.dump(project(args.tasks), f, indent=2, sort_keys=True)

if __name__ == "__main__":
    main()
