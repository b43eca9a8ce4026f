@testable import LockstepFixtures
import LockstepTesting
import Testing

/// Seed 002's `TestRunner`: GIVEN a subject, WHEN events, THEN key paths.
@MainActor
@Suite("TestRunner")
struct TestRunnerTests {
    // MARK: - Fixtures

    /// The seed's `throw "No effects during unit tests"`, with an error type instead of a
    /// retroactive `String: Error` conformance.
    struct NoEffects: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    struct Counter: Equatable, Sendable {
        var count = 0
        var history: [Int] = []
    }

    enum CounterAction: Equatable, Sendable {
        case increment
        case add(Int)
        /// Its middleware dispatches `.add(5)`.
        case load
    }

    typealias CounterStore = Store<Counter, CounterAction>

    nonisolated static func counterReducer(_ state: Counter, _ action: CounterAction) -> Counter {
        var state = state
        switch action {
        case .increment:
            state.count += 1
        case .add(let amount):
            state.count += amount
        case .load:
            return state
        }
        state.history.append(state.count)
        return state
    }

    /// A subject that is neither `@MainActor` nor `Sendable`, with a `handle` that throws.
    final class Turnstile: WhenHandling {
        enum When: Equatable, Sendable {
            case coin
            case push
            case kick
        }

        struct Jammed: Error, CustomStringConvertible {
            var description: String { "the turnstile is jammed" }
        }

        var locked = true
        var passed = 0

        func handle(_ when: When) throws {
            switch when {
            case .coin:
                locked = false
            case .push:
                if !locked {
                    passed += 1
                    locked = true
                }
            case .kick:
                throw Jammed()
            }
        }
    }

    /// Runs `runner` inside `withKnownIssue`, and returns the issues it reported.
    private func reportedIssues<Subject>(_ runner: TestRunner<Subject>) async -> [Issue] {
        let issues = Lock<[Issue]>([])
        await withKnownIssue {
            await runner.runTests()
        } matching: { issue in
            issues.withLock { $0.append(issue) }
            return true
        }
        return issues.withLock { $0 }
    }

    // MARK: - Passing runs

    @Test("Seed 002's testUserStoryWithEffects, as written in the seed")
    func testUserStoryWithEffects() async {
        await TestRunner<MyViewModel>.GIVEN {
            let vm = MyViewModel()
            // Disable effects during testing
            vm.effectHandler = { _ in throw NoEffects("No effects during unit tests") }
            return vm
        }
        .WHEN(.systemShowsUserProfileView)
        .THEN(\.loading, is: true)
        .THEN(\.email, is: "")
        .WHEN(.networkFinishesLoadingProfile(.success(["email": "john@example.com"])))
        .THEN(\.email, is: "john@example.com")
        .THEN(\.loading, is: false)
        .WHEN(.userTypesNewEmail(userEmail: "john.dohe@example.com"))
        .THEN(\.email, is: "john.dohe@example.com")
        .WHEN(.userTapsChangeEmailButton)
        .THEN(\.loading, is: true)
        .THEN(\.email, is: "john.dohe@example.com")
        .WHEN(.networkFinishesSavingProfile(.success(["email": "john.dohe@example.com"])))
        .THEN(\.email, is: "john.dohe@example.com")
        .THEN(\.loading, is: false)
        .runTests()
    }

    @Test("A store is a subject: WHEN dispatches, THEN reads the state through the store")
    func storeRunner() async {
        await TestRunner<CounterStore>.GIVEN {
            Store(state: Counter(), reducer: Self.counterReducer)
        }
        .THEN(\.state.count, is: 0)
        .WHEN(.increment)
        .THEN(\.state.count, is: 1)
        .WHEN(.add(2))
        .THEN(\.state.count, is: 3)
        .THEN(\.state.history, is: [1, 3])
        .THEN(\.state, is: Counter(count: 3, history: [1, 3]))
        .runTests()
    }

    @Test("A WHEN on a store awaits the dispatch's side effects before the next THEN")
    func storeWhenAwaitsSideEffects() async {
        await TestRunner<CounterStore>.GIVEN {
            Store(
                state: Counter(),
                reducer: Self.counterReducer,
                middlewares: [
                    { _, action, dispatch in
                        if action == .load {
                            await dispatch(.add(5))
                        }
                    },
                ]
            )
        }
        .WHEN(.load)
        .THEN(\.state.count, is: 5)
        .WHEN(.load)
        .THEN(\.state.history, is: [5, 10])
        .runTests()
    }

