import Foundation
@testable import Lockstep
import LockstepFixtures
import LockstepTesting
import Testing

@Suite("The middleware runner a build takes")
struct MiddlewareRunnerTests {
    @Test("A build made with LOCKSTEP_TASK_GROUP_RUNNER runs the task-group runner of the OS versions before 26, any other build on Linux the chained one")
    func buildTakesTheRunnerItWasMadeFor() async {
        // `.ci/run` builds and runs the suite once with the variable set and once without; the
        // variable reaches both the build (Package.swift) and this process.
        let forced = ProcessInfo.processInfo.environment["LOCKSTEP_TASK_GROUP_RUNNER"] != nil
        let order = await Self.orderOfTwoMiddlewaresAndAnEarlierJob()
        if forced {
            // A child task per middleware: both are enqueued after the job that was waiting.
            #expect(order == ["earlier job", "middleware 0", "middleware 1"])
        } else {
            // Immediate child tasks: middlewares that do not suspend run at once, in order,
            // before any job that was waiting for the executor.
            #expect(order == ["middleware 0", "middleware 1", "earlier job"])
        }
    }

    /// Runs two middlewares that do not suspend on the serial test executor (one job at a time,
    /// first in, first out), with a job already waiting for that executor, and returns the order
    /// in which the three ran. The order tells the runners apart: the chained one calls the
    /// middlewares before the caller's job ends, the task-group one enqueues them as new jobs.
    static func orderOfTwoMiddlewaresAndAnEarlierJob() async -> [String] {
        let order = Recorder<String>()
        let middlewares: [BoundMiddleware<Int, Int>] = (0..<2).map { index in
            { _, _, _ in order.append("middleware \(index)") }
        }
        let run = SideEffectRun(middlewares: middlewares, state: 0, action: 0, dispatcher: Dispatcher { _ in })
        await withTaskExecutorPreference(SerialTestExecutor.shared) {
            let earlier = Task(executorPreference: SerialTestExecutor.shared) {
                order.append("earlier job")
            }
            await run.runMiddlewares(isolation: nil)
            await earlier.value
        }
        return order.values
    }
}
