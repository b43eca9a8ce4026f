import Lockstep
import SwiftUIStandIns
import Testing

private struct NoticeState: Equatable, Sendable {
    var alert: AlertState<Never>?
    var dialog: ConfirmationDialogState<Never>?
}

private enum NoticeAction: Equatable, Sendable {
    case alertDismissed
    case dialogDismissed
}

private func noticeReducer(_ state: inout NoticeState, _ action: NoticeAction) {
    switch action {
    case .alertDismissed: state.alert = nil
    case .dialogDismissed: state.dialog = nil
    }
}

/// The `isPresented` binding a presenting modifier of the stand-ins was given.
@MainActor
private func isPresented(of view: some View) throws -> Binding<Bool> {
    let modifier = try #require(Mirror(reflecting: view).descendant("modifier"))
    return try #require(Mirror(reflecting: modifier).descendant("isPresented") as? Binding<Bool>)
}

@MainActor
@Suite("Alerts and dialogs whose buttons only close them")
struct AlertOfNeverTests {
    @Test("an AlertState<Never> shows while it is there, and closing it sends dismiss")
    func alertOfNever() throws {
        let store = Store(
            state: NoticeState(alert: AlertState { TextState("Couldn't load the file") }),
            reducer: noticeReducer)
        let presented = try isPresented(of: Text("List").alert(store, state: \.alert, dismiss: .alertDismissed))
        #expect(presented.wrappedValue)
        presented.wrappedValue = false
        #expect(store.state.alert == nil)
        #expect(!presented.wrappedValue)
    }

    @Test("a ConfirmationDialogState<Never> shows while it is there, and closing it sends dismiss")
    func dialogOfNever() throws {
        let store = Store(
            state: NoticeState(dialog: ConfirmationDialogState { TextState("Saved") }),
            reducer: noticeReducer)
        let presented = try isPresented(
            of: Text("List").confirmationDialog(store, state: \.dialog, dismiss: .dialogDismissed))
        #expect(presented.wrappedValue)
        presented.wrappedValue = false
        #expect(store.state.dialog == nil)
    }
}
