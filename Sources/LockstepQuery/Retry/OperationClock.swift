import Lockstep

/// A clock reduced to what the query layer needs: the time since the client was made, and sleep.
struct OperationClock: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void
    /// Whether sleeping on the clock parks a test's tracked task (a test toolkit's clock does).
    let parksSleepers: Bool

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
        parksSleepers = clock is any ParkingClock
    }
}
