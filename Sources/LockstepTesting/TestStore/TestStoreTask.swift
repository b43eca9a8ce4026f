import Lockstep

/// The work an action sent to a ``TestStore`` started, when part of it is parked on a test
/// double as `send` returns. ``TestStore/send(_:assert:fileID:filePath:line:column:)`` returns it.
///
/// ```swift
/// let load = await store.send(.load) { $0.isLoading = true }   // parked on the Gate
/// #expect(!load.isFinished)
/// server.open()
/// await load.finish()
/// ```
public struct TestStoreTask: Sendable {
    let task: Task<Void, Never>
    let trackedTask: TrackedTask
    let monitor: WorkMonitor
    let label: String

    /// Whether all the work has finished.
    public var isFinished: Bool {
        trackedTask.phase == .finished
    }

    /// Cancels the work and returns once it has ended.
    public func cancel() async {
        task.cancel()
        await task.value
    }

    /// Waits until the work has finished, for example after the test opened the gate it was
    /// parked on. Fails at once, rather than waiting forever, when the work stays parked with
    /// nothing running that could release it, naming what each piece of work is parked on.
    /// Returns early when the calling task is cancelled.
    ///
    /// ```swift
    /// let load = await store.send(.load) { $0.isLoading = true }
    /// server.open()
    /// await load.finish()
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func finish(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await monitor.waitUntilQuiescent()
        guard !Task.isCancelled else { return }
        guard isFinished else {
            let why = monitor.workAtRest.waitsOnUnseen
                ? "it waits on something the toolkit cannot see"
                : "it is parked on a test double"
            SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column).report("""
                Expected the work started by \(label) to finish, but \(why) and nothing in flight \
                can release it; in flight: \(monitor.inFlightAtRest). Release what it waits on \
                first (open the gate, advance the clock, post the event), or cancel the task.
                """)
            return
        }
        await task.value
    }
}
