/// What a call of a throttle does (see ``Dispatcher/throttle(id:for:clock:latest:operation:)``).
enum ThrottleDecision<Instant: Sendable>: Sendable {
    /// Run now: no run within the interval before. Recorded as the last run.
    case runNow
    /// Wait until `deadline`, the end of the interval, then run if still kept (`token`).
    case runAt(deadline: Instant, token: UInt64)
    /// Return at once without running: a call is kept for the end of the interval already.
    case drop
}
