/// What every command must do with each file of the corpus's `bundles` family: files that
/// claim to be bundles and are broken or hostile in one way each (see make_corpus.py).
///
/// A file no reader can open fails every reading command with exit 65, and `validate`
/// reports it as a finding (exit 1, as for any error finding). A file that opens but
/// lies fails only the commands that read what it lies about: `info` reads the manifest
/// and the head's trees, `cat` and `get` the manifest, the head's root tree and
/// `document.json` (checked against the digest that tree records), `export` the version's
/// trees and objects (`--format json`: its trees and the checked `document.json`), quick
/// `validate` everything but the objects' bytes, which `validate --deep` checks too.
/// `import` refuses every bundle (64: copy it instead).
enum HostileBundleCases {
    static let blobEntry = "objects/43/707e4c5f3a42edd2db4a6a6a517041c67c110598ad55be6e693d8b1fa81efb"
    /// What `cat`, `get` and `export --format json` say of a `document.json` that is not the
    /// document its head version records.
    static func notTheHeadsDocument(version: Int) -> HostileOutcome {
        .fails("entry 'document.json': differs from the head version's document (version \(version)): its SHA-256 is")
    }
    static let sameName = "another entry has the same name, or one differing only in case or Unicode normalization"

    static let all: [HostileCase] =
        controls + notBundles + containers + names + manifests + lies + trees + objects + documents

    /// The good bundle rewritten by zipfile, and one built from nothing by the script.
    static let controls: [HostileCase] = [
        "control-built.dkproj", "control-built-format-1.dkproj", "control-rewritten.dkproj"
    ].map {
        HostileCase($0, info: .ok, cat: .ok, validate: .ok, export: .ok)
    }

    static let notBundles: [HostileCase] = [
        .unreadable(
            "not-an-archive.dkproj", "not a DocumentKit bundle: not a zip archive",
            importing: .fails("not a zip or tar archive")),
        .unreadable(
            "empty.dkproj", "not a DocumentKit bundle: not a zip archive", importing: .fails("not a zip or tar archive")
        ),
        .unreadable(
            "zeros.dkproj", "not a DocumentKit bundle: not a zip archive",
            importing: .fails("the archive holds no document.json")),
        .unreadable("a-tar.dkproj", "not a DocumentKit bundle: not a zip archive"),
        .unreadable(
            "only-end-record.dkproj", "the first entry is missing, expected 'mimetype'", finding: "mimetype.invalid",
            importing: .fails("the archive holds no document.json")),
        .unreadable(
            "fifo.dkproj", "not a bundle: it is not a regular file", importing: .fails("it is not a regular file"))
    ]

