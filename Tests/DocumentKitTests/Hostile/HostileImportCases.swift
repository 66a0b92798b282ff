/// What every command must do with each file of the corpus's `import` family: zip and tar
/// files for `docctl import`, hostile in one way each (see make_corpus.py). The bundle
/// readers refuse them all, as files that are not bundles.
enum HostileImportCases {
    static let notZip = "not a DocumentKit bundle: not a zip archive"
    static let noMimetype = "not a DocumentKit bundle: the first entry is 'document.json', expected 'mimetype'"
    static let blob = "43707e4c5f3a42edd2db4a6a6a517041c67c110598ad55be6e693d8b1fa81efb"
    static let earlier = "an earlier entry has the same name, or one differing only in case or Unicode normalization"
    static let links = "links and special files are not imported"

    static let all: [HostileCase] = [
        // The control: a document and its blob, as export writes them.
        .archive("import-good.tar", importing: .ok),
        // Names that escape, or that tools would read differently.
        .archive(
            "import-dot-dot.tar", importing: .fails("entry '../document.json': entry name contains a '..' component")),
        .archive(
            "import-dot-dot-inside.tar",
            importing: .fails("entry 'proj/../../document.json': entry name contains a '..' component")),
        .archive(
            "import-absolute.tar", importing: .fails("entry '/tmp/document.json': entry name is an absolute path")),
        // libarchive reads a backslash in a zip name as a separator; either way it is refused.
        .archive(
            "import-backslash.zip", notABundle: #"entry 'blobs\..\..\evil': entry name contains a backslash"#,
            importing: .fails("entry 'blobs/../../evil': entry name contains a '..' component")),
        .archive(
            "import-nul.zip", notABundle: "entry name contains a NUL byte",
            importing: .fails("entry 'blobs/evil': entry name contains a NUL byte")),
        .archive("import-invalid-utf8.tar", importing: .fails("the entry's name is not valid UTF-8")),
        .archive("import-duplicate.tar", importing: .fails("entry 'document.json': \(earlier)")),
        .archive("import-duplicate-normalization.tar", importing: .fails(earlier)),
        .archive(
            "import-case-duplicate.zip", notABundle: "entry 'Document.json': another entry has the same name",
            importing: .fails("entry 'Document.json': \(earlier)")),
        // Links and special files, pointing out of the archive or not.
        .archive("import-symlink-escape.tar", importing: .fails("entry 'blobs': \(links)")),
        .archive("import-symlink-document.tar", importing: .fails("entry 'document.json': \(links)")),
        .archive(
            "import-hardlink-escape.tar",
            importing: .fails(
                "entry 'document.json': the hard link target '/etc/passwd' is unsafe: entry name is an absolute path")),
        .archive(
            "import-hardlink-dot-dot.tar",
            importing: .fails("the hard link target '../../etc/passwd' is unsafe: entry name contains a '..' component")
        ),
        .archive("import-hardlink-inside.tar", importing: .fails("entry 'document.json': \(links)")),
        .archive("import-device.tar", importing: .fails("entry 'dev': \(links)")),
        // Bombs: deflate, xz, a sparse tar of 1 TiB of holes, a header declaring 2 GiB.
        .archive(
            "import-bomb.zip", notABundle: "entry 'document.json': the entry is compressed (method 8)",
            importing: .fails("entry 'document.json': the archive expands to more than 1000 times its size of")),
        .archive(
            "import-bomb.tar.xz",
            importing: .fails("entry 'document.json': the archive expands to more than 1000 times its size of")),
        .archive(
            "import-sparse-bomb.tar",
            importing: .fails("entry 'document.json': the entry declares 1099511627776 bytes; the limit is 1073741824")),
        .archive(
            "import-declared-huge.tar",
            importing: .fails("entry 'document.json': the entry declares 2147483648 bytes; the limit is 1073741824")),
        .archive(
            "import-claims-too-many.zip", notABundle: "the archive has 1000001 entries; the limit is 1000000",
            importing: .fails("the archive has more than 1000000 entries")),
        // Damage, and contents that are not a document with its blobs.
        .archive("import-bad-crc.zip", notABundle: noMimetype, importing: .fails("entry 'document.json': ZIP bad CRC")),
        .archive("import-truncated.tar.gz", importing: .fails("truncated gzip input")),
        .archive("import-not-an-archive.bin", importing: .fails("not a zip or tar archive")),
        .archive("import-nested.tar", importing: .fails("not valid JSON: JSON is nested more than 256 levels deep")),
        .archive(
            "import-missing-blob.tar",
            importing: .fails("thumbnail: refers to blob 43707e4c5f3a, but the archive has no blobs/\(blob)")),
        .archive(
            "import-wrong-blob.tar",
            importing: .fails(
                "entry 'blobs/\(blob)': blob is damaged: its SHA-256 is a3ead5eedad5…, its name says 43707e4c5f3a…")),
        .archive("import-is-a-bundle.tar", importing: .alreadyABundle)
    ]
}
