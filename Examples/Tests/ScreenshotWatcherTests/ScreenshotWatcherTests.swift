import Foundation
import LockstepTesting
import ScreenshotWatcher
import Testing

/// Code driven by an `AsyncSequence`, tested with an event source instead of NotificationCenter
/// and a terminal screen instead of UIKit: each screenshot is counted, the on-display action
/// listens for screenshots, and the screen runs it when shown. None of them waits on a clock.
@MainActor
@Suite("Screenshot watcher")
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

    @Test("The production actions count each screenshot and then run the after-screenshot action")
    func productionActionsCountAndShow() async {
        let screenshots = EventSource<Void>()
        let viewModel = ScreenshotViewModel()
        let screen = TerminalScreen()
        let contentView = ContentView(
            viewModel: viewModel,
            actions: ContentView.Actions(for: viewModel, screenshots: screenshots) {
                await MainActor.run { screen.show("\(viewModel.count) screenshots have been taken") }
            }
        )

        let shown = screen.present(contentView)
        await screenshots.send(())
        await screenshots.send(())

        #expect(viewModel.count == 2)
        #expect(screen.lines == ["1 screenshots have been taken", "2 screenshots have been taken"])
        shown.cancel()
        await shown.value
    }
}

@Suite("SignalEvents")
struct SignalEventsTests {
    @Test("A signal sent to the process is delivered as an element")
    func deliversSignal() async {
        let (listening, nowListening) = AsyncStream.makeStream(of: Void.self)
        let events = SignalEvents(SIGUSR2, onListening: { nowListening.yield() })
        let first = Task { () -> Int32? in
            var iterator = events.makeAsyncIterator()
            return await iterator.next()
        }

        // Raise it only once the source is listening: a signal before that is ignored.
        for await _ in listening { break }
        kill(getpid(), SIGUSR2)

        #expect(await first.value == SIGUSR2)
    }

    @Test("The sequence finishes when its consumer is cancelled")
    func finishesOnCancel() async {
        let (listening, nowListening) = AsyncStream.makeStream(of: Void.self)
        // Another signal than the test above: two sources of one signal at once, one of them
        // cancelled, lose deliveries to the other in libdispatch on Linux.
        let events = SignalEvents(SIGWINCH, onListening: { nowListening.yield() })
        let consumer = Task { () -> Int in
            var received = 0
            for await _ in events { received += 1 }
            return received
        }

        for await _ in listening { break }
        consumer.cancel()

        #expect(await consumer.value == 0)
    }
}
