/// One action a ``Store`` reduced, as an ``ActionObserver`` sees it.
///
/// Besides the action and the state on each side of the reducer, it says where the action came
/// from and which earlier action caused it, so a log can show a session as a tree:
/// `#3 .today(.shiftsLoaded(…)) ← #2 (middleware 0)`. `State` and `Action` are the store's.
///
/// ```swift
/// let observer = ActionObserver<AppState, AppAction> { reduction in
///   guard reduction.stateBefore.user != reduction.stateAfter.user else { return }
///   let cause = reduction.cause.map { " ← #\($0)" } ?? ""
///   print("#\(reduction.sequenceNumber) \(reduction.action)\(cause) (\(reduction.origin))")
/// }
/// ```
public struct Reduction<State: Sendable, Action: Sendable>: Sendable {
    /// The reduced action.
    public let action: Action
    /// The state the reducer was given.
    public let stateBefore: State
    /// The state the reducer returned.
    public let stateAfter: State
    /// Where the action came from.
    public let origin: DispatchOrigin
    /// The action's number in its store: 1 for the first action reduced, then 2, 3, …
    public let sequenceNumber: Int
    /// The number of the action whose side effects dispatched this one (a middleware's
    /// follow-up, an effect's output), or `nil` for an action dispatched from outside.
    public let cause: Int?
    /// For an action a middleware dispatched, the middleware's position in the store's
    /// `middlewares` array.
    public let middlewareIndex: Int?

    /// Creates a reduction; stores make these, and tests of observers may too.
    public init(
        action: Action,
        stateBefore: State,
        stateAfter: State,
        origin: DispatchOrigin,
        sequenceNumber: Int,
        cause: Int? = nil,
        middlewareIndex: Int? = nil
    ) {
        self.action = action
        self.stateBefore = stateBefore
        self.stateAfter = stateAfter
        self.origin = origin
        self.sequenceNumber = sequenceNumber
        self.cause = cause
        self.middlewareIndex = middlewareIndex
    }
}

extension Reduction {
    /// The reduction of `action`, numbered `sequenceNumber`, by a store's side effects or from
    /// outside: an action with no `cause` given takes the cause of the side effects running in
    /// this task, if any.
    @usableFromInline
    init(
        of action: Action, stateBefore: State, stateAfter: State, origin: DispatchOrigin,
        sequenceNumber: Int, cause: Int?
    ) {
        // Only follow-ups carry a cause; an action from outside the store has none to read.
        let running = origin == .external && cause == nil ? nil : ReductionCause.current
        self.init(
            action: action,
            stateBefore: stateBefore,
            stateAfter: stateAfter,
            origin: origin,
            sequenceNumber: sequenceNumber,
            cause: cause ?? running?.sequenceNumber,
            middlewareIndex: origin == .middleware ? running?.middlewareIndex : nil)
    }
}

/// Sees every action a ``Store`` reduces, synchronously, right after the reducer and before any
/// side effect: the single place where logging, analytics and recording are written once.
///
/// ```swift
/// let store = Store(
///   state: AppState(),
///   reducer: appReducer,
///   services: services,
///   middlewares: [todayMiddleware],
///   observers: [ActionObserver { reduction in analytics.track(reduction.action) }]
/// )
/// ```
///
/// An observer runs on the main actor inside the dispatch, so it must be quick: hand slow work
/// (files, the network) to a task or a buffer, as `ActionRecorder` in LockstepLogging does. A
/// store with no observers pays nothing for the feature.
///
/// An ``ActorStore`` reduces on an actor of its own. It calls an observer made with
/// ``nonisolated(isEnabled:_:)`` there, synchronously, right after the reducer, as a ``Store``
/// does on the main actor; it hands each reduction to an observer made with
/// ``init(isEnabled:_:)`` on the main actor instead, in order, without waiting for it.
public struct ActionObserver<State: Sendable, Action: Sendable>: Sendable {
    @usableFromInline let observe: @MainActor @Sendable (Reduction<State, Action>) -> Void
    @usableFromInline let isEnabled: @MainActor @Sendable () -> Bool
    /// Whether the observer is off for good; a store leaves such observers out.
    let isAlwaysOff: Bool
    /// The observer's functions when they may run on any actor, or `nil` for an observer of the
    /// main actor.
    let anywhere: Nonisolated?

