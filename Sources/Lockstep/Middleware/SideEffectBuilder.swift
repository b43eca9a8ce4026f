/// One statement of a store's side effects: a middleware lifted to a feature with
/// ``scopeMiddleware(_:state:action:embed:)-(Middleware<FeatureState,FeatureAction,Services>,_,_,_)``,
/// ``ifLetMiddleware(_:state:action:embed:fileID:line:)-(Middleware<FeatureState,FeatureAction,Services>,_,(Action)->FeatureAction?,_,_,_)``
/// or `forEachMiddleware`, or a plain middleware the ``SideEffectBuilder`` wraps.
///
/// A lifted one carries the function that extracts its feature's action, which the store asks
/// right after the reducer, before it calls or schedules anything: an action for no feature costs
/// each lifted middleware a check, not a call or a task, and an action that no statement and no
/// effect takes returns from `dispatch` with no suspension.
public struct SideEffect<State, Action: Sendable, Services>: Sendable {
    /// The middleware, called for the actions `selects` takes (every action when it is `nil`).
    let middleware: Middleware<State, Action, Services>
    /// Whether the middleware is called for an action, given the state right after the reducer,
    /// or `nil` for a plain middleware, called for every action. It is called synchronously after
    /// the reducer, in the order of the reductions, and also records what it must there: the
    /// presence of a lifted child or row (cancelling the work of a dismissed child or a removed
    /// row), and, for a child's or a row's action, the registration of the work the middleware
    /// starts for it, which a later dismissal or removal cancels even before it starts.
    let selects: SideEffectSelector<State, Action>?

    /// A plain middleware: called for every action.
    init(always middleware: @escaping Middleware<State, Action, Services>) {
        self.middleware = middleware
        selects = nil
    }

    /// A lifted middleware, called for the actions `selects` takes.
    @usableFromInline
    init(
        _ middleware: @escaping Middleware<State, Action, Services>,
        selects: @escaping SideEffectSelector<State, Action>
    ) {
        self.middleware = middleware
        self.selects = selects
    }

    /// A lifted middleware, called for the actions `selects` takes.
    init(
        selects: @escaping SideEffectSelector<State, Action>,
        _ middleware: @escaping Middleware<State, Action, Services>
    ) {
        self.middleware = middleware
        self.selects = selects
    }
}

extension SideEffect {
    /// A middleware called for every action, as one element of a list of side effects.
    ///
    /// A ``SideEffectBuilder`` wraps a plain middleware itself; this initializer is for a list
    /// written as an array:
    ///
    /// ```swift
    /// let appSideEffects: [SideEffect<AppState, AppAction, AppServices>] = [
    ///     SideEffect(analyticsMiddleware),
    ///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search),
    /// ]
    /// ```
    ///
    /// - Parameter middleware: The middleware, handed the store's services on every call.
    public init(_ middleware: @escaping Middleware<State, Action, Services>) {
        self.init(always: middleware)
    }

    /// A middleware that needs no services, called for every action, as one element of a list of
    /// side effects of a store with services of any type.
    ///
    /// - Parameter middleware: The middleware.
    public init(_ middleware: @escaping PlainMiddleware<State, Action>) {
        self.init(always: { state, action, _, dispatch in await middleware(state, action, dispatch) })
    }
}

/// A list of side effects: what a ``SideEffectBuilder`` makes, and what a feature hands to the
/// store's builder as one statement.
///
/// Compose it once and keep it as a constant, with the builder:
///
/// ```swift
/// let appSideEffects = SideEffects<AppState, AppAction, AppServices> {
///     analyticsMiddleware
///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
/// }
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     appSideEffects
/// }
/// ```
///
/// The lifts are made once, where a computed `@SideEffectBuilder var` makes them anew on each
/// access.
public typealias SideEffects<State, Action: Sendable, Services> = [SideEffect<State, Action, Services>]

extension Array {
    /// Side effects composed in a ``SideEffectBuilder``: `SideEffects<State, Action, Services> { ... }`.
    ///
    /// - Parameter sideEffects: The statements, as in a store's builder.
    public init<State, Action: Sendable, Services>(
        @SideEffectBuilder<State, Action, Services> _ sideEffects: () -> [SideEffect<State, Action, Services>]
    ) where Element == SideEffect<State, Action, Services> {
        self = sideEffects()
    }
}

