/// Waits for a duration, such as the backoff before a retry.
///
/// Operations wait through a delayer rather than sleeping themselves, so tests can swap in
/// ``noDelay`` or a clock they control:
///
/// ```swift
/// let clock = TestClock()
/// let delayer = OperationDelayer.clock(clock)
/// ```
public struct OperationDelayer: Sendable {
    private let body: @Sendable (Duration) async throws -> Void

    /// Creates a delayer that waits by calling `delay`.
    ///
    /// - Parameter delay: Waits for the duration it's given, which is always more than `.zero`,
    ///   and throws if the wait is cut short, such as `CancellationError` when the task is
    ///   cancelled.
    public init(_ delay: @escaping @Sendable (Duration) async throws -> Void) {
        self.body = delay
    }

    /// Waits for `duration`.
    ///
    /// A zero or negative duration returns at once, without calling the delayer's closure.
    ///
    /// - Throws: Whatever the delayer's closure throws, such as `CancellationError`.
    public func delay(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await body(duration)
    }

    /// A delayer that never waits.
    public static var noDelay: Self {
        Self { _ in }
    }

    /// A delayer that sleeps on `clock`, and throws `CancellationError` if the task is cancelled
    /// while it sleeps.
    public static func clock<C: Clock>(_ clock: C) -> Self where C.Duration == Duration {
        Self { duration in
            try await clock.sleep(for: duration)
        }
    }
}
