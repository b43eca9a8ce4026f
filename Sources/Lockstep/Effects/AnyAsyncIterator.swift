/// An iterator of any type that yields `Element`s and throws `Failure`: the iterator of
/// ``Actions``, ``AnySelection`` and ``EffectOutput``, whatever sequence they wrap.
///
/// ```swift
/// var values = store.select(\.count).makeAsyncIterator()   // AnyAsyncIterator<Int, Never>
/// let first = await values.next()
/// ```
///
/// Copies of an iterator share their position in the wrapped sequence.
public struct AnyAsyncIterator<Element, Failure: Error>: AsyncIteratorProtocol {
    private let box: IteratorBox<Element, Failure>

    init(_ base: some AsyncIteratorProtocol<Element, Failure>) {
        box = IteratorBox(base)
    }

    /// The next element, or `nil` at the end of the sequence.
    public mutating func next() async throws(Failure) -> Element? {
        try await box.next(isolation: nil)
    }

    /// The next element, or `nil` at the end of the sequence, read on `actor`.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        try await box.next(isolation: actor)
    }
}

/// The wrapped iterator of an ``AnyAsyncIterator``, shared by its copies.
private final class IteratorBox<Element, Failure: Error> {
    private var base: any AsyncIteratorProtocol<Element, Failure>

    init(_ base: some AsyncIteratorProtocol<Element, Failure>) {
        self.base = base
    }

    func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        try await base.next(isolation: actor)
    }
}

/// An iterator whose errors are `any Error`, whatever its base throws.
struct AnyErrorIterator<Base: AsyncIteratorProtocol>: AsyncIteratorProtocol {
    var base: Base

    mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Base.Element? {
        try await base.next(isolation: actor)
    }

    mutating func next() async throws -> Base.Element? {
        try await next(isolation: nil)
    }
}
