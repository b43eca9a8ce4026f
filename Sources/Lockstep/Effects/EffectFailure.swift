/// The report of an ``Effect`` whose pipeline threw.
///
/// The store records it in ``Store/failures`` and keeps working; the failed effect is stopped.
public struct EffectFailure: Error, Sendable, CustomStringConvertible {
    /// The effect that failed, named by where it was created (`File.swift:line`).
    public let effect: String

    /// The error the effect's pipeline threw.
    public let error: any Error

    /// Creates the report of `effect` failing with `error`.
    public init(effect: String, error: any Error) {
        self.effect = effect
        self.error = error
    }

    public var description: String {
        "The effect created at \(effect) failed and was stopped: \(error)"
    }
}
