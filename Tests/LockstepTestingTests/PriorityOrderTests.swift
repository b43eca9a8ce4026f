import Dispatch
import IssueReporting
import Lockstep
@testable import LockstepTesting
import Testing

/// The explorer tells a task's jobs from a default actor's by the job's description, the only
/// public view of it: "UnownedJob(id: 3)" for a task, "UnownedJob(id: nil)" for an actor's turn.
/// These tests fail if a toolchain changes that shape.
@Suite("The explorer's view of jobs")
struct PriorityOrderTests {
    /// Runs its jobs on the main queue and records the task each one resumes, as the explorer
    /// sees it.
    final class RecordingExecutor: TaskExecutor {
        let tasks = Lock<[UInt?]>([])

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            tasks.withLock { $0.append(PriorityOrder.task(of: job)) }
            DispatchQueue.main.async {
                job.runSynchronously(on: self.asUnownedTaskExecutor())
            }
        }
    }

    actor Box {
        var value = 0
        func bump() { value += 1 }
    }

    @Test("A task's jobs name one id each time it is enqueued, an actor's turn names none, and each task an id of its own")
    func jobsNameTheirTask() async {
        let executor = RecordingExecutor()
        let box = Box()
        await withTaskExecutorPreference(executor) {
            await withDiscardingTaskGroup { group in
                for _ in 0..<2 {
                    group.addTask {
                        await box.bump()
                        await box.bump()
                    }
                }
            }
        }
        let seen = executor.tasks.withLock { $0 }
        let ids = seen.compactMap { $0 }
        #expect(await box.value == 4)
        // The two children, and the test's own task, which resumes on the executor it prefers.
        #expect(Set(ids).count == 3)
        #expect(ids.count > 2, "each task was enqueued again after its actor calls")
        #expect(seen.contains(nil), "a default actor's turn is a job of no task")
    }

    @Test("A seed carries the shape of the run it was drawn for, and replays the same change points")
    func seedCarriesTheRunShape() {
        let seed = PriorityOrder.seed(0xDEAD_BEEF, length: 40, tasks: 6)
        #expect(seed & 0x0000_FFFF_FFFF_FFFF == 0xDEAD_BEEF)
        #expect(PriorityOrder(seed: seed).changePoints == PriorityOrder(seed: seed).changePoints)
        // Past their fields, the length and the tasks are clamped.
        let clamped = PriorityOrder.seed(1, length: 5_000, tasks: 500)
        #expect(clamped >> 48 == 0xFFFF)
    }
}

/// Collects the warnings reported while it is current, and passes nothing on.
final class WarningCollector: IssueReporter {
    let warnings = Lock<[String]>([])

    func reportIssue(
        _ message: @autoclosure () -> String?, severity: IssueSeverity,
        fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {
        if severity == .warning {
            let message = message() ?? ""
            warnings.withLock { $0.append(message) }
        }
    }

    func reportIssue(
        _ error: any Error, _ message: @autoclosure () -> String?,
        fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {}
}

@MainActor
@Suite("Exploring schedules: work made ready off the main queue")
struct OffMainExplorationTests {
    /// A middleware whose work resumes from a Dispatch queue of its own when `offMain`.
    static func middleware(offMain: Bool) -> Lockstep.Middleware<Int, Int, Void> {
        { _, _, _, _ in
            guard offMain else { return }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume() }
            }
        }
    }

    @Test("A job made ready off the main queue during an exploration is reported once, as a warning naming the seed", arguments: [false, true])
    func offMainJobsAreReported(offMain: Bool) async {
        let collector = WarningCollector()
        var runs = 0
        await withIssueReporters([collector]) {
            await exploreSchedules(count: 5) {
                runs += 1
                let store = TestStore(state: 0, reducer: { $0 += $1 }, services: (), middlewares: [Self.middleware(offMain: offMain)])
                store.exhaustivity = .off
                await store.send(1)
            }
        }
        let warnings = collector.warnings.withLock { $0 }
        #expect(runs == 5)
        if offMain {
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("made ready off the main queue in the schedule of seed") == true)
        } else {
            #expect(warnings.isEmpty)
        }
    }
}

@MainActor
@Suite("Exploring schedules: test stores that outlive their run")
struct OutlivingStoreExplorationTests {
    /// Holds the test stores the body keeps past its run.
    final class Kept {
        var stores: [TestStore<Int, Int>] = []
    }

    @Test("A test store kept past its run reports its unasserted actions against that run, which fails and names its seed")
    func keptStoreFailsItsRun() async {
        let kept = Kept()
        var runs = 0
        let recorded = Lock<[String]>([])
        await withKnownIssue {
            await exploreSchedules(count: 5) {
                runs += 1
                let store = TestStore(state: 0, reducer: { $0 += $1 }, services: (), middlewares: [
                    { _, action, _, dispatch in
                        if action == 1 { await dispatch(2) }
                    },
                ])
                kept.stores.append(store)
                await store.send(1) { $0 = 1 }
                // The received `2` is never asserted: the store reports it at its end.
            }
        } matching: { issue in
            recorded.withLock { $0.append(issue.description) }
            return true
        }
        let issues = recorded.withLock { $0 }
        #expect(runs == 1)
        #expect(issues.count == 2)
        #expect(issues.first?.contains("received action(s) not asserted") == true)
        #expect(issues.last?.contains("Schedule 1 of 5 failed") == true)
        // Released now, outside any known-issue block: a second report would fail this test.
        kept.stores.removeAll()
    }
}
