// `createSelector` is one function with a default argument, not an overload without `memoized`:
// when it named two functions, the compiler typed a closure written in the call before
// choosing between them, without the `@Sendable` of the parameter pack's element, and rejected
// it ("converting non-Sendable function value to '@Sendable (State) -> Int' may introduce data
// races"). With a single candidate the closure takes the parameter's `@Sendable`, whatever the
// number of inputs.

/// Creates a selector from input selectors and a transformation of their values, memoized
/// unless `memoized` is `false`.
///
/// The transformation runs again only when one of the input values changed since the previous
/// call; otherwise the selector returns its previous result:
///
/// ```swift
/// let getTotalCost = createSelector(
///     { (state: State) in state.subtotal },
///     { (state: State) in state.taxRate },
///     transformation: { subtotal, taxRate -> Decimal in
///         subtotal * (1 + taxRate)
///     }
/// )
///
/// getTotalCost(State(subtotal: 25.0, taxRate: 0.05))   // 26.25
/// ```
///
/// Any number of input selectors works. Inputs are plain functions of the state; to use another
/// ``Selector`` as an input, pass its `callAsFunction` (`getTotalCost.callAsFunction`).
///
/// The inputs and the transformation may be called from any thread, so they are `@Sendable`.
/// A closure written in the call, as above, is inferred `@Sendable` as it stands. A closure kept
/// in a `let`, to be shared by several selectors, is not inferred `@Sendable` and says so
/// itself (Swift requires it anyway of a global or static `let`):
///
/// ```swift
/// let getSubtotal = { @Sendable (state: State) in state.subtotal }
/// let getTaxRate = { @Sendable (state: State) in state.taxRate }
///
/// let getTotalCost = createSelector(getSubtotal, getTaxRate, transformation: { subtotal, taxRate in
///     subtotal * (1 + taxRate)
/// })
/// ```
///
/// The selector is safe to call from any thread. Its memory is its last inputs and result; two
/// threads calling it at once with different states may both run the transformation.
///
/// ## What is memoized
///
/// The memory is keyed on the input values, not on the state: the input selectors run on every
/// call, and only the transformation is skipped. Input selectors are meant to be cheap reads
/// (`state.subtotal`); comparing whole states instead would cost a comparison of the entire
/// state on every call and would need an `Equatable` state.
///
/// ## Turning memoization off
///
/// Pass `memoized: false` for a selector whose transformation is cheaper than comparing its
/// inputs, or whose result must be computed anew on each call (a new reference each time). The
/// selector then keeps no memory:
///
/// ```swift
/// let getScoreLine = createSelector(
///     getHome, getAway,
///     transformation: { home, away in "\(home) – \(away)" },
///     memoized: false
/// )
/// ```
///
/// - Parameters:
///   - selectors: The input selectors, each a function of the state.
///   - transformation: Computes the result from the input values.
///   - memoized: Whether the selector remembers its last inputs and result, and skips the
///     transformation when the inputs are equal to the last ones. `true` unless given.
/// - Returns: A selector, memoized if `memoized` is `true`.
public func createSelector<State, each Input: Equatable & Sendable, Output: Sendable>(
    _ selectors: repeat @escaping @Sendable (State) -> each Input,
    transformation: @escaping @Sendable (repeat each Input) -> Output,
    memoized: Bool = true
) -> Selector<State, Output> {
    guard memoized else {
        return Selector { state in transformation(repeat (each selectors)(state)) }
    }
    let memory = SelectorMemory<repeat each Input, Output>()
    return Selector { state in
        let inputs = (repeat (each selectors)(state))
        if let output = memory.output(for: repeat each inputs) {
            return output
        }
        let output = transformation(repeat each inputs)
        memory.remember(repeat each inputs, output: output)
        return output
    }
}

/// The last inputs and output of a memoized selector.
private final class SelectorMemory<each Input: Equatable & Sendable, Output: Sendable>: Sendable {
    private let last = Lock<(inputs: (repeat each Input), output: Output)?>(nil)

    /// The remembered output, if `inputs` equal the remembered inputs.
    func output(for inputs: repeat each Input) -> Output? {
        last.withLock { last in
            guard let last else { return nil }
            for (remembered, current) in repeat (each last.inputs, each inputs) {
                guard remembered == current else { return nil }
            }
            return last.output
        }
    }

    func remember(_ inputs: repeat each Input, output: Output) {
        last.withLock { $0 = ((repeat each inputs), output) }
    }
}
