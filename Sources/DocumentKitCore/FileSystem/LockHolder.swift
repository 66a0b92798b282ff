import Foundation

/// Who holds a bundle's writer lock, as far as the system tells: for the message a waiting
/// writer prints (`locked by process 4242 (docctl set …) since 14:02:11`).
///
/// `flock(2)` records no owner in the file, and DocumentKit writes none beside it (a
/// second file could outlive its writer and would need cleaning up). Linux lists every
/// lock with the process that took it in `/proc/locks`; where that is not readable (other
/// systems, another mount namespace) the holder is unknown.
public struct LockHolder: Sendable, Equatable {
    /// The process holding the lock.
    public var processID: Int32
    /// Its command line, when it can be read.
    public var command: String?
    /// When the process started, when known: the lock was taken at that time or later.
    public var started: Date?

    public init(processID: Int32, command: String?, started: Date?) {
        self.processID = processID
        self.command = command
        self.started = started
    }

    /// The holder of a `flock` lock on the file with status `file`, or `nil` when unknown.
    package static func of(_ file: stat) -> LockHolder? {
        guard let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF": the device as hexadecimal
        // major:minor, then the inode. A waiter's own request is listed too, after "->".
        for line in locks.split(separator: "\n") where !line.contains("->") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let location = fields[5].split(separator: ":")
            guard location.count == 3, UInt64(location[2]) == UInt64(file.st_ino),
                UInt64(location[0], radix: 16) == major(of: UInt64(file.st_dev)),
                UInt64(location[1], radix: 16) == minor(of: UInt64(file.st_dev))
            else { continue }
            return LockHolder(processID: pid, command: command(of: pid), started: startTime(of: pid))
        }
        return nil
    }

    /// glibc's `gnu_dev_major`, which Swift does not import (it is a macro).
    private static func major(of device: UInt64) -> UInt64 { ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff) }
    private static func minor(of device: UInt64) -> UInt64 { (device & 0xff) | ((device >> 12) & ~0xff) }

    private static func command(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let program = words.first else { return nil }
        return ([URL(fileURLWithPath: program).lastPathComponent] + words.dropFirst()).joined(separator: " ")
    }

    /// The process's start: its start in clock ticks after boot (`/proc/PID/stat`, field
    /// 22, counted after the parenthesised name, which may hold spaces) plus the boot time.
    private static func startTime(of pid: Int32) -> Date? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
            let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let boot = Double(bootLine.dropFirst(6))
        else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Date(timeIntervalSince1970: boot + ticks / max(ticksPerSecond, 1))
    }
}
