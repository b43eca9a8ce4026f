// Stand-ins for SwiftUI's animations and transactions, which `send(_:animation:)` and
// `send(_:transaction:)` use. Empty where SwiftUI exists; see SwiftUIStandIns.swift.
#if !canImport(SwiftUI)

/// How a change is animated: SwiftUI's `Animation`.
public struct Animation: Equatable, Sendable {
    let name: String

    /// The default animation.
    public static let `default` = Animation(name: "default")
    /// An animation at constant speed.
    public static let linear = Animation(name: "linear")
    /// An animation that starts and ends slowly.
    public static let easeInOut = Animation(name: "easeInOut")
}

/// The context of a change, with its animation: SwiftUI's `Transaction`.
public struct Transaction: Sendable {
    /// The animation of the change, or `nil` for none.
    public var animation: Animation?

    /// A transaction with no animation.
    public init() {}

    /// A transaction with `animation`.
    ///
    /// - Parameter animation: The animation of the change.
    public init(animation: Animation?) {
        self.animation = animation
    }

    /// The transaction of the `withTransaction` or `withAnimation` block running now, or `nil`
    /// outside one. Stand-in only (SwiftUI hands the transaction to the views it updates), so
    /// that a test sees in which transaction a change was made.
    @MainActor public static var current: Transaction? { TransactionStack.current }
}

@MainActor
enum TransactionStack {
    static var current: Transaction?
}

/// Runs `body` in `transaction`: SwiftUI's `withTransaction`.
///
/// - Parameters:
///   - transaction: The transaction of the changes `body` makes.
///   - body: The changes.
/// - Returns: What `body` returns.
@MainActor
public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
    let outer = TransactionStack.current
    TransactionStack.current = transaction
    defer { TransactionStack.current = outer }
    return try body()
}

/// Runs `body` with `animation`: SwiftUI's `withAnimation`.
///
/// - Parameters:
///   - animation: The animation of the changes `body` makes, or `nil` for none.
///   - body: The changes.
/// - Returns: What `body` returns.
@MainActor
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try withTransaction(Transaction(animation: animation), body)
}

#endif
