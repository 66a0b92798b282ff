#!/usr/bin/env python3
"""A reader of DocumentKit bundles written from FORMAT.md alone: it runs the page's own
Python (read_object, apply_delta, record_text, read_segment, read_history) and checks
what its prose says. For each bundle it prints one JSON line per version, oldest first: its number, its id (recomputed
from the record text) and the SHA-256 of its document; it exits 1 with `error: ...` at
the first thing that disagrees with the page.

Usage: read_bundle.py FORMAT.md BUNDLE...   (needs the `zstd` tool, as the page's code does)
"""
import hashlib
import json
import re
import subprocess
import sys
import unicodedata
import zipfile


class Disagreement(Exception):
    pass


def page_functions(format_path):
    """The functions the page's Python blocks define, and the page's text."""
    text = open(format_path, encoding="utf-8").read()
    namespace = {"hashlib": hashlib, "subprocess": subprocess, "json": json}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(block, namespace)
    return namespace, text


def check_worked_examples(text, record_text):
    """§5's and §5.1's worked examples: each record text hashes to the id it states."""
    examples = re.findall(r"record text, (\d+) bytes, is\n\n```\n(.*?)```\n\nwhose SHA-256 is `([0-9a-f]{64})`", text, re.S)
    if len(examples) != 2:
        raise Disagreement(f"FORMAT.md: §5 and §5.1 should have one worked example each, found {len(examples)}")
    for size, example, digest in examples:
        example = example.encode()
        if len(example) != int(size):
            raise Disagreement(f"FORMAT.md: a worked example is {len(example)} bytes, the page says {size}")
        if hashlib.sha256(example).hexdigest() != digest:
            raise Disagreement("FORMAT.md: a worked example's record text does not hash to the id it gives")


def collision_key(name):
    """§1: NFC, then lower-cased."""
    return unicodedata.normalize("NFC", name).lower()


def canonical(value):
    """§7: the canonical text of a value without floats, as the page says Python writes it."""
    return (json.dumps(value, indent=2, separators=(",", " : "), ensure_ascii=False, sort_keys=True) + "\n").encode()


def has_float(value):
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(has_float(member) for member in value.values())
    if isinstance(value, list):
        return any(has_float(element) for element in value)
    return False


def blob_digests(value):
    if isinstance(value, dict):
        if isinstance(value.get("$blob"), str):
            yield value["$blob"]
        for member in value.values():
            yield from blob_digests(member)
    elif isinstance(value, list):
        for element in value:
            yield from blob_digests(element)


def read_bundle(path, functions):
    read_object, record_text = functions["read_object"], functions["record_text"]
    bundle = zipfile.ZipFile(path)
    entries = bundle.infolist()
    # §1 and the entry order: mimetype first, at offset 0, every entry stored, names unique by key.
    if entries[0].filename != "mimetype" or entries[0].header_offset != 0:
        raise Disagreement("mimetype is not the first entry at offset 0")
    if any(entry.compress_type != zipfile.ZIP_STORED for entry in entries):
        raise Disagreement("an entry is not stored")
    keys = [collision_key(entry.filename) for entry in entries]
    if len(set(keys)) != len(keys):
        raise Disagreement("two entry names share a collision key")
    manifest = json.loads(bundle.read("manifest.json"))
    if manifest.get("format") is None or manifest.get("formatVersion") not in (1, 2, 3):
        raise Disagreement(f"formatVersion {manifest.get('formatVersion')} is not 1, 2 or 3")
    if manifest["formatVersion"] == 3:
        # §12: the history's segments, listed as format 2's manifest lists them.
        listed = functions["read_history"](bundle, manifest)
        if len(listed["versions"]) != manifest["versions"] or len(listed["pruned"]) != manifest["pruned"]:
            raise Disagreement("the segments do not hold the versions and pruned ids manifest.json counts")
        if listed["versions"][-1]["id"] != manifest["head"]:
            raise Disagreement("the last version of the newest segment is not the head")
        if sorted(name for name in bundle.namelist() if name.startswith("history/")) != manifest["history"]:
            raise Disagreement("manifest.json's history does not name exactly the history/ entries, oldest first")
        manifest = listed

    def object_bytes(digest):
        data = read_object(bundle, manifest, digest)
        if hashlib.sha256(data).hexdigest() != digest or len(data) != manifest["objects"][digest]["size"]:
            raise Disagreement(f"object {digest[:12]} does not decode to its digest and size")
        return data

    def tree(digest, depth=0):
        entries = json.loads(object_bytes(digest))["entries"]
        names = [entry["name"] for entry in entries]
        if names != sorted(names, key=lambda name: name.encode()) or len({collision_key(n) for n in names}) != len(names):
            raise Disagreement(f"tree {digest[:12]} is not sorted by name, or names collide")
        return {entry["name"]: entry for entry in entries}

    rows = []
    pruned = manifest.get("pruned", [])
    earlier = set(pruned)
    for index, version in enumerate(manifest["versions"]):
        # §5.2: numbers are places, pruned versions first; every parent comes first.
        number = len(pruned) + index + 1
        if hashlib.sha256(record_text(version)).hexdigest() != version["id"]:
            raise Disagreement(f"version {number}: the record text does not hash to its id")
        if (manifest["formatVersion"] == 1 or "number" in version) and version.get("number") != number:
            raise Disagreement(f"version {number}: a format-1 record's number is not its place")
        if not set(version["parents"]) <= earlier or len(version["parents"]) > 2:
            raise Disagreement(f"version {number}: a parent does not come before it, or there are more than two")
        earlier.add(version["id"])
        root = tree(version["tree"])
        document = object_bytes(root["document.json"]["digest"])
        blobs = tree(root["blobs"]["digest"]) if "blobs" in root else {}
        for digest in blob_digests(json.loads(document)):
            if digest not in blobs or len(object_bytes(blobs[digest]["digest"])) != blobs[digest]["size"]:
                raise Disagreement(f"version {number}: blob {digest[:12]} is not in its tree")
        rows.append({"number": number, "id": version["id"], "document": hashlib.sha256(document).hexdigest()})
        if version["id"] == manifest["head"]:
            if bundle.read("document.json") != document:
                raise Disagreement("the document.json entry is not the head's document")
            value = json.loads(document)
            if not has_float(value) and canonical(value) != document:
                raise Disagreement("the head's document is not the canonical text §7 describes")
    return rows


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    functions, text = page_functions(sys.argv[1])
    try:
        check_worked_examples(text, functions["record_text"])
        for path in sys.argv[2:]:
            for row in read_bundle(path, functions):
                print(json.dumps({"bundle": path, **row}, sort_keys=True))
    except Disagreement as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
