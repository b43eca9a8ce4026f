import Foundation
import IssueReporting
import Lockstep

/// A `Shared` value kept in `UserDefaults`: TCA's `@Shared(.appStorage("key"))`, for the small
/// values settings are made of.
///
/// ```swift
/// struct SettingsState: Equatable {
///     @Shared(.appStorage("isMuted")) var isMuted = false
/// }
/// ```
///
/// The value is read from the defaults when first needed, and written to them after each
/// write. Values of the types of ``AppStorageValue`` can be kept: `Bool`, `Int`, `Double`,
/// `String`, `Data`, `Date` and `URL`.
///
/// Under a test, the defaults are not touched: the value starts from its default and lives in
/// memory, one value per test. A test of the defaults themselves makes its key with
/// `usesDefaultsUnderTests: true` and a suite of its own.
public struct AppStorageKey<Value: AppStorageValue>: SharedKey {
    /// The key in the defaults.
    public let key: String
    /// The defaults' suite, or `nil` for the standard defaults.
    public let suiteName: String?
    private let usesDefaults: Bool

    /// A key of the value kept under `key` in the defaults.
    ///
    /// - Parameters:
    ///   - key: The key in the defaults.
    ///   - suiteName: The suite of the defaults (an app group's), or `nil` for the standard
    ///     defaults.
    ///   - usesDefaultsUnderTests: Whether a test reads and writes the defaults too (by default a
    ///     test keeps the value in memory).
    public init(_ key: String, suiteName: String? = nil, usesDefaultsUnderTests: Bool = false) {
        self.key = key
        self.suiteName = suiteName
        self.usesDefaults = usesDefaultsUnderTests || !isTesting
    }

    /// The defaults of the suite (`UserDefaults` is not `Sendable`, so the key keeps its name).
    private func defaults() -> UserDefaults {
        suiteName.flatMap { UserDefaults(suiteName: $0) } ?? .standard
    }

    /// The suite and the key: two keys of one name in one suite share one value.
    public var id: String { "\(suiteName ?? "")/\(key)" }

    /// The value the defaults hold under the key, or `nil` when they hold none (or one of
    /// another type), or under a test.
    public func load() -> Value? {
        guard usesDefaults else { return nil }
        return Value.read(from: defaults(), forKey: key)
    }

    /// Writes `value` to the defaults; nothing under a test.
    ///
    /// - Parameter value: The value as the write left it.
    public func save(_ value: Value) {
        guard usesDefaults else { return }
        value.write(to: defaults(), forKey: key)
    }
}

extension AppStorageKey: RegistryNamedKey {
    /// One name in the defaults names one value, whatever the type a declaration gives it.
    package static var registryKind: ObjectIdentifier { ObjectIdentifier(AppStorageKey<Bool>.self) }
}

extension SharedKey {
    /// A value kept under `key` in `UserDefaults`, shared by every `@Shared(.appStorage(key))`
    /// of the process; see ``AppStorageKey``.
    ///
    /// ```swift
    /// @Shared(.appStorage("isMuted")) var isMuted = false
    /// ```
    ///
    /// - Parameter key: The key in the defaults.
    /// - Returns: The key.
    public static func appStorage<V>(_ key: String) -> Self where Self == AppStorageKey<V> {
        AppStorageKey(key)
    }
}

/// A value that ``AppStorageKey`` keeps in `UserDefaults`.
public protocol AppStorageValue: Sendable {
    /// The value kept under `key`, or `nil` when there is none or it is of another type.
    ///
    /// - Parameters:
    ///   - defaults: The defaults.
    ///   - key: The key.
    /// - Returns: The value.
    static func read(from defaults: UserDefaults, forKey key: String) -> Self?

    /// Keeps this value under `key`.
    ///
    /// - Parameters:
    ///   - defaults: The defaults.
    ///   - key: The key.
    func write(to defaults: UserDefaults, forKey key: String)
}

extension AppStorageValue {
    /// The value kept under `key`, read as this type.
    public static func read(from defaults: UserDefaults, forKey key: String) -> Self? {
        defaults.object(forKey: key) as? Self
    }

    /// Keeps this value under `key`.
    public func write(to defaults: UserDefaults, forKey key: String) {
        defaults.set(self, forKey: key)
    }
}

extension Bool: AppStorageValue {}
extension Int: AppStorageValue {}
extension Double: AppStorageValue {}
extension String: AppStorageValue {}
extension Data: AppStorageValue {}
extension Date: AppStorageValue {}

extension URL: AppStorageValue {
    /// The URL kept under `key`.
    public static func read(from defaults: UserDefaults, forKey key: String) -> URL? {
        #if canImport(Darwin)
        defaults.url(forKey: key)
        #else
        // swift-corelibs-foundation's `url(forKey:)` does not give back what `set(_:forKey:)`
        // took: the URL is kept as its string.
        defaults.string(forKey: key).flatMap { URL(string: $0) }
        #endif
    }

    /// Keeps this URL under `key`.
    public func write(to defaults: UserDefaults, forKey key: String) {
        #if canImport(Darwin)
        defaults.set(self, forKey: key)
        #else
        defaults.set(absoluteString, forKey: key)
        #endif
    }
}
