import Dependencies
import Lockstep

/// The dependencies a store keeps: every operation the store runs (a reducer, the side effects
/// of an action, the start of an effect), from whatever task, reads them through `@Dependency`.
///
/// A test store's can be changed between steps (`store.dependencies.uuid = .incrementing`);
/// work already running keeps what it started with, as a task keeps its task-locals.
final class DependenciesContext: StoreContext {
    private let values: Lock<DependencyValues>

    init(_ values: DependencyValues) {
        self.values = Lock(values)
    }

    /// The dependencies the store's operations read from now on.
    var dependencies: DependencyValues {
        get { values.withLock { $0 } }
        set { values.withLock { $0 = newValue } }
    }

    func run(_ operation: () -> Void) {
        DependencyValues.$_current.withValue(dependencies, operation: operation)
    }

    func run(isolation: isolated (any Actor)?, _ operation: () async -> Void) async {
        await DependencyValues.$_current.withValue(dependencies, operation: operation)
    }
}
