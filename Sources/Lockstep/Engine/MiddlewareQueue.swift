import Synchronization

/// The middlewares of one action not started yet, taken in order by whichever task of
/// ``SideEffectRun/runChained(isolation:)`` is free first.
///
/// An atomic counter rather than a lock: it is taken once per middleware on the hot path, and a
/// lock would cost three allocations per dispatch. Thread Sanitizer understands atomics.
@usableFromInline
final class MiddlewareQueue: Sendable {
    private let next = Atomic<Int>(0)
    private let count: Int

    @usableFromInline
    init(count: Int) {
        self.count = count
    }

    /// The index of the next middleware to start, or `nil` when all have started.
    @usableFromInline
    func take() -> Int? {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }
}
