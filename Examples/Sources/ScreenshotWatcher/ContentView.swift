import Observation

// A screenshot watcher on Linux: the screenshot notifications are an injected `AsyncSequence`
// (an event source in tests, SIGUSR1 in the app), and a terminal screen stands in for SwiftUI's
// `.task { await actions.onDisplay() }`.

/// The view model: how many screenshots have been taken.
@MainActor
@Observable
public final class ScreenshotViewModel {
    public var count = 0

    public init() {}
}

/// The screen, as a SwiftUI `ContentView` would be: its text, and the actions it takes, injected.
public struct ContentView: Sendable {
    public let viewModel: ScreenshotViewModel
    public let actions: Actions

    public init(viewModel: ScreenshotViewModel, actions: ContentView.Actions) {
        self.viewModel = viewModel
        self.actions = actions
    }

    /// What the screen shows.
    @MainActor
    public var body: String {
        "\(viewModel.count) screenshots have been taken"
    }

    public struct Actions: Sendable {
        // Actions the view takes in response to state changes or input.
        public var onDisplay: @Sendable () async -> Void

        public init(onDisplay: @escaping @Sendable () async -> Void) {
            self.onDisplay = onDisplay
        }
    }
}

extension ContentView.Actions {
    public typealias AsyncFunction = @Sendable () async -> Void

    /// Runs `screenshotAction` for every screenshot, for as long as the screen is shown.
    public static func defaultOnDisplay<Screenshots: AsyncSequence & Sendable>(
        screenshots: Screenshots,
        screenshotAction: @escaping AsyncFunction
    ) -> AsyncFunction where Screenshots.Failure == Never {
        {
            for await _ in screenshots {
                await screenshotAction()
            }
        }
    }

    /// Counts one screenshot.
    public static func defaultRespondToScreenshot(for viewModel: ScreenshotViewModel) -> AsyncFunction {
        {
            await MainActor.run {
                viewModel.count += 1
            }
        }
    }

    /// The production actions: count each of `screenshots`, then run `afterScreenshot` (the app
    /// shows the new count there).
    public init<Screenshots: AsyncSequence & Sendable>(
        for viewModel: ScreenshotViewModel,
        screenshots: Screenshots,
        afterScreenshot: @escaping AsyncFunction = {}
    ) where Screenshots.Failure == Never {
        let respondToScreenshot = Self.defaultRespondToScreenshot(for: viewModel)
        self.onDisplay = Self.defaultOnDisplay(screenshots: screenshots) {
            await respondToScreenshot()
            await afterScreenshot()
        }
    }
}

/// A terminal screen: shows a view's text and runs its `onDisplay` action while it is shown.
@MainActor
public final class TerminalScreen {
    /// Every line shown so far.
    public private(set) var lines: [String] = []
    private let write: @MainActor (String) -> Void

    /// A screen that passes each line it shows to `write` as well.
    public init(write: @escaping @MainActor (String) -> Void = { _ in }) {
        self.write = write
    }

    /// Shows `line`.
    public func show(_ line: String) {
        lines.append(line)
        write(line)
    }

    /// Displays `view` without showing its text; the returned task runs its `onDisplay`
    /// action and is cancelled to dismiss it.
    public func present(_ view: ContentView) -> Task<Void, Never> {
        let actions = view.actions
        return Task {
            await actions.onDisplay()
        }
    }

    /// Shows `view`'s text and displays it; the returned task runs its `onDisplay` action and
    /// is cancelled to dismiss it.
    public func display(_ view: ContentView) -> Task<Void, Never> {
        show(view.body)
        return present(view)
    }
}
