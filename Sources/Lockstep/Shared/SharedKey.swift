import IssueReporting

/// Where a ``Shared`` value named by a key is kept: every `@Shared` declared with keys of the
/// same id shares one value, across features and stores, and the key's storage loads it once and
/// saves each write.
///
/// ```swift
/// struct CounterState: Equatable {
///     @Shared(.inMemory("count")) var count = 0
/// }
///
/// struct BadgeState: Equatable {
///     @Shared(.inMemory("count")) var count = 0   // the same value as CounterState's
/// }
/// ```
///
/// Lockstep has ``InMemoryKey`` (``SharedKey/inMemory(_:)``); LockstepPersistence adds
/// `.fileStorage(url)`. A key of your own conforms to this protocol.
///
/// Under a test (Swift Testing), each test has its own values: two tests that use the same key
/// never see each other's, even when they run at once.
public protocol SharedKey<Value>: Sendable {
    /// The value the key names.
    associatedtype Value: Sendable
    /// What identifies the value: keys of the same type with equal ids share one value.
    associatedtype ID: Hashable & Sendable

    /// The key's identity.
    var id: ID { get }

    /// The value the storage holds, or `nil` when it holds none (the declaration's default is
    /// used). Called once, when the value is first needed.
    func load() -> Value?

    /// Keeps `value`, written through a `Shared` of this key. Called after each write, in the
    /// order of the writes, while the value is held for the write: keep it quick and do not touch
    /// the shared value from it (a storage that writes a file hands that to a task of its own).
    ///
    /// - Parameter value: The value as the write left it.
    func save(_ value: Value)
}

/// A value kept in memory for the life of the process, under a name: TCA's
/// `@Shared(.inMemory("name"))`.
public struct InMemoryKey<Value: Sendable>: SharedKey {
    /// The name.
    public let name: String

    /// A key of the value named `name`.
    ///
    /// - Parameter name: The name.
    public init(_ name: String) {
        self.name = name
    }

    /// The name.
    public var id: String { name }

    /// Nothing: the value starts as the declaration's default.
    public func load() -> Value? { nil }

    /// Nothing: memory holds the value.
    public func save(_ value: Value) {}
}

extension SharedKey {
    /// A value kept in memory under `name`, shared by every `@Shared(.inMemory(name))` of the
    /// process (of the test, under a test).
    ///
    /// ```swift
    /// @Shared(.inMemory("isMuted")) var isMuted = false
    /// ```
    ///
    /// - Parameter name: The name.
    /// - Returns: The key.
    public static func inMemory<V>(_ name: String) -> Self where Self == InMemoryKey<V> {
        InMemoryKey(name)
    }

    /// This key with the value to start from when its storage holds none, so a declaration
    /// needs none: `@Shared(.syncUps) var syncUps`.
    public typealias Default = SharedKeyDefault<Self>
}

/// A key with the value to start from when its storage holds none, made with
/// `Self[key, default: value]`:
///
/// ```swift
/// extension SharedKey where Self == InMemoryKey<[String]>.Default {
///     static var recentSearches: Self { Self[.inMemory("recentSearches"), default: []] }
/// }
///
/// @Shared(.recentSearches) var recentSearches
/// ```
public struct SharedKeyDefault<Base: SharedKey>: SharedKey {
    /// The key.
    public let base: Base
    let defaultValue: @Sendable () -> Base.Value

    /// `key`, starting from `value` when its storage holds none.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value to start from.
    public static subscript(
        _ key: Base,
        default value: @autoclosure @escaping @Sendable () -> Base.Value
    ) -> Self {
        Self(base: key, defaultValue: value)
    }

    /// The key's id.
    public var id: Base.ID { base.id }

    /// What the key's storage holds.
    public func load() -> Base.Value? { base.load() }

    /// Saves through the key.
    ///
    /// - Parameter value: The value as the write left it.
    public func save(_ value: Base.Value) { base.save(value) }
}

