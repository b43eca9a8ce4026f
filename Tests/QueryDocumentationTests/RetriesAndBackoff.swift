// The code of the article "Retries and backoff"
// (Sources/LockstepQuery/Documentation.docc/RetriesAndBackoff.md), which quotes it, run as tests.
import Clocks
import LockstepQuery
import Testing

@Suite("The retries-and-backoff article")
struct RetriesAndBackoffArticleTests {
    @Test("Full jitter draws each delay from zero up to the base delay")
    func fullJitter() {
        let backoff = OperationBackoffFunction.exponential(.seconds(1), maximum: .seconds(30)).jittered()
        let delay = backoff(3)  // from 0 to 4 seconds
        #expect(delay >= .zero && delay <= .seconds(4))
    }

    @Test("Jitter by a fraction keeps each delay close to the base delay")
    func jitterByAFraction() {
        let backoff = OperationBackoffFunction.constant(.seconds(4)).jittered(by: 0.25)
        let delay = backoff(1)  // from 3 to 5 seconds
        #expect(delay >= .seconds(3) && delay <= .seconds(5))
    }

    @Test("The query carries its retries, backoff and delayer to its store")
    func configuredForATestClock() {
        let clock = TestClock()
        let query = User.query(id: 42).retry(limit: 2).backoff(.constant(.seconds(10))).delayer(.clock(clock))

        // Waiting on the clock itself needs to know when a retry sleeps, which a TestClock does
        // not tell: the article "Testing" waits for retries on LockstepTesting's ManualClock.
        let store = OperationClient().store(for: query)
        #expect(store.context.retryLimit == 2)
        #expect(store.context.backoff(1) == .seconds(10))
    }
}
