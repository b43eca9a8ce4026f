import Lockstep
import Testing

@MainActor
@Suite("observe: a closure re-run when what it read changes")
struct ObserveTests {
    /// Lets every main-actor job enqueued before it run: a re-run that a change scheduled has
    /// happened when it returns, as the main actor runs its jobs in order.
    private func mainActorJobsBefore() async {
        await Task { @MainActor in }.value
    }

    @Test("It runs at once, again after a change of a field it read, and not for other fields")
    func rerunsForWhatItRead() async {
        let store = Store(state: ProfileFormState(), reducer: profileFormReducer)
        let (runs, continuation) = AsyncStream<String>.makeStream()
        var iterator = runs.makeAsyncIterator()
        let token = observe { continuation.yield(store.name) }

        #expect(await iterator.next() == "")
        store.send(.set(\.age, 40))
        await mainActorJobsBefore()
        store.send(.set(\.name, "Ada"))
        #expect(await iterator.next() == "Ada")
        withExtendedLifetime(token) {}
    }

    @Test("Several changes before the next run make one run, which reads the last state")
    func changesCoalesce() async {
        let store = Store(state: ProfileFormState(), reducer: profileFormReducer)
        let (runs, continuation) = AsyncStream<String>.makeStream()
        var iterator = runs.makeAsyncIterator()
        let token = observe { continuation.yield(store.name) }
        #expect(await iterator.next() == "")

        store.send(.set(\.name, "A"))
        store.send(.set(\.name, "Ad"))
        store.send(.set(\.name, "Ada"))
        #expect(await iterator.next() == "Ada")
        token.cancel()
        store.send(.set(\.name, "Grace"))
        await mainActorJobsBefore()
        continuation.finish()
        #expect(await iterator.next() == nil)
    }

    @Test("A released token stops the closure")
    func releasedTokenStops() async {
        let store = Store(state: ProfileFormState(), reducer: profileFormReducer)
        let (runs, continuation) = AsyncStream<String>.makeStream()
        var iterator = runs.makeAsyncIterator()
        var tokens: Set<ObserveToken> = []
        observe { continuation.yield(store.name) }.store(in: &tokens)
        #expect(await iterator.next() == "")

        tokens = []
        store.send(.set(\.name, "Ada"))
        await mainActorJobsBefore()
        continuation.finish()
        #expect(await iterator.next() == nil)
        #expect(tokens.isEmpty)
    }
}
