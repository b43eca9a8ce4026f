import ArgumentParser
import ExampleSupport
import Foundation
import ScreenshotWatcher

@main
struct ScreenshotWatcherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot-watcher",
        abstract: "A view model driven by an async sequence: counts SIGUSR1 \"screenshots\" until SIGINT.",
        discussion: """
            The count is of deliveries, not of signals sent: the system merges a SIGUSR1 sent \
            while another is still pending, so a burst of signals may count fewer screenshots \
            than were sent (at least one). Signals sent one at a time, each after the last \
            count is shown, are all counted.
            """
    )

    @MainActor
    func run() async throws {
        reportBrokenPipes()
        let pid = getpid()
        let (listening, nowListening) = AsyncStream.makeStream(of: Void.self)
        let screenshots = SignalEvents(SIGUSR1, onListening: { nowListening.yield() })
        let interrupts = SignalEvents(SIGINT, onListening: { nowListening.yield() })

        let viewModel = ScreenshotViewModel()
        let screen = TerminalScreen(write: writeLine)
        let contentView = ContentView(
            viewModel: viewModel,
            actions: ContentView.Actions(for: viewModel, screenshots: screenshots) {
                await MainActor.run { screen.show("\(viewModel.count) screenshots have been taken") }
            }
        )

        var interrupt = interrupts.makeAsyncIterator()
        let shown = screen.present(contentView)

        // Announce the pid only once both signals are listened to, so none sent after it is lost.
        var listeners = 0
        for await _ in listening {
            listeners += 1
            if listeners == 2 { break }
        }
        writeLine("screenshot-watcher pid \(pid): send SIGUSR1 (kill -USR1 \(pid)) to take a screenshot, SIGINT to stop")

        _ = await interrupt.next()
        shown.cancel()
        await shown.value
        writeLine("stopped after \(viewModel.count) screenshots")
    }
}

/// Writes `line` to standard output at once, so a reader on a pipe sees it without delay; when
/// standard output cannot take it, says so on standard error and exits with status 1.
func writeLine(_ line: String) {
    printLineOrExit(line)
}
