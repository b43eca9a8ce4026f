import Lockstep
@testable import LockstepTesting
import XCTest

/// Under XCTest, as under Swift Testing, the toolkit's waits find the monitor of the test's test
/// stores with no `withTrackedWork` around them. (XCTest on Linux has no expected failures, so
/// this checks the lookup itself; the waits that fail at once are tested under Swift Testing.)
final class XCTestWaitScopeTests: XCTestCase {
    @MainActor
    func testWaitsSeeTheStoresOfAnXCTestTest() async {
        XCTAssertNil(WorkTracking.current, "no store yet: a wait has nothing to decide with")
        let server = Gate(name: "server")
        let store = TestStore(
            state: 0,
            reducer: { (count: Int, _: Bool) in count + 1 },
            middlewares: [{ _, _, _ in await server.pass() }]
        )
        let load = await store.send(true) { $0 = 1 }
        let scope = WorkTracking.current as? WorkMonitor
        XCTAssertNotNil(scope)
        XCTAssertEqual(scope?.inFlight, ["send(true) parked on Gate 'server'"])
        await load.cancel()
    }
}
