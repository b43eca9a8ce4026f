import Lockstep
import LockstepQuery
import Testing

@Suite struct FetchConditionTests {
    @Test func alwaysHasItsValueAndWorksWhereAnOptionalIsExpected() {
        func isSatisfied(_ condition: FetchCondition) -> Bool { condition.isSatisfied }
        func isSatisfied(optional condition: FetchCondition?) -> Bool? { condition?.isSatisfied }

        #expect(isSatisfied(.always(true)))
        #expect(!isSatisfied(.always(false)))
        #expect(isSatisfied(optional: .always(false)) == false)
        #expect(isSatisfied(optional: .always(true)) == true)
        #expect(isSatisfied(optional: nil) == nil)
    }

    @Test func manualConditionNotifiesBeforeSendReturnsAndOnlyOnChange() {
        let manual = ManualCondition(false)
        let heard = Recorder<Bool>()
        let subscription = manual.condition.subscribe { heard.append($0) }

        manual.send(false)
        #expect(heard.values == [])
        manual.send(true)
        #expect(heard.values == [true])
        #expect(manual.value)
        #expect(manual.condition.isSatisfied)
        manual.send(true)
        manual.send(false)
        #expect(heard.values == [true, false])

        subscription.cancel()
        manual.send(true)
        #expect(heard.values == [true, false])
        #expect(manual.value)
    }

    @Test func releasingTheSubscriptionStopsNotifications() {
        let manual = ManualCondition(false)
        let heard = Recorder<Bool>()
        var subscription: OperationSubscription? = manual.condition.subscribe { heard.append($0) }
        manual.send(true)
        #expect(subscription != nil)
        subscription = nil
        manual.send(false)
        #expect(heard.values == [true])
    }

    @Test func everySubscriberHearsTheChangeInSubscriptionOrder() {
        let manual = ManualCondition(true)
        let heard = Recorder<String>()
        let first = manual.condition.subscribe { heard.append("first \($0)") }
        let second = manual.condition.subscribe { heard.append("second \($0)") }
        manual.send(false)
        #expect(heard.values == ["first false", "second false"])
        withExtendedLifetime((first, second)) {}
    }

    @Test func andNotifiesOnlyWhenTheCombinedValueChanges() {
        let lhs = ManualCondition(false)
        let rhs = ManualCondition(false)
        let both = lhs.condition && rhs.condition
        let heard = Recorder<Bool>()
        let subscription = both.subscribe { heard.append($0) }

        lhs.send(true)
        #expect(!both.isSatisfied)
        #expect(heard.values == [])
        rhs.send(true)
        #expect(both.isSatisfied)
        #expect(heard.values == [true])
        lhs.send(false)
        rhs.send(false)
        #expect(heard.values == [true, false])
        withExtendedLifetime(subscription) {}
    }

    @Test func orNotifiesOnlyWhenTheCombinedValueChanges() {
        let lhs = ManualCondition(false)
        let rhs = ManualCondition(false)
        let either = lhs.condition || rhs.condition
        let heard = Recorder<Bool>()
        let subscription = either.subscribe { heard.append($0) }

        lhs.send(true)
        #expect(either.isSatisfied)
        rhs.send(true)
        lhs.send(false)
        #expect(heard.values == [true])
        rhs.send(false)
        #expect(!either.isSatisfied)
        #expect(heard.values == [true, false])
        withExtendedLifetime(subscription) {}
    }

    @Test func notInvertsTheValueAndTheNotifications() {
        let manual = ManualCondition(true)
        let inverted = !manual.condition
        let heard = Recorder<Bool>()
        let subscription = inverted.subscribe { heard.append($0) }

        #expect(!inverted.isSatisfied)
        manual.send(false)
        #expect(inverted.isSatisfied)
        manual.send(true)
        #expect(heard.values == [true, false])
        withExtendedLifetime(subscription) {}
    }

    @Test func combinationsNest() {
        let online = ManualCondition(true)
        let paused = ManualCondition(false)
        let forced = ManualCondition(false)
        let mayFetch = (online.condition && !paused.condition) || forced.condition
        let heard = Recorder<Bool>()
        let subscription = mayFetch.subscribe { heard.append($0) }

        #expect(mayFetch.isSatisfied)
        paused.send(true)
        forced.send(true)
        online.send(false)
        forced.send(false)
        paused.send(false)
        online.send(true)
        #expect(heard.values == [false, true, false, true])
        withExtendedLifetime(subscription) {}
    }

