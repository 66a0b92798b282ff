#!/usr/bin/env python3
"""Builds DocumentKit's corpus of hostile and broken inputs (issue 5, point 4).

    make_corpus.py GOOD.dkproj OUT_DIR [--families=bundles,truncated,import,many,huge]

GOOD is a bundle docctl wrote, with at least one blob. Every other file is built here,
with a second implementation of the format (FORMAT.md): Python's zipfile and tarfile for
foreign archives, and a stored-zip writer below that controls every field of every
record, so that each file is wrong in exactly one way. The files are named for what is
wrong with them; Tests/DocumentKitTests/Hostile/HostileCorpus.swift lists the exit status
every docctl command must give for each.

Two files are controls, not hostile: control-rewritten.dkproj (GOOD rewritten by
zipfile) and control-built.dkproj (a bundle built here from nothing). Both must validate.

The files come in families, by name: `truncated-*` (one bundle cut at many offsets),
`import-*` (zip and tar files for `docctl import`), `*many-entries*` (200,000 entries,
the slow ones), `huge-*`, and `bundles` (everything else). All but `huge` are written by
default. `huge` is what is too slow or too big for the test suite: a bundle and an import
zip with 1,000,001 real entries, a bundle with 2,000,000 entries, and a 300 MB document
(Tests/HostileCorpus/run_huge.py runs it). Sizes past the limits are otherwise made with
holes (sparse files), so a "1 TiB" corpus file costs a few kilobytes of disk.

Prints one line per file written: its name.
"""
import hashlib
import io
import json
import lzma
import os
import shutil
import struct
import sys
import tarfile
import tempfile
import unicodedata
import zipfile
import zlib

GiB = 1 << 30
MiB = 1 << 20

# ---------------------------------------------------------------------------------------
# A stored-zip writer with every field under control (FORMAT.md §9).


class Z:
    """One zip entry. `data` is written as is; `hole` more bytes follow as a hole."""

    def __init__(self, name, data=b"", *, hole=0, flags=0x0800, method=0, made_by=0x033F,
                 attr=0o100644 << 16, crc=None, disk=0):
        self.name = name.encode() if isinstance(name, str) else name
        self.data = data
        self.hole = hole
        self.flags = flags
        self.method = method
        self.made_by = made_by
        self.attr = attr
        self.fixed_crc = crc
        self.disk = disk
        # Local header fields that differ from the central directory's, when set.
        self.local_name = None
        self.local_size = None
        self.local_crc = None
        self.local_flags = None
        # The central directory's local header offset, when it lies.
        self.cd_offset = None

    @property
    def size(self):
        return len(self.data) + self.hole

    @property
    def crc(self):
        """The CRC-32 the headers record: of the data, unless fixed (to lie, or for a hole)."""
        return zlib.crc32(self.data) if self.fixed_crc is None else self.fixed_crc

    @crc.setter
    def crc(self, value):
        self.fixed_crc = value


SAT32 = 0xFFFFFFFF
SAT16 = 0xFFFF


def write_zip(path, entries, *, claimed_count=None, zip64=False, cd_extra=b"", locator_offset_delta=0,
              trailing=b"", prefix=b""):
    """Writes `entries` as a zip: local headers and data, central directory, end records.

    claimed_count: the entry count the end records give (default: the real one).
    zip64: always write zip64 end records. cd_extra: bytes appended to the directory.
    """
    with open(path, "wb") as f:
        f.write(prefix)
        records = []
        for e in entries:
            offset = f.tell()
            big = e.size >= SAT32
            local_name = e.local_name if e.local_name is not None else e.name
            local_size = e.local_size if e.local_size is not None else e.size
            extra = struct.pack("<HHQQ", 1, 16, local_size, local_size) if big else b""
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if big or offset >= SAT32 else 10,
                                e.local_flags if e.local_flags is not None else e.flags, e.method, 0, 0x0021,
                                e.local_crc if e.local_crc is not None else e.crc,
                                SAT32 if big else local_size, SAT32 if big else local_size,
                                len(local_name), len(extra)))
            f.write(local_name + extra + e.data)
            if e.hole:
                f.seek(e.hole, os.SEEK_CUR)
            records.append((e, offset))
        cd_offset = f.tell()
        for e, offset in records:
            offset = e.cd_offset if e.cd_offset is not None else offset
            big = e.size >= SAT32
            far = offset >= SAT32
            extra = b""
            if big or far:
                fields = (struct.pack("<QQ", e.size, e.size) if big else b"") + (struct.pack("<Q", offset) if far else b"")
                extra = struct.pack("<HH", 1, len(fields)) + fields
            f.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, e.made_by, 45 if big or far else 10, e.flags,
                                e.method, 0, 0x0021, e.crc, SAT32 if big else e.size, SAT32 if big else e.size,
                                len(e.name), len(extra), 0, e.disk, 0, e.attr, SAT32 if far else offset))
            f.write(e.name + extra)
        f.write(cd_extra)
        cd_size = f.tell() - cd_offset
        count = len(entries) if claimed_count is None else claimed_count
        if zip64 or count >= SAT16 or cd_offset >= SAT32 or cd_size >= SAT32:
            record_offset = f.tell()
            f.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x033F, 45, 0, 0, count, count, cd_size, cd_offset))
            f.write(struct.pack("<IIQI", 0x07064B50, 0, record_offset + locator_offset_delta, 1))
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(count, SAT16), min(count, SAT16),
                            min(cd_size, SAT32), min(cd_offset, SAT32), 0))
        f.write(trailing)


