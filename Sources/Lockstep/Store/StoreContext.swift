/// What a store applies around each operation it runs, whatever task asks for it: the reducer
/// of a dispatch or a `send`, the side effects that follow it, and the start of an effect.
///
/// A module that gives stores something to keep (LockstepDependencies: the dependencies the
/// store was made with) implements it and hands it to the stores made inside
/// ``StoreContexts/forNewStores``. A store made with none pays one check of an optional per
/// dispatch, and reads no task-local while it dispatches.
@usableFromInline
package protocol StoreContext: AnyObject, Sendable {
    /// Runs `operation`, synchronously, inside the context.
    func run(_ operation: () -> Void)
    /// Runs `operation` inside the context, on `isolation`.
    func run(isolation: isolated (any Actor)?, _ operation: () async -> Void) async
}

/// Where a store finds the context to keep, when it is made.
package enum StoreContexts {
    /// The context a store made now keeps for its whole life (read once, by its initializer).
    @TaskLocal package static var forNewStores: (any StoreContext)?
}
