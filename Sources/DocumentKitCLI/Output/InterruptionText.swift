import DocumentKit

/// The one line a command told to stop (Ctrl-C, SIGTERM, SIGHUP) prints, after its
/// temporaries are removed: what it had already written, so that the user knows whether
/// to look at the output or run the command again.
enum InterruptionText {
    static func line(_ written: Interruption.Written) -> String {
        switch written {
        case .nothing:
            "interrupted; nothing was written"
        case .output(let path):
            "interrupted after \(path) was written in full; nothing is half-written"
        case .remote(let address):
            "interrupted; \(address) has part of what was sent, each file whole: run the command again to finish"
        }
    }
}
