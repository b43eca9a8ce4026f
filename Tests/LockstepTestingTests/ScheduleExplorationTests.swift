import Foundation
import CustomDump
import LockstepTesting
import Lockstep
import Testing

// exploreSchedules runs a test under many orders of its work and replays a failing one by its
// seed. The race it must find: two middlewares that each read a balance from an actor, dispatch
// an action, and write the balance back, so that one write can overwrite the other.

/// The player's coins, on an actor of their own.
actor Wallet {
    private var stored = 0
    /// Every read and write, in order: "read 0", "write 10".
    private(set) var history: [String] = []

    var balance: Int {
        history.append("read \(stored)")
        return stored
    }

    func setBalance(_ balance: Int) {
        history.append("write \(balance)")
        stored = balance
    }
}

struct WalletServices: Sendable {
    let wallet = Wallet()
}

struct WalletState: Equatable, Sendable {
    var log: [String] = []
}

enum WalletAction: Equatable, Sendable {
    case levelCompleted
    case rewardGranted(Int)
    case streakChecked
    case bonusChecked
    case bonusGranted(Int)
}

func walletReducer(_ state: inout WalletState, _ action: WalletAction) {
    state.log.append("\(action)")
}

/// Grants 10 coins for the level: reads the balance, announces the reward, writes the balance.
func rewardMiddleware(
    state: WalletState, action: WalletAction, services: WalletServices, dispatch: Dispatcher<WalletAction>
) async {
    guard action == .levelCompleted else { return }
    let balance = await services.wallet.balance
    await dispatch(.rewardGranted(10))
    await services.wallet.setBalance(balance + 10)
}

/// Grants a bonus of 5 coins once the streak and the level are checked: the same read, dispatch
/// and write, later.
func bonusMiddleware(
    state: WalletState, action: WalletAction, services: WalletServices, dispatch: Dispatcher<WalletAction>
) async {
    guard action == .levelCompleted else { return }
    await dispatch(.streakChecked)
    await dispatch(.bonusChecked)
    let balance = await services.wallet.balance
    await dispatch(.bonusGranted(5))
    await services.wallet.setBalance(balance + 5)
}

/// What one run of the race did: the actions in the order the store reduced them, and the
/// balance left in the wallet.
private struct RaceOutcome: Equatable {
    var log: [String]
    var history: [String]
    var balance: Int
}

/// Completes a level in a new test store and returns what happened; reports a failure through
/// IssueReporting, as a `TestStore` assertion does, when `checking` and the balance is not 15.
@MainActor
private func completeLevel(checking: Bool = true) async -> RaceOutcome {
    let services = WalletServices()
    let store = TestStore(
        state: WalletState(), reducer: walletReducer, services: services,
        middlewares: [rewardMiddleware, bonusMiddleware]
    )
    store.exhaustivity = .off
    await store.send(.levelCompleted)
    let balance = await services.wallet.balance
    if checking {
        expectNoDifference(balance, 15)
    }
    return RaceOutcome(log: store.state.log, history: await services.wallet.history, balance: balance)
}

/// The issues a block reported, collected from `withKnownIssue`'s matcher.
private final class ReportedIssues: Sendable {
    private let messages = Lock<[String]>([])

    var all: [String] {
        messages.withLock { $0 }
    }

    /// Records `issue` and matches it.
    func record(_ issue: Issue) -> Bool {
        messages.withLock { $0.append(issue.description) }
        return true
    }

    /// The run number and the seed of the "Schedule N of M failed (seed S)" issue.
    var failedSchedule: (run: Int, seed: UInt64)? {
        for message in all {
            guard let match = message.firstMatch(of: /Schedule (\d+) of \d+ failed \(seed (\d+)\)/) else { continue }
            return (Int(match.1)!, UInt64(match.2)!)
        }
        return nil
    }
}

@MainActor
@Suite("Exploring schedules")
struct ScheduleExplorationTests {
    /// Whether the build runs several middlewares with the task-group runner (the OS versions
    /// before 26, and a Linux build made with LOCKSTEP_TASK_GROUP_RUNNER): it makes other jobs
    /// than the chained runner, so a seed picks another schedule.
    nonisolated static var takesTaskGroupRunner: Bool {
        if ProcessInfo.processInfo.environment["LOCKSTEP_TASK_GROUP_RUNNER"] != nil { return true }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { return false }
        return true
    }

    /// The first failing run of `exploreSchedules(count: 100, seed: 4)` on the lost update, and
    /// its seed: the testing article's figures on the chained runner, others on the task-group one.
    static var pinnedFailure: (run: Int, seed: UInt64) {
        takesTaskGroupRunner ? (9, 885945833853205193) : (9, 705801848758385353)
    }

    @Test("On the default executor the race passes, with the same order on every run")
    func firstInFirstOutPassesTheSameWayEveryTime() async {
        var outcomes: [RaceOutcome] = []
        for _ in 0..<20 {
            outcomes.append(await completeLevel())
        }
        #expect(outcomes.allSatisfy { $0 == outcomes[0] })
        #expect(outcomes[0].balance == 15)
        #expect(outcomes[0].log.first == "levelCompleted")
        #expect(outcomes[0].log.count == 5)
        #expect(outcomes[0].history == ["read 0", "write 10", "read 10", "write 15", "read 15"])
    }

