// SwiftUI bindings of a store, on top of StoreBinding.
//
// This file is compiled twice. Where SwiftUI exists, into Lockstep, against SwiftUI's Binding.
// Elsewhere (Linux), the test-only SwiftUIStandIns module compiles it through a symbolic link,
// with LOCKSTEP_SWIFTUI_STAND_INS defined, against its stand-in Binding of the same shape: so
// that the library's own tests compile and run it on every platform.
#if canImport(SwiftUI) && !LOCKSTEP_SWIFTUI_STAND_INS
import SwiftUI
#elseif !canImport(SwiftUI) && LOCKSTEP_SWIFTUI_STAND_INS
import Lockstep
#endif

#if (canImport(SwiftUI) && !LOCKSTEP_SWIFTUI_STAND_INS) || (!canImport(SwiftUI) && LOCKSTEP_SWIFTUI_STAND_INS)

extension Binding where Value: Sendable {
    /// A SwiftUI binding that reads and writes through `binding`.
    ///
    /// ```swift
    /// TextField("Search", text: Binding(StoreBinding(store, \.query, send: SearchAction.queryChanged)))
    /// ```
    ///
    /// SwiftUI reads and writes bindings on the main actor.
    ///
    /// - Parameter binding: The binding of a store.
    @MainActor
    public init(_ binding: StoreBinding<Value>) {
        self.init(
            get: { MainActor.assumeIsolated { binding.value } },
            set: { newValue in MainActor.assumeIsolated { binding.value = newValue } }
        )
    }
}

extension StoreProtocol {
    /// A binding of the value at `keyPath` of the state, whose writes send `action` with the new
    /// value: what a text field, a toggle or a picker takes.
    ///
    /// ```swift
    /// TextField("Search", text: store.binding(\.query, send: SearchAction.queryChanged))
    /// ```
    ///
    /// The reducer has run when the write returns, so the control shows the new value at once;
    /// the side effects run in a task the store owns. See ``StoreBinding``.
    ///
    /// - Parameters:
    ///   - keyPath: The value in the state.
    ///   - action: Makes the action that sets the value, usually an enum case that takes it.
    /// - Returns: The SwiftUI binding.
    public func binding<Value: Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        send action: @escaping @Sendable (Value) -> Action
    ) -> Binding<Value> {
        Binding(StoreBinding(self, keyPath, send: action))
    }

    /// A binding of the field at `keyPath` of the state, whose writes send
    /// `.binding(.set(keyPath, newValue))`: what a text field, a toggle or a picker takes, for
    /// any field of a feature whose action is a ``BindableAction``.
    ///
    /// ```swift
    /// TextField("Title", text: store.binding(\.title))
    /// ```
    ///
    /// ``bindingReducer()`` applies the write, which has run when the write returns.
    ///
    /// - Parameter keyPath: The field in the state.
    /// - Returns: The SwiftUI binding.
    public func binding<Value: Equatable & Sendable>(
        _ keyPath: WritableKeyPath<State, Value> & Sendable
    ) -> Binding<Value> where Action: BindableAction, Action.State == State {
        Binding(StoreBinding(self, keyPath))
    }

    /// Sends `action` with `animation`: the changes its reducer makes are animated.
    ///
    /// ```swift
    /// Button("Delete") { store.send(.deleteTapped, animation: .default) }
    /// ```
    ///
    /// The reducer runs inside `withAnimation`, so every view it invalidates animates to the
    /// new state; the side effects run as ``StoreProtocol/send(_:)`` runs them, and the actions
    /// they dispatch are not animated.
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - animation: The animation, or `nil` for none.
    /// - Returns: The task that runs the action's side effects.
    @discardableResult
    public func send(_ action: Action, animation: Animation?) -> Task<Void, Never> {
        withAnimation(animation) { send(action) }
    }

    /// Sends `action` in `transaction`: the changes its reducer makes are applied with the
    /// transaction's animation and settings.
    ///
    /// ```swift
    /// store.send(.expandTapped, transaction: Transaction(animation: .default))
    /// ```
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - transaction: The transaction.
    /// - Returns: The task that runs the action's side effects.
    @discardableResult
    public func send(_ action: Action, transaction: Transaction) -> Task<Void, Never> {
        withTransaction(transaction) { send(action) }
    }

    /// A binding of an optional part of the state as its child store, `nil` while the part is
    /// `nil`: what `sheet(item:)` takes. Dismissing the sheet sends `dismiss`.
    ///
    /// ```swift
    /// .sheet(item: store.binding(state: \.editor, action: AppAction.editor, dismiss: .dismissEditor)) { editor in
    ///     EditorView(store: editor)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The optional part of the state.
    ///   - action: Embeds a child action in an action of this store, usually the enum case.
    ///   - dismiss: The action that sets the part to `nil`.
    ///   - fileID: Named in the issue for an action sent to the child once the part is gone; the
    ///     caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The SwiftUI binding.
    public func binding<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (ChildAction) -> Action,
        dismiss: Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Binding<ChildStore<ChildState, ChildAction>?> where State: Sendable {
        Binding(StoreBinding(self, state: state, action: action, dismiss: dismiss, fileID: fileID, line: line))
    }

    /// A binding of the ids of a navigation stack's screens: the path of a `NavigationStack`.
    /// Going back pops the screens that left.
    ///
    /// ```swift
    /// NavigationStack(path: store.binding(stack: \.path, action: AppAction.path)) {
    ///     BookListView(store: store.scope(state: \.list, action: AppAction.list))
    ///         .navigationDestination(for: StackElementID.self) { id in
    ///             if let detail = store.scope(state: \.path, id: id, action: AppAction.path) {
    ///                 BookDetailView(store: detail)
    ///             }
    ///         }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - stack: The stack in the state.
    ///   - action: Embeds a stack action in an action of this store, usually the enum case.
    /// - Returns: The SwiftUI binding.
    public func binding<Element, ElementAction>(
        stack: KeyPath<State, StackState<Element>> & Sendable,
        action: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action
    ) -> Binding<[StackElementID]> {
        Binding(StoreBinding(self, stack: stack, action: action))
    }
}

