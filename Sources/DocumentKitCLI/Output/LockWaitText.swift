import DocumentKit
import Foundation

/// The line a writer prints when it has waited a second for another's lock.
enum LockWaitText {
    /// `waiting for B.dkproj: locked by process 4242 (docctl set B.dkproj name X) since 14:02:11`.
    static func message(bundle: String, holder: LockHolder?) -> String {
        guard let holder else { return "waiting for \(bundle): another writer holds its lock" }
        let command = holder.command.map { " (\($0))" } ?? ""
        let since = holder.started.map { " since \(time($0))" } ?? ""
        return "waiting for \(bundle): locked by process \(holder.processID)\(command)\(since)"
    }

    /// The local time of day, or the date and time when it was not today.
    private static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDateInToday(date) ? "HH:mm:ss" : "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}