    @Test("A subject that is neither @MainActor nor Sendable runs too")
    func nonisolatedSubject() async {
        await TestRunner<Turnstile>.GIVEN { Turnstile() }
            .WHEN(.push)
            .THEN(\.passed, is: 0)
            .WHEN(.coin)
            .THEN(\.locked, is: false)
            .WHEN(.push)
            .THEN(\.passed, is: 1)
            .THEN(\.locked, is: true)
            .runTests()
    }

    @Test("Each run builds a fresh subject with GIVEN")
    func eachRunBuildsAFreshSubject() async {
        let runner = TestRunner<CounterStore>.GIVEN {
            Store(state: Counter(), reducer: Self.counterReducer)
        }
        .WHEN(.increment)
        .THEN(\.state.count, is: 1)

        await runner.runTests()
        await runner.runTests()
    }

    // MARK: - Failing THENs

    @Test("A failing THEN names its step, the WHEN it follows, the key path and both values")
    func failingThenIsReported() async throws {
        let thenLine = #line + 4
        let runner = TestRunner<CounterStore>.GIVEN { Store(state: Counter(), reducer: Self.counterReducer) }
            .WHEN(.increment)
            .THEN(\.state.count, is: 1)
            .THEN(\.state.count, is: 9)
            .WHEN(.increment)

        let issues = await reportedIssues(runner)

        let issue = try #require(issues.count == 1 ? issues.first : nil)
        let message = issue.description
        #expect(message.contains("THEN failed at step 3"))
        #expect(message.contains("after WHEN #1 TestRunnerTests.CounterAction.increment"))
        #expect(message.contains(#"\Store<Counter, CounterAction>.<computed (Counter)>.count"#))
        #expect(message.contains("expected: 9"))
        #expect(message.contains("actual: 1"))
        #expect(issue.sourceLocation?.fileID == #fileID)
        #expect(issue.sourceLocation?.line == thenLine)
    }

    @Test("A failing THEN does not stop the run: every wrong value is reported")
    func failingThensAreAllReported() async {
        let runner = TestRunner<MyViewModel>.GIVEN { MyViewModel(effectHandler: { _ in throw NoEffects("none") }) }
            .THEN(\.email, is: "someone@example.com")
            .WHEN(.userTypesNewEmail(userEmail: "john@example.com"))
            .THEN(\.email, is: "jane@example.com")
            .THEN(\.loading, is: false)
            .WHEN(.systemShowsUserProfileView)
            .THEN(\.loading, is: false)

        let messages = await reportedIssues(runner).map(\.description)

        #expect(messages.count == 3)
        #expect(messages.count == 3 && messages[0].contains("THEN failed at step 1 (before any WHEN)"))
        #expect(messages.count == 3 && messages[0].contains(#"expected: "someone@example.com""#))
        #expect(messages.count == 3 && messages[0].contains(#"actual: """#))
        #expect(messages.count == 3 && messages[1].contains("THEN failed at step 3 (after WHEN #1"))
        #expect(messages.count == 3 && messages[1].contains(#"userTypesNewEmail(userEmail: "john@example.com")"#))
        #expect(messages.count == 3 && messages[1].contains(#"\MyViewModel.<computed (String)>"#))
        #expect(messages.count == 3 && messages[1].contains(#"actual: "john@example.com""#))
        #expect(messages.count == 3 && messages[2].contains("THEN failed at step 6 (after WHEN #2"))
        #expect(messages.count == 3 && messages[2].contains("expected: false"))
        #expect(messages.count == 3 && messages[2].contains("actual: true"))
    }