    /// The zip's own records: ends, directories, local headers, features a bundle refuses.
    static let containers: [HostileCase] = [
        .unreadable("trailing-garbage.dkproj", "the zip's end of central directory record is missing"),
        .unreadable("prefixed-garbage.dkproj", "but the end records start at byte"),
        .unreadable("count-too-high.dkproj", "central directory record 12 of 12 has no valid signature"),
        .unreadable("count-too-low.dkproj", "the central directory has 59 bytes after its last record"),
        .unreadable(
            "directory-trailing-bytes.dkproj", "the central directory has 13 bytes after its last record",
            importing: .fails("libarchive reported an error")),
        .unreadable(
            "zip64-locator-lies.dkproj", "no zip64 end record where the zip64 locator points",
            importing: .fails("Damaged Zip archive")),
        .unreadable(
            "entry-count-over-limit.dkproj", "the archive has 1000001 entries; the limit is 1000000",
            importing: .fails("the archive has more than 1000000 entries")),
        .unreadable("split-archive.dkproj", "entry 'document.json': split (multi-disk) zip archives are not supported"),
        .unreadable("entries-overlap.dkproj", "entry 'mimetype': its data overlaps the entry 'objects/"),
        .unreadable(
            "entry-over-64-GiB.dkproj",
            "entry 'objects/huge': the entry holds 68719476737 bytes; the limit is 68719476736"),
        .unreadable("entries-over-1-TiB.dkproj", "the entries hold more than 1099511627776 bytes in total"),
        .unreadable(
            "deflated.dkproj", "entry 'mimetype': the entry is compressed (method 8); bundle entries must be stored"),
        .unreadable("encrypted-flag.dkproj", "entry 'document.json': the entry is encrypted"),
        .unreadable("data-descriptor.dkproj", "entry 'document.json': the entry uses a data descriptor"),
        .unreadable(
            "local-crc-differs.dkproj",
            "entry 'manifest.json': the local header's CRC-32 0x12345678 disagrees with the central directory's"),
        // Local headers are checked when an entry is read: info and export never read document.json.
        HostileCase(
            "local-name-differs.dkproj", info: .ok,
            cat: .fails("entry 'document.json': the local header's name or extra fields disagree"),
            validate: .finds("entry.header-mismatch"), export: .ok,
            exportJSON: .fails("entry 'document.json': the local header's name or extra fields disagree")),
        HostileCase(
            "local-flags-differ.dkproj", info: .ok,
            cat: .fails("entry 'document.json': the local header (flags 0x0808, method 0) disagrees"),
            validate: .finds("entry.header-mismatch"), export: .ok,
            exportJSON: .fails("entry 'document.json': the local header (flags 0x0808, method 0) disagrees")),
        HostileCase(
            "local-size-differs.dkproj", info: .ok, cat: .ok, validate: .finds("entry.header-mismatch"),
            export: .fails("entry '\(blobEntryOfGood)': the local header's sizes (3, 3) disagree"), exportJSON: .ok),
        // document.json is checked against the head's SHA-256, a stronger check than the
        // CRC-32, which the readers of it then leave out; the exports to a zip and a folder
        // take the document from the version's own object.
        HostileCase(
            "bad-crc-document.dkproj", info: .ok, cat: notTheHeadsDocument(version: 3),
            validate: .finds("document.unreadable"), export: .ok, exportJSON: notTheHeadsDocument(version: 3)),
        // Objects are checked against their SHA-256, a stronger check than the CRC-32.
        HostileCase(
            "bad-crc-blob.dkproj", info: .ok, cat: .ok, validate: .ok, deep: .finds("object.digest-mismatch"),
            export: .fails("entry '\(blobEntryOfGood)': object is damaged: its SHA-256 is"), exportJSON: .ok)
    ]

    /// The blob of the bundle docctl wrote (`hello, blob\n`).
    static let blobEntryOfGood = "objects/39/2033f3c6621200e3f594e2fb7f2ea2b6d1e13801d75d5c6203ce9507de4965"