extension SideEffect where Services == Void {
    /// This side effect in a store with services of any type, which it ignores.
    func ignoringServices<Other>() -> SideEffect<State, Action, Other> {
        let middleware = self.middleware
        let always: Middleware<State, Action, Other> = { state, action, _, dispatch in
            await middleware(state, action, (), dispatch)
        }
        guard let selects else { return SideEffect<State, Action, Other>(always: always) }
        return SideEffect<State, Action, Other>(always, selects: selects)
    }
}

/// Whether a lifted middleware takes an action, given the state right after the reducer and the
/// store's dispatcher (for its cancellations). A lift nested in a feature's side effects is asked
/// with a `nil` action for an action of another feature: it records the presence of its child
/// (cancelling a dismissed one's work) and skips, as a lift of the store itself does for every
/// action.
@usableFromInline
typealias SideEffectSelector<State, Action: Sendable> = @Sendable (
    _ state: State, _ action: Action?, _ dispatch: Dispatcher<Action>
) -> SideEffectSelection

/// What the check of a lifted middleware decided for an action, right after its reducer.
@usableFromInline
enum SideEffectSelection: Sendable {
    /// The middleware is not called.
    case skipped
    /// The middleware is called.
    case selected
    /// The middleware is called, and the work it starts for a presented child or a row is
    /// registered already (see ``ChildWorkReservation``): the middleware receives the
    /// reservation in its dispatcher and starts the work under it.
    case reserved(ChildWorkReservation)

    /// Whether the middleware is called.
    var isSelected: Bool {
        if case .skipped = self { return false }
        return true
    }
}

/// Composes a store's side effects, as TCA's `@ReducerBuilder` composes reducers: each statement
/// is a middleware (called for every action) or a middleware lifted to a feature (called only
/// for that feature's actions).
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     analyticsMiddleware
///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
///     ifLetMiddleware(detailMiddleware, state: \.detail, action: \.detail, embed: AppAction.detail)
///     if services.isSyncEnabled {
///         syncMiddleware
///     }
/// }
/// ```
///
/// The statements run concurrently after the reducer, as the `middlewares:` array's do. `if`,
/// `if`/`else`, `switch` and `for` work as in any result builder.
@resultBuilder
public enum SideEffectBuilder<State, Action: Sendable, Services> {
    /// A middleware lifted to a feature.
    public static func buildExpression(
        _ sideEffect: SideEffect<State, Action, Services>
    ) -> [SideEffect<State, Action, Services>] {
        [sideEffect]
    }

    /// A middleware lifted to a feature whose middleware needs no services, in a store that has
    /// services.
    @_disfavoredOverload
    public static func buildExpression(
        _ sideEffect: SideEffect<State, Action, Void>
    ) -> [SideEffect<State, Action, Services>] {
        [sideEffect.ignoringServices()]
    }

    /// A middleware that receives the services, called for every action.
    public static func buildExpression(
        _ middleware: @escaping Middleware<State, Action, Services>
    ) -> [SideEffect<State, Action, Services>] {
        [SideEffect(always: middleware)]
    }

    /// A middleware that needs no services, called for every action.
    public static func buildExpression(
        _ middleware: @escaping PlainMiddleware<State, Action>
    ) -> [SideEffect<State, Action, Services>] {
        [SideEffect(always: { state, action, _, dispatch in await middleware(state, action, dispatch) })]
    }

    /// Side effects composed elsewhere, such as a feature's, made by a function marked
    /// `@SideEffectBuilder`.
    public static func buildExpression(
        _ sideEffects: [SideEffect<State, Action, Services>]
    ) -> [SideEffect<State, Action, Services>] {
        sideEffects
    }

    /// Side effects composed elsewhere that need no services, in a store that has services.
    @_disfavoredOverload
    public static func buildExpression(
        _ sideEffects: [SideEffect<State, Action, Void>]
    ) -> [SideEffect<State, Action, Services>] {
        sideEffects.map { $0.ignoringServices() }
    }

    /// The statements of a block, in order.
    public static func buildBlock(
        _ statements: [SideEffect<State, Action, Services>]...
    ) -> [SideEffect<State, Action, Services>] {
        statements.flatMap { $0 }
    }

