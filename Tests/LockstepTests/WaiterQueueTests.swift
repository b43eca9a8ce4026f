@testable import Lockstep
@testable import LockstepTesting
import Testing

// The waiter state machine of the test toolkit's primitives, driven event by event: each event
// returns the resumptions to perform, and the test performs them itself.

private typealias Outcome = WaitOutcome<Int>

extension Outcome {
    fileprivate var label: String {
        switch self {
        case .satisfied(let value): "satisfied(\(value))"
        case .cancelled: "cancelled"
        case .closed: "closed"
        case .stalled: "stalled"
        }
    }
}

/// `count` suspended tasks and their continuations, for the test to hand to a queue.
private func suspendedWaiters(_ count: Int) async -> (continuations: [CheckedContinuation<Outcome, Never>], tasks: [Task<Outcome, Never>]) {
    await suspendedTasks(count, returning: Outcome.self)
}

@Suite("WaiterQueue")
struct WaiterQueueTests {
    @Test("A change resumes only the waiters whose condition holds, in the order they came; close ends the rest")
    func satisfyResumesInOrderAndCloseEndsTheRest() async {
        let (continuations, tasks) = await suspendedWaiters(3)
        var queue = WaiterQueue<Int, Int>()
        let ids = (0..<3).map { _ in queue.makeID() }
        for (index, condition) in [3, 1, 2].enumerated() {
            #expect(queue.enqueue(ids[index], condition: condition, continuation: continuations[index], trackedTask: nil) == nil)
        }
        #expect(queue.count == 3)
        #expect(queue.earliestCondition() == 1)

        let ready = queue.satisfy { $0 <= 2 ? $0 * 10 : nil }
        #expect(queue.earliestCondition() == 3)
        #expect(ready.map(\.outcome.label) == ["satisfied(10)", "satisfied(20)"])
        #expect(queue.count == 1)
        let closed = queue.close()
        #expect(closed.map(\.outcome.label) == ["closed"])
        #expect(queue.isClosed)
        #expect(queue.earliestCondition() == nil)
        for resumption in ready + closed { resumption.perform() }

        var outcomes: [String] = []
        for task in tasks { outcomes.append(await task.value.label) }
        #expect(outcomes == ["closed", "satisfied(10)", "satisfied(20)"])
    }

    @Test("A cancellation that comes before the waiter enqueues ends the waiter as it enqueues")
    func cancellationBeforeEnqueue() async {
        let (continuations, tasks) = await suspendedWaiters(1)
        var queue = WaiterQueue<Int, Int>()
        let id = queue.makeID()
        #expect(queue.cancel(id) == nil)
        let now = queue.enqueue(id, condition: 1, continuation: continuations[0], trackedTask: nil)
        #expect(queue.count == 0)
        #expect(now != nil)
        now?.perform()
        #expect(await tasks[0].value.label == "cancelled")
    }

    @Test("A resolution before the waiter enqueues ends it as it enqueues; the first early event wins")
    func resolutionBeforeEnqueue() async {
        let (continuations, tasks) = await suspendedWaiters(2)
        var queue = WaiterQueue<Int, Int>()
        let resolved = queue.makeID()
        #expect(queue.resolve(resolved, with: 4) == nil)
        #expect(queue.cancel(resolved) == nil)
        queue.enqueue(resolved, condition: 99, continuation: continuations[0], trackedTask: nil)?.perform()
        #expect(await tasks[0].value.label == "satisfied(4)")

        let waiting = queue.makeID()
        #expect(queue.enqueue(waiting, condition: 99, continuation: continuations[1], trackedTask: nil) == nil)
        queue.resolve(waiting, with: 5)?.perform()
        #expect(await tasks[1].value.label == "satisfied(5)", "a resolution ends a waiter whatever its condition")
    }

