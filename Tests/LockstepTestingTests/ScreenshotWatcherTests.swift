import IssueReporting
import LockstepTesting
import Testing

/// Seed 004's three tests, with an event source instead of NotificationCenter and a terminal
/// screen instead of UIKit. None of them waits on a clock.
@MainActor
@Suite("Screenshot watcher (seed 004)")
struct ScreenshotWatcherTests {
    @Test func testA_defaultRespondToScreenshotAction_incrementsViewModelCount() async {
        let viewModel = ScreenshotViewModel()
        let defaultScreenshotAction = ContentView.Actions.defaultRespondToScreenshot(for: viewModel)

        #expect(viewModel.count == 0)

        await defaultScreenshotAction()

        #expect(viewModel.count == 1)
    }

    @Test func testB_defaultOnDisplayAction_callsSuppliedScreenshotAction_whenScreenshotNotificationPosted() async {
        let screenshots = EventSource<Void>()
        let screenshotActionCalls = CallRecorder<Void>()
        let actions = ContentView.Actions(
            onDisplay: ContentView.Actions.defaultOnDisplay(screenshots: screenshots) {
                screenshotActionCalls.record()
            }
        )

        // Initiate the process created by the onDisplay action.
        let display = Task { await actions.onDisplay() }

        // Send a screenshot: returns once the action has run for it.
        await screenshots.send(())

        #expect(screenshotActionCalls.count == 1)
        display.cancel()
        await display.value
    }

    @Test func testC_onDisplayActionIsCalled_whenContentViewIsDisplayed() async {
        let onDisplayCalls = CallRecorder<Void>()
        let actions = ContentView.Actions(onDisplay: { onDisplayCalls.record() })
        let viewModel = ScreenshotViewModel()
        let contentView = ContentView(viewModel: viewModel, actions: actions)
        let screen = TerminalScreen()

        await screen.display(contentView).value

        #expect(onDisplayCalls.count == 1)
        #expect(screen.lines == ["0 screenshots have been taken"])
    }

    @Test("Test B, run 10,000 times in a loop, never misses a screenshot")
    func testB_repeated10000Times() async {
        var misses = 0
        for _ in 0..<10_000 {
            let screenshots = EventSource<Void>()
            let calls = CallRecorder<Void>()
            let actions = ContentView.Actions(
                onDisplay: ContentView.Actions.defaultOnDisplay(screenshots: screenshots) { calls.record() }
            )
            let display = Task { await actions.onDisplay() }
            await screenshots.send(())
            if calls.count != 1 { misses += 1 }
            display.cancel()
            await display.value
        }
        #expect(misses == 0)
    }

    @Test("The whole watcher: each posted screenshot increments the count shown")
    func watcherCountsScreenshots() async {
        let screenshots = EventSource<Void>()
        let viewModel = ScreenshotViewModel()
        let contentView = ContentView(
            viewModel: viewModel,
            actions: ContentView.Actions(for: viewModel, screenshots: screenshots)
        )
        let screen = TerminalScreen()

        let shown = screen.display(contentView)
        await screenshots.send(())
        await screenshots.send(())
        await screenshots.send(())

        #expect(viewModel.count == 3)
        #expect(contentView.body == "3 screenshots have been taken")
        shown.cancel()
        await shown.value
    }
}

@Suite("Test doubles")
struct TestDoubleTests {
    @Test("send waits for a subscriber, and returns once the event was handled")
    func sendWaitsForSubscriberAndHandling() async {
        let source = EventSource<Int>()
        let handled = CallRecorder<Int>()

        // Sent before anyone subscribes: delivered to the first subscriber.
        let sender = Task { await source.send(1) }
        let consumer = Task {
            for await value in source {
                handled.record(value)
                if value == 2 { return }
            }
        }
        await sender.value
        #expect(handled.arguments == [1])

        await source.send(2)
        await consumer.value
        #expect(handled.arguments == [1, 2])
    }

    @Test("send returns when the subscriber stops iterating")
    func sendReturnsWhenSubscriberStops() async {
        let source = EventSource<Int>()
        let consumer = Task {
            for await _ in source {
                break
            }
        }
        await source.send(1)
        await consumer.value
        #expect(source.subscriberCount == 0)
    }

    @Test("finish ends every subscriber's iteration")
    func finishEndsIteration() async {
        let source = EventSource<Int>()
        let consumer = Task { () -> [Int] in
            var values: [Int] = []
            for await value in source { values.append(value) }
            return values
        }
        await source.send(7)
        source.finish()
        #expect(await consumer.value == [7])
    }

    @Test("A gate holds callers until opened, and counts arrivals")
    func gateHoldsCallers() async {
        let gate = Gate()
        let passed = CallRecorder<Int>()
        let callers = (1...3).map { n in
            Task {
                await gate.pass()
                passed.record(n)
            }
        }

        await gate.arrival(count: 3)
        #expect(passed.count == 0)
        #expect(gate.waitingCount == 3)

        gate.open()
        for caller in callers { await caller.value }
        #expect(Set(passed.arguments) == [1, 2, 3])

        await gate.pass()
        #expect(gate.arrivals == 4)
    }

    @Test("A cancelled caller leaves the gate")
    func cancelledCallerLeavesGate() async {
        let gate = Gate()
        let caller = Task {
            await gate.pass()
            return Task.isCancelled
        }
        await gate.arrival()
        caller.cancel()
        #expect(await caller.value == true)
        #expect(gate.waitingCount == 0)
    }

    @Test("isTesting is true under a test runner")
    func isTestingIsTrue() {
        #expect(isTesting)
    }
}
