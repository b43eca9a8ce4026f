/// A child store's way to its root store: it reads the slice, observes it, and dispatches
/// embedded actions, holding the root weakly.
@MainActor
protocol ScopeLink<State, Action>: AnyObject {
    associatedtype State: Sendable
    associatedtype Action: Sendable

    /// The slice now, without observing it, or `nil` when it is gone or the root is released.
    func read() -> State?
    /// Registers an observation of the whole slice.
    func observeSlice()
    /// Registers an observation of one member of the slice.
    func observe<Value>(_ member: KeyPath<State, Value>)
    /// Dispatches an embedded action to the root; `false` when the root is released.
    func dispatch(_ action: Action) async -> Bool
    /// Sends an embedded action to the root; `nil` when the root is released.
    func send(_ action: Action) -> Task<Void, Never>?
    /// Feeds `buffer` with what `read` derives from the slice now and after each change of the
    /// root's state; finishes it when the slice is gone or the root is released.
    func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value?)
    /// Whether the root store is still alive.
    var isRootAlive: Bool { get }
    /// A link to a part of this slice.
    func appending<Slice: Sendable, SliceAction: Sendable>(
        _ path: ScopePath<State, Slice>, embed: @escaping @Sendable (SliceAction) -> Action
    ) -> any ScopeLink<Slice, SliceAction>
}

/// The link of a child store to a root store of type `Root`.
@MainActor
final class RootLink<Root: StoreProtocol, State: Sendable, Action: Sendable>: ScopeLink where Root.State: Sendable {
    private weak var root: Root?
    /// The root again, when it observes parts of its state on their own.
    private weak var observable: (any PartObservable<Root.State>)?
    private let path: ScopePath<Root.State, State>
    private let embed: @Sendable (Action) -> Root.Action
    /// The observation of each member read so far, made once per member.
    private var memberObservations: [AnyKeyPath: () -> Void] = [:]

    /// - Parameter observable: `root` as a store whose parts are observed one by one, when it is
    ///   one (the caller has it already, so the cast is not made again for every row).
    init(
        root: Root, observable: (any PartObservable<Root.State>)?, path: ScopePath<Root.State, State>,
        embed: @escaping @Sendable (Action) -> Root.Action
    ) {
        self.root = root
        self.observable = observable
        self.path = path
        self.embed = embed
    }

    func read() -> State? {
        if let observable { return path.read(observable.unobservedState) }
        guard let root else { return nil }
        return path.read(root.state)
    }

    func observeSlice() {
        guard let observable else {
            _ = root?.state
            return
        }
        switch path {
        case .direct(let keyPath): observable.observePart(keyPath)
        case .optional(let keyPath): observable.observePart(keyPath)
        }
    }

    func observe<Value>(_ member: KeyPath<State, Value>) {
        if let observation = memberObservations[member] {
            observation()
            return
        }
        guard observable != nil else {
            _ = root?.state
            return
        }
        let observation: () -> Void
        switch path {
        case .direct(let keyPath):
            let full = keyPath.appending(path: member)
            observation = { [weak self] in self?.observable?.observePart(full) }
        case .optional(let keyPath):
            let full = keyPath.appending(path: \State?.[scopeMap: member])
            observation = { [weak self] in self?.observable?.observePart(full) }
        }
        memberObservations[member] = observation
        observation()
    }

    func dispatch(_ action: Action) async -> Bool {
        guard let root else { return false }
        await root.dispatch(action: embed(action))
        return true
    }

    func send(_ action: Action) -> Task<Void, Never>? {
        root?.send(embed(action))
    }

    func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value?) {
        guard let root else {
            buffer.finish()
            return
        }
        // Why the unchecked transfer is safe: a scope path holds only key paths, to stored
        // properties and to the `scopeMap`/`scopeFlatMap` subscripts whose arguments are key
        // paths again; key paths are immutable once made, so reading through one from any
        // thread is safe. (The root calls its feeds on the main actor anyway.)
        nonisolated(unsafe) let path = path
        let readSlice: @Sendable (Root.State) -> Value? = { state in path.read(state).flatMap(read) }
        if let source = root as? any SelectionSource<Root.State> {
            source.attachSelection(buffer, read: readSlice)
        } else {
            feedByObserving(root, into: buffer, read: readSlice)
        }
    }

    var isRootAlive: Bool { root != nil }

    func appending<Slice: Sendable, SliceAction: Sendable>(
        _ next: ScopePath<State, Slice>, embed nextEmbed: @escaping @Sendable (SliceAction) -> Action
    ) -> any ScopeLink<Slice, SliceAction> {
        let embed = self.embed
        guard let root else {
            return DeadLink<Slice, SliceAction>()
        }
        return RootLink<Root, Slice, SliceAction>(
            root: root, observable: observable, path: path.appending(next), embed: { embed(nextEmbed($0)) })
    }
}

/// The link of a child store scoped from a child whose root was already released.
@MainActor
final class DeadLink<State: Sendable, Action: Sendable>: ScopeLink {
    func read() -> State? { nil }
    func observeSlice() {}
    func observe<Value>(_ member: KeyPath<State, Value>) {}
    func dispatch(_ action: Action) async -> Bool { false }
    func send(_ action: Action) -> Task<Void, Never>? { nil }
    func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value?) {
        buffer.finish()
    }
    var isRootAlive: Bool { false }
    func appending<Slice: Sendable, SliceAction: Sendable>(
        _ path: ScopePath<State, Slice>, embed: @escaping @Sendable (SliceAction) -> Action
    ) -> any ScopeLink<Slice, SliceAction> {
        DeadLink<Slice, SliceAction>()
    }
}
