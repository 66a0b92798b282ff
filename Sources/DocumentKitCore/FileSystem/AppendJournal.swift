import Foundation

/// The note an in-place append leaves beside a bundle while it runs: where the bundle
/// ended before the append, so that a reader can ignore a tail a killed save left, and the
/// next writer can cut it off.
///
/// An append writes new entries, a new central directory and, last, a new end record
/// after the bundle's old end. Until that end record is written the file ends in bytes
/// no zip reader can use; the journal, `.NAME.dk-append` in the bundle's folder, says
/// where the last complete zip ends. Its text is three lines:
///
/// ```
/// documentkit-append 1
/// length 677870860
/// end 504b0506…
/// ```
///
/// `end` is the hex of the bytes just before `length` (up to 98: the end records), so a
/// journal that outlived its bundle (replaced by another file) is recognised as stale and
/// never used to cut a file it does not describe. See DESIGN.md, "Saving in place".
///
/// An append that also writes `document.json` into the slot of a document superseded
/// before (bytes before `length` that no entry of the old zip refers to; FORMAT.md §1,
/// "Room") says so in a fourth line, and its first line says `2`:
///
/// ```
/// documentkit-append 2
/// length 677870860
/// end 504b0506…
/// reuse 8123 7170211
/// ```
///
/// Undoing such an append also covers that stretch with one room entry again, so that a
/// reader walking local headers does not meet the document that was never saved.
package struct AppendJournal {
    /// The journal file.
    package let path: String
    /// The bundle's length before the append: where its last complete zip ends.
    package let length: UInt64
    /// The bundle's bytes just before `length`.
    package let end: [UInt8]
    /// The stretch before `length` the append writes over, if any: a document's slot.
    package let reuse: Range<UInt64>?
    /// The bundle's folder, when this journal was written by this process: it is removed
    /// through the folder's descriptor, so it goes even if the folder was renamed meanwhile
    /// (a journal left beside a completed append would hide the append from readers).
    private let folder: OpenFile?

    /// How many bytes before `length` a journal records: the classic end record, the zip64
    /// end record and the zip64 locator.
    package static let recordedEndBytes = 98

    /// The journal path for the bundle file at `bundlePath` (symbolic links resolved).
    package static func path(for bundlePath: String) -> String {
        let url = URL(fileURLWithPath: bundlePath)
        return url.deletingLastPathComponent().appendingPathComponent(name(for: bundlePath)).path
    }

    private static func name(for bundlePath: String) -> String {
        ".\(URL(fileURLWithPath: bundlePath).lastPathComponent).dk-append"
    }

    /// Writes and flushes the journal for an append to `fd` (the bundle at `bundlePath`,
    /// `length` bytes long), and flushes the folder so the journal is on disk before the
    /// first appended byte can be. Errors name `reportedPath`, the bundle as the caller
    /// named it.
    package static func begin(
        bundlePath: String, fd: Int32, length: UInt64, reusing reuse: Range<UInt64>? = nil,
        reportedPath: String? = nil
    ) throws -> AppendJournal {
        let reported = reportedPath ?? bundlePath
        let end = try tail(of: fd, before: length, path: reported)
        let folder = try AtomicReplacement.openFolder(of: URL(fileURLWithPath: bundlePath), reportedPath: reported)
        let name = name(for: bundlePath)
        let journal = AppendJournal(
            path: path(for: bundlePath), length: length, end: end, reuse: reuse, folder: folder)
        var text =
            """
            documentkit-append \(reuse == nil ? 1 : 2)\nlength \(length)\nend \
            \(end.map { String($0, radix: 16).leftPadded(to: 2) }.joined())\n
            """
        if let reuse { text += "reuse \(reuse.lowerBound) \(reuse.upperBound)\n" }
        unlinkat(folder.descriptor, name, 0)
        do {
            let fd = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw TemporarySibling.creationError(
                    "cannot create its journal beside it", path: reported, errno: errno)
            }
            let file = OpenFile(adopting: fd, path: journal.path)
            try file.write(Data(text.utf8))
            try file.synchronize()
            guard fsync(folder.descriptor) == 0 else {
                throw DocumentKitError.system("cannot flush its folder", path: reported, errno: errno)
            }
        } catch var error as DocumentKitError {
            try? journal.finish()
            error.path = reported
            throw error
        }
        return journal
    }

    /// Removes the journal once the append is complete and durable, and flushes the
    /// folder: this is the moment the save happens. Until the journal is gone, readers read
    /// the bundle as it was and the next writer cuts the append off (see
    /// ``recover(bundlePath:)``), so a save killed after its end record, but before this,
    /// did not happen for anyone; and once this returns, no power loss brings the journal
    /// back to undo a save that was reported done. A journal this process wrote is removed
    /// through its folder's descriptor, so it goes even if the folder was renamed meanwhile.
    package func finish() throws {
        let folder = try self.folder ?? AtomicReplacement.openFolder(of: URL(fileURLWithPath: path), reportedPath: path)
        unlinkat(folder.descriptor, (path as NSString).lastPathComponent, 0)
        guard fsync(folder.descriptor) == 0 else {
            throw DocumentKitError.system("cannot flush the folder of", path: path, errno: errno)
        }
    }

    /// The journal beside the bundle at `bundlePath`, if there is a readable one.
    package static func existing(for bundlePath: String) -> AppendJournal? {
        let path = path(for: bundlePath)
        guard let data = FileManager.default.contents(atPath: path), data.count < 1024 else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == 3 || lines.count == 4, lines[0] == "documentkit-append \(lines.count - 2)",
            lines[1].hasPrefix("length "), let length = UInt64(lines[1].dropFirst(7)),
            lines[2].hasPrefix("end "), let end = hexBytes(lines[2].dropFirst(4)),
            UInt64(end.count) == min(length, UInt64(recordedEndBytes)), endsInEndRecord(end)
        else { return nil }
        var reuse: Range<UInt64>?
        if lines.count == 4 {
            let bounds = lines[3].split(separator: " ")
            guard bounds.count == 3, bounds[0] == "reuse", let start = UInt64(bounds[1]), let stop = UInt64(bounds[2]),
                start < stop, stop <= length
            else { return nil }
            reuse = start..<stop
        }
        return AppendJournal(path: path, length: length, end: end, reuse: reuse, folder: nil)
    }

    /// Whether `fd`'s bytes before `length` are the ones the journal recorded.
    package func describes(_ fd: Int32, path bundlePath: String) -> Bool {
        (try? Self.tail(of: fd, before: length, path: bundlePath)) == end
    }

    /// Undoes what a killed append left, under the bundle's writer lock: the tail after
    /// `length` is cut off, flushed, and then the journal goes. The tail goes even when it
    /// ends in a complete zip (the append was killed after its end record but before
    /// removing the journal): readers never saw that save, and the one who made it was
    /// never told it succeeded, so keeping it would make a version appear after the fact.
    /// A stale journal (the file no longer has the bytes it recorded) is removed, and so is
    /// one whose cut would not be a complete zip (`isCompleteZip`, given the length, says),
    /// which no append wrote: readers ignore it, and cutting there would destroy the file.
    /// The stretch an append reused (`reuse`) is handed to `reclaim` with the file's
    /// descriptor, once the tail is cut, to be covered again; the journal goes only after.
    package static func recover(
        bundlePath: String, isCompleteZip: (UInt64) -> Bool,
        reclaim: (_ fd: Int32, _ stretch: Range<UInt64>, _ length: UInt64) throws -> Void
    ) throws {
        guard let journal = existing(for: bundlePath) else {
            // Unreadable (cut short by the kill before its flush): the append it announced
            // had not started, since appends start only after the journal is durable.
            unlink(path(for: bundlePath))
            return
        }
        let fd = SystemCall.open(bundlePath, O_RDWR)
        guard fd >= 0 else {
            throw DocumentKitError.system("cannot open to repair an interrupted save", path: bundlePath, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw DocumentKitError.system("cannot stat", path: bundlePath, errno: errno)
        }
        let size = UInt64(info.st_size)
        if size >= journal.length, journal.describes(fd, path: bundlePath), isCompleteZip(journal.length) {
            if size > journal.length {
                guard ftruncate(fd, off_t(journal.length)) == 0, fsync(fd) == 0 else {
                    throw DocumentKitError.system(
                        "cannot remove the tail of an interrupted save", path: bundlePath, errno: errno)
                }
            }
            if let reuse = journal.reuse {
                try reclaim(fd, reuse, journal.length)
                guard fsync(fd) == 0 else {
                    throw DocumentKitError.system("cannot flush the repair of", path: bundlePath, errno: errno)
                }
            }
        }
        try journal.finish()
    }

    /// Whether `bytes` end with an end of central directory record without a comment, as
    /// every bundle DocumentKit appends to does: a journal whose `end` does not was not
    /// written by an append, and must never be used to cut a file.
    private static func endsInEndRecord(_ bytes: [UInt8]) -> Bool {
        let record = 22
        guard bytes.count >= record else { return false }
        let start = bytes.count - record
        return Array(bytes[start..<start + 4]) == [0x50, 0x4B, 0x05, 0x06] && bytes[bytes.count - 2] == 0
            && bytes[bytes.count - 1] == 0
    }

    private static func tail(of fd: Int32, before length: UInt64, path: String) throws -> [UInt8] {
        let count = Int(min(length, UInt64(recordedEndBytes)))
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try DocumentKitError.located(at: path) {
            try bytes.withUnsafeMutableBytes {
                try POSIXFile.read(fd, into: $0, at: length - UInt64(count), path: path)
            }
        }
        guard read == count else {
            throw DocumentKitError(.ioError, "the file is shorter than its append journal says", path: path)
        }
        return bytes
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
