#!/usr/bin/env python3
"""The peer of a one-field edit: json.load, change one field, json.dumps with sorted keys
and an indent of 2, and write the result, as a script editing the document would.

Usage: python_edit.py IN.json OUT.json
"""
import json, sys

with open(sys.argv[1]) as f:
    document = json.load(f)
document["tasks"][0]["title"] = "edited"
with open(sys.argv[2], "w") as f:
    f.write(json.dumps(document, indent=2, sort_keys=True))
