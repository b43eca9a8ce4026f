import CustomDump
import LockstepLogging
import LockstepTesting

extension TestStore where State: Codable & Equatable, Action: Codable {
    /// Replays a recorded session and checks that the reducer reproduces every recorded state.
    ///
    /// Make the test store with the app's reducer and no middleware or effects, starting from the
    /// log's `log.initialState`: the follow-up actions the side effects dispatched are in
    /// the log already. Each entry's action is sent in turn; the first state that differs from
    /// the recording fails the test with the step, the line, the action and the state's diff,
    /// and the replay stops there.
    ///
    /// ```swift
    /// import LockstepLoggingTesting
    ///
    /// let log = try ActionLog<AppState, AppAction>(contentsOf: sessionURL)
    /// let store = TestStore(state: log.initialState, reducer: appReducer)
    /// await store.replay(log)
    /// ```
    ///
    /// A log with a gap (recording paused, or entries dropped) is reported and not replayed:
    /// check it with `log.verify(reducer:)`, which starts again after each gap.
    public func replay(
        _ log: ActionLog<State, Action>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        if state != log.initialState {
            location.report("""
                The test store does not start from the log's initial state; make it with \
                `state: log.initialState`.
                \(diff(log.initialState, state) ?? "")
                """)
            return
        }
        if let gap = log.entries.first(where: { $0.stateBefore != nil }) {
            location.report("""
                The recording has a gap at line \(gap.line) (recording paused, or \(log.droppedCount) \
                action(s) dropped), so it cannot be replayed step by step. Check it with \
                `log.verify(reducer:)`.
                """)
            return
        }
        do {
            try await log.replay(into: store)
        } catch {
            location.report("\(error)")
        }
    }
}
