/// An event arrived in a state that does not expect it, such as an effect's completion after the
/// screen stopped waiting for it.
///
/// A single-entry-point view model throws it from `handle(_:)` when a completion finds the state unprepared:
///
/// ```swift
/// case .networkFinishesLoadingProfile(let profile):
///     guard loading else {
///         throw InvalidStateError(event: when, state: "not loading")
///     }
/// ```
///
/// Throwing it, rather than applying the completion, keeps a late or duplicated completion from
/// silently changing state. ``EffectRunner`` records it with the effect whose completion it was.
public struct InvalidStateError: Error, Sendable, CustomStringConvertible {
    /// The event that arrived, when the thrower gave it.
    public let event: (any Sendable)?

    /// A description of the state the event arrived in, when the thrower gave one.
    public let state: String?

    /// Creates the error with no details.
    public init() {
        self.event = nil
        self.state = nil
    }

    /// Creates the error for `event`, arriving in the state that `state` describes.
    ///
    /// - Parameters:
    ///   - event: The event that was not expected.
    ///   - state: The state it arrived in, or a description of it.
    public init(event: some Sendable, state: Any) {
        self.event = event
        self.state = state as? String ?? String(describing: state)
    }

    public var description: String {
        switch (event, state) {
        case (nil, nil):
            "An event arrived in a state that does not expect it."
        case (let event?, let state?):
            "\(event) arrived in a state that does not expect it: \(state)"
        case (let event?, nil):
            "\(event) arrived in a state that does not expect it."
        case (nil, let state?):
            "An event arrived in a state that does not expect it: \(state)"
        }
    }
}