    /// The statements of an `if` without `else`, or none.
    public static func buildOptional(
        _ statements: [SideEffect<State, Action, Services>]?
    ) -> [SideEffect<State, Action, Services>] {
        statements ?? []
    }

    /// The statements of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(
        first statements: [SideEffect<State, Action, Services>]
    ) -> [SideEffect<State, Action, Services>] {
        statements
    }

    /// The statements of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(
        second statements: [SideEffect<State, Action, Services>]
    ) -> [SideEffect<State, Action, Services>] {
        statements
    }

    /// The statements of every pass of a `for` loop.
    public static func buildArray(
        _ statements: [[SideEffect<State, Action, Services>]]
    ) -> [SideEffect<State, Action, Services>] {
        statements.flatMap { $0 }
    }

    /// The statements of an `if #available` block.
    public static func buildLimitedAvailability(
        _ statements: [SideEffect<State, Action, Services>]
    ) -> [SideEffect<State, Action, Services>] {
        statements
    }
}

/// A store's side effects with the services bound: the middlewares, and for each the check that
/// selects its actions (`nil` for one called for every action). `selectors` is `nil` when every
/// middleware is called for every action, as with the `middlewares:` array.
package struct BoundSideEffects<State, Action: Sendable>: Sendable {
    let middlewares: [BoundMiddleware<State, Action>]
    let selectors: [SideEffectSelector<State, Action>?]?
    /// The middlewares with their services, called with no wrapper, when every one is called for
    /// every action and they take services.
    let chain: MiddlewareChain<State, Action>?

    /// Middlewares all called for every action.
    init(_ middlewares: [BoundMiddleware<State, Action>]) {
        self.middlewares = middlewares
        selectors = nil
        chain = nil
    }

    /// Middlewares that take `services`, all called for every action.
    init<Services: Sendable>(_ middlewares: [Middleware<State, Action, Services>], services: Services) {
        self.middlewares = bind(middlewares, to: services)
        selectors = nil
        chain = middlewares.isEmpty ? nil : MiddlewareChain(middlewares, services: services)
    }

    /// The statements of a ``SideEffectBuilder``, with `services` bound.
    package init<Services: Sendable>(_ sideEffects: [SideEffect<State, Action, Services>], services: Services) {
        middlewares = sideEffects.map { sideEffect in
            let middleware = sideEffect.middleware
            return { state, action, dispatch in await middleware(state, action, services, dispatch) }
        }
        selectors = sideEffects.contains { $0.selects != nil } ? sideEffects.map(\.selects) : nil
        chain = selectors != nil || sideEffects.isEmpty
            ? nil : MiddlewareChain(sideEffects.map(\.middleware), services: services)
    }

    /// Asks every selector about the initial state, with no action, so that the lifts record
    /// what it presents (a case lift then knows its case was there before the first action).
    func recordInitialPresence(state: State, dispatcher: Dispatcher<Action>) {
        for selects in selectors ?? [] {
            _ = selects?(state, nil, dispatcher)
        }
    }

    /// The middlewares to call for `action`, with their positions among all the middlewares when
    /// some are left out (`nil` when all are called). Asks every selector, in order, even once
    /// one has taken the action: each records what it must after the reducer. A middleware whose
    /// selector reserved the work of a child is called with the reservation in its dispatcher.
    func selected(
        state: State, action: Action, dispatcher: Dispatcher<Action>
    ) -> (middlewares: [BoundMiddleware<State, Action>], positions: [Int]?) {
        guard let selectors else { return (middlewares, nil) }
        var selected: [BoundMiddleware<State, Action>] = []
        var positions: [Int] = []
        for index in selectors.indices {
            switch selectors[index]?(state, action, dispatcher) ?? .selected {
            case .skipped:
                continue
            case .selected:
                selected.append(middlewares[index])
            case .reserved(let reservation):
                let middleware = middlewares[index]
                selected.append { state, action, dispatch in
                    await middleware(state, action, dispatch.reserving(reservation))
                }
            }
            positions.append(index)
        }
        return (selected, positions.count == middlewares.count ? nil : positions)
    }
}