# ---------------------------------------------------------------------------------------
# zstd frames by hand (RFC 8878): raw and RLE blocks only, which every decoder reads.

ZSTD_MAGIC = struct.pack("<I", 0xFD2FB528)
BLOCK = 128 * 1024


def zstd_raw(data):
    """One frame holding `data` in raw blocks (no compression), window 128 KiB."""
    out = bytearray(ZSTD_MAGIC + bytes([0x00, 0x38]))
    chunks = [data[i:i + BLOCK] for i in range(0, len(data), BLOCK)] or [b""]
    for i, chunk in enumerate(chunks):
        last = 1 if i == len(chunks) - 1 else 0
        out += (len(chunk) << 3 | 0 << 1 | last).to_bytes(3, "little") + chunk
    return bytes(out)


def zstd_rle(byte, count):
    """One frame of `count` copies of `byte` in RLE blocks: 4 bytes per 128 KiB of output."""
    out = bytearray(ZSTD_MAGIC + bytes([0x00, 0x38]))
    blocks = max(1, -(-count // BLOCK))
    for i in range(blocks):
        size = min(BLOCK, count - i * BLOCK)
        last = 1 if i == blocks - 1 else 0
        out += (size << 3 | 1 << 1 | last).to_bytes(3, "little") + bytes([byte])
    return bytes(out)


# ---------------------------------------------------------------------------------------
# Bundles built from nothing (FORMAT.md §3-§7), so that a manifest can lie in one way.

MIME = b"application/vnd.documentkit.project+zip"
CONTENT_TYPE = "org.documentkit.project"
CREATED = "2026-01-01T00:00:00Z"
WRITER = "DocumentKit 0.1.0"
BLOB = b"\x89PNG hostile corpus blob\n"


def sha(data):
    return hashlib.sha256(data).hexdigest()


def entry_name(digest):
    return f"objects/{digest[:2]}/{digest[2:]}"


def tree(entries):
    """A tree object: compact JSON, keys sorted, entries sorted by name's UTF-8 bytes."""
    ordered = sorted(entries, key=lambda e: e["name"].encode())
    return json.dumps({"entries": ordered}, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def document(name="Built", tasks=1, blob=None):
    doc = {"createdAt": CREATED, "isArchived": False, "name": name, "summary": "",
           "tasks": [{"id": f"00000000-0000-4000-8000-{i:012d}", "notes": "", "priority": "medium",
                      "status": "todo", "title": f"Task {i}"} for i in range(tasks)]}
    if blob is not None:
        doc["thumbnail"] = {"$blob": sha(blob), "mediaType": "image/png", "size": len(blob)}
    return (json.dumps(doc, sort_keys=True, indent=2) + "\n").encode()


def version_id(v):
    """The id of record `v` (FORMAT.md §5): format 1 if it holds a number, else format 2."""
    def field(text):
        return f"{len(text.encode())}:{text}"
    lines = [f"documentkit-version {1 if 'number' in v else 2}"]
    if "number" in v:
        lines.append(f"number {v['number']}")
    lines += [f"parents {field(','.join(v['parents']))}",
              f"created {field(v['created'])}", f"author {field(v['author'])}", f"message {field(v['message'])}",
              f"schema {field(v['schema'])}", f"tree {v['tree']}", f"writer {field(v['writer'])}"]
    return sha(("\n".join(lines) + "\n").encode())


class Bundle:
    """A bundle being built: objects, versions, and the document.json copy of the head."""

    def __init__(self, format_version=2):
        self.format_version = format_version
        self.objects = {}   # digest -> (stored bytes, record)
        self.versions = []
        self.document = b""
        self.head = None
        self.extra_entries = []   # Z entries added after the objects

    def add(self, data, codec="identity", stored=None, base=None, size=None):
        digest = sha(data)
        stored = data if stored is None else stored
        record = {"codec": codec, "size": len(data) if size is None else size, "storedSize": len(stored)}
        if base:
            record["base"] = base
        self.objects[digest] = (stored, record)
        return digest

    def save(self, doc, blobs=(), message="Save", schema="4.0.0", root_extra=()):
        doc_digest = self.add(doc)
        entries = [{"digest": doc_digest, "name": "document.json", "size": len(doc), "type": "file"}]
        if blobs:
            blob_entries = [{"digest": self.add(b), "name": sha(b), "size": len(b), "type": "file"} for b in blobs]
            entries.append({"digest": self.add(tree(blob_entries)), "name": "blobs", "type": "tree"})
        entries += list(root_extra)
        v = {"author": "corpus", "created": CREATED, "message": message,
             "parents": [self.versions[-1]["id"]] if self.versions else [], "schema": schema,
             "tree": self.add(tree(entries)), "writer": WRITER}
        if self.format_version == 1:
            v["number"] = len(self.versions) + 1
        v["id"] = version_id(v)
        self.versions.append(v)
        self.document = doc
        self.head = v["id"]
        return v

    def manifest(self):
        return {"contentType": CONTENT_TYPE, "format": "documentkit.bundle", "formatVersion": self.format_version,
                "head": self.head, "objects": {d: r for d, (s, r) in sorted(self.objects.items())},
                "versions": self.versions}

    def entries(self, manifest=None, manifest_bytes=None):
        if manifest_bytes is None:
            manifest_bytes = (json.dumps(manifest or self.manifest(), sort_keys=True, indent=2) + "\n").encode()
        return ([Z("mimetype", MIME), Z("document.json", self.document)]
                + [Z(entry_name(d), s) for d, (s, r) in sorted(self.objects.items())]
                + self.extra_entries + [Z("manifest.json", manifest_bytes)])


def built(tasks=1):
    """A valid two-version bundle with a blob: the base of every lying manifest."""
    b = Bundle()
    b.save(document(tasks=tasks), message="First")
    b.save(document(tasks=tasks, blob=BLOB), blobs=[BLOB], message="Attach")
    return b


# ---------------------------------------------------------------------------------------
# Foreign archives for import.

IMPORT_DOC = document(name="Imported")


def tar_info(name, size=0, kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.size = size
    info.type = kind
    info.linkname = link
    info.mtime = 1767225600
    info.mode = 0o644
    return info


def write_tar(path, members, mode="w", fmt=tarfile.PAX_FORMAT):
    """members: (name, bytes) for files, or a TarInfo for anything else."""
    target = {"fileobj": path} if isinstance(path, io.IOBase) else {"name": path}
    with tarfile.open(mode=mode, format=fmt, **target) as t:
        for m in members:
            if isinstance(m, tarfile.TarInfo):
                t.addfile(m)
            else:
                name, data = m
                t.addfile(tar_info(name, len(data)), io.BytesIO(data))


def pax_sparse_bomb(path, real_size):
    """A pax tar whose one entry is a sparse file of `real_size` bytes, all hole: a few
    kilobytes that expand to `real_size` zeros (GNU sparse format 1.0, as GNU tar writes it)."""
    def pax_record(key, value):
        body = f" {key}={value}\n"
        length = len(body)
        while len(str(length)) + len(body) != length:
            length = len(str(length)) + len(body)
        return f"{length}{body}".encode()
    pax = (pax_record("GNU.sparse.major", "1") + pax_record("GNU.sparse.minor", "0")
           + pax_record("GNU.sparse.name", "document.json") + pax_record("GNU.sparse.realsize", str(real_size)))
    # The sparse map (one region of 0 bytes at the end) is the start of the entry's data.
    sparse_map = f"1\n{real_size}\n0\n".encode().ljust(512, b"\0")
    with open(path, "wb") as f:
        header = tarfile.TarInfo("./PaxHeaders/document.json")
        header.type = tarfile.XHDTYPE
        header.size = len(pax)
        f.write(header.tobuf(format=tarfile.USTAR_FORMAT))
        f.write(pax.ljust(-(-len(pax) // 512) * 512, b"\0"))
        entry = tarfile.TarInfo("GNUSparseFile.0/document.json")
        entry.size = len(sparse_map)
        f.write(entry.tobuf(format=tarfile.USTAR_FORMAT))
        f.write(sparse_map)
        f.write(b"\0" * 1024)


def many_entries_zip(path, count, *, bundle=None, document_json=None):
    """A zip of `count` tiny entries (`junk/0000001`, one byte each), written directly:
    zipfile takes minutes for a million entries, this takes seconds.

    With `bundle` (a list of Z, manifest last), the junk goes between the bundle's objects
    and its manifest, as entries a reader ignores; with `document_json`, it follows
    `document.json`, as an import source."""
    head = list(bundle[:-1]) if bundle else [Z("document.json", document_json)]
    tail = list(bundle[-1:]) if bundle else []
    central = io.BytesIO()
    with open(path, "wb") as f:
        def add(name, data, crc):
            offset = f.tell()
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 10, 0x0800, 0, 0, 0x21, crc, len(data), len(data),
                                len(name), 0) + name + data)
            central.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x033F, 10, 0x0800, 0, 0, 0x21, crc,
                                      len(data), len(data), len(name), 0, 0, 0, 0, 0o100644 << 16, offset) + name)
        for e in head:
            add(e.name, e.data, e.crc)
        crc = zlib.crc32(b"x")
        for i in range(count):
            add(b"junk/%07d" % i, b"x", crc)
        for e in tail:
            add(e.name, e.data, e.crc)
        total = len(head) + count + len(tail)
        cd_offset = f.tell()
        cd = central.getvalue()
        f.write(cd)
        if total >= SAT16:
            record = f.tell()
            f.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x033F, 45, 0, 0, total, total, len(cd), cd_offset))
            f.write(struct.pack("<IIQI", 0x07064B50, 0, record, 1))
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(total, SAT16), min(total, SAT16), len(cd), cd_offset, 0))