    @Test("A failing THEN names the WHEN it follows on one line")
    func failingThenNamesItsWhenOnOneLine() async {
        let runner = TestRunner<MyViewModel>.GIVEN { MyViewModel(effectHandler: { _ in throw NoEffects("none") }) }
            .WHEN(.systemShowsUserProfileView)
            .WHEN(.networkFinishesLoadingProfile(.success(["email": "john@example.com"])))
            .THEN(\.loading, is: true)

        let messages = await reportedIssues(runner).map(\.description)

        #expect(messages.count == 1)
        #expect(messages.first?.contains(
            #"THEN failed at step 3 (after WHEN #2 MyViewModel.When.networkFinishesLoadingProfile(.success(["email": "john@example.com"]))): \MyViewModel.<computed (Bool)>"#
        ) == true)
    }

    @Test("A failing THEN on a multi-line value shows a diff")
    func failingThenShowsADiff() async {
        let runner = TestRunner<CounterStore>.GIVEN { Store(state: Counter(), reducer: Self.counterReducer) }
            .WHEN(.add(2))
            .THEN(\.state, is: Counter(count: 3, history: [3]))

        let messages = await reportedIssues(runner).map(\.description)

        #expect(messages.count == 1)
        #expect(messages.first?.contains("diff (- expected, + actual):") == true)
        #expect(messages.first?.contains("-   count: 3,") == true)
        #expect(messages.first?.contains("+   count: 2,") == true)
    }

    @Test("A failing THEN names a stored property by its name, without reading any source file")
    func failingThenNamesAStoredProperty() async {
        let runner = TestRunner<Turnstile>.GIVEN { Turnstile() }
            .WHEN(.coin)
            .THEN(\.locked, is: true)

        let messages = await reportedIssues(runner).map(\.description)

        #expect(messages.count == 1)
        #expect(messages.first?.contains(#"(after WHEN #1 TestRunnerTests.Turnstile.When.coin): \Turnstile.locked"#) == true)
        #expect(messages.first?.contains("expected: true") == true)
    }

    // MARK: - Thrown errors

    @Test("An error thrown by handle names the WHEN, its step and the event, and stops the run")
    func thrownErrorIsReportedAndStopsTheRun() async throws {
        let whenLine = #line + 4
        let runner = TestRunner<Turnstile>.GIVEN { Turnstile() }
            .WHEN(.coin)
            .THEN(\.locked, is: false)
            .WHEN(.kick)
            // Would fail if the run went on.
            .THEN(\.locked, is: true)
            .WHEN(.push)
            .THEN(\.passed, is: 7)

        let issues = await reportedIssues(runner)

        let issue = try #require(issues.count == 1 ? issues.first : nil)
        let message = issue.description
        #expect(message.contains("WHEN #2 (step 3) threw Jammed: the turnstile is jammed"))
        #expect(message.contains("Event: TestRunnerTests.Turnstile.When.kick"))
        #expect(message.contains("3 later steps were not run"))
        #expect(issue.sourceLocation?.line == whenLine)
    }

    @Test("Seed 002's completion arriving while not loading is reported as InvalidStateError at its step")
    func invalidStateErrorIsReportedAtItsStep() async throws {
        let runner = TestRunner<MyViewModel>.GIVEN { MyViewModel(effectHandler: { _ in throw NoEffects("none") }) }
            .WHEN(.userTypesNewEmail(userEmail: "kept@example.com"))
            .THEN(\.email, is: "kept@example.com")
            .WHEN(.networkFinishesSavingProfile(.success(["email": "late@example.com"])))
            .THEN(\.email, is: "late@example.com")

        let issues = await reportedIssues(runner)

        let message = try #require(issues.count == 1 ? issues.first?.description : nil)
        #expect(message.contains("WHEN #2 (step 3) threw InvalidStateError"))
        #expect(message.contains("loading == false"))
        #expect(message.contains("networkFinishesSavingProfile"))
        #expect(message.contains("late@example.com"))
        #expect(message.contains("1 later step was not run"))
    }

    @Test("An error thrown by GIVEN is reported and no step runs")
    func thrownGivenIsReported() async throws {
        let givenLine = #line + 1
        let runner = TestRunner<Turnstile>.GIVEN { () throws -> Turnstile in throw Turnstile.Jammed() }
            .WHEN(.coin)
            .THEN(\.passed, is: 7)

        let issues = await reportedIssues(runner)

        let issue = try #require(issues.count == 1 ? issues.first : nil)
        #expect(issue.description.contains("GIVEN threw Jammed: the turnstile is jammed; none of the 2 steps ran."))
        #expect(issue.sourceLocation?.line == givenLine)
    }

    @Test("A scenario with no steps is reported where runTests is called")
    func emptyScenarioIsReported() async throws {
        let runner = TestRunner<Turnstile>.GIVEN { Turnstile() }

        let issues = await reportedIssues(runner)

        let issue = try #require(issues.count == 1 ? issues.first : nil)
        #expect(issue.description.contains("TestRunner has no WHEN or THEN step"))
    }
}