extension View {
    /// Shows the alert at `state` of `store` while it is there: its title, its message, and a
    /// button for each of its buttons, which sends the button's action when tapped.
    ///
    /// ```swift
    /// .alert(store, state: \.destination?.alert, send: { .destination(.presented(.alert($0))) }, dismiss: .destination(.dismiss))
    /// ```
    ///
    /// Tapping a button sends its action (see ``StoreProtocol/tap(_:embed:)``), after which the
    /// presentation form of `ifLetReducer` closes the alert; dismissing the alert any other way
    /// sends `dismiss`.
    ///
    /// - Parameters:
    ///   - store: The store that holds the alert.
    ///   - state: The optional alert in the store's state.
    ///   - action: Makes an action of the store of a button's action.
    ///   - dismiss: The action that closes the alert.
    /// - Returns: The view with the alert.
    public func alert<Store: StoreProtocol, ButtonAction: Sendable>(
        _ store: Store,
        state: KeyPath<Store.State, AlertState<ButtonAction>?> & Sendable,
        send action: @escaping @Sendable (ButtonAction) -> Store.Action,
        dismiss: Store.Action
    ) -> some View {
        let presented = StoreBinding(store, presenting: state, dismiss: dismiss)
        let alert = presented.value
        return self.alert(
            Text(alert?.title.string ?? ""),
            isPresented: Binding(StoreBinding(get: { presented.value != nil }, set: { if !$0 { presented.value = nil } })),
            presenting: alert,
            actions: { alert in
                ForEach(alert.buttons) { button in
                    Button(role: button.role.map(buttonRole)) {
                        store.tap(button, embed: action)
                    } label: {
                        Text(button.label.string)
                    }
                }
            },
            message: { alert in
                if let message = alert.message {
                    Text(message.string)
                }
            }
        )
    }

    /// Shows the confirmation dialog at `state` of `store` while it is there: its title, its
    /// message, and a button for each of its buttons, which sends the button's action when
    /// tapped.
    ///
    /// ```swift
    /// .confirmationDialog(store, state: \.destination?.shareDialog, send: { .destination(.presented(.shareDialog($0))) }, dismiss: .destination(.dismiss))
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store that holds the dialog.
    ///   - state: The optional dialog in the store's state.
    ///   - action: Makes an action of the store of a button's action.
    ///   - dismiss: The action that closes the dialog.
    /// - Returns: The view with the dialog.
    public func confirmationDialog<Store: StoreProtocol, ButtonAction: Sendable>(
        _ store: Store,
        state: KeyPath<Store.State, ConfirmationDialogState<ButtonAction>?> & Sendable,
        send action: @escaping @Sendable (ButtonAction) -> Store.Action,
        dismiss: Store.Action
    ) -> some View {
        let presented = StoreBinding(store, presenting: state, dismiss: dismiss)
        let dialog = presented.value
        return self.confirmationDialog(
            Text(dialog?.title.string ?? ""),
            isPresented: Binding(StoreBinding(get: { presented.value != nil }, set: { if !$0 { presented.value = nil } })),
            titleVisibility: dialog.map { visibility($0.titleVisibility) } ?? .automatic,
            presenting: dialog,
            actions: { dialog in
                ForEach(dialog.buttons) { button in
                    Button(role: button.role.map(buttonRole)) {
                        store.tap(button, embed: action)
                    } label: {
                        Text(button.label.string)
                    }
                }
            },
            message: { dialog in
                if let message = dialog.message {
                    Text(message.string)
                }
            }
        )
    }

