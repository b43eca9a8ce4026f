/// Why a ``PersistedState`` could not load or save.
///
/// Its description says where, what went wrong, and what was left as it was:
///
/// ```swift
/// do {
///     syncUps = try await persisted.load() ?? []
/// } catch {
///     print(error)  // The saved state at /…/sync-ups.json could not be decoded: … It was left as it is.
/// }
/// ```
public struct PersistenceError: Error, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Equatable, Sendable {
        /// The storage could not be read.
        case unreadable
        /// The bytes read are not a value of the persisted type.
        case undecodable
        /// A save was asked for before a load succeeded: nothing is saved over state that could
        /// not be loaded.
        case notLoaded
        /// The value could not be encoded, or the storage could not be written.
        case unwritable
    }

    /// What failed.
    public let kind: Kind
    /// Where: the storage's location.
    public let location: String
    /// The underlying error's description.
    public let reason: String

    /// An error of `kind` at `location`, for `reason`; ``PersistedState`` makes these, an app
    /// only catches them.
    ///
    /// - Parameters:
    ///   - kind: What failed.
    ///   - location: Where.
    ///   - reason: The underlying error's description.
    package init(kind: Kind, location: String, reason: String) {
        self.kind = kind
        self.location = location
        self.reason = reason
    }

    /// What failed, where, and what was left as it was.
    public var description: String {
        switch kind {
        case .unreadable:
            "The saved state at \(location) could not be read: \(reason). It was left as it is."
        case .undecodable:
            "The saved state at \(location) could not be decoded: \(reason). It was left as it is."
        case .notLoaded:
            """
            Nothing was saved to \(location): its saved state was not loaded (\(reason)), and a save \
            would replace it. Load it first, or move the file away to start afresh.
            """
        case .unwritable:
            "The state could not be saved to \(location): \(reason). The last save is still there."
        }
    }
}
