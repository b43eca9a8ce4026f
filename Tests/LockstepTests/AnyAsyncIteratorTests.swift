import Lockstep
import Testing

// The one iterator behind Actions, AnySelection and EffectOutput.

@Suite("AnyAsyncIterator")
struct AnyAsyncIteratorTests {
    @Test("An AnySelection's iterator reads the wrapped sequence without try; its copies share the position")
    func copiesShareThePosition() async {
        let selection = AnySelection(AsyncStream { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        })
        var first: AnyAsyncIterator<Int, Never> = selection.makeAsyncIterator()
        var copy = first

        #expect(await first.next() == 1)
        #expect(await copy.next() == 2)
        #expect(await first.next() == 3)
        #expect(await copy.next() == nil)
    }

    @Test("An effect's output iterator rethrows what the pipeline throws")
    func outputRethrows() async throws {
        struct Offline: Error {}
        let effect = Effect<Int> { actions in
            actions.map { (value: Int) throws -> Int in
                guard value > 0 else { throw Offline() }
                return value * 10
            }
        }
        var output: AnyAsyncIterator<Int, any Error> = effect.source(AsyncStream { continuation in
            continuation.yield(1)
            continuation.yield(0)
            continuation.finish()
        }).makeAsyncIterator()

        #expect(try await output.next() == 10)
        await #expect(throws: Offline.self) { try await output.next() }
    }
}
