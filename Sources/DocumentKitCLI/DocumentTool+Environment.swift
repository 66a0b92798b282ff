import DocumentKit
import Foundation

extension DocumentTool {
    /// Makes docctl's edits write an older schema (`DocumentKitConfiguration.writeSchema`), e.g.
    /// `DOCUMENTKIT_WRITE_SCHEMA=1.0.0`, to make sample and test bundles of old schemas.
    public static let writeSchemaVariable = "DOCUMENTKIT_WRITE_SCHEMA"
    /// How many seconds a save waits for another writer's lock (`DocumentKitConfiguration.lockTimeout`).
    public static let lockTimeoutVariable = "DOCUMENTKIT_LOCK_TIMEOUT"
    /// A file to write the counts of `WorkMeter` to, when the process exits.
    public static let workMeterVariable = "DOCUMENTKIT_WORK_METER"
    /// For tests of interrupted pushes: kills the process (SIGKILL) before its remote write
    /// after this many (``CountedRemoteStore``); `N:INT` sends SIGINT instead, as Ctrl-C.
    public static let killAfterRemoteWritesVariable = "DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES"

    /// The configuration the tool runs under, made from its environment and its document
    /// `types`: DocumentKit itself reads no environment variable and no configuration file.
    /// `SOURCE_DATE_EPOCH` fixes every "now" (the reproducible-builds convention).
    static func configuration(from environment: [String: String], types: [any CodableDocument.Type])
        -> DocumentKitConfiguration
    {
        var configuration = DocumentKitConfiguration()
        configuration.documentTypes = types
        if let epoch = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(epoch) {
            configuration.fixedNow = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        configuration.lockTimeout = environment[lockTimeoutVariable].flatMap(TimeInterval.init)
        configuration.temporaryFolder = DocumentEditSession.temporaryFolder(from: environment)
        configuration.lockWaitHandler = { bundle, holder in
            Console.note(LockWaitText.message(bundle: bundle, holder: holder))
        }
        if let version = environment[writeSchemaVariable] {
            configuration.writeSchema = DocumentKitConfiguration.WriteSchema(
                version: version, setting: writeSchemaVariable)
        }
        if let path = environment[workMeterVariable], !path.isEmpty {
            let meter = WorkMeter()
            configuration.workMeter = meter
            MeterAtExit.write(meter, to: path)
        }
        return configuration
    }

    /// Sets up what the tool itself does from its environment: colour, and the kill switch
    /// of the interrupted-push tests.
    static func applyEnvironment(_ environment: [String: String]) {
        // https://no-color.org: set and not empty turns colour off; so does a dumb terminal.
        Console.colourAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        if let value = environment[killAfterRemoteWritesVariable], let steps = Int(value.prefix { $0 != ":" }) {
            KillSwitch.arm(after: steps, signal: value.hasSuffix(":INT") ? SIGINT : SIGKILL)
        }
    }
}

/// Writes a work meter's counts to a file when the process exits, however it exits: the
/// commands end with `exit`, from wherever they finish.
private enum MeterAtExit {
    private static let pending = Protected<(meter: WorkMeter, path: String)?>(nil)

    static func write(_ meter: WorkMeter, to path: String) {
        pending.value = (meter, path)
        atexit {
            guard let (meter, path) = MeterAtExit.pending.value else { return }
            try? Data(meter.json.utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}
