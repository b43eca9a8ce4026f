import LockstepTesting
import Testing

@Suite("TrackedWork.waitUntilParked")
struct WaitUntilParkedTests {
    @Test("Returns once every piece of work started just now has parked or finished")
    func returnsOnceEveryPieceHasParked() async {
        let server = Gate(name: "server")
        let clock = ManualClock(name: "clock")
        await withTrackedWork { work in
            let uploads = (0..<50).map { index in
                work.start("upload \(index)") { await server.pass() }
            }
            let timer = work.start("a timer") { try await clock.sleep(for: .seconds(1)) }
            let quick = work.start("a quick task") { 42 }

            await work.waitUntilParked()

            // No wait on the gate or the clock: this one wait saw each piece stop.
            #expect(server.waitingCount == 50)
            #expect(clock.sleeperCount == 1)
            #expect(quick.isFinished)
            #expect(work.inFlight.count == 51)
            server.open()
            for upload in uploads {
                await upload.finish()
            }
            await clock.advance(by: .seconds(1))
            await timer.finish()
        }
    }

    @Test("Returns when nothing tracked runs, and again after released work parks anew")
    func returnsAgainAfterReleasedWorkParks() async {
        let first = Gate(name: "first")
        let second = Gate(name: "second")
        await withTrackedWork { work in
            await work.waitUntilParked()   // nothing started yet
            let request = work.start("the request") {
                await first.pass()
                await second.pass()
            }
            await work.waitUntilParked()
            #expect(first.waitingCount == 1)
            first.open()
            // Released, the request counts as running until it parks at the second gate.
            await work.waitUntilParked()
            #expect(second.waitingCount == 1)
            #expect(work.inFlight == ["the request parked on Gate 'second'"])
            second.open()
            await request.finish()
        }
    }

    @Test("Called from tracked work, it does not count its caller")
    func doesNotCountItsCaller() async throws {
        let server = Gate(name: "server")
        try await withTrackedWork { work in
            work.start("the request") { await server.pass() }
            let checker = work.start("the checker") {
                await work.waitUntilParked()
                return server.waitingCount
            }
            let waiting = try await checker.value()
            #expect(waiting == 1)
            server.open()
        }
    }

    @Test("Returns early when the calling task is cancelled, while work still runs")
    func returnsEarlyWhenCancelled() async {
        // Work waiting on a stream counts as running: the toolkit cannot see what would end it.
        let (events, continuation) = AsyncStream<Int>.makeStream()
        await withTrackedWork { work in
            let reader = work.start("the reader") {
                for await _ in events {}
            }
            let waiter = Task { await work.waitUntilParked() }
            waiter.cancel()
            await waiter.value
            #expect(!reader.isFinished)
            continuation.finish()
            await reader.finish()
        }
    }
}
