@testable import LockstepFixtures
import LockstepTesting
import Testing

// The testing article's section "Test stores made in a helper": a helper that makes the test
// store for many tests takes the caller's location and hands it to the test store, so that what
// is left over at the end of a test is reported at the test's line, not the helper's.

@MainActor
func makeCounterStore(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> TestStore<Counter, CounterAction> {
    TestStore(
        state: Counter(),
        reducer: counterReducer,
        middlewares: [countdownMiddleware],
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

@MainActor
@Suite("Test stores made in a helper")
struct TestStoreHelperTests {
    @Test("An action left unreceived is reported at the test's call of the helper")
    func endOfTestFailureIsReportedAtTheTestsLine() async {
        let callLine = #line + 6  // the line of `makeCounterStore()` below
        await withKnownIssue {
            // The store is released at the end of this block, inside `withKnownIssue`: that is
            // when it reports what is left over.
            do {
                // `.countdown(1)` makes the middleware send `.countdown(0)`, never received.
                let store = makeCounterStore()
                await store.send(.countdown(1)) { $0.log = [1] }
            }
        } matching: { issue in
            issue.description.contains("1 received action(s) not asserted")
                && issue.sourceLocation?.fileID == #fileID
                && issue.sourceLocation?.line == callLine
        }
    }

    @Test("A test that receives everything reports nothing")
    func aCompleteTestReportsNothing() async {
        let store = makeCounterStore()
        await store.send(.countdown(1)) { $0.log = [1] }
        await store.receive(.countdown(0)) { $0.log = [1, 0] }
    }
}
