@testable import LockstepFixtures
import Foundation
import LockstepQuery
import LockstepTesting

/// An error a test backend throws.
struct BackendError: Error, Equatable {
    let call: Int
}

/// The server behind the test queries: counts calls, can hold them at a gate, and fails the first
/// `failures` calls.
final class Backend: Sendable {
    let gate: Gate?
    private let state: Lock<(calls: Int, failures: Int, retryIndices: [Int])>

    init(gated: Bool = false, failures: Int = 0) {
        gate = gated ? Gate() : nil
        state = Lock((0, failures, []))
    }

    var calls: Int { state.withLock { $0.calls } }
    var retryIndices: [Int] { state.withLock { $0.retryIndices } }

    func failNext(_ count: Int) {
        state.withLock { $0.failures = count }
    }

    /// One call: returns `"<name> #<call>"`.
    func call(_ name: String, context: OperationContext) async throws -> String {
        let (call, fails) = state.withLock { state in
            state.calls += 1
            state.retryIndices.append(context.retryIndex)
            let fails = state.failures > 0
            if fails { state.failures -= 1 }
            return (state.calls, fails)
        }
        await gate?.pass()
        try Task.checkCancellation()
        if fails { throw BackendError(call: call) }
        return "\(name) #\(call)"
    }
}

/// A query keyed by its name; its fetch goes to a ``Backend``.
struct NameQuery: QueryRequest {
    let name: String
    let backend: Backend
    var staleAfter: Duration?
    var customPath: OperationPath?
    /// Counts the fetch as a live body while it runs, for tests that prove every fetch ends.
    var live: LiveTasks?

    init(
        _ name: String, backend: Backend, staleAfter: Duration? = nil, path: OperationPath? = nil,
        live: LiveTasks? = nil
    ) {
        self.name = name
        self.backend = backend
        self.staleAfter = staleAfter
        customPath = path
        self.live = live
    }

    var path: OperationPath { customPath ?? ["names", name] }

    var staleness: Staleness<QueryState<String, any Error>> {
        staleAfter.map { .after($0) } ?? .immediately
    }

    static func == (lhs: NameQuery, rhs: NameQuery) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        live?.enter()
        defer { live?.leave() }
        return try await backend.call(name, context: context)
    }
}

/// A client for tests that control everything: no retries, no delays, no automatic fetching
/// unless asked, a fixed date.
func makeClient(
    automaticFetching: Bool = true,
    retryLimit: Int = 0,
    backoff: OperationBackoffFunction = .noBackoff,
    delayer: OperationDelayer? = .noDelay,
    networkObserver: (any NetworkObserver)? = nil,
    focusCondition: FetchCondition? = nil,
    clock: some Clock<Duration> = ContinuousClock(),
    evictionDelay: Duration? = .seconds(300)
) -> OperationClient {
    OperationClient(
        storeCreator: .default(
            retryLimit: retryLimit,
            backoff: backoff,
            delayer: delayer,
            queryEnableAutomaticFetchingCondition: .always(automaticFetching),
            networkObserver: networkObserver,
            focusCondition: focusCondition
        ),
        clock: clock,
        now: { fixedDate },
        evictionDelay: evictionDelay
    )
}

let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

/// Records what a test delayer was asked to wait.
final class DelayRecorder: Sendable {
    private let delays = Lock<[Duration]>([])
    var recorded: [Duration] { delays.withLock { $0 } }
    var delayer: OperationDelayer {
        OperationDelayer { duration in self.delays.withLock { $0.append(duration) } }
    }
}

/// Collects the states a subscriber hears.
final class StateLog<State: Sendable>: Sendable {
    private let states = Lock<[State]>([])
    var all: [State] { states.withLock { $0 } }
    func append(_ state: State) { states.withLock { $0.append(state) } }
}

/// Starts `operation` in a task of the test's own, not tracked work, and returns the task once
/// it has started a run of `store` (the store's `onRunStarted` event), or once it has ended
/// without starting one.
///
/// Under `withTrackedWork`, a run the test starts is tracked work of its own, so a tracked caller
/// that joins it counts as waiting for it, and `TrackedWork.waitUntilParked()` returns once
/// every tracked caller has joined. (A run that tracked work starts goes on as part of that work
/// instead, and a tracked caller that joins it counts as running.) Use a client with automatic
/// fetching off, so that the subscription that hears the event starts no run of its own, and a
/// store with no run in flight, which `operation` would join rather than start.
///
/// ```swift
/// let first = await startingRun(of: store) { try await store.fetch() }
/// let second = work.start("the second fetch") { try await store.fetch() }
/// await work.waitUntilParked()   // the second fetch waits for the first one's run
/// ```
func startingRun<State: OperationState, Success: Sendable>(
    of store: OperationStore<State>,
    _ operation: @escaping @Sendable () async throws -> Success
) async -> Task<Success, any Error> {
    let (started, signal) = AsyncStream<Void>.makeStream()
    let subscription = store.subscribe(with: QueryEventHandler(onRunStarted: { _ in signal.yield() }))
    defer { subscription.cancel() }
    let task = Task {
        defer { signal.finish() }
        return try await operation()
    }
    var events = started.makeAsyncIterator()
    _ = await events.next()   // nil when the operation ended without starting a run
    return task
}
