import Dependencies
import Lockstep

// A feature's part of the app with dependencies of its own, as TCA's `.dependency(\.x, value)`
// on a child reducer: lift the wrapped reducer or middleware as usual, and only its runs read the
// changed values.

/// The middleware `middleware`, run with the dependencies changed by `updateValues`.
///
/// ```swift
/// scopeMiddleware(
///     withDependencies({ $0.uuid = .constant(UUID(0)) }, middleware: detailMiddleware),
///     state: \.detail, action: \.detail, embed: AppAction.detail)
/// ```
///
/// - Parameters:
///   - updateValues: Changes the dependencies the middleware reads, from those of the store.
///   - middleware: The feature's middleware.
/// - Returns: A middleware that runs `middleware` with the changed dependencies.
public func withDependencies<State: Sendable, Action: Sendable, Services: Sendable>(
    _ updateValues: @escaping @Sendable (inout DependencyValues) -> Void,
    middleware: @escaping Middleware<State, Action, Services>
) -> Middleware<State, Action, Services> {
    { state, action, services, dispatch in
        await Dependencies.withDependencies(updateValues, operation: {
            await middleware(state, action, services, dispatch)
        })
    }
}

/// The middleware `middleware`, which needs no services, run with the dependencies changed by
/// `updateValues`.
///
/// - Parameters:
///   - updateValues: Changes the dependencies the middleware reads, from those of the store.
///   - middleware: The feature's middleware.
/// - Returns: A middleware that runs `middleware` with the changed dependencies.
public func withDependencies<State: Sendable, Action: Sendable>(
    _ updateValues: @escaping @Sendable (inout DependencyValues) -> Void,
    middleware: @escaping PlainMiddleware<State, Action>
) -> PlainMiddleware<State, Action> {
    { state, action, dispatch in
        await Dependencies.withDependencies(updateValues, operation: {
            await middleware(state, action, dispatch)
        })
    }
}

/// The in-place reducer `reducer`, run with the dependencies changed by `updateValues`.
///
/// ```swift
/// scopeReducer(
///     withDependencies({ $0.uuid = .incrementing }, reducer: detailReducer),
///     state: \.detail, action: \.detail)
/// ```
///
/// - Parameters:
///   - updateValues: Changes the dependencies the reducer reads, from those of the store.
///   - reducer: The feature's reducer.
/// - Returns: A reducer that runs `reducer` with the changed dependencies.
public func withDependencies<State, Action>(
    _ updateValues: @escaping @Sendable (inout DependencyValues) -> Void,
    reducer: @escaping InPlaceReducer<State, Action>
) -> InPlaceReducer<State, Action> {
    { state, action in
        Dependencies.withDependencies(updateValues, operation: {
            reducer(&state, action)
        })
    }
}

/// The reducer `reducer`, run with the dependencies changed by `updateValues`.
///
/// - Parameters:
///   - updateValues: Changes the dependencies the reducer reads, from those of the store.
///   - reducer: The feature's reducer.
/// - Returns: A reducer that runs `reducer` with the changed dependencies.
public func withDependencies<State, Action>(
    _ updateValues: @escaping @Sendable (inout DependencyValues) -> Void,
    reducer: @escaping Reducer<State, Action>
) -> Reducer<State, Action> {
    { state, action in
        Dependencies.withDependencies(updateValues, operation: {
            reducer(state, action)
        })
    }
}
