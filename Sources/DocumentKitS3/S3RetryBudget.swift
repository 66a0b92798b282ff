import DocumentKitCore
import Foundation
import NIOCore

/// The retries all of one client's requests may make together, counted as AWS's SDKs
/// count them: a retry takes 5 units of a budget of 5 per retry allowed (500 for the
/// default 100), a timeout 10, and each request that succeeds gives 1 back. Also counts
/// the retries made, for a command's report.
public final class S3RetryBudget: Sendable {
    private struct State {
        var units: Int
        var retries = 0
    }

    /// The retries a client may make together unless told otherwise: AWS's SDKs' 500 units.
    public static let defaultRetries = 100
    private let capacity: Int
    private let state: Protected<State>

    /// A budget of `retries` retries (0: none), before successes earn any back.
    public init(retries: Int = S3RetryBudget.defaultRetries) {
        capacity = max(retries, 0) * 5
        state = Protected(State(units: capacity))
    }

    /// How many retries were made so far.
    public var retries: Int { state.value.retries }

    /// Takes a retry out of the budget; `false`, taking nothing, when too little is left.
    func spend(timeout: Bool) -> Bool {
        state.mutate { state in
            let cost = timeout ? 10 : 5
            guard state.units >= cost else { return false }
            state.units -= cost
            state.retries += 1
            return true
        }
    }

    /// A request succeeded: a unit goes back, up to the capacity.
    func refund() {
        state.mutate { [capacity] in $0.units = min(capacity, $0.units + 1) }
    }
}
