import Foundation
@testable import Lockstep
import Testing

@Suite("The middleware runner a build takes")
struct MiddlewareRunnerTests {
    @Test("A build made with LOCKSTEP_TASK_GROUP_RUNNER runs the task-group runner of the OS versions before 26, any other build on Linux the chained one")
    func buildTakesTheRunnerItWasMadeFor() {
        // `.ci/run` builds and runs the suite once with the variable set and once without; the
        // variable reaches both the build (Package.swift) and this process.
        let forced = ProcessInfo.processInfo.environment["LOCKSTEP_TASK_GROUP_RUNNER"] != nil
        #expect(SideEffectRun<Int, Int>.concurrentRunner == (forced ? .taskGroup : .chained))
    }
}
