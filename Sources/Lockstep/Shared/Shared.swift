/// One value that several features hold in their states, with one source of truth: a write
/// through any of them is seen by all of them, with no code that copies it from one to another.
///
/// A sync-up shown by a list, edited by its detail screen and recorded by its meeting screen is
/// one shared value; each feature's state holds it as `@Shared`:
///
/// ```swift
/// struct SyncUpsList: Equatable {
///     @Shared var syncUps: IdentifiedArrayOf<SyncUp>
/// }
///
/// struct SyncUpDetail: Equatable {
///     @Shared var syncUp: SyncUp
///     var destination: Destination?
/// }
///
/// // Pushing the detail of one row shares that row:
/// if let syncUp = Shared(state.list.$syncUps[id: id]) {
///     state.path.append(.detail(SyncUpDetail(syncUp: syncUp)))
/// }
/// ```
///
/// A reducer reads and writes it as a plain property (`state.syncUp.title = "Design"`), or
/// changes it in one step with ``withLock(_:)``. `$syncUp.title` shares a part of the value;
/// `Shared($syncUps[id: id])` shares one row of a collection, as long as the row is there.
///
/// ## In views
/// A view that reads `store.syncUp.title` is updated when the title changes, whether the change
/// came from this store's reducer, from a middleware, or from another store that holds the same
/// value.
///
/// ## In tests
/// A test store asserts a change to a shared value once, through any of the states that hold
/// it, as it would a plain value: `$0.syncUp.title = "Design"`. What the assertion sets is
/// compared with the value right after the action; it never writes to the shared value itself.
/// A write made outside a reducer (by a middleware) is asserted with the next action's state.
///
/// Code that keeps an old state to compare with a new one sees a shared value as it is now on
/// both sides, as every copy points to the one value: to be told of its changes, select the
/// value itself (`store.select { $0.detail?.syncUp }` gives `SyncUp` values, compared after
/// each of the store's actions), or read it in a view, which any write updates.
///
/// Copies of a `Shared` share the value; ``init(value:)`` makes a new one. Inside its own
/// ``withLock(_:)``, a read of the shared value gives the value as `withLock` found it; change
/// the value the closure is given (a write through the shared value there is reported and not
/// applied).
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
    let reference: any SharedReference<Value>

    init(reference: any SharedReference<Value>) {
        self.reference = reference
    }

    /// A new shared value, held by no one else yet.
    ///
    /// ```swift
    /// let syncUps = Shared(value: IdentifiedArrayOf<SyncUp>())
    /// let list = SyncUpsList(syncUps: syncUps)
    ///
    /// struct Settings: Equatable {
    ///     @Shared(value: false) var isMuted: Bool   // a new shared value for each `Settings()`
    /// }
    /// ```
    ///
    /// A state's memberwise initializer takes a `Shared` for each `@Shared` property, so a
    /// feature is made with the value it shares.
    ///
    /// - Parameter value: The value to share.
    public init(value: Value) {
        self.init(reference: SharedBox(value))
    }

    /// The shared value `projectedValue` holds, for a property declared with `@Shared`:
    /// `init(syncUp: Shared<SyncUp>) { _syncUp = Shared(projectedValue: syncUp) }`, which is
    /// what `self._syncUp = syncUp` does.
    ///
    /// - Parameter projectedValue: The shared value to hold.
    public init(projectedValue: Shared<Value>) {
        self = projectedValue
    }

    /// The present value of a shared optional, or `nil` when it is `nil` now.
    ///
    /// ```swift
    /// if let syncUp = Shared(state.$syncUps[id: id]) { … }   // one row, shared
    /// ```
    ///
    /// When the optional later becomes `nil` (the row is removed), the result keeps reading the
    /// value it last saw, and writes to it are dropped.
    ///
    /// - Parameter optional: A shared optional value.
    public init?(_ optional: Shared<Value?>) {
        guard let reference = SharedUnwrapped(optional.reference) else { return nil }
        self.init(reference: reference)
    }

    /// The value. Setting it writes it for every holder.
    public var wrappedValue: Value {
        get { reference.value(in: SharedReading.inForce) }
        nonmutating set { reference.modify(in: SharedReading.inForce) { $0 = newValue } }
    }

    /// The shared value itself, to hand to another feature or to share a part of it:
    /// `$syncUp`, `$syncUp.title`.
    public var projectedValue: Shared<Value> {
        get { self }
        set { self = newValue }
    }

    /// Changes the value in one step: no other write comes between the read and the write.
    ///
    /// ```swift
    /// state.$syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
    /// ```
    ///
    /// - Parameter body: Changes the value it is given. A read of the shared value inside it
    ///   gives the value as this call found it; a write through the shared value inside it is
    ///   reported as an issue and not applied, as this call writes its value back when `body`
    ///   returns.
    /// - Returns: What `body` returns.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try reference.modify(in: SharedReading.inForce, body)
    }

    /// A part of the value, shared: writing it writes the value.
    ///
    /// ```swift
    /// let title: Shared<String> = state.$syncUp.title
    /// let row: Shared<SyncUp?> = state.$syncUps[id: id]
    /// ```
    ///
    /// - Parameter keyPath: The part of the value.
    public subscript<Member: Sendable>(
        dynamicMember keyPath: WritableKeyPath<Value, Member> & Sendable
    ) -> Shared<Member> {
        Shared<Member>(reference: SharedPart(reference, keyPath))
    }

    /// Whether `other` shares the same value as this one (one of them may share a part of it).
    ///
    /// - Parameter other: Another shared value.
    /// - Returns: Whether both are held in the same place.
    public func sharesStorage<Other>(with other: Shared<Other>) -> Bool {
        reference.root === other.reference.root
    }
}

extension Shared: Equatable where Value: Equatable {
    /// Whether the two values are equal (not whether they are shared: see
    /// ``sharesStorage(with:)``).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if SharedVersions.isRecording, let comparison = SharedReading.comparison {
            return lhs.reference.value(in: comparison.expected) == rhs.reference.value(in: comparison.actual)
        }
        return lhs.wrappedValue == rhs.wrappedValue
    }
}

extension Shared: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension Shared: Identifiable where Value: Identifiable {
    /// The value's id.
    public var id: Value.ID { wrappedValue.id }
}

extension Shared: CustomStringConvertible {
    public var description: String { String(describing: wrappedValue) }
}

extension Shared: CustomReflectable {
    /// The value's mirror: a dump or a test's diff shows the value, not where it is kept.
    public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

extension Shared: Codable where Value: Codable {
    /// Decodes the value and shares it, as ``init(value:)`` does.
    public init(from decoder: any Decoder) throws {
        self.init(value: try Value(from: decoder))
    }

    /// Encodes the value alone.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}