    /// The functions of an observer that runs wherever its store reduces.
    struct Nonisolated: Sendable {
        let isEnabled: @Sendable () -> Bool
        let observe: @Sendable (Reduction<State, Action>) -> Void
    }

    /// An observer that never observes: a store given only such observers pays nothing for
    /// them. A logging observer whose logger's level is above its own is one.
    public static var off: ActionObserver {
        ActionObserver(isEnabled: { false }, alwaysOff: true) { _ in }
    }

    private init(
        isEnabled: @escaping @MainActor @Sendable () -> Bool,
        alwaysOff: Bool,
        _ observe: @escaping @MainActor @Sendable (Reduction<State, Action>) -> Void
    ) {
        self.isEnabled = isEnabled
        self.isAlwaysOff = alwaysOff
        self.observe = observe
        self.anywhere = Nonisolated(isEnabled: { false }, observe: { _ in })
    }

    /// Creates an observer that calls `observe` with each reduction.
    ///
    /// It runs on the main actor. A ``Store`` calls it right after its reducer; an ``ActorStore``
    /// hands it each reduction, in order, through a queue of at most 64 that the main actor
    /// drains, and slows its dispatches while the queue is full.
    ///
    /// - Parameters:
    ///   - isEnabled: Asked before each reduction; while it returns `false` the observer is
    ///     skipped, and when every observer is skipped the store does not even build the
    ///     ``Reduction``. A logger passes "is my level enabled", so a disabled logger costs a
    ///     dispatch one call.
    ///   - observe: Called with each reduction.
    public init(
        isEnabled: @escaping @MainActor @Sendable () -> Bool = { true },
        _ observe: @escaping @MainActor @Sendable (Reduction<State, Action>) -> Void
    ) {
        self.isEnabled = isEnabled
        self.isAlwaysOff = false
        self.observe = observe
        self.anywhere = nil
    }

    private init(anywhere: Nonisolated) {
        self.isEnabled = anywhere.isEnabled
        self.isAlwaysOff = false
        self.observe = anywhere.observe
        self.anywhere = anywhere
    }

    /// Creates an observer that calls `observe` with each reduction on whatever actor its store
    /// reduces on: the main actor for a ``Store``, the store's own actor for an ``ActorStore``.
    ///
    /// ```swift
    /// let store = ActorStore(
    ///     state: Counter(),
    ///     reducer: counterReducer,
    ///     observers: [.nonisolated { reduction in log.append("\(reduction.action)") }]
    /// )
    /// ```
    ///
    /// An ``ActorStore`` calls such an observer synchronously, right after its reducer and
    /// before any side effect. Its functions must be `Sendable` and touch no actor's state; keep
    /// what they record behind a lock, or hand it on to a task.
    ///
    /// - Parameters:
    ///   - isEnabled: Asked before each reduction; while it returns `false` the observer is
    ///     skipped.
    ///   - observe: Called with each reduction.
    /// - Returns: The observer.
    public static func nonisolated(
        isEnabled: @escaping @Sendable () -> Bool = { true },
        _ observe: @escaping @Sendable (Reduction<State, Action>) -> Void
    ) -> ActionObserver {
        ActionObserver(anywhere: Nonisolated(isEnabled: isEnabled, observe: observe))
    }
}

/// The action whose side effects are running in this task, for the ``Reduction/cause`` of the
/// actions they dispatch. Set only in stores that have observers.
@usableFromInline
struct ReductionCause: Sendable {
    @usableFromInline let sequenceNumber: Int
    @usableFromInline let middlewareIndex: Int?

    @usableFromInline
    init(sequenceNumber: Int, middlewareIndex: Int?) {
        self.sequenceNumber = sequenceNumber
        self.middlewareIndex = middlewareIndex
    }

    @usableFromInline
    @TaskLocal static var current: ReductionCause?
}
