import Lockstep
import LockstepTesting
import Testing

// A parent that switches its enum state to another case in answer to an action of the case (a
// login that succeeds switches the app to its next screen), with the case's reducer and
// middleware lifted apart.

private struct LoginForm: Equatable, Sendable {
    var isInFlight = false
}

private enum LoginFormAction: Equatable, Sendable {
    case submit
    case response(succeeded: Bool)
}

private enum Flow: Equatable, Sendable {
    case login(LoginForm)
    case home

    var login: LoginForm? {
        if case .login(let form) = self { form } else { nil }
    }
}

private enum FlowAction: Equatable, Sendable {
    case login(LoginFormAction)
    case logout

    var login: LoginFormAction? {
        if case .login(let action) = self { action } else { nil }
    }
}

private let loginFormReducer: InPlaceReducer<LoginForm, LoginFormAction> = { state, action in
    switch action {
    case .submit: state.isInFlight = true
    case .response: state.isInFlight = false
    }
}

/// The case's reducer first, then the parent's, which leaves the case on a success.
private let flowReducer: InPlaceReducer<Flow, FlowAction> = combineReducers(
    scopeReducer(loginFormReducer, case: { $0.login }, embed: Flow.login, action: { $0.login }),
    { state, action in
        switch action {
        case .login(.response(succeeded: true)): state = .home
        case .login: break
        case .logout: state = .login(LoginForm())
        }
    }
)

private func loginMiddleware(calls: CallRecorder<LoginFormAction>) -> PlainMiddleware<LoginForm, LoginFormAction> {
    { _, action, dispatch in
        calls.record(action)
        guard action == .submit else { return }
        await dispatch(.response(succeeded: true))
    }
}

@MainActor
@Suite("A case lift whose parent switches away in the same step")
struct CaseSwitchSideEffectsTests {
    @Test("the action the case's reducer handled before the parent switched is not reported")
    func switchAfterTheCasesReducerIsNotReported() async {
        let calls = CallRecorder<LoginFormAction>()
        let store = TestStore(state: Flow.login(LoginForm()), reducer: flowReducer) {
            scopeMiddleware(loginMiddleware(calls: calls), case: { $0.login }, action: { $0.login }, embed: FlowAction.login)
        }
        await store.send(.login(.submit)) { $0 = .login(LoginForm(isInFlight: true)) }
        await store.receive(.login(.response(succeeded: true))) { $0 = .home }
        // The case is gone: its middleware is not called for the action that closed it.
        #expect(calls.arguments == [.submit])
    }

    @Test("the store's first action may switch away: the initial state is recorded")
    func firstActionSwitchingIsNotReported() async {
        let calls = CallRecorder<LoginFormAction>()
        let store = TestStore(state: Flow.login(LoginForm()), reducer: flowReducer) {
            scopeMiddleware(loginMiddleware(calls: calls), case: { $0.login }, action: { $0.login }, embed: FlowAction.login)
        }
        await store.send(.login(.response(succeeded: true))) { $0 = .home }
        #expect(calls.arguments.isEmpty)
    }

    @Test("the list form skips the action too")
    func listFormSwitchIsNotReported() async {
        let calls = CallRecorder<LoginFormAction>()
        let audit: PlainMiddleware<LoginForm, LoginFormAction> = { _, action, _ in calls.record(action) }
        @SideEffectBuilder<LoginForm, LoginFormAction, Void>
        var formSideEffects: [SideEffect<LoginForm, LoginFormAction, Void>] {
            loginMiddleware(calls: calls)
            audit
        }
        let store = TestStore(state: Flow.login(LoginForm()), reducer: flowReducer) {
            scopeMiddleware(formSideEffects, case: { $0.login }, action: { $0.login }, embed: FlowAction.login)
        }
        await store.send(.login(.submit)) { $0 = .login(LoginForm(isInFlight: true)) }
        await store.receive(.login(.response(succeeded: true))) { $0 = .home }
        #expect(calls.arguments == [.submit, .submit])
    }

    @Test("an action that arrives after the case changed is reported, naming the side effects' lift")
    func lateActionIsReportedAtTheMiddlewaresSite() async {
        let calls = CallRecorder<LoginFormAction>()
        let store = TestStore(state: Flow.home, reducer: flowReducer) {
            scopeMiddleware(loginMiddleware(calls: calls), case: { $0.login }, action: { $0.login }, embed: FlowAction.login)
        }
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.login(.submit))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("the state is another case (home)")
        }
        let sideEffectReports = reports.arguments.filter {
            $0.contains("the side effects lifted at LockstepTests/CaseSwitchSideEffectsTests.swift:")
        }
        #expect(sideEffectReports.count == 1)
        #expect(calls.arguments.isEmpty)
    }

    @Test("a late action after a switch the store saw is reported too")
    func lateActionAfterASwitchIsReported() async {
        let calls = CallRecorder<LoginFormAction>()
        let store = TestStore(state: Flow.login(LoginForm()), reducer: flowReducer) {
            scopeMiddleware(loginMiddleware(calls: calls), case: { $0.login }, action: { $0.login }, embed: FlowAction.login)
        }
        await store.send(.login(.response(succeeded: true))) { $0 = .home }
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.login(.response(succeeded: true)))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("the state is another case (home)")
        }
        #expect(reports.arguments.filter { $0.contains("the side effects lifted at") }.count == 1)
    }
}