extension Shared {
    /// The value `key` names, shared with every other `@Shared` of a key with the same id; it
    /// starts as what the key's storage holds, or as `wrappedValue` when it holds none and no
    /// other holder made it first.
    ///
    /// ```swift
    /// @Shared(.inMemory("count")) var count = 0
    /// ```
    ///
    /// - Parameters:
    ///   - wrappedValue: The value to start from.
    ///   - key: The key.
    public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
        self.init(reference: SharedKeyRegistry.box(for: key, default: wrappedValue))
    }

    /// The value `key` names, starting from the key's default.
    ///
    /// ```swift
    /// @Shared(.syncUps) var syncUps
    /// ```
    ///
    /// - Parameter key: The key, with its default (`Self[key, default: value]`).
    public init<Base: SharedKey<Value>>(_ key: SharedKeyDefault<Base>) {
        self.init(reference: SharedKeyRegistry.box(for: key, default: key.defaultValue))
    }

    /// The value `key` names, starting from `wrappedValue` rather than the key's default when
    /// no other holder made it first.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value to start from.
    ///   - key: The key, with its default.
    public init<Base: SharedKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: SharedKeyDefault<Base>) {
        self.init(reference: SharedKeyRegistry.box(for: key, default: wrappedValue))
    }
}

/// The values of keys: one box per key type and id, and per test under Swift Testing.
enum SharedKeyRegistry {
    private struct Entry: Hashable, Sendable {
        /// The running Swift Testing test, or `nil` outside of one.
        let test: TestContext.Testing.Test.ID?
        let keyType: ObjectIdentifier
        let id: KeyID
    }

    /// A key's id, compared and hashed as the `AnyHashable` of its value.
    private struct KeyID: Hashable, Sendable {
        let value: any Hashable & Sendable

        static func == (lhs: KeyID, rhs: KeyID) -> Bool { AnyHashable(lhs.value) == AnyHashable(rhs.value) }
        func hash(into hasher: inout Hasher) { AnyHashable(value).hash(into: &hasher) }
    }

    private static let boxes = Lock<[Entry: any SharedRoot]>([:])

    static func box<Key: SharedKey>(for key: Key, default makeDefault: () -> Key.Value) -> SharedBox<Key.Value> {
        // A key with a default names the same value as the key it wraps, and a name of an
        // in-memory key (a file of a file key) names one value whatever its type.
        let keyType = sharedKeyKind(of: Key.self)
        let entry = Entry(test: currentTest(), keyType: keyType, id: KeyID(value: key.id))
        if let found = boxes.withLock({ $0[entry] }) {
            if let box = found as? SharedBox<Key.Value> { return box }
            reportIssue(
                "The shared key \(key.id) (\(Key.self)) already names a value of another type; "
                    + "this @Shared of \(Key.Value.self) gets a value of its own.")
            return SharedBox(makeDefault())
        }
        // Loaded outside the lock (a file read); if another holder made the value meanwhile,
        // that one wins and this load is dropped.
        let made = SharedBox(key.load() ?? makeDefault(), didWrite: { key.save($0) })
        return boxes.withLock { boxes in
            if let existing = boxes[entry] as? SharedBox<Key.Value> { return existing }
            boxes[entry] = made
            return made
        }
    }

    /// The id of the Swift Testing test this task runs, so that each test has its own values.
    private static func currentTest() -> TestContext.Testing.Test.ID? {
        guard case .swiftTesting(let testing?)? = TestContext.current else { return nil }
        return testing.test.id
    }
}

/// A key whose values of every type share one namespace: `.inMemory("count")` names one value,
/// so a second declaration of another type is a mistake to report.
package protocol RegistryNamedKey {
    /// The namespace of the key's ids.
    static var registryKind: ObjectIdentifier { get }
}

extension InMemoryKey: RegistryNamedKey {
    package static var registryKind: ObjectIdentifier { ObjectIdentifier(InMemoryKey<Never>.self) }
}

extension SharedKeyDefault: RegistryNamedKey {
    package static var registryKind: ObjectIdentifier { sharedKeyKind(of: Base.self) }
}

/// The namespace of `key`'s ids: its type's, or the one it names.
private func sharedKeyKind<Key>(of type: Key.Type) -> ObjectIdentifier {
    (type as? any RegistryNamedKey.Type)?.registryKind ?? ObjectIdentifier(type)
}
