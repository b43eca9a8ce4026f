import LockstepCombine
import Testing

// ReCombine's four `ofTypes` tests, on publishers of several actions (there, merged `Just`s;
// here a sequence's publisher, as OpenCombine has no `Merge`). They publish at once, so
// `collect` has its array when `sink` returns.

private protocol PortedAction: Sendable {}

private struct Action1: PortedAction {}
private struct Action2: PortedAction {}
private struct Action3: PortedAction {}
private struct Action4: PortedAction {}
private struct Action5: PortedAction {}
private struct Action6: PortedAction {}

private func createPublisher(from actions: any PortedAction...) -> AnyPublisher<any PortedAction, Never> {
    actions.publisher.eraseToAnyPublisher()
}

/// The type names of what `publisher` publishes, collected at once.
private func collected<P: Publisher>(_ publisher: P) -> [String]?
where P.Output == any PortedAction, P.Failure == Never {
    var result: [String]?
    let cancellable = publisher.collect().sink { actions in
        result = actions.map { String(describing: type(of: $0)) }
    }
    cancellable.cancel()
    return result
}

@Suite("ofTypes on publishers")
struct PublisherOfTypesTests {
    @Test func testOfTypes2() {
        let actionStream = createPublisher(from: Action1(), Action2(), Action3())
        #expect(collected(actionStream.ofTypes(Action1.self, Action2.self)) == ["Action1", "Action2"])
    }

    @Test func testOfTypes3() {
        let actionStream = createPublisher(from: Action1(), Action2(), Action3(), Action4())
        #expect(collected(actionStream.ofTypes(Action1.self, Action2.self, Action3.self))
            == ["Action1", "Action2", "Action3"])
    }

    @Test func testOfTypes4() {
        let actionStream = createPublisher(from: Action1(), Action2(), Action3(), Action4(), Action5())
        #expect(collected(actionStream.ofTypes(Action1.self, Action2.self, Action3.self, Action4.self))
            == ["Action1", "Action2", "Action3", "Action4"])
    }

    @Test func testOfTypes5() {
        let actionStream = createPublisher(from: Action1(), Action2(), Action3(), Action4(), Action5(), Action6())
        #expect(collected(actionStream.ofTypes(Action1.self, Action2.self, Action3.self, Action4.self, Action5.self))
            == ["Action1", "Action2", "Action3", "Action4", "Action5"])
    }

    @Test("ofType casts; a protocol type keeps every conforming value")
    func ofTypeCasts() {
        let actionStream = createPublisher(from: Action1(), Action2())
        var kept: [Action2] = []
        let cancellable = actionStream.ofType(Action2.self).sink { kept.append($0) }
        cancellable.cancel()
        #expect(kept.count == 1)
        #expect(collected(actionStream.ofTypes((any PortedAction).self)) == ["Action1", "Action2"])
    }
}
