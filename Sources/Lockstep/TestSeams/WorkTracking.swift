import IssueReporting

/// One task's work as a tracker sees it: running, waiting for work it started, parked on
/// something only a test can release, or finished.
///
/// LockstepTesting implements it (its tracked tasks); the core and the query layer only mark
/// where a unit stops and goes on. Parking comes in two halves, so that a primitive never calls
/// into the tracker under its own lock:
///
/// ```swift
/// let unit = WorkTracking.unit
/// lock.withLock { unit?.prepareToPark("parked on Gate 'server'"); waiters.append(continuation) }
/// unit?.commitPark()
/// // …and whoever releases it, before resuming the continuation:
/// unit?.resume()
/// ```
package protocol WorkUnit: AnyObject, Sendable {
    /// The first half of parking: records what the unit is parked on, under the caller's lock.
    func prepareToPark(_ activity: String)
    /// The first half of waiting for other tracked work (`activity` says for what): child tasks,
    /// effects, a query run, which are tracked themselves.
    func prepareToWait(_ activity: String)
    /// The second half of parking or waiting, outside every lock, unless resumed in between.
    func commitPark()
    /// Marks the unit running again; called by whoever releases it, before resuming it.
    func resume()
    /// Marks the unit finished.
    func finish()
    /// A new running unit for a child task of this one, tracked by the same tracker.
    func makeChild() -> any WorkUnit
    /// The executor the test's work runs on, which a task started for this unit prefers.
    var preferredExecutor: (any TaskExecutor)? { get }
    /// The scope that tracks this unit, to announce its hops to (see ``WorkScope/hopWillStart()``).
    var scope: (any WorkScope)? { get }
}

/// The work of a test that a tracker can see (LockstepTesting's work monitor): the toolkit's
/// waits ask it whether anything it tracks can still satisfy them.
package protocol WorkScope: AnyObject, Sendable {
    /// Runs `action` once nothing tracked is running: at once, returning `nil`, if nothing is now.
    /// Returns a token for ``forgetQuiescenceAction(_:)``.
    func whenQuiescent(_ action: @escaping @Sendable () -> Void) -> UInt64?
    /// Forgets an action ``whenQuiescent(_:)`` registered, if it has not run.
    func forgetQuiescenceAction(_ token: UInt64)
    /// Records that work the scope does not track reached `place` (a test double).
    func noteUntrackedWork(at place: String)
    /// The failure of a wait for `expectation` that nothing tracked can satisfy.
    func stallMessage(waitingFor expectation: String) -> String
    /// A new running unit of tracked work (a query run, an eviction timer), named by `label`.
    func makeUnit(label: String) -> any WorkUnit
    /// The executor the test's work runs on, which tracked work the library starts prefers.
    var preferredExecutor: (any TaskExecutor)? { get }
    /// Tracked work is about to hop between the store's actor and the test's executor: a job
    /// the scope counts as enqueued until ``hopDidArrive()``. The runtime may run the first
    /// part of a nonisolated function called from the main actor on the global executor, where
    /// the test's executor sees nothing, so without the notice a test could decide that nothing
    /// runs while the work is on its way.
    func hopWillStart()
    /// The hop announced by ``hopWillStart()`` has arrived.
    func hopDidArrive()
}

/// Where the core finds the tracking a test installed.
///
/// Production code never sets either task-local, and a store's dispatch reads neither: a store
/// that the test toolkit made (or that was made inside `withTrackedWork`) holds its scope, and
/// only such a store asks for the current unit while it dispatches.
extension WorkUnit {
    package var scope: (any WorkScope)? { nil }
}

package enum WorkTracking {
    /// The unit of the task running now, when it does tracked work.
    @TaskLocal package static var unit: (any WorkUnit)?

    /// The scope of `withTrackedWork`, if the current task runs inside one.
    @TaskLocal package static var scope: (any WorkScope)?

    /// The executor a task the library starts now should prefer: the test's, when the current
    /// task does tracked work or runs in a `withTrackedWork` scope, so that the new task is
    /// ordered with the rest of the test's work and seen by its waits; `nil` (the global
    /// executor) otherwise, and always in an app.
    ///
    /// ```swift
    /// let timer = Task(executorPreference: WorkTracking.preferredExecutor) { … }
    /// ```
    package static var preferredExecutor: (any TaskExecutor)? {
        if let unit { return unit.preferredExecutor }
        return scope?.preferredExecutor
    }

    /// The scope the toolkit's waits ask: the one of `withTrackedWork` when there is one,
    /// otherwise the one of the current test's test stores, if the test made any.
    package static var current: (any WorkScope)? {
        scope ?? TestScopes.scope(for: TestContext.current)
    }

    /// The scope of the current test's test stores, made by `make` the first time a store of the
    /// test asks for it; it lives as long as a store keeps it. `nil` outside any test.
    package static func scopeForCurrentTest(making make: () -> any WorkScope) -> (any WorkScope)? {
        withoutActuallyEscaping(make) { make in
            TestScopes.scope(for: TestContext.current, making: make)
        }
    }
}

/// What tells apart the cases of one parameterized test, which run in parallel: installed by the
/// test toolkit, which can see the test case (the core does not import Testing).
package enum TestCaseIdentifier {
    private static let identify = Lock<(@Sendable () -> String?)?>(nil)

    /// Sets how the current test case is identified; the first call wins.
    package static func install(_ identify: @escaping @Sendable () -> String?) {
        self.identify.withLock { $0 = $0 ?? identify }
    }

    /// The current test case, among the cases of its test; `nil` for a test with one case.
    static var current: String? {
        identify.withLock { $0 }?()
    }
}

/// The scopes of the tests running now, one for each test case that made a test store, kept
/// only as long as a store of the case keeps its scope.
private enum TestScopes {
    private final class Entry: Sendable {
        weak let scope: (any WorkScope)?

        init(_ scope: any WorkScope) {
            self.scope = scope
        }
    }

    /// A Swift Testing test case by its test's identifier and its arguments; XCTest runs one
    /// test at a time.
    private enum Key: Hashable, Sendable {
        case test(TestContext.Testing.Test.ID, testCase: String?)
        case xcTest
    }


    private static let entries = Lock<[Key: Entry]>([:])

    /// The scope of the test `context` names, made by `make` when there is none and `make` is
    /// given.
    static func scope(for context: TestContext?, making make: (() -> any WorkScope)? = nil) -> (any WorkScope)? {
        guard let key = key(for: context) else { return nil }
        return entries.withLock { entries -> (any WorkScope)? in
            if let scope = entries[key]?.scope {
                return scope
            }
            guard let make else { return nil }
            // Forget the tests whose stores are gone, so the table holds the running tests only.
            entries = entries.filter { $0.value.scope != nil }
            let scope = make()
            entries[key] = Entry(scope)
            return scope
        }
    }

    private static func key(for context: TestContext?) -> Key? {
        switch context {
        case .swiftTesting(let testing?): return .test(testing.test.id, testCase: TestCaseIdentifier.current)
        case .xcTest: return .xcTest
        case .swiftTesting(nil), nil: return nil
        }
    }
}