    @Test("The explorer finds the lost update within 100 schedules, and names its seed")
    func explorerFindsTheLostUpdate() async {
        let issues = ReportedIssues()
        await withKnownIssue {
            await exploreSchedules(count: 100, seed: 4) {
                let services = WalletServices()
                let store = TestStore(
                    state: WalletState(),
                    reducer: walletReducer,
                    services: services,
                    middlewares: [rewardMiddleware, bonusMiddleware]
                )
                store.exhaustivity = .off
                await store.send(.levelCompleted)
                let balance = await services.wallet.balance
                expectNoDifference(balance, 15)
            }
        } matching: { issue in
            issues.record(issue)
        }
        let failed = issues.failedSchedule
        #expect(failed != nil)
        // The run and the seed the testing article shows (on the chained runner).
        #expect(failed?.run == Self.pinnedFailure.run)
        #expect(failed?.seed == Self.pinnedFailure.seed)
        // The failing run's own failure (the difference), then the seed: nothing of the runs
        // that passed.
        #expect(issues.all.count == 2)
        #expect(issues.all.first?.contains("Difference") == true)
        #expect(issues.all.last?.contains("Replay it with `exploreSchedules(replaying: ") == true)
    }

    @Test(
        "The seed of the failing run the testing article shows replays the lost update",
        .enabled(if: !takesTaskGroupRunner, "the article's seed is the chained runner's"))
    func articleSeedReplaysTheLostUpdate() async {
        let issues = ReportedIssues()
        await withKnownIssue {
            await exploreSchedules(replaying: 705801848758385353) {
                let services = WalletServices()
                let store = TestStore(
                    state: WalletState(),
                    reducer: walletReducer,
                    services: services,
                    middlewares: [rewardMiddleware, bonusMiddleware]
                )
                store.exhaustivity = .off
                await store.send(.levelCompleted)
                let balance = await services.wallet.balance
                expectNoDifference(balance, 15)
            }
        } matching: { issue in
            issues.record(issue)
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.contains("− 10") == true)
        #expect(issues.all.first?.contains("+ 15") == true)
    }

    @Test(
        "On the task-group runner, the seed of its first failing run replays the lost update",
        .enabled(if: takesTaskGroupRunner, "the chained runner replays the article's seed above"))
    func taskGroupRunnerSeedReplaysTheLostUpdate() async {
        let issues = ReportedIssues()
        await withKnownIssue {
            await exploreSchedules(replaying: Self.pinnedFailure.seed) {
                _ = await completeLevel()
            }
        } matching: { issue in
            issues.record(issue)
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.contains("− 10") == true)
        #expect(issues.all.first?.contains("+ 15") == true)
    }

    @Test("From several starting seeds, the explorer finds the race, and its seed replays it every time", arguments: [0, 1, 2, 3, 4, 5, 6, 7] as [UInt64])
    func reportedSeedReplaysTheFailure(startingSeed: UInt64) async throws {
        let issues = ReportedIssues()
        await withKnownIssue {
            await exploreSchedules(count: 100, seed: startingSeed) {
                _ = await completeLevel()
            }
        } matching: { issue in
            issues.record(issue)
        }
        let failed = try #require(issues.failedSchedule)
        #expect(failed.run <= 100)

        // The replay reports the failure alone, with no seed: it is not an exploration.
        let replayIssues = ReportedIssues()
        await withKnownIssue {
            await exploreSchedules(replaying: failed.seed) {
                _ = await completeLevel()
            }
        } matching: { issue in
            replayIssues.record(issue)
        }
        #expect(replayIssues.all.count == 1)
        #expect(replayIssues.all.first?.contains("Difference") == true)

        // And it loses the same coins, in the same order of reads and writes, every time.
        var replays: [RaceOutcome] = []
        for _ in 0..<10 {
            await exploreSchedules(replaying: failed.seed) {
                replays.append(await completeLevel(checking: false))
            }
        }
        #expect(replays.count == 10)
        #expect(replays.allSatisfy { $0 == replays[0] })
        #expect(replays[0].balance != 15)
    }

    @Test("A run whose body throws fails, and names its seed")
    func thrownErrorEndsTheExploration() async {
        struct LostCoins: Error {}
        let issues = ReportedIssues()
        var runs = 0
        await withKnownIssue {
            await exploreSchedules(count: 100, seed: 4) {
                runs += 1
                let outcome = await completeLevel(checking: false)
                if outcome.balance != 15 {
                    throw LostCoins()
                }
            }
        } matching: { issue in
            issues.record(issue)
        }
        #expect(runs == Self.pinnedFailure.run)
        #expect(issues.all.count == 2)
        #expect(issues.all.first?.contains("Caught error: LostCoins()") == true)
        #expect(issues.failedSchedule?.seed == Self.pinnedFailure.seed)
    }

    @Test("An exploration whose runs all pass runs `count` schedules and reports nothing")
    func passingExplorationRunsEverySchedule() async {
        var runs = 0
        var balances: Set<Int> = []
        await exploreSchedules(count: 25) {
            runs += 1
            let services = WalletServices()
            let store = TestStore(
                state: WalletState(), reducer: walletReducer, services: services,
                middlewares: [rewardMiddleware]
            )
            store.exhaustivity = .off
            await store.send(.levelCompleted)
            balances.insert(await services.wallet.balance)
        }
        #expect(runs == 25)
        #expect(balances == [10])
    }

    @Test("The same seed gives the same order on every run, and other seeds other orders")
    func sameSeedSameOrder() async {
        var distinctHistories: Set<[String]> = []
        var balances: Set<Int> = []
        for seed: UInt64 in 0..<20 {
            var outcomes: [RaceOutcome] = []
            for _ in 0..<20 {
                await exploreSchedules(replaying: seed) {
                    outcomes.append(await completeLevel(checking: false))
                }
            }
            #expect(outcomes.count == 20)
            #expect(outcomes.allSatisfy { $0 == outcomes[0] }, "seed \(seed)")
            distinctHistories.insert(outcomes[0].history)
            balances.insert(outcomes[0].balance)
        }
        #expect(distinctHistories.count > 1)
        #expect(balances.count > 1)
    }
}

