import Foundation
@testable import LockstepQuery
import Testing

@Suite("The app-activity focus condition")
struct ApplicationActivityTests {
    static let didBecomeActive = Notification.Name("ApplicationActivityTests.didBecomeActive")
    static let willResignActive = Notification.Name("ApplicationActivityTests.willResignActive")

    @Test func itFollowsTheNotificationsAndTheClientRefetchesOnFocus() async {
        let center = NotificationCenter()
        let activity = ApplicationActivity(
            center: center, didBecomeActive: Self.didBecomeActive, willResignActive: Self.willResignActive)
        let backend = Backend()
        let client = makeClient(focusCondition: activity.condition)
        let store = client.store(for: NameQuery("ada", backend: backend))
        let reasons = StateLog<OperationContext.RunReason>()
        let subscription = store.subscribe(
            with: QueryEventHandler(onRunStarted: { reasons.append($0.runReason) }))
        await client.waitUntilIdle()
        #expect(activity.condition.isSatisfied)

        center.post(name: Self.willResignActive, object: nil)
        #expect(!activity.condition.isSatisfied)
        center.post(name: Self.didBecomeActive, object: nil)
        #expect(activity.condition.isSatisfied)
        #expect(reasons.all == [.subscribed, .focused])
        await client.waitUntilIdle()
        #expect(backend.calls == 2)
        subscription.cancel()
    }

    @Test func theObserversAreRemovedWhenTheClientGoes() {
        let center = NotificationCenter()
        var activity: ApplicationActivity? = ApplicationActivity(
            center: center, didBecomeActive: Self.didBecomeActive, willResignActive: Self.willResignActive)
        weak let releasedActivity = activity
        // The observers' blocks hold the activity's state: it outlives the activity as long as
        // NotificationCenter keeps them.
        weak let heldByObservers = activity?.isActive
        var client: OperationClient? = makeClient(focusCondition: activity?.condition)
        activity = nil
        #expect(releasedActivity != nil, "the client's store creator keeps its focus condition")
        center.post(name: Self.willResignActive, object: nil)
        #expect(heldByObservers?.state == false)

        #expect(client != nil)
        client = nil

        #expect(releasedActivity == nil)
        #expect(heldByObservers == nil, "NotificationCenter still holds an observer's block")
        center.post(name: Self.didBecomeActive, object: nil)
    }
}
