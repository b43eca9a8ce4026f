import Clocks
import Lockstep
import LockstepQuery
import Testing

@Suite struct DelayerTests {
    @Test func noDelayReturns() async throws {
        try await OperationDelayer.noDelay.delay(for: .seconds(3600))
    }

    @Test func aCustomDelayerGetsEachPositiveDuration() async throws {
        let recorded = Lock<[Duration]>([])
        let delayer = OperationDelayer { duration in
            recorded.withLock { $0.append(duration) }
        }
        try await delayer.delay(for: .seconds(1))
        try await delayer.delay(for: .zero)
        try await delayer.delay(for: .seconds(-2))
        try await delayer.delay(for: .milliseconds(250))
        #expect(recorded.withLock { $0 } == [.seconds(1), .milliseconds(250)])
    }

    @Test func errorsFromTheBodyReachTheCaller() async {
        struct Interrupted: Error {}
        let delayer = OperationDelayer { _ in throw Interrupted() }
        await #expect(throws: Interrupted.self) {
            try await delayer.delay(for: .seconds(1))
        }
    }

    @Test func clockDelayerSleepsForTheDurationOnTheClock() async throws {
        let clock = TestClock()
        let start = clock.now
        let (watched, sleeps) = WatchedClock.make(clock)
        let task = Task { try await OperationDelayer.clock(watched).delay(for: .seconds(5)) }

        // The deadline is fixed before the clock hears about it.
        let deadline = try #require(await sleeps.first { _ in true })
        #expect(deadline == start.advanced(by: .seconds(5)))

        // TestClock keeps a sleeper whose deadline is not before `now` waiting, and returns at
        // once from one whose deadline has passed. Advancing past the deadline therefore wakes the
        // task whether or not its sleep has reached the clock yet.
        await clock.advance(by: .seconds(5) + .nanoseconds(1))
        try await task.value
    }

    @Test func clockDelayerThrowsCancellationErrorWhenCancelled() async throws {
        let clock = TestClock()
        let (watched, sleeps) = WatchedClock.make(clock)
        let task = Task { try await OperationDelayer.clock(watched).delay(for: .seconds(5)) }
        _ = await sleeps.first { _ in true }

        task.cancel()
        await #expect(throws: CancellationError.self) {
            try await task.value
        }
    }

    @Test func clockDelayerDoesNotTouchTheClockForZero() async throws {
        let clock = TestClock()
        let (watched, sleeps) = WatchedClock.make(clock)
        try await OperationDelayer.clock(watched).delay(for: .zero)
        try await OperationDelayer.clock(watched).delay(for: .seconds(-1))
        watched.sleeps.finish()
        #expect(await sleeps.first { _ in true } == nil)
    }
}

/// A clock that forwards to another, and tells a stream each deadline it is asked to sleep until,
/// just before it sleeps.
private struct WatchedClock<Base: Clock>: Clock where Base.Duration == Duration {
    typealias Instant = Base.Instant

    let base: Base
    let sleeps: AsyncStream<Base.Instant>.Continuation

    static func make(_ base: Base) -> (Self, AsyncStream<Base.Instant>) {
        let (stream, continuation) = AsyncStream<Base.Instant>.makeStream()
        return (Self(base: base, sleeps: continuation), stream)
    }

    var now: Base.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    // allowed: a Clock conformance forwarding to a TestClock, which wakes only when the test
    // advances it; nothing here waits on wall-clock time.
    func sleep(until deadline: Base.Instant, tolerance: Duration?) async throws {  // allowed: see above
        sleeps.yield(deadline)
        try await base.sleep(until: deadline, tolerance: tolerance)  // allowed: a TestClock
    }
}
