/// The report of an ``Effect`` whose pipeline threw.
///
/// The store records it in ``Store/failures`` and keeps working; the failed effect is stopped.
///
/// ```swift
/// let failing = Effect<LedgerAction> { actions in
///   actions.map { _ throws -> LedgerAction in throw ServiceError() }
/// }
/// let store = Store(state: Ledger(), reducer: ledgerReducer, effects: [failing])
/// await store.dispatch(.load(1))
/// #expect(store.failures.map(\.effect) == [failing.name])
/// #expect(store.failures.first?.error is ServiceError)
/// ```
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
