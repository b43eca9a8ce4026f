@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

// A screen with a lone alert, and a destination enum of two kinds of child, for the presentation
// lifters and a child that dismisses itself.

private enum AlertAction: Equatable, Sendable {
    case retry
}

private struct FormState: Equatable, Sendable {
    var name = ""
}

private enum FormAction: Equatable, Sendable {
    case nameChanged(String)
    case load
    case close
}

private enum Destination: Equatable, Sendable {
    case form(FormState)
    case alert(AlertState<AlertAction>)
    case note(text: String, alert: AlertState<AlertAction>)

    var form: FormState? {
        if case .form(let form) = self { form } else { nil }
    }
}

private enum DestinationAction: Equatable, Sendable {
    case form(FormAction)
    case alert(AlertAction)

    var form: FormAction? {
        if case .form(let action) = self { action } else { nil }
    }
}

private struct ScreenState: Equatable, Sendable {
    var retries = 0
    var alert: AlertState<AlertAction>?
    var destination: Destination?
}

private enum ScreenAction: Equatable, Sendable {
    case alert(PresentationAction<AlertAction>)
    case destination(PresentationAction<DestinationAction>)
    case show(Destination)

    var alert: PresentationAction<AlertAction>? {
        if case .alert(let action) = self { action } else { nil }
    }

    var destination: PresentationAction<DestinationAction>? {
        if case .destination(let action) = self { action } else { nil }
    }
}

private let retryAlert = AlertState<AlertAction> {
    TextState("Offline")
} actions: {
    ButtonState(action: .retry) { TextState("Retry") }
}

private let formReducer: InPlaceReducer<FormState, FormAction> = { form, action in
    if case .nameChanged(let name) = action { form.name = name }
}

private let screenReducer: InPlaceReducer<ScreenState, ScreenAction> = combineReducers(
    { state, action in
        switch action {
        case .alert(.presented(.retry)), .destination(.presented(.alert(.retry))):
            state.retries += 1
        case .show(let destination):
            state.destination = destination
        default:
            break
        }
    },
    ifLetReducer(state: \ScreenState.alert, action: { $0.alert }),
    ifLetReducer(
        scopeReducer(formReducer, case: { $0.form }, embed: Destination.form, action: { $0.form }),
        state: \ScreenState.destination, action: { $0.destination })
)

/// A form middleware that closes itself on `.close`, and on `.load` parks on `gate`, recording
/// whether it was cancelled.
private func formMiddleware(gate: Gate, events: Recorder<String>) -> PlainMiddleware<FormState, FormAction> {
    { _, action, dispatch in
        switch action {
        case .close:
            await dispatch.dismiss()
        case .load:
            await gate.pass()
            events.append(Task.isCancelled ? "cancelled" : "finished")
        case .nameChanged:
            break
        }
    }
}

/// The side effects of the destinations, one per case that has any, lifted to the screen.
@SideEffectBuilder<ScreenState, ScreenAction, Void>
private func screenSideEffects(gate: Gate, events: Recorder<String>) -> [SideEffect<ScreenState, ScreenAction, Void>] {
    ifLetMiddleware(
        destinationSideEffects(gate: gate, events: events),
        state: \ScreenState.destination, action: { $0.destination }, embed: ScreenAction.destination)
}

@SideEffectBuilder<Destination, DestinationAction, Void>
private func destinationSideEffects(gate: Gate, events: Recorder<String>) -> [SideEffect<Destination, DestinationAction, Void>] {
    scopeMiddleware(formMiddleware(gate: gate, events: events), case: { $0.form }, action: { $0.form }, embed: DestinationAction.form)
}

@MainActor
@Suite("Presentation: alerts, destinations and dismissal")
struct PresentationTests {
    @Test("A lone alert's button sends its action, then the alert is closed")
    func loneAlertClosesAfterItsButton() {
        let store = Store(state: ScreenState(alert: retryAlert), reducer: screenReducer)
        store.send(.alert(.presented(.retry)))
        #expect(store.state.retries == 1)
        #expect(store.state.alert == nil)
    }

