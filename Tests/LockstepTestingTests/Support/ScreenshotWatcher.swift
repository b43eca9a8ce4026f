import LockstepTesting
import Observation

// Seed 004's screenshot watcher on Linux: the notification stream is an injected
// `AsyncSequence` (an event source in tests, a signal in the example app), and a terminal screen
// stands in for SwiftUI's `.task` modifier.

@MainActor
@Observable
final class ScreenshotViewModel {
    var count = 0
}

struct ContentView: Sendable {
    let viewModel: ScreenshotViewModel
    let actions: Actions

    init(viewModel: ScreenshotViewModel, actions: ContentView.Actions) {
        self.viewModel = viewModel
        self.actions = actions
    }

    /// What the screen shows.
    @MainActor
    var body: String {
        "\(viewModel.count) screenshots have been taken"
    }

    struct Actions: Sendable {
        // Actions the view takes in response to state changes or input.
        var onDisplay: @Sendable () async -> Void
    }
}

extension ContentView.Actions {
    typealias AsyncFunction = @Sendable () async -> Void

    /// Runs `screenshotAction` for every screenshot, for as long as the screen is shown.
    static func defaultOnDisplay<Screenshots: AsyncSequence & Sendable>(
        screenshots: Screenshots,
        screenshotAction: @escaping AsyncFunction
    ) -> AsyncFunction where Screenshots.Failure == Never {
        {
            for await _ in screenshots {
                await screenshotAction()
            }
        }
    }

    static func defaultRespondToScreenshot(for viewModel: ScreenshotViewModel) -> AsyncFunction {
        {
            await MainActor.run {
                viewModel.count += 1
            }
        }
    }

    init<Screenshots: AsyncSequence & Sendable>(for viewModel: ScreenshotViewModel, screenshots: Screenshots)
    where Screenshots.Failure == Never {
        let respondToScreenshot = Self.defaultRespondToScreenshot(for: viewModel)
        self.onDisplay = Self.defaultOnDisplay(screenshots: screenshots, screenshotAction: respondToScreenshot)
    }
}

/// A terminal screen: shows a view's text and runs its `onDisplay` action while it is shown,
/// as SwiftUI's `.task { await actions.onDisplay() }` does.
@MainActor
final class TerminalScreen {
    private(set) var lines: [String] = []

    /// Shows `view`; the returned task runs its `onDisplay` action and is cancelled to dismiss it.
    func display(_ view: ContentView) -> Task<Void, Never> {
        lines.append(view.body)
        let actions = view.actions
        return Task {
            await actions.onDisplay()
        }
    }
}
