import Observation

/// A store that observes parts of its state on their own: reading a part registers an
/// observation of that part only. ``Store`` and LockstepTesting's `MockStore` are; a child store
/// of one observes through it, and a child store of any other ``StoreProtocol`` observes the
/// parent's whole state.
@MainActor
package protocol PartObservable<ObservedState>: AnyObject {
    associatedtype ObservedState

    /// The state, read without registering an observation.
    var unobservedState: ObservedState { get }

    /// Registers an observation of the part of the state at `keyPath`.
    func observePart<Value>(_ keyPath: KeyPath<ObservedState, Value>)

    /// The child stores made from this store, by state path and action embedding.
    var childStores: ChildStoreCache { get }
}

extension Store: PartObservable {
    package var unobservedState: State { currentState }

    package func observePart<Value>(_ keyPath: KeyPath<State, Value>) {
        observations.access(keyPath, in: currentState, subject: self, registrar: registrar, isEqual: nil)
    }
}

extension Store: StatePartSource {
    package func readPart<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        observePart(keyPath)
        return currentState[keyPath: keyPath]
    }
}
