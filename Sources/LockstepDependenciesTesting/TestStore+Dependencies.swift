import Dependencies
import Lockstep
import LockstepDependencies
import LockstepTesting

extension TestStore {
    /// The dependencies the store's next steps read: change them between steps, as in TCA.
    ///
    /// ```swift
    /// let store = withDependencies {
    ///     $0.uuid = .incrementing
    /// } store: {
    ///     TestStore(state: SyncUpsList.State(), reducer: syncUpsListReducer)
    /// }
    /// await store.send(.addButtonTapped) { $0.destination = .add(SyncUp(id: UUID(0))) }
    /// store.dependencies.uuid = .constant(UUID(7))
    /// ```
    ///
    /// Every later `send`, and the side effects it starts, read the new values; an effect
    /// registered earlier keeps the values its task started with.
    public var dependencies: DependencyValues {
        get { store.dependencies }
        set { store.dependencies = newValue }
    }
}
