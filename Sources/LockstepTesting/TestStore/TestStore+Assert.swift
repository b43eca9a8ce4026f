import CustomDump
import IssueReporting
import Lockstep

extension TestStore {
    /// Asserts the store's current state, with no action: the closure sets what the state is
    /// expected to hold, and any difference is a failure, shown as a diff.
    ///
    /// ```swift
    /// store.assert {
    ///     $0.destination = nil
    ///     $0.isDeleted = true
    /// }
    /// ```
    ///
    /// For a check between steps, or after work that changed the state outside a `send` the test
    /// asserted (a binding written as a view would).
    ///
    /// - Parameters:
    ///   - updateStateToExpectedResult: Mutates a copy of the current state into the state
    ///     expected.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func assert(
        _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        checkOwningTest(calling: "assert", at: location)
        let actual = state
        let version = SharedVersions.now
        let expected: State
        let reading: SharedReading
        do {
            (expected, reading) = try expectation(from: actual, at: version, updateStateToExpectedResult)
        } catch {
            location.report("The assertion closure threw: \(error)")
            return
        }
        guard !matches(expected, reading, actual, at: version) else { return }
        let difference = self.difference(expected, reading, actual, at: version) ?? ""
        location.report("The state does not match the assertion:\n\n\(difference)")
    }

    /// Waits until every piece of work the store started has finished: the work of each `send`,
    /// and everything it started in turn.
    ///
    /// ```swift
    /// await store.send(.startTimer)
    /// clock.advance(by: .seconds(3))
    /// await store.receive(.tick) { $0.seconds = 1 }
    /// await store.finish()
    /// ```
    ///
    /// It never waits on a clock: it returns once no work is running, and fails at once, naming
    /// each piece of work and what it waits on, when work is still parked on a test double (a
    /// gate not opened, a clock not advanced) with nothing running that could release it. With
    /// ``exhaustivity`` `.on`, actions received and not asserted remain failures at the end of the
    /// test. Returns early when the calling task is cancelled.
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
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        checkOwningTest(calling: "finish()", at: location)
        await monitor.waitUntilQuiescent()
        guard !Task.isCancelled else { return }
        let unfinished = monitor.unfinishedTasks
        guard unfinished.isEmpty else {
            location.report("""
                Expected all of the store's work to finish, but some of it is parked on a test \
                double and nothing in flight can release it; in flight: \
                \(monitor.inFlight.joined(separator: "; ")). Release the double first (open the \
                gate, advance the clock, post the event), or cancel the task `send` returned.
                """)
            return
        }
        for task in ledger.sendTasks {
            await task.value
        }
    }

    /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then sets it back: a part of
    /// a test that checks only what it is about.
    ///
    /// ```swift
    /// await store.withExhaustivity(.off(showSkippedAssertions: true)) {
    ///     await store.send(.path(.push(.meeting(MeetingState()))))
    ///     await store.receive(\.path.popFrom)
    /// }
    /// ```
    ///
    /// With `.off(showSkippedAssertions: true)`, every state change an assertion did not set and
    /// every received action skipped is listed as a known issue (shown in the test's report,
    /// without failing it), so the test can be made exhaustive later.
    ///
    /// - Parameters:
    ///   - exhaustivity: How strictly to check the steps of `operation`.
    ///   - operation: The steps.
    /// - Returns: What `operation` returns.
    public func withExhaustivity<Result>(
        _ exhaustivity: Exhaustivity,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        let saved = self.exhaustivity
        self.exhaustivity = exhaustivity
        defer { self.exhaustivity = saved }
        return try await operation()
    }

    /// Lists skipped received actions as a known issue, when the exhaustivity asks for it.
    func showSkipped(_ headline: String, _ actions: [Action], at location: SourceLocation) {
        guard exhaustivity.showsSkippedAssertions else { return }
        let list = actions.map { "  " + describe($0) }.joined(separator: "\n")
        showSkipped("\(headline):\n\n\(list)", at: location)
    }

    /// Lists the state changes of `reduction` that a non-exhaustive assertion passed over.
    func showSkippedStateChanges(
        of reduction: ObservedReduction,
        _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
        at location: SourceLocation
    ) {
        guard
            let (exhaustive, reading) = try? expectation(
                from: reduction.before, at: reduction.beforeVersion, updateStateToExpectedResult ?? { _ in }),
            !matches(exhaustive, reading, reduction.after, at: reduction.afterVersion),
            let difference = difference(exhaustive, reading, reduction.after, at: reduction.afterVersion)
        else { return }
        showSkipped("State changes of \(describe(reduction.action)) were not asserted:\n\n\(difference)", at: location)
    }

    private func showSkipped(_ message: String, at location: SourceLocation) {
        skippedAssertionsShown.append(message)
        withExpectedIssue(
            "Skipped assertions", fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column
        ) {
            location.report(message)
        }
    }
}
