import Foundation

/// How a program that another started ended.
public enum ProcessTermination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Int32)
}
