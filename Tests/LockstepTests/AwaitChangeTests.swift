@testable import Lockstep
import Testing

// A wait that work does on its own state: answered at once, by a change, or by the queue's
// close, and never by its task's cancellation.

private struct Counter {
    var value = 0
    var waiters = WaiterQueue<Int, Int>()
    var enqueuedRuns = 0
}

/// Starts a wait for `counter.value >= target` and returns once the waiter is in the queue.
private func startWaiting(on counter: Lock<Counter>, for target: Int) async -> Task<WaitOutcome<Int>, Never> {
    let (enqueued, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
        await awaitChange(
            on: counter, \.waiters, for: target,
            immediate: { $0.value >= target ? $0.value : nil },
            enqueued: { counter in
                counter.enqueuedRuns += 1
                return { signal.yield() }
            })
    }
    for await _ in enqueued { break }
    return task
}

@Suite("awaitChange")
struct AwaitChangeTests {
    @Test("A wait that is satisfied already returns at once, without joining the queue")
    func aSatisfiedWaitReturnsAtOnce() async {
        let counter = Lock(Counter(value: 3))
        let outcome = await awaitChange(
            on: counter, \.waiters, for: 2,
            immediate: { $0.value >= 2 ? $0.value : nil },
            enqueued: { counter in
                counter.enqueuedRuns += 1
                return nil
            })
        guard case .satisfied(3) = outcome else {
            Issue.record("expected satisfied(3), got \(outcome)")
            return
        }
        #expect(counter.withLock { ($0.waiters.count, $0.enqueuedRuns) } == (0, 0))
    }

    @Test("A waiting task's cancellation leaves it waiting; the change it waits for resumes it")
    func cancellationDoesNotEndTheWait() async {
        let counter = Lock(Counter())
        let task = await startWaiting(on: counter, for: 2)
        #expect(counter.withLock { ($0.waiters.count, $0.enqueuedRuns) } == (1, 1))

        task.cancel()
        #expect(counter.withLock { $0.waiters.count } == 1)

        for waiter in counter.withLock({ counter in
            counter.value = 2
            return counter.waiters.satisfy { $0 <= 2 ? 2 : nil }
        }) {
            waiter.perform()
        }
        guard case .satisfied(2) = await task.value else {
            Issue.record("expected satisfied(2)")
            return
        }
    }

    @Test("Closing the queue ends a waiting task, and every later wait, with closed")
    func closeEndsTheWait() async {
        let counter = Lock(Counter())
        let task = await startWaiting(on: counter, for: 1)
        for waiter in counter.withLock({ $0.waiters.close() }) {
            waiter.perform()
        }
        guard case .closed = await task.value else {
            Issue.record("expected closed")
            return
        }
        let later = await awaitChange(on: counter, \.waiters, for: 1) { $0.value >= 1 ? $0.value : nil }
        guard case .closed = later else {
            Issue.record("expected closed for a later wait, got \(later)")
            return
        }
    }
}
