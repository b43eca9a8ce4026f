import Lockstep

/// Hands a test store every reduction of its store through the public observer mechanism. The
/// store is made before the test store, so the observer reaches it through this sink.
@MainActor
final class ReductionSink<State: Sendable, Action: Sendable> {
    var receive: ((Reduction<State, Action>) -> Void)?

    /// The observer to give the store.
    var observer: ActionObserver<State, Action> {
        ActionObserver { reduction in self.receive?(reduction) }
    }
}
