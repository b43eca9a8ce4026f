import Dependencies
import Lockstep

extension Store {
    /// The dependencies the store's operations read from now on: the ones it keeps, or the
    /// current task's when it keeps none. Setting them makes it keep the new values; work
    /// already running (a registered effect's task) keeps what it started with.
    ///
    /// LockstepDependenciesTesting's `TestStore.dependencies` is this property of its store.
    public var dependencies: DependencyValues {
        get {
            (context as? DependenciesContext)?.dependencies ?? DependencyValues._current
        }
        set {
            if let kept = context as? DependenciesContext {
                kept.dependencies = newValue
            } else {
                context = DependenciesContext(newValue)
            }
        }
    }
}

extension ActorStore {
    /// The dependencies the store keeps, or the current task's when it keeps none (it keeps
    /// them when made inside `withDependencies(_:store:)`).
    public nonisolated var dependencies: DependencyValues {
        (context as? DependenciesContext)?.dependencies ?? DependencyValues._current
    }
}