    @Test("Events for a discarded or finished wait are forgotten: a later wait with a new id waits")
    func lateEventsAreForgotten() async {
        let (continuations, tasks) = await suspendedWaiters(1)
        var queue = WaiterQueue<Int, Int>()
        let discarded = queue.makeID()
        queue.discard(discarded)
        #expect(queue.resolve(discarded, with: 1) == nil)
        #expect(queue.cancel(discarded) == nil)

        let id = queue.makeID()
        #expect(queue.enqueue(id, condition: 1, continuation: continuations[0], trackedTask: nil) == nil)
        queue.satisfy { $0 }.forEach { $0.perform() }
        #expect(await tasks[0].value.label == "satisfied(1)")
        #expect(queue.cancel(id) == nil)
        #expect(queue.resolve(id, with: 2) == nil)
        #expect(queue.count == 0)
    }

    @Test("A wait that ends without waiting leaves no reservation behind")
    func immediateWaitsLeaveNoReservation() async {
        struct State {
            var count = 1
            var waiters = WaiterQueue<Int, Int>()
        }
        let state = Lock(State())
        for _ in 0..<3 {
            let outcome = await awaitWaiter(on: state, \.waiters, for: 1, activity: nil) { state in
                state.count >= 1 ? state.count : nil
            }
            #expect(outcome.label == "satisfied(1)")
        }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await awaitWaiter(on: state, \.waiters, for: 5, activity: nil) { _ in nil }.label
        }
        #expect(await cancelled.value == "cancelled")
        #expect(state.withLock { $0.waiters.reservationCount } == 0)

        let monitor = WorkMonitor()
        await monitor.waitUntilQuiescent()
        await monitor.waitUntilQuiescent()
        #expect(monitor.quiescenceReservations == 0)
    }

    @Test("A stall ends a waiting waiter once; later events for it do nothing")
    func stallEndsAWaiterOnce() async {
        let (continuations, tasks) = await suspendedWaiters(1)
        var queue = WaiterQueue<Int, Int>()
        let id = queue.makeID()
        #expect(queue.enqueue(id, condition: 1, continuation: continuations[0], trackedTask: nil) == nil)
        let stalled = queue.stall(id)
        #expect(queue.stall(id) == nil)
        #expect(queue.satisfy { _ in 1 }.isEmpty)
        stalled?.perform()
        #expect(await tasks[0].value.label == "stalled")
    }

    @Test("A waiter that enqueues after close ends at once")
    func enqueueAfterClose() async {
        let (continuations, tasks) = await suspendedWaiters(1)
        var queue = WaiterQueue<Int, Int>()
        #expect(queue.close().isEmpty)
        let id = queue.makeID()
        queue.enqueue(id, condition: 1, continuation: continuations[0], trackedTask: nil)?.perform()
        #expect(await tasks[0].value.label == "closed")
    }

    @Test("awaitWaiter stalls at once when the scope has nothing running, and not while tracked work runs")
    func awaitWaiterStallsOnlyWhenNothingRuns() async {
        struct State {
            var count = 0
            var waiters = WaiterQueue<Int, Int>()
        }
        let state = Lock(State())
        let monitor = WorkMonitor()
        let wait = { @Sendable (count: Int) async -> String in
            await WorkTracking.$scope.withValue(monitor) {
                await awaitWaiter(on: state, \.waiters, for: count, activity: "waiting for \(count)") { state in
                    state.count >= count ? state.count : nil
                }
            }.label
        }
        #expect(await wait(1) == "stalled")

        // Tracked work is running: the wait cannot stall until it has incremented and finished.
        let worker = TrackedTask(monitor: monitor, label: "the incrementer")
        let waiter = Task { await wait(1) }
        let ready = state.withLock { state in
            state.count = 1
            return state.waiters.satisfy { $0 <= 1 ? 1 : nil }
        }
        for resumption in ready { resumption.perform() }
        worker.finish()
        #expect(await waiter.value == "satisfied(1)")
    }
}

