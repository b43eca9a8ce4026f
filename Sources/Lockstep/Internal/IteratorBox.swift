/// An iterator of any type, shared by the copies of the public iterator that holds it: the type
/// erasure behind ``Actions``, ``EffectOutput`` and ``AnySelection``.
final class IteratorBox<Element, Failure: Error> {
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
