import Lockstep

/// Records the calls of a test double, readable from the test without data races.
///
/// ```swift
/// final class MockCalendarService: CalendarService {
///     let loadShiftsCalls = CallRecorder<Date>()
///     func loadShifts(for day: Date) async throws -> [Shift] {
///         loadShiftsCalls.record(day)
///         return shifts
///     }
/// }
///
/// #expect(calendar.loadShiftsCalls.count == 1)
/// #expect(calendar.loadShiftsCalls.last == today)
/// ```
public final class CallRecorder<Arguments: Sendable>: Sendable {
    private let calls = Lock<[Arguments]>([])

    /// Creates a recorder with no calls.
    public init() {}

    /// Records one call with its arguments.
    public func record(_ arguments: Arguments) {
        calls.withLock { $0.append(arguments) }
    }

    /// The arguments of every call, in order.
    public var arguments: [Arguments] {
        calls.withLock { $0 }
    }

    /// The number of calls.
    public var count: Int {
        calls.withLock { $0.count }
    }

    /// The arguments of the last call.
    public var last: Arguments? {
        calls.withLock { $0.last }
    }
}

extension CallRecorder where Arguments == Void {
    /// Records one call of a function without arguments.
    public func record() {
        record(())
    }
}
