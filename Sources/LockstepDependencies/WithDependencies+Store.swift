import Dependencies
import Lockstep

/// Makes a store that keeps the current dependencies, changed by `updateValuesForStore`, for its
/// whole life.
///
/// Everything the store runs reads these dependencies through `@Dependency`, whatever task asks
/// for it: its reducer, its middlewares and effects, a dispatch from a view's button, the tasks
/// its work starts. It works for every kind of store made inside `makeStore`: `Store`,
/// `ActorStore` and LockstepTesting's `TestStore`.
///
/// ```swift
/// let store = withDependencies {
///     $0.uuid = .incrementing
///     $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } store: {
///     Store(state: SyncUpsList.State(), reducer: syncUpsListReducer)
/// }
/// ```
///
/// This is TCA's `Store(initialState:reducer:withDependencies:)`. A store made outside it reads
/// the dependencies of the task that runs each operation (the live values in an app, or the
/// values of the test's `.dependency` trait for the test's own dispatches), as any code that
/// reads `@Dependency` does.
///
/// - Parameters:
///   - updateValuesForStore: Changes the dependencies the store keeps, as
///     `withDependencies(_:operation:)` changes them for its operation.
///   - makeStore: Makes the store; runs with the changed dependencies too, so an initial state
///     that reads `@Dependency` reads them.
/// - Returns: The store `makeStore` made.
public func withDependencies<Made>(
    _ updateValuesForStore: (inout DependencyValues) throws -> Void,
    store makeStore: () throws -> Made
) rethrows -> Made {
    try Dependencies.withDependencies(updateValuesForStore, operation: {
        let context = DependenciesContext(DependencyValues._current)
        return try StoreContexts.$forNewStores.withValue(context) {
            try makeStore()
        }
    })
}
