import Foundation

/// The program DocumentKit runs in, as messages name it: `docctl`, `notectl`, or the
/// application using DocumentKit. A message that says what to upgrade names it, so that
/// the library never names a tool that is not the one running.
package enum RunningProgram {
    /// The name the process runs as.
    package static var name: String { ProcessInfo.processInfo.processName }
}
