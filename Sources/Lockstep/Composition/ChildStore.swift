import IssueReporting
import Observation

/// The store of one feature: a part of a parent store's state and the feature's own actions.
///
/// Made by ``StoreProtocol/scope(state:action:fileID:line:)->ChildStore<ChildState,ChildAction>`` and its variants, a child store
/// has no state of its own: ``state`` reads the parent's part, and ``dispatch(action:)``
/// dispatches the embedded action to the parent, with the parent's contract (it returns when the
/// action and everything it caused are finished). A feature's view model takes any
/// ``StoreProtocol`` of its state and actions, so it runs on a child store in the app and on a
/// mock store in its tests:
///
/// ```swift
/// let searchStore = appStore.scope(state: \.search, action: AppAction.search)
/// let model = SearchModel(store: searchStore)
/// await searchStore.dispatch(.queryChanged("swift"))   // appStore reduces .search(.queryChanged("swift"))
/// ```
///
/// A child store is observable: a view that reads `childStore.state` is invalidated only when the
/// part changes, and one that reads `childStore.query` only when `query` changes.
///
/// ## A part that can go away
///
/// A child store of an optional part (a presented screen) or of a row (found by id) is `nil`
/// while the part is absent. A child store already handed out keeps the last state it read once
/// its part is gone, so a screen that is closing can still draw; the actions dispatched to it
/// from then on are reported as an issue and dropped, and its selections (`select`, `states`)
/// end.
///
/// ## Lifetime
///
/// A child store holds its root store weakly: keeping a child never keeps the app's store alive.
/// Work started by a child's ``send(_:)`` belongs to the root store, so releasing the child does
/// not cancel it. Effects registered on a child store react to the actions dispatched through
/// that child store.
@MainActor
@dynamicMemberLookup
public final class ChildStore<State: Sendable, Action: Sendable>: StoreProtocol {
    let link: any ScopeLink<State, Action>
    private var lastState: State
    /// The effects registered on this child store, made at the first registration: most child
    /// stores (a row's) never register one, and a host costs several allocations and a lock, a
    /// third of making a row store.
    private var registeredEffects: EffectHost<Action>?
    private let site: String
    /// The child stores made by scoping this one, made at the first scope.
    package private(set) lazy var childStores = ChildStoreCache()

    init(link: any ScopeLink<State, Action>, initialState: State, site: String) {
        self.link = link
        self.lastState = initialState
        self.site = site
    }

    /// The parent's part of the state, or the last one read when the part is gone.
    ///
    /// Reading it inside `withObservationTracking` (or from a SwiftUI view) registers an
    /// observation of the part only.
    public var state: State {
        link.observeSlice()
        return unobservedState
    }

    /// Whether the part of the parent's state this store shows is still there. A child of an
    /// optional part or a row becomes inactive when the part becomes `nil` or the row is
    /// removed, and when the root store is released.
    public var isActive: Bool {
        link.observeSlice()
        return link.read() != nil
    }

    /// The value at `keyPath` of the part, observed on its own.
    ///
    /// - Parameter keyPath: The key path of the value in the part.
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        link.observe(keyPath)
        return unobservedState[keyPath: keyPath]
    }

    /// A member of the part whose type is ``ObservableState``, read property by property:
    /// `child.settings.theme` observes `settings.theme` alone.
    ///
    /// ```swift
    /// Text(child.settings.theme)
    /// ```
    ///
    /// - Parameter keyPath: The key path of the member in the part.
    public subscript<Value: ObservableState>(dynamicMember keyPath: KeyPath<State, Value>) -> StatePart<State, Value> {
        StatePart(source: self, path: keyPath)
    }

    /// Dispatches `action` to the parent, embedded, and returns when it and every side effect it
    /// caused are finished. When the part is gone, the action is reported as an issue and dropped.
    ///
    /// - Parameter action: The feature action.
    public func dispatch(action: Action) async {
        guard checkActive(action) else { return }
        _ = await link.dispatch(action)
        if let registeredEffects {
            await registeredEffects.deliver(action)
        }
    }

    /// Reduces `action` in the root store now and runs its side effects in a task the root store
    /// owns (see ``Store/send(_:)``). Releasing the child store does not cancel them.
    ///
    /// The reducer has run when `send` returns. Cancelling the returned task cancels the
    /// action's middlewares in the root store, as cancelling the task of ``Store/send(_:)``
    /// does. The effects registered on this child store still receive the action, as a store's
    /// effects do (they run in tasks of their own); the cancelled task stops waiting for them.
    ///
    /// - Parameter action: The feature action.
    /// - Returns: The task that runs the action's side effects.
    @discardableResult
    public func send(_ action: Action) -> Task<Void, Never> {
        guard checkActive(action) else { return Task {} }
        guard let task = link.send(action) else { return Task {} }
        guard let effects = registeredEffects, effects.hasEffects else { return task }
        return Task { [effects] in
            // The root's task is not a child of this one: cancelling this one must reach it.
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
            await effects.deliver(action)
        }
    }

    /// Starts `effect`, which then reacts to every action dispatched through this child store,
    /// until the returned registration is cancelled or released, or the child store is released.
    /// The actions it emits are dispatched through this child store.
    ///
    /// - Parameter effect: The effect to run.
    /// - Returns: The registration that keeps the effect running.
    public func register(_ effect: Effect<Action>) -> EffectRegistration {
        let link = self.link
        let effects = registeredEffects ?? EffectHost<Action>()
        registeredEffects = effects
        return effects.register(
            effect,
            onOutput: { @MainActor action in _ = await link.dispatch(action) },
            onFailure: { failure in reportIssue(failure) }
        )
    }

    private var unobservedState: State {
        if let state = link.read() {
            lastState = state
        }
        return lastState
    }

    /// Whether the part is there; reports the action as dropped when it is not.
    private func checkActive(_ action: Action) -> Bool {
        guard link.read() == nil else { return true }
        guard link.isRootAlive else {
            reportDispatchToReleasedStore(action, storeType: "Store")
            return false
        }
        reportIssue(
            """
            \(action) was sent to the child store scoped at \(site), whose state is gone (a \
            dismissed screen or a removed row); it was dropped. Stop sending to a child store \
            once its state is nil.
            """)
        return false
    }
}

extension ChildStore: StatePartSource {
    package func readPart<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        link.observe(keyPath)
        return unobservedState[keyPath: keyPath]
    }
}

/// A child store is identified by its own identity, so that SwiftUI's `ForEach` and
/// `sheet(item:)` take child stores as they are. Scoping the same part again returns the same
/// child store while something holds it, such as the view that shows it, so the id of a row's
/// or a presented screen's store stays the same while it is shown.
extension ChildStore: Identifiable {}

extension ChildStore where Action: BindableAction, Action.State == State {
    /// A field of the part that a control can write: reading it observes the field; writing it
    /// sends `.binding(.set(keyPath, newValue))` through this store, as ``send(_:)`` does. With
    /// SwiftUI's `@Bindable var store: ChildStore<FormState, FormAction>`, `$store.title` is the
    /// field's binding.
    ///
    /// - Parameter keyPath: The field in the part.
    @_disfavoredOverload
    public subscript<Value: Equatable & Sendable>(
        dynamicMember keyPath: WritableKeyPath<State, Value> & Sendable
    ) -> Value {
        // Read as any field is: the `KeyPath` form.
        get { self[dynamicMember: keyPath as KeyPath<State, Value>] }
        set { send(.binding(.set(keyPath, newValue))) }
    }
}
