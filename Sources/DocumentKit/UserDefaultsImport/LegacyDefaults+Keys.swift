import Crypto
import Foundation

extension LegacyDefaults {
    /// `draft_posts` (and `draft_post_dates`) as drafts with their ids, and how many
    /// strings were blank. Every element is checked before any draft is made, so a wrong
    /// type anywhere is an error and nothing is imported.
    package static func drafts(_ posts: LegacyDefaultsValue?, dates: LegacyDefaultsValue?) throws -> (
        drafts: [Draft], blank: Int
    ) {
        let postsKey = Key.draftPosts.rawValue
        let datesKey = Key.draftPostDates.rawValue
        guard let posts else {
            if dates != nil {
                throw DocumentKitError(
                    .malformedInput, "there is no \(postsKey) for the dates to go with", location: datesKey)
            }
            return ([], 0)
        }
        let texts = try strings(posts, key: postsKey)
        let times = try dates.map { try self.dates($0, key: datesKey) }
        if let times, times.count != texts.count {
            throw DocumentKitError(
                .malformedInput,
                "needs one date for each of the \(texts.count) strings of \(postsKey), has \(times.count)",
                location: datesKey)
        }
        var drafts: [Draft] = []
        var blank = 0
        // Counted by bytes, as the ids are: texts that differ only in their Unicode
        // normalisation are different texts here.
        var occurrences: [[UInt8]: Int] = [:]
        for (index, text) in texts.enumerated() {
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                blank += 1
                continue
            }
            let occurrence = occurrences[Array(text.utf8), default: 0] + 1
            occurrences[Array(text.utf8)] = occurrence
            drafts.append(
                Draft(id: draftID(content: text, occurrence: occurrence), content: text, createdAt: times?[index]))
        }
        return (drafts, blank)
    }

    /// `project_name`, or `nil` when it is missing or blank.
    package static func projectName(_ value: LegacyDefaultsValue?) throws -> String? {
        guard let value else { return nil }
        guard case .string(let name) = value else {
            throw DocumentKitError(
                .malformedInput, "expected a string, found \(value.found)", location: Key.projectName.rawValue)
        }
        return name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : name
    }

    /// The id of the `occurrence`-th draft (1 for the first) of `draft_posts` whose text
    /// is `content`: an RFC 9562 version 8 UUID made of the first 16 bytes of the SHA-256
    /// of `documentkit.legacy-defaults:draft_posts:<occurrence>:<content>` (UTF-8), with
    /// the version and variant bits set.
    ///
    /// It depends on nothing but the text and how many equal texts come before it: the
    /// same export (in any of the formats, under any file name) gives the same ids, so an
    /// import adds a draft once however often it runs, and two equal drafts are both kept.
    public static func draftID(content: String, occurrence: Int) -> UUID {
        let name = "documentkit.legacy-defaults:\(Key.draftPosts.rawValue):\(occurrence):\(content)"
        var bytes = Array(SHA256.hash(data: Data(name.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private static func strings(_ value: LegacyDefaultsValue, key: String) throws -> [String] {
        guard case .array(let elements) = value else {
            throw DocumentKitError(.malformedInput, "expected an array of strings, found \(value.found)", location: key)
        }
        return try elements.enumerated().map { index, element in
            guard case .string(let text) = element else {
                throw DocumentKitError(
                    .malformedInput, "expected a string, found \(element.found)", location: "\(key)[\(index)]")
            }
            return text
        }
    }

    /// Dates, or strings such as `2026-11-22T09:30:00Z` or `2026-11-22` (JSON has no
    /// dates), to the whole second.
    private static func dates(_ value: LegacyDefaultsValue, key: String) throws -> [Date] {
        guard case .array(let elements) = value else {
            throw DocumentKitError(.malformedInput, "expected an array of dates, found \(value.found)", location: key)
        }
        return try elements.enumerated().map { index, element in
            switch element {
            case .date(let date):
                return Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            case .string(let text):
                if let date = DocumentDates.parse(text) { return date }
            default:
                break
            }
            throw DocumentKitError(
                .malformedInput, "expected a date (or a string such as 2026-11-22T09:30:00Z), found \(element.found)",
                location: "\(key)[\(index)]")
        }
    }
}
