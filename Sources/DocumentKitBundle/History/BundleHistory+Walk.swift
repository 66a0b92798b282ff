import DocumentKitCore
import Foundation

extension BundleHistory {
    /// The versions of a history newest first, one at a time, for a caller that walks two
    /// histories side by side (a pull's plan): a block is decoded when its first version
    /// is asked for, and dropped when its last has been given.
    package struct NewestFirst {
        private let history: BundleHistory
        private var segment: Int
        private var block: Int
        private var place: Int
        /// The versions of the current block not given yet, oldest first.
        private var buffered: [(id: VersionID, record: Data, before: HistorySegment.ObjectItem?)] = []

        init(_ history: BundleHistory) {
            self.history = history
            segment = history.segments.count - 1
            block = segment >= 0 ? history.segments[segment].reader.blockCount : 0
            place = history.lastPlace
        }

        /// The next version, older than the last one given; `nil` past the oldest.
        package mutating func next() throws -> Located? {
            while buffered.isEmpty {
                guard segment >= 0 else { return nil }
                let current = history.segments[segment]
                if block == 0 {
                    guard place == current.places.lowerBound - 1 else {
                        throw DocumentKitError(
                            .malformedInput,
                            """
                            invalid history segment: it holds \(current.places.upperBound - place) records, and \
                            its name \(current.places.count)
                            """,
                            location: "entry '\(current.name)'")
                    }
                    segment -= 1
                    block = segment >= 0 ? history.segments[segment].reader.blockCount : 0
                    continue
                }
                block -= 1
                buffered = try BundleHistory.inSegment(current.name) { try current.reader.versions(inBlock: block) }
            }
            let (_, record, before) = buffered.removeLast()
            let version = try BundleVersion(segmentRecord: record, number: place)
            place -= 1
            let tree = before.flatMap { $0.foundByPlace && $0.digest == version.tree ? $0 : nil }
            return Located(version: version, placedTree: tree)
        }
    }

    /// The versions newest first, read as they are asked for.
    package func newestFirst() -> NewestFirst { NewestFirst(self) }
}
