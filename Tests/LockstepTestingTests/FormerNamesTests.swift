import LockstepTesting
import Testing

/// A former name, reached through a protocol it satisfies, so that the test compiles without a
/// deprecation warning and still proves the old spelling does what the new one does.
private protocol PostsEvents<Element> {
    associatedtype Element
    func post(_ element: Element) async
}

extension EventSource: PostsEvents {}

@Suite("Former names of the test toolkit")
struct FormerNamesTests {
    @Test("EventSource's former post(_:) sends: it returns once the subscriber has handled the event")
    func postSends() async {
        let source = EventSource<Int>()
        let handled = CallRecorder<Int>()
        let consumer = Task {
            for await value in source {
                handled.record(value)
                if value == 2 { return }
            }
        }
        let legacy: any PostsEvents<Int> = source

        await legacy.post(1)
        #expect(handled.arguments == [1])
        await legacy.post(2)
        await consumer.value
        #expect(handled.arguments == [1, 2])
    }
}
