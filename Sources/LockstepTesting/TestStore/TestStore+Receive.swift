import CustomDump
import IssueReporting
import Lockstep

extension TestStore {
    /// Asserts that the side effects dispatched `expectedAction` next, and the state right
    /// after its reducer.
    ///
    /// - Parameters:
    ///   - expectedAction: The action expected next.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive(
        _ expectedAction: Action,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        await receive(
            expecting: describe(expectedAction),
            matching: { $0 == expectedAction },
            mismatch: { actual in
                "Received an unexpected action:\(describeDifference(expected: expectedAction, received: actual))"
            },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the side effects dispatched an action of the case that `extract` finds
    /// next, and the state right after its reducer. For actions that are not `Equatable`:
    ///
    /// ```swift
    /// await store.receive(\AppAction.today) { $0.today.isLoading = false }
    /// ```
    ///
    /// - Parameters:
    ///   - extract: Returns the payload of the expected case, or `nil` for other actions.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value>(
        _ extract: (Action) -> Value?,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action of the expected case",
            matching: { extract($0) != nil },
            mismatch: { "Received an action of another case than expected:\n\n\(describe($0).indent(by: 2))" },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the side effects dispatched an action that `isMatching` accepts next, and the
    /// state right after its reducer.
    ///
    /// For an action whose payload the test cannot or need not spell out:
    ///
    /// ```swift
    /// await store.receive(where: { action in
    ///     if case .search(.searchFinished(query: "du", _)) = action { true } else { false }
    /// }) {
    ///     $0.search.isSearching = false
    ///     $0.search.results = ["Dune", "Dune Messiah"]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isMatching: Returns whether an action is the one expected.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive(
        where isMatching: (Action) -> Bool,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action matching the predicate",
            matching: isMatching,
            mismatch: { "Received an action the predicate rejects:\n\n\(describe($0).indent(by: 2))" },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the next received action is one `isMatching` accepts, and the state after
    /// its reducer: the receive of every form, LockstepCasePathsTesting's included.
    package func receive(
        expecting expectation: String,
        matching isMatching: (Action) -> Bool,
        mismatch: (Action) -> String,
        _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
        at location: SourceLocation
    ) async {
        checkOwningTest(calling: "receive(\(expectation))", at: location)
        // Actions are dispatched by work in flight: let it all run first.
        await monitor.waitUntilQuiescent()
        if !isExhaustive {
            var skipped: [Action] = []
            while let first = received.first, !isMatching(first.action) {
                skipped.append(received.removeFirst().action)
            }
            if !skipped.isEmpty {
                showSkipped("\(skipped.count) received action(s) were skipped", skipped, at: location)
            }
        }
        guard !received.isEmpty else {
            location.report("""
                Expected to receive \(expectation), but no action was received, and nothing in \
                flight can send one\(parkedSummary()).
                """)
            return
        }
        let reduction = received.removeFirst()
        ledger.received = received.map { describe($0.action) }
        guard isMatching(reduction.action) else {
            location.report(mismatch(reduction.action))
            return
        }
        check(reduction, updateStateToExpectedResult, at: location)
    }
}