    /// Shows the alert at `state` of `store` while it is there, for an alert whose buttons only
    /// close it (`AlertState<Never>`, say an error to read): every button, and any other way of
    /// dismissing it, sends `dismiss`.
    ///
    /// ```swift
    /// .alert(store, state: \.loadFailure, dismiss: .loadFailureDismissed)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store that holds the alert.
    ///   - state: The optional alert in the store's state.
    ///   - dismiss: The action that closes the alert.
    /// - Returns: The view with the alert.
    public func alert<Store: StoreProtocol>(
        _ store: Store,
        state: KeyPath<Store.State, AlertState<Never>?> & Sendable,
        dismiss: Store.Action
    ) -> some View {
        alert(store, state: state, send: { (never: Never) in never }, dismiss: dismiss)
    }

    /// Shows the confirmation dialog at `state` of `store` while it is there, for a dialog whose
    /// buttons only close it (`ConfirmationDialogState<Never>`): every button, and any other way
    /// of dismissing it, sends `dismiss`.
    ///
    /// ```swift
    /// .confirmationDialog(store, state: \.notice, dismiss: .noticeDismissed)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store that holds the dialog.
    ///   - state: The optional dialog in the store's state.
    ///   - dismiss: The action that closes the dialog.
    /// - Returns: The view with the dialog.
    public func confirmationDialog<Store: StoreProtocol>(
        _ store: Store,
        state: KeyPath<Store.State, ConfirmationDialogState<Never>?> & Sendable,
        dismiss: Store.Action
    ) -> some View {
        confirmationDialog(store, state: state, send: { (never: Never) in never }, dismiss: dismiss)
    }
}

/// A link that pushes a screen onto a navigation stack of a store: its label, which sends
/// ``StackAction/push(_:)`` with the screen's state when tapped. What TCA's
/// `NavigationLink(state:)` does, with no case in the app's reducer for it.
///
/// ```swift
/// StackLink(store, state: .detail(SyncUpDetailState(syncUp: syncUp)), action: AppAction.path) {
///     Text(syncUp.title)
/// }
/// ```
///
/// The push is an action like any other: the stack's reducer (`forEachReducer` of the stack)
/// pushes the screen with a new id, and a test sends the same `.path(.push(...))`.
public struct StackLink<Label: View>: View {
    private let push: @MainActor () -> Void
    private let label: Label

    /// A link whose tap pushes `state` onto the stack whose actions `action` embeds in `store`'s.
    ///
    /// - Parameters:
    ///   - store: The store that holds the stack.
    ///   - state: The state of the screen to push.
    ///   - action: Embeds a stack action in an action of `store`, usually the enum case.
    ///   - label: The link's label.
    public init<Store: StoreProtocol, Element, ElementAction>(
        _ store: Store,
        state: Element,
        action: @escaping @Sendable (StackAction<Element, ElementAction>) -> Store.Action,
        @ViewBuilder label: () -> Label
    ) {
        self.push = { store.send(action(.push(state))) }
        self.label = label()
    }

    /// Pushes the screen, as a tap does.
    public func tap() {
        push()
    }

    /// The label, as a button that pushes the screen.
    public var body: some View {
        Button(action: push) { label }
    }
}

/// SwiftUI's role of a button of an alert or a dialog.
private func buttonRole(_ role: ButtonStateRole) -> ButtonRole {
    switch role {
    case .cancel: .cancel
    case .destructive: .destructive
    }
}

/// SwiftUI's visibility of a dialog's title.
private func visibility(_ visibility: ConfirmationDialogStateTitleVisibility) -> Visibility {
    switch visibility {
    case .automatic: .automatic
    case .visible: .visible
    case .hidden: .hidden
    }

}

#endif
