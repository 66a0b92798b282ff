#!/usr/bin/env python3
"""Reads a format-3 history segment with the Python of FORMAT.md §12 alone and prints
one JSON line per item: its kind, and the SHA-256 of the record (V), the digest, storage
and size of the object (O), or the id (P).

Usage: read_segment.py FORMAT.md SEGMENT
"""
import hashlib
import json
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
namespace = {}
for block in re.findall(r"```python\n(.*?)```", text, re.S):
    exec(block, namespace)
for item in namespace["read_segment"](open(sys.argv[2], "rb").read()):
    if item[0] == "V":
        print(json.dumps({"kind": "V", "record": hashlib.sha256(item[1]).hexdigest()}))
    elif item[0] == "P":
        print(json.dumps({"kind": "P", "id": item[1]}))
    else:
        print(json.dumps({"kind": "O", "digest": item[1], "storage": item[2], "size": item[3]}))
