@testable import LockstepFixtures
@testable import Lockstep
import LockstepTesting
import Testing

/// A unit of tracked work that tells when the task it stands for starts waiting.
private final class WaitSignal: WorkUnit {
    let onWait: @Sendable () -> Void

    init(onWait: @escaping @Sendable () -> Void) {
        self.onWait = onWait
    }

    func prepareToPark(_ activity: String) {}
    func prepareToWait(_ activity: String) {}
    func commitPark() { onWait() }
    func resume() {}
    func finish() {}
    func makeChild() -> any WorkUnit { self }
    var preferredExecutor: (any TaskExecutor)? { nil }
}

/// The order in which an effect's pipeline ends, forced step by step with a gate.
@Suite("Pipeline runner")
struct PipelineRunnerTests {
    struct Boom: Error {}

    /// A dispatch waits on the tree of its action until every effect has let go of the action.
    /// A pipeline that throws on the action must hand its failure over (to be recorded and
    /// reported) while it still holds the action: letting go first would let the dispatch return
    /// before the failure is recorded. The gate parks the pipeline inside the hand-over, so the
    /// test sees that moment every time instead of hoping a scheduler shows it.
    @Test("A pipeline that throws hands its failure over while it still holds the action it failed on")
    func failureIsHandedOverBeforeTheActionIsLetGo() async {
        let effect = Effect<CounterAction> { actions in
            actions.map { _ throws -> CounterAction in throw Boom() }
        }
        let input = EffectInput<CounterAction>()
        let tree = DispatchTree()
        input.deliver(.increment, tree: tree)

        let handOver = Gate()
        let handedOver = Lock<[EffectFailure<String>?]>([])
        let run = Task {
            await PipelineRunner.run(effect, input: input, dispatchOutput: { _ in }) { failure in
                handedOver.withLock { $0.append(failure) }
                await handOver.pass()
            }
        }
        await handOver.arrival()

        #expect(handedOver.withLock { $0.count } == 1)
        #expect(handedOver.withLock { $0.first??.error is Boom })

        // A dispatch waiting on the tree now must wait: the pipeline still holds the action.
        let (events, sink) = AsyncStream<String>.makeStream()
        let dispatch = Task {
            await tree.waitUntilDone(as: WaitSignal { sink.yield("waits") })
            sink.yield("returns")
        }
        var order = events.makeAsyncIterator()
        #expect(await order.next() == "waits", "the pipeline let go of the action before its failure was handed over")

        handOver.open()
        await run.value
        #expect(await order.next() == "returns")
        await dispatch.value
    }
}
