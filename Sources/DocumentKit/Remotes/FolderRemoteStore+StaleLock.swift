import Foundation

extension FolderRemoteStore {
    /// Removes the lock at `path` when it names a process of this machine that has ended:
    /// a push killed (SIGKILL, a crash) in the moment it held the lock, which no signal
    /// handler could remove. A lock of another machine, of a running process, or that
    /// names nothing yet (its writer is between creating and filling it) is left to its
    /// owner, and waited for. Whether it removed one.
    func removeLockOfEndedProcess(_ path: String) -> Bool {
        guard let text = try? OpenFile.forReading(URL(fileURLWithPath: path)).readAll(limit: 4_096) else {
            return false
        }
        let words = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, let pid = pid_t(words[0]), pid > 0, words[1] == ProcessInfo.processInfo.hostName,
            SystemCall.processHasEnded(pid)
        else { return false }
        // Moved aside, then compared: of two pushes that found it ended, one moves it, and
        // a lock taken anew meanwhile (the other push's) is put back, not removed.
        let aside = "\(path).ended-\(UUID().uuidString.lowercased())"
        guard SystemCall.rename(path, to: aside, .withoutReplacing) else { return false }
        let moved = try? OpenFile.forReading(URL(fileURLWithPath: aside)).readAll(limit: 4_096)
        if moved != text { _ = SystemCall.link(aside, to: path) }
        _ = SystemCall.removeFile(aside)
        return moved == text
    }
}
