/// Passes its base sequence through and signals when the base ends.
struct EndSignallingSequence<Base: AsyncSequence>: AsyncSequence where Base.Failure == Never {
    let base: Base
    let ended: Signal

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let ended: Signal

        mutating func next() async -> Base.Element? {
            let element = await base.next(isolation: nil)
            if element == nil { ended.signal() }
            return element
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), ended: ended)
    }
}

extension Array where Element: Sendable {
    /// The elements as an `AsyncSequence`, for feeding effects in tests.
    var async: AsyncArraySequence<Element> { AsyncArraySequence(elements: self) }
}

struct AsyncArraySequence<Element: Sendable>: AsyncSequence, Sendable {
    let elements: [Element]

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Element>

        mutating func next() async -> Element? {
            remaining.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: elements[...])
    }
}
