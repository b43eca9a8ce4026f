/// A part of the state whose own properties a view observes one by one through a store.
///
/// Reading `store.settings` observes the whole `settings` value, so a view that shows only
/// `store.settings.theme` would also re-render when `settings.fontSize` changes. Conform the
/// part's type to `ObservableState` and the same read observes `settings.theme` alone:
///
/// ```swift
/// struct Settings: ObservableState {
///     var theme = "dark"
///     var fontSize = 14
/// }
///
/// struct AppState: Equatable {
///     var settings = Settings()
///     var counter = 0
/// }
///
/// Text(store.settings.theme)   // re-renders when `theme` changes, not when `fontSize` does
/// ```
///
/// Through a store, such a part reads as a ``StatePart``, which reads each property of the part
/// on its own. Where the whole value is wanted, give the type or read ``StatePart/value``:
///
/// ```swift
/// let settings: Settings = store.settings   // observes all of `settings`
/// let same = store.settings.value           // the same
/// ```
///
/// `Store`, `ChildStore` and LockstepTesting's `MockStore` read parts this way, so a view model's
/// test sees the observations the app has. The finer observation goes one level into the part:
/// `store.settings.theme.accent` observes `settings.theme`. A key path reads a field at any depth
/// and observes it alone:
///
/// ```swift
/// Text(store[\.settings.theme.accent])   // re-renders when `accent` changes, and only then
/// Text(store.settings[\.theme.accent])   // the same, from the part
/// ```
public protocol ObservableState: Equatable {}

/// A store that reads parts of its state through key paths, observing each part on its own.
@MainActor
package protocol StatePartSource<PartRoot>: AnyObject {
    associatedtype PartRoot

    /// Registers an observation of the part at `keyPath` alone and returns its value.
    func readPart<Value>(_ keyPath: KeyPath<PartRoot, Value>) -> Value
}

/// A part of a store's state whose type is ``ObservableState``, as a view reads it through the
/// store: each property read through it is observed on its own.
///
/// ```swift
/// Text(store.settings.theme)   // observes `settings.theme` only
/// ```
///
/// A `StatePart` is made by the store for each read and is meant to be read at once, not kept.
@MainActor
@dynamicMemberLookup
public struct StatePart<Root, Value: ObservableState> {
    private let source: any StatePartSource<Root>
    private let path: KeyPath<Root, Value>

    package init(source: any StatePartSource<Root>, path: KeyPath<Root, Value>) {
        self.source = source
        self.path = path
    }

    /// The whole part, observed as a whole.
    ///
    /// ```swift
    /// let settings = store.settings.value
    /// ```
    public var value: Value {
        source.readPart(path)
    }

    /// The value at `keyPath` of the part, observed on its own: when the value is `Equatable`,
    /// its observers are notified only when it changes; otherwise on every action.
    ///
    /// ```swift
    /// Text(store.settings.theme)
    /// ```
    ///
    /// - Parameter keyPath: The key path of the value in the part.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        source.readPart(path.appending(path: keyPath))
    }
}
