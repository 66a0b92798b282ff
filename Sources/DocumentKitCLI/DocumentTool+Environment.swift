import DocumentKit
import Foundation

extension DocumentTool {
    /// Makes docctl's edits write an older schema (`BundleEditor.writeSchema`), e.g.
    /// `DOCUMENTKIT_WRITE_SCHEMA=1.0.0`, to make sample and test bundles of old schemas.
    public static let writeSchemaVariable = "DOCUMENTKIT_WRITE_SCHEMA"
    /// How many seconds a save waits for another writer's lock (`DocumentBundle.lockTimeout`).
    public static let lockTimeoutVariable = "DOCUMENTKIT_LOCK_TIMEOUT"
    /// A file to write the counts of `WorkMeter` to, when the process exits.
    public static let workMeterVariable = "DOCUMENTKIT_WORK_METER"
    /// For tests of interrupted pushes: kills the process (SIGKILL) before its remote write
    /// after this many (``CountedRemoteStore``); `N:INT` sends SIGINT instead, as Ctrl-C.
    public static let killAfterRemoteWritesVariable = "DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES"

    /// Makes the choices the library leaves to the program, from the tool's environment:
    /// DocumentKit itself reads no environment variable and no configuration file.
    /// `SOURCE_DATE_EPOCH` fixes every "now" (the reproducible-builds convention).
    static func applyEnvironment(_ environment: [String: String]) {
        if let epoch = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(epoch) {
            DocumentDates.fixedNow = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        DocumentBundle.lockTimeout = environment[lockTimeoutVariable].flatMap(TimeInterval.init)
        // https://no-color.org: set and not empty turns colour off; so does a dumb terminal.
        Console.colourAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        if let version = environment[writeSchemaVariable] {
            BundleEditor.writeSchema = BundleEditor.WriteSchema(version: version, setting: writeSchemaVariable)
        }
        if let value = environment[killAfterRemoteWritesVariable], let steps = Int(value.prefix { $0 != ":" }) {
            KillSwitch.arm(after: steps, signal: value.hasSuffix(":INT") ? SIGINT : SIGKILL)
        }
        if let meter = environment[workMeterVariable], !meter.isEmpty {
            WorkMeter.start(writingTo: meter)
        }
    }
}
