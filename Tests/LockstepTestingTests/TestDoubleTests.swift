import IssueReporting
import LockstepTesting
import Testing

@Suite("Test doubles")
struct TestDoubleTests {
    @Test("post waits for a subscriber, and returns once the event was handled")
    func postWaitsForSubscriberAndHandling() async {
        let source = EventSource<Int>()
        let handled = CallRecorder<Int>()

        // Posted before anyone subscribes: delivered to the first subscriber.
        let poster = Task { await source.send(1) }
        let consumer = Task {
            for await value in source {
                handled.record(value)
                if value == 2 { return }
            }
        }
        await poster.value
        #expect(handled.arguments == [1])

        await source.send(2)
        await consumer.value
        #expect(handled.arguments == [1, 2])
    }

    @Test("post returns when the subscriber stops iterating")
    func postReturnsWhenSubscriberStops() async {
        let source = EventSource<Int>()
        let consumer = Task {
            for await _ in source {
                break
            }
        }
        await source.send(1)
        await consumer.value
        #expect(source.subscriberCount == 0)
    }

    @Test("finish ends every subscriber's iteration")
    func finishEndsIteration() async {
        let source = EventSource<Int>()
        let consumer = Task { () -> [Int] in
            var values: [Int] = []
            for await value in source { values.append(value) }
            return values
        }
        await source.send(7)
        source.finish()
        #expect(await consumer.value == [7])
    }

    @Test("A gate holds callers until opened, and counts arrivals")
    func gateHoldsCallers() async {
        let gate = Gate()
        let passed = CallRecorder<Int>()
        let callers = (1...3).map { n in
            Task {
                await gate.pass()
                passed.record(n)
            }
        }

        await gate.arrival(count: 3)
        #expect(passed.count == 0)
        #expect(gate.waitingCount == 3)

        gate.open()
        for caller in callers { await caller.value }
        #expect(Set(passed.arguments) == [1, 2, 3])

        await gate.pass()
        #expect(gate.arrivals == 4)
    }

    @Test("A cancelled caller leaves the gate")
    func cancelledCallerLeavesGate() async {
        let gate = Gate()
        let caller = Task {
            await gate.pass()
            return Task.isCancelled
        }
        await gate.arrival()
        caller.cancel()
        #expect(await caller.value == true)
        #expect(gate.waitingCount == 0)
    }

    @Test("isTesting is true under a test runner")
    func isTestingIsTrue() {
        #expect(isTesting)
    }
}
