/// How a selection keeps the values that its consumer has not read yet.
///
/// Pass one to ``StoreProtocol/select(_:bufferingPolicy:)`` or
/// ``StoreProtocol/states(bufferingPolicy:)``:
///
/// ```swift
/// // A view only needs the latest score: a slow redraw skips the ones in between.
/// for await score in store.select(getHomeScoreString, bufferingPolicy: .latest) { ... }
///
/// // A log needs every score the store went through, in order.
/// for await score in store.select(getHomeScoreString, bufferingPolicy: .unbounded) { ... }
///
/// // Every score, but never more than 100 unread ones: the oldest are dropped first.
/// for await score in store.select(getHomeScoreString, bufferingPolicy: .bufferingNewest(100)) { ... }
/// ```
///
/// With ``latest`` the selection holds no buffer: a consumer that asks for a value gets the
/// value at that moment, and two changes between two requests are seen as one. With a buffer,
/// the selection records each value as the store's state takes it, from the consumer's first
/// request on, whether or not the consumer is reading: a consumer that is slower than the store
/// still sees every distinct value, in order, up to the bound.
public struct SelectionBufferingPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The most unread values kept, or `nil` for no buffer.
    let limit: Int?

    private init(limit: Int?) {
        self.limit = limit
    }

    /// No buffer: each request gets the value at that moment.
    ///
    /// ```swift
    /// for await name in store.select(\.user.name, bufferingPolicy: .latest) { label.text = name }
    /// ```
    public static let latest = SelectionBufferingPolicy(limit: nil)

    /// Every distinct value, however far behind the consumer is.
    ///
    /// ```swift
    /// for await score in store.select(getHomeScoreString, bufferingPolicy: .unbounded) {
    ///     scoreLog.append(score)
    /// }
    /// ```
    public static let unbounded = SelectionBufferingPolicy(limit: .max)

    /// Every distinct value, keeping at most `limit` unread ones: when the buffer is full, the
    /// oldest unread value is dropped, so the consumer always ends on the latest value.
    ///
    /// ```swift
    /// for await score in store.select(getHomeScoreString, bufferingPolicy: .bufferingNewest(10)) { ... }
    /// ```
    ///
    /// - Parameter limit: The most unread values kept; at least 1.
    /// - Returns: The policy.
    public static func bufferingNewest(_ limit: Int) -> SelectionBufferingPolicy {
        precondition(limit >= 1, "A selection's buffer holds at least one value")
        return SelectionBufferingPolicy(limit: limit)
    }

    /// `latest`, `unbounded` or `bufferingNewest(n)`.
    public var description: String {
        switch limit {
        case nil: "latest"
        case .max?: "unbounded"
        case let limit?: "bufferingNewest(\(limit))"
        }
    }
}
