/// Reads of a field at any depth of the state, observed at that field alone.
///
/// `store.settings.theme` observes one level into an ``ObservableState`` part. A key path names a
/// field at any depth, and reading through it observes that field and nothing around it:
///
/// ```swift
/// Text(store[\.settings.theme.accent])   // re-renders when `accent` changes, and only then
/// ```
extension Store {
    /// The value at `keyPath`, a path of any depth into the state, observed on its own: its
    /// observers are notified only when it changes.
    ///
    /// ```swift
    /// Text(store[\.profile.preferences.theme.accent])
    /// ```
    ///
    /// - Parameter keyPath: The key path of the value in the state.
    public subscript<Value: Equatable>(keyPath: KeyPath<State, Value>) -> Value {
        self[dynamicMember: keyPath]
    }

    /// The value at `keyPath`, a path of any depth into the state, observed on its own. A value
    /// that is not `Equatable` notifies its observers on every action.
    ///
    /// - Parameter keyPath: The key path of the value in the state.
    @_disfavoredOverload
    public subscript<Value>(keyPath: KeyPath<State, Value>) -> Value {
        self[dynamicMember: keyPath]
    }
}

extension ChildStore {
    /// The value at `keyPath`, a path of any depth into the part, observed on its own.
    ///
    /// ```swift
    /// Text(child[\.preferences.theme.accent])
    /// ```
    ///
    /// - Parameter keyPath: The key path of the value in the part.
    public subscript<Value>(keyPath: KeyPath<State, Value>) -> Value {
        readPart(keyPath)
    }
}

extension StatePart {
    /// The value at `keyPath`, a path of any depth into the part, observed on its own.
    ///
    /// ```swift
    /// Text(store.settings[\.theme.accent])
    /// ```
    ///
    /// - Parameter keyPath: The key path of the value in the part.
    public subscript<Member>(keyPath: KeyPath<Value, Member>) -> Member {
        self[dynamicMember: keyPath]
    }
}
