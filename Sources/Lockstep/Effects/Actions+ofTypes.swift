extension AsyncSequence {
    /// The elements that are instances of any of `types`, in their original order.
    ///
    /// For a store whose actions are values of an action protocol, this keeps the actions of
    /// several types at once, as the store's action type, so one effect can react to all of them:
    ///
    /// ```swift
    /// static let logScores = Effect<any ScoreboardAction>(dispatch: false) { actions in
    ///     actions
    ///         .ofTypes(HomeScore.self, AwayScore.self, ResetScore.self)
    ///         .map { action in print("score changed by \(action)") }
    /// }
    /// ```
    ///
    /// Any number of types works. An element is kept if it is an instance of one of them; a
    /// type may be a protocol existential (`(any Scoring).self`) to keep every conforming type.
    /// To keep one type and get its instances cast to it, use ``ofType(_:)``.
    ///
    /// - Parameter types: The types of the elements to keep.
    /// - Returns: A sequence of the elements that are one of `types`, uncast.
    public func ofTypes<each Kept>(
        _ types: repeat (each Kept).Type
    ) -> AsyncFilterSequence<Self> {
        let matches = typeMatcher(Element.self, repeat each types)
        return filter { matches($0) }
    }
}

/// A function that tells whether a value is an instance of any of `types`.
///
/// Built once from the parameter pack, so the function the sequence keeps holds only an array of
/// checks and no pack.
package func typeMatcher<Element, each Kept>(
    _ element: Element.Type,
    _ types: repeat (each Kept).Type
) -> @Sendable (Element) -> Bool {
    var checks: [@Sendable (Element) -> Bool] = []
    for type in repeat each types {
        checks.append(instanceCheck(Element.self, type))
    }
    let allChecks = checks
    return { element in allChecks.contains { $0(element) } }
}

/// A function that tells whether a value is an instance of `type`.
private func instanceCheck<Element, Kept>(
    _ element: Element.Type,
    _ type: Kept.Type
) -> @Sendable (Element) -> Bool {
    { $0 is Kept }
}
