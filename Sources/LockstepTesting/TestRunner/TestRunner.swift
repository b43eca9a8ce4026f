import CustomDump
import IssueReporting

/// A GIVEN / WHEN / THEN scenario for a type with a single entry point (a ``WhenHandling``
/// type).
///
/// ``GIVEN(fileID:filePath:line:column:_:)`` builds the subject, each
/// ``WHEN(_:fileID:filePath:line:column:)`` sends it an event through
/// ``WhenHandling/handle(_:)``, and each ``THEN(_:is:fileID:filePath:line:column:)`` checks a value
/// of it. The chain only records the steps; ``runTests(fileID:filePath:line:column:)`` runs them
/// in order:
///
/// ```swift
/// @MainActor
/// @Test func userStoryWithEffects() async {
///     await TestRunner<MyViewModel>.GIVEN {
///         let vm = MyViewModel()
///         vm.effectHandler = { _ in throw NoEffects() }
///         return vm
///     }
///     .WHEN(.systemShowsUserProfileView)
///     .THEN(\.loading, is: true)
///     .WHEN(.networkFinishesLoadingProfile(.success(["email": "john@example.com"])))
///     .THEN(\.email, is: "john@example.com")
///     .THEN(\.loading, is: false)
///     .runTests()
/// }
/// ```
///
/// A `Store` is a subject too; its THENs read the state through the store:
///
/// ```swift
/// await TestRunner<Store<Counter, CounterAction>>.GIVEN {
///     Store(state: Counter(), reducer: counterReducer)
/// }
/// .WHEN(.add(3))
/// .THEN(\.state.count, is: 3)
/// .runTests()
/// ```
///
/// ## Failures
///
/// Failures are reported through IssueReporting, so they fail the running Swift Testing or
/// XCTest test, each attributed to the line of the step that failed:
///
/// - A THEN whose value differs reports its step number (counting every WHEN and THEN from 1),
///   the WHEN it follows, its key path, and the expected and actual values. The run goes on, so
///   every wrong value of the scenario is reported.
/// - A WHEN whose `handle(_:)` throws reports its step number, the event and the error, such as
///   `InvalidStateError` for a completion that arrives in a state that does not expect it. The
///   run stops there: the later steps describe a state the subject never reached, and would only
///   report noise.
/// - A GIVEN that throws is reported, and no step runs.
///
/// ## Isolation
///
/// The runner is `@MainActor`, like the view models and stores it drives: build and run it in a
/// `@MainActor` test. The subject never leaves the main actor, so it need not be `Sendable`.
@MainActor
public struct TestRunner<Subject: WhenHandling> {
    private let given: @MainActor () async throws -> Subject
    private let givenLocation: SourceLocation
    private var steps: [Step] = []

    private init(given: @escaping @MainActor () async throws -> Subject, location: SourceLocation) {
        self.given = given
        self.givenLocation = location
    }

