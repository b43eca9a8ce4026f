extension AsyncSequence {
    /// The elements that are instances of `type`, cast to it.
    ///
    /// For a store whose actions are values of an action protocol (`any ScoreboardAction`), this
    /// picks the actions of one type:
    ///
    /// ```swift
    /// actions.ofType(PostScore.self)   // an AsyncSequence of PostScore
    /// ```
    ///
    /// - Parameter type: The type of the elements to keep.
    /// - Returns: A sequence of the elements that are `type`, in their original order.
    public func ofType<Value>(
        _ type: Value.Type
    ) -> AsyncCompactMapSequence<Self, Value> {
        compactMap { $0 as? Value }
    }

    /// The values that `extract` finds in the elements, for actions that are enum cases.
    ///
    /// Pass a key path to an optional property that returns the case's payload, or any closure
    /// that returns `nil` for the other cases:
    ///
    /// ```swift
    /// actions.ofCase(\AppAction.today)                  // var today: TodayAction? { ... }
    /// actions.ofCase { action in
    ///     if case .postScore(let home, let away) = action { (home, away) } else { nil }
    /// }
    /// ```
    ///
    /// - Parameter extract: Returns the payload of the case to keep, or `nil`.
    /// - Returns: A sequence of the payloads, in the original order.
    public func ofCase<Value>(
        _ extract: @escaping @Sendable (Element) -> Value?
    ) -> AsyncCompactMapSequence<Self, Value> {
        compactMap(extract)
    }
}