    /// Entry names: escapes, encodings, links, duplicates.
    static let names: [HostileCase] = [
        .unreadable("name-dot-dot.dkproj", "entry '../evil.txt': entry name contains a '..' component"),
        .unreadable(
            "name-dot-dot-inside.dkproj", "entry 'objects/../../evil.txt': entry name contains a '..' component"),
        .unreadable("name-absolute.dkproj", "entry '/etc/evil.txt': entry name is an absolute path"),
        .unreadable("name-backslash.dkproj", #"entry 'objects\..\evil': entry name contains a backslash"#),
        .unreadable(
            "name-nul.dkproj", "entry name contains a NUL byte",
            importing: .fails("entry 'objects/evil': entry name contains a NUL byte")),
        .unreadable("name-invalid-utf8.dkproj", "entry name is not valid UTF-8"),
        .unreadable(
            "name-not-marked-utf8.dkproj", "entry 'objects/café': the entry name is not ASCII and not marked as UTF-8"),
        .unreadable(
            "name-newline.dkproj", #"entry 'objects/evil\nerror: forged line': entry name contains a control character"#
        ),
        .unreadable(
            "name-escape-sequence.dkproj", #"entry 'objects/\u{1B}[2Jevil': entry name contains a control character"#),
        .unreadable("name-too-long.dkproj", "entry name is 4108 bytes long; the limit is 4096"),
        .unreadable("name-empty.dkproj", "entry '': entry name is empty"),
        .unreadable("name-folder.dkproj", "entry 'objects/': entry name contains an empty component"),
        .unreadable(
            "entry-symlink.dkproj",
            "entry 'objects/link': the entry is a symbolic link; bundle entries must be regular files"),
        .unreadable("entry-folder-attribute.dkproj", "entry 'objects/folder': the entry is a folder"),
        .unreadable("entry-fifo.dkproj", "entry 'objects/fifo': the entry is not a regular file"),
        .unreadable("duplicate-name.dkproj", "entry 'document.json': \(sameName)"),
        .unreadable("duplicate-case.dkproj", "entry 'Document.json': \(sameName)"),
        .unreadable("duplicate-normalization.dkproj", "entry 'objects/e\u{301}': \(sameName)"),
        .unreadable("duplicate-unicode-case.dkproj", "entry 'objects/ä': \(sameName)")
    ]

    /// `mimetype` and `manifest.json`, whose damage no command gets past.
    static let manifests: [HostileCase] = [
        .unreadable(
            "mimetype-not-first.dkproj",
            "not a DocumentKit bundle: the first entry is 'document.json', expected 'mimetype'",
            finding: "mimetype.invalid"),
        .unreadable(
            "mimetype-missing.dkproj",
            "not a DocumentKit bundle: the first entry is 'document.json', expected 'mimetype'",
            finding: "mimetype.invalid",
            importing: .fails("thumbnail: refers to blob 392033f3c662, but the archive has no blobs/")),
        .unreadable(
            "mimetype-huge.dkproj", "entry 'mimetype': the mimetype entry is too long", finding: "mimetype.invalid"),
        HostileCase(
            "mimetype-mismatch.dkproj", info: .ok, cat: .ok, validate: .finds("mimetype.mismatch"), export: .ok),
        .unreadable(
            "manifest-missing.dkproj", "not a DocumentKit bundle: it has no manifest.json", finding: "manifest.invalid"),
        .unreadable(
            "manifest-huge.dkproj", "manifest.json is larger than the limit of 268435456 bytes",
            finding: "manifest.invalid"),
        .unreadable(
            "manifest-not-json.dkproj",
            "manifest.json: not valid JSON: expected a member name in quotes at line 1, column 2",
            finding: "manifest.invalid"),
        // `cat` and `get` decode the whole manifest too when theirs is not as a valid one is.
        .unreadable(
            "manifest-not-object.dkproj", "manifest.json: not a valid manifest: expected an object, found an array",
            finding: "manifest.invalid"),
        .unreadable(
            "manifest-wrong-types.dkproj",
            "manifest.json: not a valid manifest: formatVersion: expected an integer, found a string",
            finding: "manifest.invalid"),
        .unreadable(
            "manifest-nested.dkproj", "manifest.json: not valid JSON: JSON is nested more than 256 levels deep",
            finding: "manifest.invalid"),
        .unreadable(
            "manifest-nested-objects.dkproj", "manifest.json: not valid JSON: JSON is nested more than 256 levels deep",
            finding: "manifest.invalid"),
        .unreadable(
            "manifest-duplicate-key.dkproj", "manifest.json: not valid JSON: duplicate member name 'head'",
            finding: "manifest.invalid"),
        .unreadable(
            "format-newer.dkproj",
            "bundle format version 99 is newer than this DocumentKit supports (3); upgrade docctl to open it",
            finding: "format.newer"),
        .unreadable(
            "format-version-zero.dkproj", "manifest.json has format version 0; versions start at 1",
            finding: "manifest.invalid"),
        .unreadable(
            "format-foreign.dkproj", "manifest.json is not a DocumentKit manifest (format 'something.else')",
            finding: "manifest.invalid"),
        // `cat` and `get` decode the records of the head and its root tree, not the blob's.
        HostileCase(
            "codec-unknown.dkproj",
            info: .fails("codec: Cannot initialize ObjectCodec from invalid String value brotli"), cat: .ok,
            validate: .finds("manifest.invalid"),
            export: .fails("Cannot initialize ObjectCodec from invalid String value brotli"))
    ]

    /// Versions that lie: heads, parents, ids, order.
    static let lies: [HostileCase] = [
        .unreadable(
            "head-missing.dkproj",
            "manifest.json: manifest.json names head 000000000000, which is not one of its versions",
            finding: "manifest.invalid"),
        // The head is version 1, document.json version 2's document.
        HostileCase(
            "head-not-latest.dkproj", info: .ok, cat: notTheHeadsDocument(version: 1),
            validate: .finds("manifest.head-not-latest"),
            export: .ok, exportJSON: notTheHeadsDocument(version: 1)),
        HostileCase("parents-cycle.dkproj", info: .ok, cat: .ok, validate: .finds("version.parent-order"), export: .ok),
        // Forged graphs with every id right: the graph is the only lie (FORMAT.md §5).
        HostileCase(
            "merge-parent-missing.dkproj", info: .ok, cat: .ok, validate: .finds("version.parent-missing"), export: .ok),
        HostileCase("merge-parent-twice.dkproj", info: .ok, cat: .ok, validate: .finds("version.parents"), export: .ok),
        HostileCase("second-root.dkproj", info: .ok, cat: .ok, validate: .finds("version.second-root"), export: .ok),
        HostileCase(
            "parent-after-child.dkproj", info: .ok, cat: .ok, validate: .finds("version.parent-order"), export: .ok),
        HostileCase(
            "format-1-record-merges.dkproj", info: .ok, cat: .ok, validate: .finds("version.parents"), export: .ok),
        HostileCase(
            "format-1-holds-format-2-record.dkproj", info: .ok, cat: .ok, validate: .finds("version.record-format"),
            export: .ok),
        // Forged signatures, every id right: the signature is the only lie (FORMAT.md §5.4).
        HostileCase(
            "signature-of-another-version.dkproj", info: .ok, cat: .ok, validate: .finds("version.signature-invalid"),
            export: .ok),
        HostileCase(
            "signature-flipped.dkproj", info: .ok, cat: .ok, validate: .finds("version.signature-invalid"), export: .ok),
        HostileCase(
            "signature-other-key.dkproj", info: .ok, cat: .ok, validate: .finds("version.signature-invalid"),
            export: .ok),
        HostileCase(
            "signature-not-base64.dkproj", info: .ok, cat: .ok, validate: .finds("version.signature-invalid"),
            export: .ok),
        .unreadable(
            "signature-wrong-type.dkproj",
            "not a valid manifest: versions[2].signature: expected an object, found a string",
            finding: "manifest.invalid"),
        HostileCase(
            "version-duplicate-ids.dkproj", info: .ok, cat: .ok, validate: .finds("version.duplicate-id"), export: .ok),
        HostileCase(
            "versions-out-of-order.dkproj", info: .ok, cat: .ok, validate: .finds("version.parent-order"), export: .ok),
        HostileCase("schema-newer.dkproj", info: .ok, cat: .ok, validate: .finds("document.schema-newer"), export: .ok)
    ]

    /// Trees: too deep, too many paths, unsafe or colliding names, nested JSON. `cat` and
    /// `get` read the root tree alone (where document.json is), so they fail only when that
    /// object is at fault.
    static let trees: [HostileCase] = [
        tree("tree-missing.dkproj", "object 3a50f14ac5d2 is missing", finding: "tree.invalid", root: true),
        tree("tree-too-deep.dkproj", "folders are nested more than 64 levels deep", finding: "tree.too-deep"),
        tree(
            "tree-shared-subtree-bomb.dkproj", "the version's tree holds more than 1000000 files and folders",
            finding: "tree.too-large"),
        tree("tree-unsafe-name.dkproj", "tree object has an unsafe name '..'", root: true),
        tree("tree-slash-name.dkproj", "tree object has an unsafe name 'a/b'", root: true),
        tree(
            "tree-newline-name.dkproj",
            #"tree object has an unsafe name 'evil\nerror: forged': entry name contains a control character"#,
            root: true),
        tree("tree-long-name.dkproj", "it is 300 bytes long; the limit is 255", root: true),
        tree(
            "tree-case-collision.dkproj",
            "tree object names 'Readme' twice, or with another name differing only in case", root: true),
        tree(
            "tree-nested-json.dkproj",
            "tree object is not valid: not valid JSON: JSON is nested more than 256 levels deep"),
        tree(
            "tree-nested-json-member.dkproj",
            "tree object is not valid: not valid JSON: JSON is nested more than 256 levels deep"),
        tree(
            "object-unlisted.dkproj", "refers to object 43707e4c5f3a, which the manifest does not list",
            finding: "tree.object-missing")
    ]

    /// `root`: the fault is in the root tree object, which `cat` and `get` read too.
    static func tree(_ file: String, _ fragment: String, finding: String = "tree.invalid", root: Bool = false)
        -> HostileCase
    {
        HostileCase(
            file, info: .fails(fragment), cat: root ? .fails(fragment) : .ok, validate: .finds(finding),
            export: .fails(fragment))
    }

    /// Objects that lie about their size, digest or codec, and zstd bombs: only what reads
    /// the blob (an export of the files, deep validation) meets them.
    static let objects: [HostileCase] = [
        blob(
            "object-missing.dkproj", "entry '\(blobEntry)': object 43707e4c5f3a is missing", finding: "object.missing"),
        blob(
            "object-stored-size-lies.dkproj", "entry '\(blobEntry)': object is 25 bytes, the manifest says 3",
            finding: "object.size-mismatch"),
        blob(
            "object-size-lies.dkproj",
            "entry '\(blobEntry)': object is stored as is, but the manifest gives it 5 bytes and 25 stored",
            finding: "object.size-mismatch"),
        blob(
            "object-digest-lies.dkproj", "entry '\(blobEntry)': object is damaged: its SHA-256 is", finding: nil,
            deep: "object.digest-mismatch"),
        blob(
            "zstd-bomb-declared.dkproj",
            "object 43707e4c5f3a is 4294967296 bytes, more than can be read into memory (1073741824)",
            finding: "tree.size-mismatch", deep: "object.unreadable"),
        blob(
            "zstd-bomb-undeclared.dkproj", "entry '\(blobEntry)': the frame decodes to more than the expected 25 bytes",
            finding: nil, deep: "object.unreadable"),
        blob(
            "zstd-garbage.dkproj", "entry '\(blobEntry)': the data is not a zstd frame", finding: nil,
            deep: "object.unreadable"),
        blob(
            "zstd-short.dkproj", "entry '\(blobEntry)': the frame decodes to 22 bytes; 25 were expected", finding: nil,
            deep: "object.unreadable"),
        blob(
            "delta-program-bomb.dkproj", "entry '\(blobEntry)': the frame decodes to more than the expected 89 bytes",
            finding: nil, deep: "object.unreadable"),
        blob(
            "delta-loop.dkproj", "object 43707e4c5f3a's delta chain loops back to 43707e4c5f3a",
            finding: "object.delta-loop"),
        blob(
            "delta-base-missing.dkproj", "object 111111111111 is not listed in the manifest",
            finding: "object.delta-base-missing"),
        blob(
            "delta-without-base.dkproj", "object 43707e4c5f3a is a delta without a base",
            finding: "object.delta-invalid")
    ]

    static func blob(_ file: String, _ fragment: String, finding: String?, deep: String? = nil) -> HostileCase {
        HostileCase(
            file, info: .ok, cat: .ok, validate: finding.map(HostileOutcome.finds) ?? .ok,
            deep: .finds(deep ?? finding!), export: .fails(fragment), exportJSON: .ok)
    }

    /// Documents: `document.json` is not read by `info` or the exports of the files (which
    /// read the version's objects), and is checked by `cat`, `get` and `export --format
    /// json` against the head's digest before anything else.
    static let documents: [HostileCase] = [
        document("document-nested.dkproj", validate: .finds("document.invalid-json")),
        document("document-not-json.dkproj", validate: .finds("document.invalid-json")),
        document("document-wide.dkproj", validate: .finds("document.schema")),
        document("document-schema-violation.dkproj", validate: .finds("document.schema")),
        document("document-truncated.dkproj", validate: .finds("document.invalid-json")),
        document("document-stale.dkproj", version: 2, validate: .finds("document.stale")),
        HostileCase(
            "document-huge.dkproj", info: .ok,
            cat: .fails("document.json is larger than the limit of 1073741824 bytes"),
            validate: .finds("document.unreadable"), export: .ok,
            exportJSON: .fails("document.json is larger than the limit of 1073741824 bytes")),
        // Every digest agrees: `cat` and the exports hand out what the version records (no
        // syntax check: FORMAT.md §8 says why), `get` cannot parse it.
        HostileCase(
            "head-document-nested.dkproj", info: .ok, cat: .ok,
            get: .fails(
                """
                entry 'document.json': not valid JSON: JSON is nested more than 256 levels deep at line 1, column \
                257
                """),
            validate: .finds("document.invalid-json"), export: .ok)
    ]

    /// A `document.json` that is not the document of the head, version `version`.
    static func document(_ file: String, version: Int = 1, validate: HostileOutcome) -> HostileCase {
        HostileCase(
            file, info: .ok, cat: notTheHeadsDocument(version: version), validate: validate, export: .ok,
            exportJSON: notTheHeadsDocument(version: version))
    }
}
