/// The report of an effect that failed: which effect, and the error it threw.
///
/// A store records one in ``Store/failures`` for each ``Effect`` whose pipeline threw, and
/// keeps working; the failed effect is stopped. Its effects are named by where they were
/// created (`File.swift:line`), so a store's failures are `EffectFailure<String>`:
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
///
/// An ``EffectRunner`` records the same report, with the effect it triggered:
///
/// ```swift
/// await vm.effects.waitUntilIdle()
/// #expect(vm.effects.failures.map(\.effect) == [.performGetProfileNetworkRequest])
/// ```
public struct EffectFailure<Effect: Sendable>: Error, Sendable, CustomStringConvertible {
    /// The effect that failed: for a store, its name (where it was created); for an
    /// ``EffectRunner``, the effect that was triggered.
    public let effect: Effect

    /// The error the effect threw.
    public let error: any Error

    public let description: String

    /// Creates the report of `effect` failing with `error`.
    ///
    /// ```swift
    /// let failure = EffectFailure(effect: ProfileEffect.load, error: URLError(.notConnectedToInternet))
    /// ```
    ///
    /// - Parameters:
    ///   - effect: The effect that failed.
    ///   - error: The error it threw.
    public init(effect: Effect, error: any Error) {
        self.effect = effect
        self.error = error
        self.description = "The effect \(effect) failed: \(error)"
    }
}

extension EffectFailure where Effect == String {
    /// Creates the report of the store effect created at `effect` failing with `error`.
    ///
    /// ```swift
    /// let failure = EffectFailure(effect: "Feature.swift:12", error: ServiceError())
    /// ```
    ///
    /// - Parameters:
    ///   - effect: The effect's name: where it was created (`File.swift:line`).
    ///   - error: The error its pipeline threw.
    public init(effect: String, error: any Error) {
        self.effect = effect
        self.error = error
        self.description = "The effect created at \(effect) failed and was stopped: \(error)"
    }
}

extension Array where Element == EffectFailure<String> {
    /// The most failures a store keeps: the oldest are dropped past it.
    static var storeLimit: Int { 100 }

    /// Appends a store's failure, dropping the oldest ones past ``storeLimit``.
    mutating func appendKeepingRecent(_ failure: EffectFailure<String>) {
        append(failure)
        if count > Self.storeLimit {
            removeFirst(count - Self.storeLimit)
        }
    }
}