    @Test("An alert held in a case with other values is closed by its button too")
    func alertInsideALabeledCaseCloses() {
        let store = Store(state: ScreenState(destination: .note(text: "x", alert: retryAlert)), reducer: screenReducer)
        store.send(.destination(.presented(.alert(.retry))))
        #expect(store.state.retries == 1)
        #expect(store.state.destination == nil)
    }

    @Test("A destination that is not an alert stays presented after its own actions")
    func formStaysAfterItsActions() {
        let store = Store(state: ScreenState(destination: .form(FormState())), reducer: screenReducer)
        store.send(.destination(.presented(.form(.nameChanged("Ada")))))
        #expect(store.state.destination == .form(FormState(name: "Ada")))
    }

    @Test("Dismissing closes the destination; dismissing nothing changes nothing")
    func dismissCloses() {
        let store = Store(state: ScreenState(destination: .form(FormState())), reducer: screenReducer)
        store.send(.destination(.dismiss))
        #expect(store.state.destination == nil)
        store.send(.destination(.dismiss))
        #expect(store.state == ScreenState())
    }

    @Test("A child action while nothing is presented is reported, and leaves nothing presented")
    func actionWithoutDestinationIsReported() {
        let store = Store(state: ScreenState(), reducer: screenReducer)
        withKnownIssue {
            store.send(.destination(.presented(.form(.nameChanged("Ada")))))
        } matching: { $0.description.contains("its optional state is nil") }
        #expect(store.state == ScreenState())
    }

    @Test("An action of another case than the destination's is reported; an alert it reaches closes")
    func actionOfAnotherCaseIsReported() {
        let store = Store(state: ScreenState(destination: .note(text: "x", alert: retryAlert)), reducer: screenReducer)
        withKnownIssue {
            store.send(.destination(.presented(.form(.nameChanged("Bo")))))
        } matching: { $0.description.contains("the state is another case (note)") }
        #expect(store.state.destination == nil)
    }

    @Test("A child dismisses itself through its dispatcher; the test store receives the dismissal")
    func childDismissesItself() async {
        let store = TestStore(state: ScreenState(destination: .form(FormState())), reducer: screenReducer) {
            screenSideEffects(gate: Gate(), events: Recorder())
        }
        await store.send(.destination(.presented(.form(.close))))
        await store.receive(.destination(.dismiss)) {
            $0.destination = nil
        }
    }

    @Test("Replacing a destination by another case cancels the work of the one before")
    func anotherCaseCancelsTheWorkOfTheOneBefore() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = Store(state: ScreenState(destination: .form(FormState())), reducer: screenReducer) {
            screenSideEffects(gate: gate, events: events)
        }
        let load = store.send(.destination(.presented(.form(.load))))
        await gate.arrival()
        await store.dispatch(.show(.alert(retryAlert)))
        await load.value
        #expect(events.values == ["cancelled"])
    }

    @Test("dismiss() from a middleware that is not a presented child is reported and does nothing")
    func dismissOutsideAChildIsReported() async {
        let store = Store(
            state: ScreenState(), reducer: screenReducer,
            middlewares: [{ _, action, dispatch in
                if case .show = action { await dispatch.dismiss() }
            }])
        await withKnownIssue {
            await store.dispatch(.show(.alert(retryAlert)))
        }
        #expect(store.state.destination == .alert(retryAlert))
    }

    @Test("A button's action is mapped with its alert, which keeps its texts and roles")
    func alertMaps() {
        let mapped = retryAlert.map { ScreenAction.alert(.presented($0)) }
        #expect(mapped.buttons.map(\.action) == [.alert(.presented(.retry))])
        #expect(mapped.title == retryAlert.title)
        #expect(mapped.buttons.map(\.label) == ["Retry"])
    }
}