# ---------------------------------------------------------------------------------------


def family(name):
    if name.startswith("truncated-"):
        return "truncated"
    if name.startswith("huge-"):
        return "huge"
    if "many-entries" in name:
        return "many"
    if name.startswith("import-"):
        return "import"
    return "bundles"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    families = {"bundles", "truncated", "import", "many"}
    for option in sys.argv[1:]:
        if option.startswith("--families="):
            families = set(option.split("=", 1)[1].split(","))
    good, out = args
    written = []
    # Files of other families are built (they are cheap) where nobody sees them.
    discard = tempfile.mkdtemp()

    def want(name):
        return family(name) in families

    def path(name):
        if not want(name):
            return os.path.join(discard, name)
        if name not in written:
            written.append(name)
        return os.path.join(out, name)

    def raw(name, data):
        with open(path(name), "wb") as f:
            f.write(data)

    # The good bundle's entries, as docctl wrote them (mimetype first, manifest last).
    src = zipfile.ZipFile(good)
    real = [(i.filename, src.read(i.filename)) for i in src.infolist()]
    real_manifest = json.loads(dict(real)["manifest.json"])
    blob_digest = next(d for d, r in real_manifest["objects"].items() if r["codec"] == "identity" and r["size"] < 64
                       and dict(real)[entry_name(d)].startswith(b"hello"))

    def real_entries():
        return [Z(n, d) for n, d in real]

    def zip_(name, entries, **kw):
        write_zip(path(name), entries, **kw)

    def with_entry(name, mutate):
        entries = real_entries()
        for e in entries:
            if e.name == name.encode():
                mutate(e)
        return entries

    # Controls.
    control_path = path("control-rewritten.dkproj")
    write_zip(control_path, real_entries())
    control = open(control_path, "rb").read()
    base = built()
    zip_("control-built.dkproj", base.entries())
    old = Bundle(format_version=1)
    old.save(document(), message="First")
    old.save(document(blob=BLOB), blobs=[BLOB], message="Attach")
    zip_("control-built-format-1.dkproj", old.entries())

    # -- Not a bundle at all --------------------------------------------------------------
    raw("not-an-archive.dkproj", b"hello, I am not a zip\n" * 10)
    raw("empty.dkproj", b"")
    raw("zeros.dkproj", b"\0" * 4096)
    raw("only-end-record.dkproj", struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0, 0, 0, 0, 0))
    with tarfile.open(path("a-tar.dkproj"), "w", format=tarfile.PAX_FORMAT) as t:
        for n, d in real:
            t.addfile(tar_info(n, len(d)), io.BytesIO(d))
    os.mkfifo(path("fifo.dkproj"))

    # -- Truncated at many offsets, and damaged at both ends ------------------------------
    cd_offset = struct.unpack("<I", control[-6:-2])[0]
    offsets = sorted({1, 3, 4, 29, 30, 37, 38, 39, 60, 100, 200, len(control) // 3, len(control) // 2,
                      cd_offset - 1, cd_offset, cd_offset + 4, cd_offset + 46, cd_offset + 100,
                      len(control) - 23, len(control) - 22, len(control) - 21, len(control) - 2, len(control) - 1})
    for offset in offsets:
        raw(f"truncated-at-{offset:05d}.dkproj", control[:offset])
    raw("truncated-front.dkproj", control[100:])
    raw("trailing-garbage.dkproj", control + b"garbage after the end record")
    raw("prefixed-garbage.dkproj", b"#!/bin/sh\nexit 0\n" + control)

    # -- The two descriptions of an entry disagree, or entries overlap --------------------
    def flip(e, needle):
        e.crc = e.crc   # the headers keep the CRC of the bytes before the flip
        data = bytearray(e.data)
        at = bytes(data).index(needle)
        data[at] ^= 0x20
        e.data = bytes(data)
    zip_("bad-crc-document.dkproj", with_entry("document.json", lambda e: flip(e, b'"name"')))
    zip_("bad-crc-blob.dkproj", with_entry(entry_name(blob_digest), lambda e: flip(e, b"hello")))
    zip_("local-name-differs.dkproj", with_entry("document.json", lambda e: setattr(e, "local_name", b"document.jsoX")))
    zip_("local-size-differs.dkproj", with_entry(entry_name(blob_digest), lambda e: setattr(e, "local_size", 3)))
    zip_("local-crc-differs.dkproj", with_entry("manifest.json", lambda e: setattr(e, "local_crc", 0x12345678)))
    zip_("local-flags-differ.dkproj", with_entry("document.json", lambda e: setattr(e, "local_flags", 0x0808)))
    entries = real_entries()
    entries[2].cd_offset = 0   # an object's record points at mimetype's local header
    zip_("entries-overlap.dkproj", entries)
    zip_("count-too-high.dkproj", real_entries(), claimed_count=len(real) + 1)
    zip_("count-too-low.dkproj", real_entries(), claimed_count=len(real) - 1)
    zip_("directory-trailing-bytes.dkproj", real_entries(), cd_extra=b"PK\x01\x02 and more")
    zip_("zip64-locator-lies.dkproj", real_entries(), zip64=True, locator_offset_delta=-7)
    zip_("entry-count-over-limit.dkproj", real_entries(), claimed_count=1_000_001)
    zip_("split-archive.dkproj", with_entry("document.json", lambda e: setattr(e, "disk", 1)))

    # -- Names ------------------------------------------------------------------------------
    def plus(*extra):
        entries = real_entries()
        return entries[:-1] + list(extra) + entries[-1:]
    zip_("name-dot-dot.dkproj", plus(Z("../evil.txt", b"x")))
    zip_("name-dot-dot-inside.dkproj", plus(Z("objects/../../evil.txt", b"x")))
    zip_("name-absolute.dkproj", plus(Z("/etc/evil.txt", b"x")))
    zip_("name-backslash.dkproj", plus(Z("objects\\..\\evil", b"x")))
    zip_("name-nul.dkproj", plus(Z(b"objects/evil\0.txt", b"x")))
    zip_("name-invalid-utf8.dkproj", plus(Z(b"objects/\xff\xfe.txt", b"x")))
    zip_("name-not-marked-utf8.dkproj", plus(Z("objects/caf\u00e9".encode(), b"x", flags=0)))
    zip_("name-newline.dkproj", plus(Z("objects/evil\nerror: forged line", b"x")))
    zip_("name-escape-sequence.dkproj", plus(Z("objects/\x1b[2Jevil", b"x")))
    zip_("name-too-long.dkproj", plus(Z("objects/" + "a" * 4100, b"x")))
    zip_("name-empty.dkproj", plus(Z("", b"x")))
    zip_("name-folder.dkproj", plus(Z("objects/", b"")))
    zip_("entry-symlink.dkproj", plus(Z("objects/link", b"/etc/passwd", attr=0o120777 << 16)))
    zip_("entry-folder-attribute.dkproj", plus(Z("objects/folder", b"", attr=0o040755 << 16)))
    zip_("entry-fifo.dkproj", plus(Z("objects/fifo", b"", attr=0o010644 << 16)))
    zip_("duplicate-name.dkproj", plus(Z("document.json", b"{}")))
    zip_("duplicate-case.dkproj", plus(Z("Document.json", b"{}")))
    zip_("duplicate-normalization.dkproj", plus(Z(unicodedata.normalize("NFC", "objects/\u00e9"), b"x"),
                                                Z(unicodedata.normalize("NFD", "objects/\u00e9"), b"y")))
    zip_("duplicate-unicode-case.dkproj", plus(Z("objects/\u00c4", b"x"), Z("objects/\u00e4", b"y")))

    # -- Features a bundle must not use -----------------------------------------------------
    with zipfile.ZipFile(path("deflated.dkproj"), "w") as z:
        for n, d in real:
            z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d, compress_type=zipfile.ZIP_DEFLATED)
    zip_("encrypted-flag.dkproj", with_entry("document.json", lambda e: setattr(e, "flags", 0x0801)))
    zip_("data-descriptor.dkproj", with_entry("document.json", lambda e: setattr(e, "flags", 0x0808)))

    # -- mimetype ----------------------------------------------------------------------------
    entries = real_entries()
    zip_("mimetype-not-first.dkproj", entries[1:2] + entries[:1] + entries[2:])
    zip_("mimetype-missing.dkproj", real_entries()[1:])
    zip_("mimetype-huge.dkproj", with_entry("mimetype", lambda e: setattr(e, "data", b"x" * 100_000)))
    zip_("mimetype-mismatch.dkproj", with_entry("mimetype", lambda e: setattr(e, "data", b"application/zip")))

    # -- manifest.json -----------------------------------------------------------------------
    def manifest(data):
        return with_entry("manifest.json", lambda e: setattr(e, "data", data))
    zip_("manifest-missing.dkproj", real_entries()[:-1])
    zip_("manifest-not-json.dkproj", manifest(b"{not json"))
    zip_("manifest-not-object.dkproj", manifest(b"[1, 2, 3]\n"))
    zip_("manifest-wrong-types.dkproj", manifest(json.dumps(dict(real_manifest, formatVersion="1")).encode()))
    zip_("manifest-nested.dkproj", manifest(b"{\"a\": " + b"[" * 100_000 + b"]" * 100_000 + b"}"))
    zip_("manifest-nested-objects.dkproj", manifest(b"{\"a\":" * 100_000 + b"1" + b"}" * 100_000))
    zip_("manifest-huge.dkproj", with_entry("manifest.json", lambda e: (setattr(e, "data", b""), setattr(e, "hole", 300 * MiB), setattr(e, "crc", 0))))
    text = json.dumps(real_manifest, sort_keys=True, indent=2)
    two_heads = text.replace('"head":', '"head": "' + "0" * 64 + '",\n  "head":', 1)
    zip_("manifest-duplicate-key.dkproj", manifest(two_heads.encode()))
    zip_("format-newer.dkproj", manifest(json.dumps(dict(real_manifest, formatVersion=99)).encode()))
    zip_("format-version-zero.dkproj", manifest(json.dumps(dict(real_manifest, formatVersion=0)).encode()))
    zip_("format-foreign.dkproj", manifest(json.dumps(dict(real_manifest, format="something.else")).encode()))

    # Forged signatures (FORMAT.md §5.4): GOOD's versions are signed; each lie keeps every id.
    def forged(name, change):
        m = json.loads(json.dumps(real_manifest))
        signed = [v for v in m["versions"] if "signature" in v]
        if len(signed) < 2:
            raise SystemExit("GOOD must have at least two signed versions")
        change(signed)
        zip_(name, manifest(json.dumps(m, sort_keys=True, indent=2).encode()))
    def moved(signed):
        signed[0]["signature"] = dict(signed[1]["signature"])   # a good signature, of another id
    forged("signature-of-another-version.dkproj", moved)
    def flipped(signed):
        value = signed[-1]["signature"]["value"]
        signed[-1]["signature"]["value"] = ("B" if value[0] == "A" else "A") + value[1:]
    forged("signature-flipped.dkproj", flipped)
    def other_key(signed):
        key = signed[-1]["signature"]["key"]
        signed[-1]["signature"]["key"] = key[:-3] + ("B" if key[-3] == "A" else "A") + key[-2:]
    forged("signature-other-key.dkproj", other_key)
    forged("signature-not-base64.dkproj", lambda signed: signed[-1]["signature"].update(value="not base64 at all!"))
    forged("signature-wrong-type.dkproj", lambda signed: signed[-1].update(signature="documentkit-ed25519 AAAA"))

    # -- A manifest that lies (built bundles: every lie is the only one) ---------------------
    def lying(name, change, bundle=None):
        b = bundle or built()
        m = b.manifest()
        change(b, m)
        zip_(name, b.entries(m))

    blob = sha(BLOB)
    lying("head-missing.dkproj", lambda b, m: m.update(head="0" * 64))
    lying("head-not-latest.dkproj", lambda b, m: m.update(head=m["versions"][0]["id"]))
    def cycle(b, m):
        first, second = m["versions"]
        first["parents"] = [second["id"]]
    lying("parents-cycle.dkproj", cycle)

    # Forged graphs whose ids are all right (each record rehashed), so that the graph is
    # the only lie: a merge naming a parent that is nowhere, a second history, a merge
    # that names a parent twice, a format-1 record that merges, and format 2's record in a
    # format-1 bundle.
    def merged(b, m, parents, number=None):
        v = dict(m["versions"][-1], message="Merge", parents=parents)
        v.pop("changes", None)
        v.pop("number", None)
        if number is not None:
            v["number"] = number
        v["id"] = version_id(v)
        m["versions"].append(v)
        m["head"] = v["id"]
        return v
    lying("merge-parent-missing.dkproj", lambda b, m: merged(b, m, [m["versions"][1]["id"], "e" * 64]))
    lying("merge-parent-twice.dkproj", lambda b, m: merged(b, m, [m["versions"][1]["id"]] * 2))
    lying("second-root.dkproj", lambda b, m: merged(b, m, []))
    def later_parent(b, m):
        # Version 2 names version 3, which names version 1: ids hold, the order lies.
        first, second = m["versions"]
        third = dict(second, message="Later", parents=[first["id"]])
        third["id"] = version_id(third)
        second["parents"] = [third["id"]]
        second["id"] = version_id(second)
        m["versions"].append(third)
        m["head"] = third["id"]
    lying("parent-after-child.dkproj", later_parent)
    lying("format-1-record-merges.dkproj", lambda b, m: merged(b, m, [m["versions"][1]["id"], m["versions"][0]["id"]], number=3),
          bundle=(lambda b: (b.save(document(), message="First"), b.save(document(blob=BLOB), blobs=[BLOB], message="Attach"), b)[2])(Bundle(format_version=1)))
    def format_two_record(b, m):
        merged(b, m, [m["versions"][1]["id"]])
    lying("format-1-holds-format-2-record.dkproj", format_two_record,
          bundle=(lambda b: (b.save(document(), message="First"), b.save(document(blob=BLOB), blobs=[BLOB], message="Attach"), b)[2])(Bundle(format_version=1)))
    def duplicate_ids(b, m):
        m["versions"][0]["id"] = m["versions"][1]["id"]
    lying("version-duplicate-ids.dkproj", duplicate_ids)
    def versions_reversed(b, m):
        m["versions"].reverse()
    lying("versions-out-of-order.dkproj", versions_reversed)
    lying("object-missing.dkproj", lambda b, m: b.objects.pop(blob))
    lying("object-stored-size-lies.dkproj", lambda b, m: m["objects"][blob].update(storedSize=3))
    lying("object-size-lies.dkproj", lambda b, m: m["objects"][blob].update(size=5, storedSize=len(BLOB)))
    def digest_lies(b, m):
        stored, record = b.objects[blob]
        b.objects[blob] = (b"X" + stored[1:], record)   # same size, other bytes, CRC recomputed
    lying("object-digest-lies.dkproj", digest_lies)
    def unlisted(b, m):
        del m["objects"][blob]
    lying("object-unlisted.dkproj", unlisted)
    def root_tree_missing(b, m):
        b.objects.pop(b.versions[-1]["tree"])
    lying("tree-missing.dkproj", root_tree_missing)
    lying("schema-newer.dkproj", lambda b, m: None, bundle=(lambda: (
        lambda b: (b.save(document(), message="From the future", schema="99.0.0"), b)[1])(Bundle()))())

    # Trees: too deep, a bomb of shared subtrees, unsafe and colliding names, nested JSON.
    def tree_bundle(root_extra, extra_objects=()):
        b = Bundle()
        for data in extra_objects:
            b.add(data)
        b.save(document(), message="Trees", root_extra=root_extra)
        return b
    leaf = tree([])
    digest = sha(leaf)
    chain = [leaf]
    for level in range(70):
        chain.append(tree([{"digest": digest, "name": "d", "type": "tree"}]))
        digest = sha(chain[-1])
    b = tree_bundle([{"digest": digest, "name": "deep", "type": "tree"}], chain)
    zip_("tree-too-deep.dkproj", b.entries())
    # 2^48 paths from 49 objects: each level holds the one below twice.
    file_digest = sha(b"leaf")
    level_tree = tree([{"digest": file_digest, "name": "f", "size": 4, "type": "file"}])
    objects = [b"leaf", level_tree]
    for level in range(48):
        digest = sha(level_tree)
        level_tree = tree([{"digest": digest, "name": "a", "type": "tree"}, {"digest": digest, "name": "b", "type": "tree"}])
        objects.append(level_tree)
    b = tree_bundle([{"digest": sha(level_tree), "name": "bomb", "type": "tree"}], objects)
    zip_("tree-shared-subtree-bomb.dkproj", b.entries())
    for name, names in [("tree-unsafe-name.dkproj", [".."]), ("tree-slash-name.dkproj", ["a/b"]),
                        ("tree-newline-name.dkproj", ["evil\nerror: forged"]),
                        ("tree-case-collision.dkproj", ["Readme", "README"]),
                        ("tree-long-name.dkproj", ["n" * 300])]:
        b = tree_bundle([{"digest": sha(b"leaf"), "name": n, "size": 4, "type": "file"} for n in names], [b"leaf"])
        zip_(name, b.entries())
    nested_tree = b"[" * 100_000 + b"]" * 100_000
    b = tree_bundle([{"digest": sha(nested_tree), "name": "nested", "type": "tree"}], [nested_tree])
    zip_("tree-nested-json.dkproj", b.entries())
    nested_tree = b'{"entries":[{"digest":' + b"[" * 100_000 + b"]" * 100_000 + b"}]}"
    b = tree_bundle([{"digest": sha(nested_tree), "name": "nested", "type": "tree"}], [nested_tree])
    zip_("tree-nested-json-member.dkproj", b.entries())

    # Deltas and zstd: loops, bombs, garbage.
    def blob_codec(name, stored, record_changes):
        b = built()
        m = b.manifest()
        b.objects[blob] = (stored, b.objects[blob][1])
        m["objects"][blob].update(record_changes, storedSize=len(stored))
        zip_(name, b.entries(m))
    blob_codec("zstd-bomb-declared.dkproj", zstd_rle(0, 64 * MiB), {"codec": "zstd", "size": 4 * GiB})
    blob_codec("zstd-bomb-undeclared.dkproj", zstd_rle(0, 512 * MiB), {"codec": "zstd"})
    blob_codec("zstd-garbage.dkproj", b"\x28\xb5\x2f\xfd" + b"\xff" * 40, {"codec": "zstd"})
    blob_codec("zstd-short.dkproj", zstd_raw(BLOB[:-3]), {"codec": "zstd"})
    blob_codec("delta-program-bomb.dkproj", zstd_rle(0x02, 64 * MiB), {"codec": "delta", "base": sha(document())})
    def delta_loop(b, m):
        # The head document is a delta of the blob, the blob a delta of the document.
        doc = b.versions[-1]
        doc_digest = sha(b.document)
        m["objects"][doc_digest].update(codec="delta", base=blob)
        m["objects"][blob].update(codec="delta", base=doc_digest)
    lying("delta-loop.dkproj", delta_loop)
    lying("delta-base-missing.dkproj", lambda b, m: m["objects"][blob].update(codec="delta", base="1" * 64))
    lying("delta-without-base.dkproj", lambda b, m: m["objects"][blob].update(codec="delta"))
    lying("codec-unknown.dkproj", lambda b, m: m["objects"][blob].update(codec="brotli"))

    # document.json entries the head version does not record: nested, huge, wide, not JSON,
    # not a Project, cut short, an older version's.
    def with_document(name, doc, hole=0):
        b = Bundle()
        b.save(document(), message="Document")
        b.document = doc
        entries = b.entries()
        if hole:
            entries[1].hole = hole
            entries[1].crc = 0
        zip_(name, entries)
    with_document("document-nested.dkproj", b"[" * 100_000 + b"]" * 100_000)
    with_document("document-not-json.dkproj", b"\xff\xfe not json")
    with_document("document-huge.dkproj", b"", hole=GiB + MiB)
    # 1 MB of `[0],`: the most JSON values per byte (an array and a number in 4 bytes).
    with_document("document-wide.dkproj", b'{"name": "Wide", "tasks": [' + b"[0]," * (MiB // 4) + b"[0]]}")
    with_document("document-schema-violation.dkproj", document().replace(b'"Task 0"', b'42'))
    # The head's document cut short, and an older version's document: both valid zip entries.
    with_document("document-truncated.dkproj", document()[: len(document()) // 2])
    b = built()
    b.document = document()
    zip_("document-stale.dkproj", b.entries())
    # Consistent, but not JSON: the head version itself records the nested text, so every
    # digest agrees (no DocumentKit writer saves a document it cannot parse).
    b = Bundle()
    b.save(b"[" * 100_000 + b"]" * 100_000, message="Nested")
    zip_("head-document-nested.dkproj", b.entries())

    # Sizes past the limits, as holes.
    zip_("entry-over-64-GiB.dkproj", plus(Z("objects/huge", b"", hole=(64 << 30) + 1, crc=0)))
    zip_("entries-over-1-TiB.dkproj", plus(*[Z(f"objects/part{i}", b"", hole=60 << 30, crc=0) for i in range(18)]))

    # Many entries: 200,000 one-byte entries the bundle does not use.
    if want("many-entries.dkproj"):
        many_entries_zip(path("many-entries.dkproj"), 200_000, bundle=real_entries())

    # -- Foreign archives for import -----------------------------------------------------
    blob_doc = document(name="Imported", blob=BLOB)
    write_tar(path("import-good.tar"), [("document.json", blob_doc), (f"blobs/{blob}", BLOB)])
    write_tar(path("import-dot-dot.tar"), [("../document.json", IMPORT_DOC)])
    write_tar(path("import-dot-dot-inside.tar"), [("proj/../../document.json", IMPORT_DOC)])
    write_tar(path("import-absolute.tar"), [("/tmp/document.json", IMPORT_DOC)])
    write_tar(path("import-symlink-escape.tar"), [tar_info("blobs", kind=tarfile.SYMTYPE, link="/etc"),
                                                   ("document.json", blob_doc), (f"blobs/{blob}", BLOB)])
    write_tar(path("import-symlink-document.tar"), [tar_info("document.json", kind=tarfile.SYMTYPE, link="/etc/passwd")])
    write_tar(path("import-hardlink-escape.tar"), [tar_info("document.json", kind=tarfile.LNKTYPE, link="/etc/passwd")])
    write_tar(path("import-hardlink-dot-dot.tar"), [tar_info("document.json", kind=tarfile.LNKTYPE, link="../../etc/passwd")])
    write_tar(path("import-hardlink-inside.tar"), [("a.json", IMPORT_DOC), tar_info("document.json", kind=tarfile.LNKTYPE, link="a.json")])
    write_tar(path("import-device.tar"), [("document.json", IMPORT_DOC), tar_info("dev", kind=tarfile.CHRTYPE)])
    write_tar(path("import-duplicate.tar"), [("document.json", IMPORT_DOC), ("document.json", IMPORT_DOC)])
    write_tar(path("import-duplicate-normalization.tar"), [("document.json", IMPORT_DOC), ("\u00e9", b"x"),
                                                           (unicodedata.normalize("NFD", "\u00e9"), b"y")])
    write_tar(path("import-nested.tar"), [("document.json", b"[" * 100_000 + b"]" * 100_000)])
    write_tar(path("import-missing-blob.tar"), [("document.json", blob_doc)])
    write_tar(path("import-wrong-blob.tar"), [("document.json", blob_doc), (f"blobs/{blob}", b"other bytes")])
    write_tar(path("import-is-a-bundle.tar"), [("mimetype", MIME), ("document.json", IMPORT_DOC)])
    # Names only a raw header can carry: invalid UTF-8 (ustar, no pax path record).
    write_tar(path("import-invalid-utf8.tar"), [("document.json", IMPORT_DOC)], fmt=tarfile.USTAR_FORMAT)
    data = bytearray(open(path("import-invalid-utf8.tar"), "rb").read())
    data[0:13] = b"docum\xffnt.json"
    checksum = sum(data[0:148]) + 8 * 32 + sum(data[156:512])
    data[148:156] = b"%06o\0 " % checksum
    open(path("import-invalid-utf8.tar"), "wb").write(bytes(data))
    with zipfile.ZipFile(path("import-backslash.zip"), "w") as z:
        z.writestr("document.json", IMPORT_DOC)
        z.writestr("blobs\\..\\..\\evil", b"x")
    with zipfile.ZipFile(path("import-case-duplicate.zip"), "w") as z:
        z.writestr("document.json", IMPORT_DOC)
        z.writestr("Document.json", IMPORT_DOC)
    # (zipfile cuts names at a NUL; this writer does not.)
    write_zip(path("import-nul.zip"), [Z("document.json", IMPORT_DOC), Z(b"blobs/evil\0.txt", b"x")])
    with zipfile.ZipFile(path("import-bad-crc.zip"), "w") as z:
        z.writestr("document.json", IMPORT_DOC)
    data = bytearray(open(path("import-bad-crc.zip"), "rb").read())
    at = bytes(data).index(b'"Imported"')
    data[at + 1] ^= 0x20
    open(path("import-bad-crc.zip"), "wb").write(bytes(data))
    # Bombs: a deflated zip of 200 MB of zeros, an xz tar of 100 MB, a sparse tar of 1 TB.
    if want("import-bomb.zip"):
        with zipfile.ZipFile(path("import-bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:
            with z.open("document.json", "w") as f:
                chunk = b"\0" * MiB
                for _ in range(200):
                    f.write(chunk)
    if want("import-bomb.tar.xz"):
        inner = io.BytesIO()
        with tarfile.open(fileobj=inner, mode="w", format=tarfile.PAX_FORMAT) as t:
            t.addfile(tar_info("document.json", 100 * MiB), io.BytesIO(bytes(100 * MiB)))
        raw("import-bomb.tar.xz", lzma.compress(inner.getvalue(), preset=0))
        del inner
    pax_sparse_bomb(path("import-sparse-bomb.tar"), 1 << 40)
    gz = io.BytesIO()
    write_tar(gz, [("document.json", IMPORT_DOC)])
    truncated = zlib.compressobj(9, zlib.DEFLATED, 31)
    compressed = truncated.compress(gz.getvalue()) + truncated.flush()
    raw("import-truncated.tar.gz", compressed[: len(compressed) // 2])
    # An archive declaring more than the document limit (the header says 2 GiB, no data).
    header = tar_info("document.json", 2 * GiB).tobuf(format=tarfile.PAX_FORMAT)
    raw("import-declared-huge.tar", header + b"\0" * 1024)
    # Many entries: 200,000 tiny ones beside the document; and a zip claiming too many.
    if want("import-many-entries.zip"):
        many_entries_zip(path("import-many-entries.zip"), 200_000, document_json=IMPORT_DOC)
    write_zip(path("import-claims-too-many.zip"), [Z("document.json", IMPORT_DOC)], claimed_count=1_000_001)
    raw("import-not-an-archive.bin", b"\x7fELF" + b"\x00" * 600)

    if "huge" in families:
        # Exactly at the limit (1,000,000 entries) and just past it, as bundles and imports.
        many_entries_zip(path("huge-entries-1000000.dkproj"), 1_000_000 - len(real), bundle=real_entries())
        many_entries_zip(path("huge-entries-1000001.dkproj"), 1_000_001 - len(real), bundle=real_entries())
        many_entries_zip(path("huge-entries-2000000.dkproj"), 2_000_000, bundle=real_entries())
        many_entries_zip(path("huge-import-entries-1000000.zip"), 999_999, document_json=IMPORT_DOC)
        many_entries_zip(path("huge-import-entries-1000001.zip"), 1_000_000, document_json=IMPORT_DOC)
        with_document("huge-document-wide-64MB.dkproj", b'{"name": "Wide", "tasks": [' + b"[0]," * (16 * MiB) + b"[0]]}")

    shutil.rmtree(discard)
    for name in written:
        print(name)


if __name__ == "__main__":
    main()
