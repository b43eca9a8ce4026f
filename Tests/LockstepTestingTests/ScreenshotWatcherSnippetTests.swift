@testable import LockstepFixtures
import LockstepTesting
import Observation
import Testing

// The snippets of the design document on testing code driven by an `AsyncSequence`
// (`004_7708835e42b12d9f.txt`, the screenshot watcher), compiled as written and run: the view
// model, the view with its injected actions and their defaults, and test B, which checks that the
// default `onDisplay` action calls the screenshot action for each screenshot.
//
// The adaptations, as the project's architecture document lists them:
// - The screenshot notifications (`NotificationCenter` and `UIApplication`, which Linux does not
//   have) are an injected `AsyncSequence`: `defaultOnDisplay` and the default actions take it as
//   `screenshots`, and the test sends through an `EventSource`, whose `send` returns once the
//   action has run for the screenshot. That removes the race the document describes, a
//   notification posted before the code under test subscribed.
// - The view model is `@Observable` and `@MainActor` instead of an `ObservableObject` with a
//   `@Published @MainActor` count, and the view holds it without `@ObservedObject`.
// - SwiftUI's `View`, `Text` and `.task` are LockstepFixtures' stand-ins (ViewStandIns.swift);
//   `appear()` displays a view, where the document puts it in a `UIWindow`.
// - The test's expectation and `waitForExpectations(timeout:)` become Swift Testing's
//   `confirmation`, which needs no timeout: the screenshot has been handled when `send` returns.
//
// Skipped: the preview provider (SwiftUI previews); tests A and C, which use no library API (A
// calls the default screenshot action directly, C displays the view with UIKit). The examples
// package runs all three against its terminal version of the watcher
// (Examples/Tests/ScreenshotWatcherTests). The second test below displays the view with its
// default actions, which checks what C checks, and A's action with it.

enum ScreenshotWatcher {
    @MainActor
    @Observable
    final class ViewModel {
        var count = 0
    }

    struct ContentView: View {
        var viewModel: ViewModel
        let actions: Actions

        var body: some View {
            Text("\(viewModel.count) screenshots have been taken")
                .task { await actions.onDisplay() }
        }

        init(
            viewModel: ViewModel = ViewModel(),
            screenshots: some AsyncSequence<Void, Never>,
            actions: ContentView.Actions? = nil
        ) {
            self.viewModel = viewModel
            self.actions = actions ?? Actions(for: viewModel, screenshots: screenshots)
        }

        struct Actions {
            // Actions the View takes in response to state changes or input. Pattern adapted from:
            // https://swiftbysundell.com/articles/dependency-injection-and-unit-testing-using-async-await/
            var onDisplay: () async -> Void
        }
    }
}

extension ScreenshotWatcher.ContentView.Actions {
    typealias AsyncFunction = () async -> Void

    // Default actions for production.
    // In this case, we define our default actions as static functions on the type because the
    // defaultOnDisplay action wishes to be able to call the defaultRespondToScreenshot action,
    // while that defaultRespondToScreenshot reuqires a reference to the ViewModel. In cases
    // where the functions are independent, simple closures could be passed to an init.
    static func defaultOnDisplay(
        screenshots: some AsyncSequence<Void, Never>,
        screenshotAction: @escaping AsyncFunction
    ) -> AsyncFunction {
        return {
            for await _ in screenshots {
                await screenshotAction()
            }
        }
    }

    static func defaultRespondToScreenshot(for viewModel: ScreenshotWatcher.ViewModel) -> AsyncFunction {
        return {
            await MainActor.run {
                viewModel.count += 1
            }
        }
    }

    init (for viewModel: ScreenshotWatcher.ViewModel, screenshots: some AsyncSequence<Void, Never>) {
        let respondToScreenshot = ScreenshotWatcher.ContentView.Actions.defaultRespondToScreenshot(for: viewModel)
        let onDisplay = ScreenshotWatcher.ContentView.Actions.defaultOnDisplay(
            screenshots: screenshots, screenshotAction: respondToScreenshot)
        self.onDisplay = onDisplay
    }
}

extension ScreenshotWatcher {
    @MainActor
    @Suite("The screenshot watcher's snippets")
    struct SnippetTests {
        @Test("The default onDisplay action calls the supplied screenshot action for a screenshot")
        func testB_defaultOnDisplayAction_callsSuppliedScreenshotAction_whenScreenshotNotificationPosted() async throws {
            let screenshots = EventSource<Void>(name: "screenshots")

            // Actions and expectation
            await confirmation("screenshotAction called.") { expectation in
                let fulfillExpectation = { expectation() }
                let actions = ContentView.Actions(
                    onDisplay: ContentView.Actions.defaultOnDisplay(
                        screenshots: screenshots, screenshotAction: fulfillExpectation)
                )

                // Initiate the process created by the onDisplay action
                let display = Task { await actions.onDisplay() }

                // Post the notification created when a screenshot occurs: returns once the
                // screenshot action has run for it.
                await screenshots.send(())

                display.cancel()
                await display.value
            }
        }

        @Test("Displayed with its default actions, the view counts each screenshot")
        func defaultActionsCountEachScreenshot() async {
            let screenshots = EventSource<Void>(name: "screenshots")
            let viewModel = ViewModel()
            let contentView = ContentView(viewModel: viewModel, screenshots: screenshots)
            #expect(viewModel.count == 0)

            let display = Task { await contentView.appear() }
            await screenshots.send(())
            #expect(viewModel.count == 1)
            await screenshots.send(())
            #expect(viewModel.count == 2)

            display.cancel()
            await display.value
            #expect(screenshots.subscriberCount == 0)
        }
    }
}