    /// Starts a scenario whose subject `build` creates.
    ///
    /// `build` runs when ``runTests(fileID:filePath:line:column:)`` is called, once per run. It
    /// may throw; the error is reported and no step runs.
    ///
    /// ```swift
    /// TestRunner<MyViewModel>.GIVEN {
    ///     let vm = MyViewModel()
    ///     vm.effectHandler = { _ in throw NoEffects() }
    ///     return vm
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file an error of `build` is attributed to; defaults to the caller's.
    ///   - filePath: The file path an error of `build` is attributed to; defaults to the caller's.
    ///   - line: The line an error of `build` is attributed to; defaults to the caller's.
    ///   - column: The column an error of `build` is attributed to; defaults to the caller's.
    ///   - build: Creates the subject in its initial state.
    /// - Returns: A runner with no steps yet.
    public static func GIVEN(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ build: @escaping @MainActor () async throws -> Subject
    ) -> TestRunner {
        TestRunner(
            given: build,
            location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Adds a step that sends `when` to the subject and awaits its `handle(_:)`.
    ///
    /// ```swift
    /// .WHEN(.userTypesNewEmail(userEmail: "john@example.com"))
    /// ```
    ///
    /// - Parameters:
    ///   - when: The event.
    ///   - fileID: The file an error thrown for the event is attributed to; defaults to the
    ///     caller's.
    ///   - filePath: The file path an error is attributed to; defaults to the caller's.
    ///   - line: The line an error is attributed to; defaults to the caller's.
    ///   - column: The column an error is attributed to; defaults to the caller's.
    /// - Returns: The runner with the step added.
    public func WHEN(
        _ when: Subject.When,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestRunner {
        adding(.when(when), at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Adds a step that checks that the value at `keyPath` of the subject equals `expected`.
    ///
    /// ```swift
    /// .THEN(\.loading, is: true)
    /// .THEN(\.state.count, is: 3) // on a Store
    /// ```
    ///
    /// A failure reports the step number, the WHEN it follows, the key path, and both values;
    /// the run goes on with the next step.
    ///
    /// - Parameters:
    ///   - keyPath: The value to check, from the subject.
    ///   - expected: The value it should have.
    ///   - fileID: The file a failure is attributed to; defaults to the caller's.
    ///   - filePath: The file path a failure is attributed to; defaults to the caller's.
    ///   - line: The line a failure is attributed to; defaults to the caller's.
    ///   - column: The column a failure is attributed to; defaults to the caller's.
    /// - Returns: The runner with the step added.
    public func THEN<Value: Equatable>(
        _ keyPath: KeyPath<Subject, Value>,
        is expected: Value,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestRunner {
        let check: @MainActor (Subject) -> Mismatch? = { subject in
            let actual = subject[keyPath: keyPath]
            guard actual != expected else { return nil }
            return Mismatch(keyPath: Self.name(of: keyPath), expected: expected, actual: actual)
        }
        return adding(.then(check), at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// This runner with one more step.
    private func adding(_ kind: Step.Kind, at location: SourceLocation) -> TestRunner {
        var runner = self
        runner.steps.append(Step(kind: kind, location: location))
        return runner
    }

    /// Builds the subject with the GIVEN closure and runs the steps in order, reporting every
    /// failure as an issue.
    ///
    /// Each WHEN is awaited before the next step runs, so a THEN sees everything the event did,
    /// including the side effects of a `Store` dispatch. A THEN that fails is reported and the
    /// run goes on; a WHEN or GIVEN that throws is reported and the run stops.
    ///
    /// ```swift
    /// await TestRunner<MyViewModel>.GIVEN { MyViewModel() }
    ///     .WHEN(.systemShowsUserProfileView)
    ///     .THEN(\.loading, is: true)
    ///     .runTests()
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file a scenario with no steps is reported at; defaults to the caller's.
    ///   - filePath: The file path a scenario with no steps is reported at; defaults to the
    ///     caller's.
    ///   - line: The line a scenario with no steps is reported at; defaults to the caller's.
    ///   - column: The column a scenario with no steps is reported at; defaults to the caller's.
    public func runTests(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        guard !steps.isEmpty else {
            reportIssue(
                "TestRunner has no WHEN or THEN step: the scenario checks nothing.",
                fileID: fileID,
                filePath: filePath,
                line: line,
                column: column
            )
            return
        }

        let subject: Subject
        do {
            subject = try await given()
        } catch {
            givenLocation.report(
                "GIVEN threw \(Self.describe(error)); none of the \(steps.count) steps ran."
            )
            return
        }

        var whenCount = 0
        var lastWhen: Subject.When?
        for (index, step) in steps.enumerated() {
            let number = index + 1
            switch step.kind {
            case .when(let when):
                whenCount += 1
                do {
                    try await subject.handle(when)
                } catch {
                    let remaining = steps.count - number
                    step.location.report(
                        """
                        WHEN #\(whenCount) (step \(number)) threw \(Self.describe(error))
                        Event: \(String(customDumping: when))
                        The run stops here; \(remaining) later step\(remaining == 1 ? " was" : "s were") \
                        not run.
                        """
                    )
                    return
                }
                lastWhen = when
            case .then(let check):
                guard let mismatch = check(subject) else { continue }
                let after = lastWhen.map { "after WHEN #\(whenCount) \(Self.oneLineDump($0))" }
                step.location.report(
                    """
                    THEN failed at step \(number) (\(after ?? "before any WHEN")): \(mismatch.keyPath)
                    \(mismatch.description)
                    """
                )
            }
        }
    }
}

extension TestRunner {
    /// A readable name for `keyPath`, such as `\Turnstile.locked`.
    ///
    /// A key path describes itself by its stored properties' names, but a computed property
    /// (every property of an `@Observable` class, and `Store.state`) only by its value's type, as
    /// `\MyViewModel.<computed (String)>`: the failure is reported at the THEN's line, which
    /// shows the key path as written. The runner never reads source files.
    nonisolated static func name(of keyPath: AnyKeyPath) -> String {
        var description = "\(keyPath)"
        // `<computed 0x0000… (String)>`: the getter's address changes from run to run.
        while let start = description.firstRange(of: "<computed 0x"),
              let space = description[start.upperBound...].firstIndex(of: " ") {
            description.replaceSubrange(start.lowerBound..<space, with: "<computed")
        }
        return description
    }

    private struct Step {
        enum Kind {
            case when(Subject.When)
            case then(@MainActor (Subject) -> Mismatch?)
        }

        let kind: Kind
        let location: SourceLocation
    }

    private struct Mismatch {
        let keyPath: String
        let description: String

        init<Value>(keyPath: String, expected: Value, actual: Value) {
            self.keyPath = keyPath
            let expectedDump = String(customDumping: expected)
            let actualDump = String(customDumping: actual)
            var description = """
                  expected: \(expectedDump)
                    actual: \(actualDump)
                """
            // A one-line value reads best side by side; a multi-line one needs the diff to show
            // where it differs.
            if expectedDump.contains("\n") || actualDump.contains("\n"),
               let diff = diff(expected, actual, format: .default) {
                description += "\n  diff (- expected, + actual):\n" + diff
            }
            self.description = description
        }
    }
}

extension TestRunner {
    /// The error's type and description, such as `InvalidStateError: … arrived in a state that
    /// does not expect it`.
    nonisolated private static func describe(_ error: any Error) -> String {
        "\(type(of: error)): \(error)"
    }

    /// `value`'s custom dump on one line, for a step's heading: `When.load(.success(["id": 1]))`.
    nonisolated private static func oneLineDump(_ value: some Any) -> String {
        var result = ""
        for line in String(customDumping: value).split(separator: "\n") {
            if result.last == "," {
                result += " "
            }
            result += line.drop { $0 == " " }
        }
        return result
    }
}
