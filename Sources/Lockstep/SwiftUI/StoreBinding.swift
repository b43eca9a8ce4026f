import IssueReporting

/// A value of a store's state that a control reads and writes: reading it reads the state,
/// writing it sends an action.
///
/// A text field, a toggle, a sheet or a navigation stack writes what the user did into a
/// binding. In an app whose state changes only through actions, the binding reads a part of the
/// state and turns each write into an action:
///
/// ```swift
/// let query = StoreBinding(store, \.query, send: SearchAction.queryChanged)
/// query.value = "dune"   // sends .queryChanged("dune"); the reducer has run when it returns
/// ```
///
/// On Apple platforms, `store.binding(\.query, send: SearchAction.queryChanged)` makes the same
/// binding as a SwiftUI `Binding`, and `Binding(_:)` turns any `StoreBinding` into one. A
/// `StoreBinding` is the part of them that does not need SwiftUI, so a test on any platform
/// reads and writes it as a view would.
///
/// Reading ``value`` observes what it reads on its own, as `store.query` does: a view that reads
/// a binding is invalidated when that part changes, not on every action. A write sends the action
/// with ``StoreProtocol/send(_:)``: the reducer has run when the write returns, so the control
/// shows the new value at once, and the side effects run in a task the store owns.
@MainActor
public struct StoreBinding<Value: Sendable>: Sendable {
    private let read: @MainActor @Sendable () -> Value
    private let write: @MainActor @Sendable (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    ///
    /// - Parameters:
    ///   - get: Returns the current value.
    ///   - set: Applies a value the control wrote.
    public init(
        get: @escaping @MainActor @Sendable () -> Value,
        set: @escaping @MainActor @Sendable (Value) -> Void
    ) {
        self.read = get
        self.write = set
    }

    /// A binding of the value at `keyPath` of `store`'s state, whose writes send `action` with
    /// the new value.
    ///
    /// ```swift
    /// let query = StoreBinding(store, \.query, send: SearchAction.queryChanged)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store, or a child store, that holds the value.
    ///   - keyPath: The value in the store's state.
    ///   - action: Makes the action that sets the value, usually an enum case that takes it.
    public init<Store: StoreProtocol>(
        _ store: Store,
        _ keyPath: KeyPath<Store.State, Value> & Sendable,
        send action: @escaping @Sendable (Value) -> Store.Action
    ) {
        self.init(
            get: { readObserved(keyPath, in: store) },
            set: { newValue in store.send(action(newValue)) }
        )
    }

    /// A binding of the field at `keyPath` of `store`'s state, whose writes send
    /// `.binding(.set(keyPath, newValue))`: any field of a feature whose action is a
    /// ``BindableAction``, with no case of its own.
    ///
    /// ```swift
    /// let title = StoreBinding(store, \.title)
    /// title.value = "Standup"   // sends .binding(.set(\.title, "Standup"))
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store, or a child store, that holds the field.
    ///   - keyPath: The field in the store's state.
    public init<Store: StoreProtocol>(
        _ store: Store,
        _ keyPath: WritableKeyPath<Store.State, Value> & Sendable
    ) where Store.Action: BindableAction, Store.Action.State == Store.State, Value: Equatable {
        self.init(store, keyPath, send: { .binding(.set(keyPath, $0)) })
    }

    /// A binding of whether an optional part of `store`'s state is there, as its child store: a
    /// presented screen, for a sheet or a full-screen cover.
    ///
    /// The value is the child store that
    /// ``StoreProtocol/scope(state:action:fileID:line:)->ChildStore<ChildState,ChildAction>?``
    /// returns, `nil` while the part is `nil`. Writing `nil` while the part is there (the user
    /// swiped the sheet away) sends `dismiss`, whose reducer sets the part to `nil`; writing a
    /// child store changes nothing.
    ///
    /// ```swift
    /// let editor = StoreBinding(store, state: \.editor, action: AppAction.editor, dismiss: .dismissEditor)
    /// ```
    ///
    /// Reading the value observes whether the part is there, not the part's own changes, which
    /// the child store's views observe.
    ///
    /// - Parameters:
    ///   - store: The store that holds the optional part.
    ///   - state: The optional part of the state.
    ///   - action: Embeds a child action in an action of `store`, usually the enum case.
    ///   - dismiss: The action that sets the part to `nil`.
    ///   - fileID: Named in the issue for an action sent to the child once the part is gone; the
    ///     caller's.
    ///   - line: Named in that issue; the caller's.
    public init<Store: StoreProtocol, ChildState: Sendable, ChildAction: Sendable>(
        _ store: Store,
        state: KeyPath<Store.State, ChildState?> & Sendable,
        action: @escaping @Sendable (ChildAction) -> Store.Action,
        dismiss: Store.Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) where Value == ChildStore<ChildState, ChildAction>?, Store.State: Sendable {
        self.init(
            get: {
                // Observes whether the part is there; its own changes are the child's to observe.
                _ = readObserved(state.appending(path: \ChildState?.scopeIsPresent), in: store)
                return store.scope(state: state, action: action, fileID: fileID, line: line)
            },
            set: { newValue in
                guard newValue == nil, store.state[keyPath: state] != nil else { return }
                store.send(dismiss)
            }
        )
    }

    /// A binding of an optional part of `store`'s state, whose write of `nil` sends `dismiss`:
    /// the alert or the confirmation dialog on display.
    ///
    /// Writing `nil` while the part is there (the user dismissed the alert) sends `dismiss`;
    /// once the part is gone (a tapped button's action closed it first) it sends nothing, so a
    /// dismissal is never sent for what is no longer presented. Writing a value changes nothing.
    ///
    /// ```swift
    /// let alert = StoreBinding(store, presenting: \.alert, dismiss: .alert(.dismiss))
    /// ```
    ///
    /// Reading the value observes the part alone.
    ///
    /// - Parameters:
    ///   - store: The store that holds the optional part.
    ///   - state: The optional part of the state.
    ///   - dismiss: The action that sets the part to `nil`.
    public init<Store: StoreProtocol, Part>(
        _ store: Store,
        presenting state: KeyPath<Store.State, Part?> & Sendable,
        dismiss: Store.Action
    ) where Value == Part? {
        self.init(
            get: { readObserved(state, in: store) },
            set: { newValue in
                guard newValue == nil, store.state[keyPath: state] != nil else { return }
                store.send(dismiss)
            }
        )
    }

    /// A binding of the ids of a navigation stack's screens, whose writes pop screens: the path
    /// of a SwiftUI `NavigationStack`.
    ///
    /// The value is ``StackState/ids``. When the user goes back, the navigation stack writes a
    /// shorter path, and the binding sends ``StackAction/popFrom(id:)`` with the id of the
    /// lowest screen that left. A path that is not a part of the stack's ids (a push by the
    /// navigation stack itself) is reported as an issue and changes nothing: screens are pushed
    /// with ``StackAction/push(_:)`` actions.
    ///
    /// ```swift
    /// let path = StoreBinding(store, stack: \.path, action: AppAction.path)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store that holds the stack.
    ///   - stack: The stack in the store's state.
    ///   - action: Embeds a stack action in an action of `store`, usually the enum case.
    public init<Store: StoreProtocol, Element, ElementAction>(
        _ store: Store,
        stack: KeyPath<Store.State, StackState<Element>> & Sendable,
        action: @escaping @Sendable (StackAction<Element, ElementAction>) -> Store.Action
    ) where Value == [StackElementID] {
        self.init(
            get: { readObserved(stack.appending(path: \StackState<Element>.ids), in: store) },
            set: { newIDs in
                let ids = store.state[keyPath: stack].ids
                guard newIDs != ids else { return }
                guard newIDs.count < ids.count, Array(ids.prefix(newIDs.count)) == newIDs else {
                    reportIssue(
                        """
                        A navigation path was set to \(newIDs) while the stack's ids are \(ids); \
                        it was ignored. A path binding only goes back (a path made of the first \
                        ids of the stack); push screens with StackAction.push.
                        """)
                    return
                }
                store.send(action(.popFrom(id: ids[newIDs.count])))
            }
        )
    }

    /// The current value; setting it applies the new value as the binding says (for a binding
    /// of a store, sends an action).
    public var value: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }
}

extension Optional {
    /// Whether the value is there: the key path component that observes presence alone.
    ///
    /// Optional, because a key path that ends in an optional chain (`\.destination?.editor`)
    /// yields `nil` for the whole appended path when the chain stops early; reading a component
    /// of a non-optional type appended to it crashes the Swift 6.3 runtime on Linux.
    var scopeIsPresent: Bool? { self != nil }
}

extension StoreProtocol {
    /// Sends what tapping `button` of a presented alert or dialog sends: its action, made an
    /// action of this store with `embed`, or nothing for a button without one (the dismissal
    /// that follows closes it).
    ///
    /// ```swift
    /// store.tap(button, embed: { .alert(.presented($0)) })
    /// ```
    ///
    /// The presentation form of `ifLetReducer` closes the alert after the action, so the
    /// dismissal SwiftUI writes next into the alert's ``StoreBinding/init(_:presenting:dismiss:)``
    /// sends nothing.
    ///
    /// - Parameters:
    ///   - button: The tapped button.
    ///   - embed: Makes an action of this store of the button's action.
    public func tap<ButtonAction>(_ button: ButtonState<ButtonAction>, embed: (ButtonAction) -> Action) {
        guard let action = button.action else { return }
        send(embed(action))
    }
}