    @Test func alwaysCombinesWithManualConditions() {
        let manual = ManualCondition(false)
        let heard = Recorder<Bool>()
        let blocked = (manual.condition && .always(false)).subscribe { heard.append($0) }
        let open = (manual.condition || .always(true)).subscribe { heard.append($0) }
        manual.send(true)
        manual.send(false)
        #expect(heard.values == [])
        #expect((manual.condition || .always(true)).isSatisfied)
        withExtendedLifetime((blocked, open)) {}
    }

    @Test func cancellingACombinationCancelsTheOperandSubscriptions() {
        let lhs = CountingCondition()
        let rhs = CountingCondition()
        let subscription = (lhs.condition && !rhs.condition).subscribe { _ in }
        #expect(lhs.activeSubscriptions == 1)
        #expect(rhs.activeSubscriptions == 1)
        subscription.cancel()
        #expect(lhs.activeSubscriptions == 0)
        #expect(rhs.activeSubscriptions == 0)
    }

    @Test func aCombinationHearsAChangeMadeWhileItSubscribes() {
        // The operand changes after the combination first read it but before the operand's
        // subscription was in place, so only a second read can see the change.
        let manual = ManualCondition(false)
        let changingOnSubscribe = FetchCondition(
            isSatisfied: { manual.value },
            subscribe: { onChange in
                manual.send(true)
                return manual.condition.subscribe(onChange)
            }
        )
        let heard = Recorder<Bool>()
        let subscription = (changingOnSubscribe && .always(true)).subscribe { heard.append($0) }
        #expect(heard.values == [true])
        withExtendedLifetime(subscription) {}
    }

    @Test func aHandlerMayChangeTheConditionAgain() {
        let manual = ManualCondition(false)
        let heard = Recorder<Bool>()
        let subscription = manual.condition.subscribe { value in
            heard.append(value)
            if value { manual.send(false) }
        }
        let other = manual.condition.subscribe { heard.append($0) }
        manual.send(true)
        // Each subscriber hears `true` before anyone hears the `false` set from inside a handler.
        #expect(heard.values == [true, true, false, false])
        #expect(!manual.value)
        withExtendedLifetime((subscription, other)) {}
    }

    @Test func aHandlerMayCancelAnotherSubscription() {
        let manual = ManualCondition(false)
        let heard = Recorder<String>()
        let later = Lock<OperationSubscription?>(nil)
        let first = manual.condition.subscribe { _ in
            heard.append("first")
            later.withLock { $0?.cancel() }
        }
        later.withLock { $0 = manual.condition.subscribe { _ in heard.append("second") } }
        manual.send(true)
        #expect(heard.values == ["first"])
        withExtendedLifetime(first) {}
    }

    @Test func concurrentChangesAreDeliveredInOrderBeforeTheSettersReturn() async {
        let manual = ManualCondition(false)
        let heard = Recorder<Bool>()
        let subscription = manual.condition.subscribe { heard.append($0) }

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { manual.send(index.isMultiple(of: 2)) }
            }
        }

        let values = heard.values
        #expect(values.last == manual.value || (values.isEmpty && !manual.value))
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 })
        #expect(values.first != false)
        withExtendedLifetime(subscription) {}
    }

    @Test func networkConnectedFollowsTheObserver() {
        let network = ManualNetworkObserver(status: .connected)
        let connected = FetchCondition.networkConnected(network)
        let heard = Recorder<Bool>()
        let subscription = connected.subscribe { heard.append($0) }

        #expect(connected.isSatisfied)
        network.send(.disconnected)
        #expect(!connected.isSatisfied)
        network.send(.requiresConnection)
        #expect(!connected.isSatisfied)
        network.send(.connected)
        #expect(heard.values == [false, true])

        subscription.cancel()
        network.send(.disconnected)
        #expect(heard.values == [false, true])
    }
}

/// Collects what handlers hear, from any thread.
private final class Recorder<Value: Sendable>: Sendable {
    private let storage = Lock<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withLock { $0 }
    }
}

/// A condition that counts the subscriptions it has handed out and not seen cancelled.
private final class CountingCondition: Sendable {
    private let count = Lock(0)

    var activeSubscriptions: Int {
        count.withLock { $0 }
    }

    var condition: FetchCondition {
        FetchCondition(
            isSatisfied: { true },
            subscribe: { _ in
                self.count.withLock { $0 += 1 }
                return OperationSubscription { self.count.withLock { $0 -= 1 } }
            }
        )
    }
}
