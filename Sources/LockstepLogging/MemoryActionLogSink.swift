import Foundation
import Lockstep

/// A sink that keeps the lines in memory, for tests.
///
/// ```swift
/// let sink = MemoryActionLogSink()
/// let recorder = ActionRecorder<Tally, TallyAction>(sink: sink, appVersion: "1.0")
/// let store = Store(state: Tally(), reducer: tallyReducer, observers: [recorder.observer])
/// await store.dispatch(.add(1))
/// await recorder.flush()
/// let log = try ActionLog<Tally, TallyAction>(data: sink.data, expectedAppVersion: "1.0")
/// #expect(log.entries.map(\.action) == [.add(1)])
/// ```
public final class MemoryActionLogSink: ActionLogSink {
    private let storage = Lock(Data())

    /// Creates an empty sink.
    public init() {}

    /// Everything written so far.
    public var data: Data {
        storage.withLock { $0 }
    }

    public func write(_ data: Data) async throws {
        storage.withLock { $0.append(data) }
    }
}
