// The code of the article "Testing a single entry point with TestRunner"
// (Sources/LockstepTesting/Documentation.docc/TestingSingleEntryPoints.md), which quotes it, run
// as tests. `MyViewModel` is the view model of the article "Effect handlers"
// (EffectHandlersArticle.swift).
import LockstepTesting
import Testing

extension MyViewModel: WhenHandling {}

struct NoEffects: Error {}

@MainActor
@Test func userStoryWithEffects() async {
    await TestRunner<MyViewModel>.GIVEN {
        let vm = MyViewModel()
        // Disable effects during testing
        vm.effectHandler = { _ in throw NoEffects() }
        return vm
    }
    .WHEN(.systemShowsUserProfileView)
    .THEN(\.loading, is: true)
    .THEN(\.email, is: "")
    .WHEN(.networkFinishesLoadingProfile(.success(["email": "john@example.com"])))
    .THEN(\.email, is: "john@example.com")
    .THEN(\.loading, is: false)
    // ...
    .runTests()
}

// MARK: - A store as the subject

struct Counter: Equatable, Sendable {
    var count = 0
}

enum CounterAction: Equatable, Sendable {
    case increment
    case load
    case add(Int)
}

func counterReducer(_ state: inout Counter, _ action: CounterAction) {
    switch action {
    case .increment: state.count += 1
    case .add(let amount): state.count += amount
    case .load: break
    }
}

let loadMiddleware: PlainMiddleware<Counter, CounterAction> = { _, action, dispatch in
    guard action == .load else { return }
    await dispatch(.add(5))
}

@MainActor
@Test func counting() async {
    await TestRunner<Store<Counter, CounterAction>>.GIVEN {
        Store(state: Counter(), reducer: counterReducer, middlewares: [loadMiddleware])
    }
    .WHEN(.increment)
    .THEN(\.state.count, is: 1)
    .WHEN(.load) // its middleware dispatches .add(5)
    .THEN(\.state.count, is: 6)
    .runTests()
}

@MainActor
@Suite("The TestRunner article")
struct TestingSingleEntryPointsArticleTests {
    @Test("A scenario that fails at step 3 is reported as failing there")
    func failingScenario() async {
        let runner = TestRunner<MyViewModel>.GIVEN { MyViewModel(effectHandler: { _ in throw NoEffects() }) }
            .WHEN(.userTypesNewEmail(userEmail: "john@example.com"))
            .THEN(\.loading, is: false)
            .THEN(\.email, is: "jane@example.com")

        await withKnownIssue {
            await runner.runTests()
        } matching: { issue in
            issue.description.contains("step 3")
        }
    }
}
