import Lockstep

// Spellings of Lockstep 0.1.0 that no longer compile, kept so that the compiler names the new one
// (see the article "Migrating from 0.1.0").

extension TestStore {
    /// Unavailable: lifted middlewares go in the side-effect builder.
    @available(
        *, unavailable,
        message: "lifted middlewares are composed in the side-effect builder: TestStore(state:reducer:services:) { ... }, one statement each; keep a list in a constant as SideEffects<State, Action, Services> { ... } and write it there as a statement"
    )
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        services: Services,
        middlewares: [SideEffect<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        fatalError("unavailable")
    }

    /// Unavailable: lifted middlewares go in the side-effect builder.
    @available(
        *, unavailable,
        message: "lifted middlewares are composed in the side-effect builder: TestStore(state:reducer:) { ... }, one statement each; keep a list in a constant as SideEffects<State, Action, Void> { ... } and write it there as a statement"
    )
    public convenience init(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        middlewares: [SideEffect<State, Action, Void>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        fatalError("unavailable")
    }

    /// Unavailable: lifted middlewares go in the side-effect builder.
    @available(
        *, unavailable,
        message: "lifted middlewares are composed in the side-effect builder: TestStore(state:reducer:services:) { ... }, one statement each; keep a list in a constant as SideEffects<State, Action, Services> { ... } and write it there as a statement"
    )
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        services: Services,
        middlewares: [SideEffect<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        fatalError("unavailable")
    }

    /// Unavailable: lifted middlewares go in the side-effect builder.
    @available(
        *, unavailable,
        message: "lifted middlewares are composed in the side-effect builder: TestStore(state:reducer:) { ... }, one statement each; keep a list in a constant as SideEffects<State, Action, Void> { ... } and write it there as a statement"
    )
    public convenience init(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        middlewares: [SideEffect<State, Action, Void>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        fatalError("unavailable")
    }

}
