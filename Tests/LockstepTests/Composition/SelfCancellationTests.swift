import Lockstep
import LockstepTesting
import Testing

/// Work that cancels the id it runs under, then dispatches, is told why its action is dropped.
@MainActor
@Suite("A dispatch dropped after work cancelled its own id")
struct SelfCancellationTests {
    static func store(dispatchFirst: Bool) -> Store<SearchFeature, SearchAction> {
        Store(state: SearchFeature(), reducer: searchReducer, middlewares: [
            { _, action, dispatch in
                guard action == .queryChanged("play") else { return }
                await dispatch.withTaskCancellation(id: "play") {
                    if dispatchFirst {
                        await dispatch(.resultsLoaded(["finished"]))
                        dispatch.cancel(id: "play")
                    } else {
                        dispatch.cancel(id: "play")
                        await dispatch(.resultsLoaded(["finished"]))
                    }
                }
            },
        ])
    }

    @Test("Cancelling its own id, then dispatching, reports the dropped action with the id")
    func dropAfterOwnCancellationIsReported() async {
        let store = Self.store(dispatchFirst: false)

        await withKnownIssue {
            await store.dispatch(.queryChanged("play"))
        } matching: { issue in
            let description = String(describing: issue)
            return description.contains("resultsLoaded") && description.contains("\"play\"")
        }

        #expect(store.state.results == [])
    }

    @Test("Dispatching, then cancelling its own id, reduces the action")
    func dispatchBeforeOwnCancellationGoesThrough() async {
        let store = Self.store(dispatchFirst: true)

        await store.dispatch(.queryChanged("play"))

        #expect(store.state.results == ["finished"])
    }

    @Test("Work cancelled by other work is dropped silently, as a superseded search is")
    func dropAfterCancellationByOtherWorkIsSilent() async {
        let gate = Gate()
        let store = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [
            { _, action, dispatch in
                switch action {
                case .queryChanged("play"):
                    await dispatch.withTaskCancellation(id: "play") {
                        await gate.pass()
                        await dispatch(.resultsLoaded(["late"]))
                    }
                case .queryChanged("stop"):
                    dispatch.cancel(id: "play")
                default:
                    break
                }
            },
        ])
        let play = store.send(.queryChanged("play"))
        await gate.arrival()
        await store.dispatch(.queryChanged("stop"))
        await play.value

        #expect(store.state.results == [])
    }
}
