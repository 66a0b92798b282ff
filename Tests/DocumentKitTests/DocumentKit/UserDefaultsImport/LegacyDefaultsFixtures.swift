import Foundation

@testable import DocumentKit

/// One exported defaults domain, written in each format an export comes in.
enum LegacyDefaultsFixtures {
    /// `draft_posts`: a blank string, and one text twice.
    static let posts = ["Hello, world", "  ", "Second post", "Hello, world"]
    /// `draft_post_dates`, one per post; the last has a fraction of a second.
    static let dates = [1_735_725_600, 1_735_812_000, 1_735_898_400, 1_735_984_800.75].map {
        Date(timeIntervalSince1970: $0)
    }

    /// The domain as a property-list object: the known keys and some an application keeps.
    static var domain: [String: Any] {
        [
            "draft_posts": posts, "draft_post_dates": dates, "project_name": "Blog",
            "NSWindow Frame Main": "0 0 800 600", "launchCount": 7, "lastOpened": dates[0], "sync": ["enabled": true]
        ]
    }

    /// The unknown keys of `domain`, sorted.
    static let unknownKeys = ["NSWindow Frame Main", "lastOpened", "launchCount", "sync"]

    /// The drafts `domain` gives: blank skipped, the repeated text kept twice.
    static var drafts: [LegacyDefaults.Draft] {
        [
            LegacyDefaults.Draft(
                id: LegacyDefaults.draftID(content: posts[0], occurrence: 1), content: posts[0], createdAt: dates[0]),
            LegacyDefaults.Draft(
                id: LegacyDefaults.draftID(content: posts[2], occurrence: 1), content: posts[2], createdAt: dates[2]),
            LegacyDefaults.Draft(
                id: LegacyDefaults.draftID(content: posts[3], occurrence: 2), content: posts[3],
                createdAt: Date(timeIntervalSince1970: 1_735_984_800))
        ]
    }

    /// `domain` in `format`: property lists as Foundation writes them, JSON by hand (times
    /// as strings, as a JSON export has them).
    static func data(_ format: LegacyDefaults.Format) throws -> Data {
        switch format {
        case .xml: return try PropertyListSerialization.data(fromPropertyList: domain, format: .xml, options: 0)
        case .binary: return try PropertyListSerialization.data(fromPropertyList: domain, format: .binary, options: 0)
        case .json:
            return Data(
                """
                {
                  "NSWindow Frame Main": "0 0 800 600",
                  "draft_post_dates": ["2025-01-01T10:00:00Z", "2025-01-02T10:00:00Z", "2025-01-03T10:00:00Z", "2025-01-04T10:00:00.75Z"],
                  "draft_posts": ["Hello, world", "  ", "Second post", "Hello, world"],
                  "lastOpened": "2025-01-01T10:00:00Z",
                  "launchCount": 7,
                  "project_name": "Blog",
                  "sync": {"enabled": true}
                }

                """.utf8)
        }
    }

    /// Writes `domain` in `format` to `name` in `directory`.
    @discardableResult
    static func write(_ format: LegacyDefaults.Format, to name: String, in directory: URL) throws -> URL {
        try Fixtures.write(try data(format), to: name, in: directory)
    }
}
