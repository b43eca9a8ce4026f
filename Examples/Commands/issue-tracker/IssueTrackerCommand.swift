import ArgumentParser
import ExampleSupport
import IssueTracker
import Lockstep
import LockstepQuery

@main
struct IssueTrackerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issue-tracker",
        abstract: "An issue tracker on a fake in-memory server: a paged list, a search, an issue's comments, stars.")

    @Option(help: "Search the titles, as typed: the search starts once typing stops for 300 ms.")
    var search: String?
    @Option(help: "How many pages of the list to load.")
    var pages = 1
    @Option(help: "Make the server fail this many calls first, as a flaky network would: the list retries, and says so.")
    var failures = 0
    @Option(help: "Star the issue with this number (or take its star back).")
    var star: Int?
    @Option(help: "Open the issue with this number and show its comments.")
    var open: Int?
    @Option(help: "With --open, post this comment.")
    var comment: String?

    func validate() throws {
        guard pages >= 1 else { throw ValidationError("--pages takes 1 or more") }
        guard failures >= 0 else { throw ValidationError("--failures takes 0 or more") }
        guard comment == nil || open != nil else { throw ValidationError("--comment needs --open") }
    }

    @MainActor
    func run() async throws {
        reportBrokenPipes()
        let api = FakeIssueAPI()
        api.failNext(failures)
        let services = IssueTrackerServices(
            api: api,
            // Three retries, one second after the first failure, then two, then four.
            queries: OperationClient(storeCreator: .default(networkObserver: nil, focusCondition: nil)),
            clock: ContinuousClock())
        let store = makeIssueTrackerStore(services: services)
        let list = IssueListModel(store: store.scope(state: \.list, action: IssueTrackerAction.list))

        // The list follows its query while it is shown: until the end of the run.
        let shown = store.send(.list(search.map(IssueListAction.searchChanged) ?? .task))
        defer { shown.cancel() }
        try await until(store, printing: list) { $0.list.feed.status == .success || $0.list.feed.status == .failure }
        for _ in 1..<pages where store.state.list.feed.hasNextPage {
            let count = store.state.list.feed.issues.count
            await store.dispatch(.list(.loadNextPage))
            try await until(store, printing: list) { $0.list.feed.issues.count > count || $0.list.feed.status == .failure }
        }
        if let star {
            await store.dispatch(.list(.starTapped(id: star)))
        }
        for line in list.lines { try printLine(line) }
        if store.state.list.feed.error != nil { throw ExitCode.failure }

        guard let open else { return }
        await store.dispatch(.openIssue(id: open))
        guard let detailStore = store.scope(state: \.detail, action: IssueTrackerAction.detail) else {
            throw Failure(APIError.unknownIssue(open).description)
        }
        let detail = IssueDetailModel(store: detailStore)
        let comments = store.send(.detail(.task))
        try await until(store, printing: list) { [.success, .failure].contains($0.detail?.commentsStatus) }
        if let comment {
            await store.dispatch(.detail(.draftChanged(comment)))
            await store.dispatch(.detail(.submitTapped))
        }
        try printLine("")
        for line in detail.lines { try printLine(line) }
        // Dismissing the issue ends its comments' bridge.
        await store.dispatch(.dismissIssue)
        await comments.value
    }

    /// Returns once the app's state satisfies `isDone`, printing each wait for a retry that the
    /// list shows meanwhile ("Retrying in 1 s…").
    @MainActor
    private func until(
        _ store: Store<IssueTrackerState, IssueTrackerAction>,
        printing list: IssueListModel,
        _ isDone: (IssueTrackerState) -> Bool
    ) async throws {
        var printed: String?
        for await state in store.select(\.self) {
            if state.list.feed.retry?.isWaiting == true, let line = list.retryLine, line != printed {
                try printLine(line)
                printed = line
            }
            if isDone(state) { return }
        }
    }
}
