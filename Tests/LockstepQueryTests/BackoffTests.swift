import Lockstep
import LockstepQuery
import Testing

@Suite struct BackoffTests {
    @Test func indicesBelowOneGiveZeroWithoutCallingTheBody() {
        let backoff = OperationBackoffFunction(description: "custom") { index in
            Issue.record("The body was called with \(index)")
            return .seconds(1)
        }
        #expect(backoff(0) == .zero)
        #expect(backoff(-3) == .zero)
        #expect(backoff.description == "custom")
    }

    @Test func noBackoffIsAlwaysZero() {
        #expect([1, 2, 50, Int.max].map { OperationBackoffFunction.noBackoff($0) }
            == [.zero, .zero, .zero, .zero])
    }

    @Test func constantGivesTheSameDelayEveryTime() {
        let backoff = OperationBackoffFunction.constant(.milliseconds(300))
        #expect([1, 2, 10].map { backoff($0) } == Array(repeating: .milliseconds(300), count: 3))
        #expect(backoff(0) == .zero)
        #expect(backoff.description == "constant(0.3 seconds)")
    }

    @Test func linearGrowsByTheStepUpToTheMaximum() {
        let backoff = OperationBackoffFunction.linear(.seconds(2), maximum: .seconds(7))
        #expect([1, 2, 3, 4, 100].map { backoff($0) }
            == [.seconds(2), .seconds(4), .seconds(6), .seconds(7), .seconds(7)])
        #expect(backoff.description == "linear(2.0 seconds, maximum: 7.0 seconds)")
    }

    @Test func linearWithoutMaximumSaturatesInsteadOfOverflowing() {
        let backoff = OperationBackoffFunction.linear(.seconds(1))
        #expect(backoff(3) == .seconds(3))
        #expect(backoff(Int.max) == .seconds(1_000_000_000))
        let huge = OperationBackoffFunction.linear(.seconds(Int64.max))
        #expect(huge(Int.max) == .seconds(1_000_000_000))
    }

    @Test func exponentialMultipliesEachRetry() {
        let backoff = OperationBackoffFunction.exponential(.milliseconds(100))
        #expect([1, 2, 3, 4].map { backoff($0) }
            == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
        let tripling = OperationBackoffFunction.exponential(.seconds(1), multiplier: 3)
        #expect(tripling(3) == .seconds(9))
        let halving = OperationBackoffFunction.exponential(.seconds(8), multiplier: 0.5)
        #expect(halving(4) == .seconds(1))
        #expect(tripling.description == "exponential(1.0 seconds, multiplier: 3.0)")
    }

    @Test func exponentialStopsAtTheMaximum() {
        let backoff = OperationBackoffFunction.exponential(.seconds(1), maximum: .seconds(10))
        #expect([3, 4, 5, 64, Int.max].map { backoff($0) }
            == [.seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
    }

    @Test func exponentialSaturatesForHugeIndicesAndMultipliers() {
        let backoff = OperationBackoffFunction.exponential(.seconds(1))
        #expect(backoff(63) == .seconds(1_000_000_000))
        #expect(backoff(Int.max) == .seconds(1_000_000_000))
        let infinite = OperationBackoffFunction.exponential(.seconds(1), multiplier: .infinity)
        #expect(infinite(1) == .seconds(1))
        #expect(infinite(2) == .seconds(1_000_000_000))
        let zeroBase = OperationBackoffFunction.exponential(.zero, multiplier: .infinity)
        #expect(zeroBase(Int.max) == .zero)
    }

    @Test func jitterScalesByTheRandomOffset() {
        let base = OperationBackoffFunction.constant(.seconds(2))
        let ranges = RangeRecorder()
        let up = base.jittered(by: 0.5) { range in
            ranges.record(range)
            return 0.5
        }
        #expect(up(1) == .seconds(3))
        #expect(ranges.all == [-0.5...0.5])
        #expect(base.jittered(by: 0.5) { _ in -0.25 }(1) == .milliseconds(1500))
        #expect(base.jittered(by: 0.5) { _ in 0 }(1) == .seconds(2))
        #expect(up.description == "constant(2.0 seconds).jittered(by: 0.5)")
    }

    @Test func fullJitterDrawsFromZeroUpToTheDelay() {
        let ranges = RangeRecorder()
        let base = OperationBackoffFunction.constant(.seconds(4))
        let lowest = base.jittered { range in
            ranges.record(range)
            return range.lowerBound
        }
        #expect(lowest(1) == .zero)
        #expect(ranges.all == [0...1])
        #expect(base.jittered { $0.upperBound }(1) == .seconds(4))
        #expect(base.jittered { _ in 0.25 }(1) == .seconds(1))
        #expect(lowest.description == "constant(4.0 seconds).jittered()")
    }

    @Test func fullJitterClampsOutOfRangeRandomValues() {
        let base = OperationBackoffFunction.constant(.seconds(10))
        #expect(base.jittered { _ in 3 }(1) == .seconds(10))
        #expect(base.jittered { _ in -3 }(1) == .zero)
        #expect(base.jittered { _ in .nan }(1) == .seconds(10))
    }

    @Test func defaultFullJitterStaysWithinZeroAndTheDelay() {
        let backoff = OperationBackoffFunction.exponential(.seconds(1)).jittered()
        var sawLessThanHalf = false
        for index in 1...10 {
            for _ in 0..<50 {
                let delay = backoff(index)
                let ceiling = Duration.seconds(1 << (index - 1))
                #expect(delay >= .zero && delay <= ceiling)
                if delay < ceiling / 2 { sawLessThanHalf = true }
            }
        }
        // ±25% jitter never goes below 75%; full jitter does (500 draws all above half: 2^-500).
        #expect(sawLessThanHalf)
    }

    @Test func fibonacciBackoffAddsTheTwoPreviousDelays() {
        let backoff = OperationBackoffFunction.fibonacci(.seconds(1))
        #expect((0...8).map { backoff($0) } == [0, 1, 1, 2, 3, 5, 8, 13, 21].map { Duration.seconds($0) })
        #expect(OperationBackoffFunction.fibonacci(.seconds(1), maximum: .seconds(4))(6) == .seconds(4))
        #expect(backoff(Int.max) == .seconds(1_000_000_000))
        #expect(backoff.description == "fibonacci(1.0 seconds)")
    }

    @Test func aNegativeFibonacciBaseIsReportedAndTakenAsZero() {
        withKnownIssue {
            #expect(OperationBackoffFunction.fibonacci(.seconds(-1))(3) == .zero)
        } matching: { issue in
            issue.description.contains("fibonacci base")
        }
    }

    @Test func defaultJitterStaysWithinItsFraction() {
        let backoff = OperationBackoffFunction.constant(.seconds(100)).jittered(by: 0.1)
        for index in 1...200 {
            let delay = backoff(index)
            #expect(delay >= .seconds(90) && delay <= .seconds(110))
        }
    }

    @Test func jitterClampsOutOfRangeRandomValues() {
        let base = OperationBackoffFunction.constant(.seconds(10))
        #expect(base.jittered(by: 0.2) { _ in 5 }(1) == .seconds(12))
        #expect(base.jittered(by: 0.2) { _ in -5 }(1) == .seconds(8))
        #expect(base.jittered(by: 0.2) { _ in .nan }(1) == .seconds(10))
        #expect(base.jittered(by: 1) { _ in -1 }(1) == .zero)
    }

    @Test func jitterLeavesZeroDelaysAlone() {
        let backoff = OperationBackoffFunction.noBackoff.jittered { _ in
            Issue.record("random was called for a zero delay")
            return 0
        }
        #expect(backoff(1) == .zero)
    }

    @Test func negativeDurationsAreReportedAndClampedToZero() {
        withKnownIssue {
            #expect(OperationBackoffFunction.constant(.seconds(-1))(1) == .zero)
        }
        withKnownIssue {
            #expect(OperationBackoffFunction.linear(.seconds(-2))(3) == .zero)
        }
        withKnownIssue {
            #expect(OperationBackoffFunction.linear(.seconds(1), maximum: .seconds(-1))(3) == .zero)
        }
        withKnownIssue {
            #expect(OperationBackoffFunction.exponential(.seconds(-1))(2) == .zero)
        }
        withKnownIssue {
            let backoff = OperationBackoffFunction.exponential(.seconds(1), maximum: .seconds(-5))
            #expect(backoff(2) == .zero)
        }
    }

    @Test func badMultipliersAreReportedAndTreatedAsOne() {
        withKnownIssue {
            let backoff = OperationBackoffFunction.exponential(.seconds(2), multiplier: -3)
            #expect([1, 2, 5].map { backoff($0) } == [.seconds(2), .seconds(2), .seconds(2)])
        }
        withKnownIssue {
            let backoff = OperationBackoffFunction.exponential(.seconds(2), multiplier: .nan)
            #expect(backoff(4) == .seconds(2))
        }
    }

    @Test func badFractionsAreReportedAndClamped() {
        let base = OperationBackoffFunction.constant(.seconds(10))
        withKnownIssue {
            let backoff = base.jittered(by: -0.5) { _ in
                Issue.record("random was called with no jitter")
                return 0
            }
            #expect(backoff(1) == .seconds(10))
        }
        withKnownIssue {
            #expect(base.jittered(by: .nan) { _ in 0.5 }(1) == .seconds(10))
        }
        withKnownIssue {
            let ranges = RangeRecorder()
            let backoff = base.jittered(by: 3) { range in
                ranges.record(range)
                return range.upperBound
            }
            #expect(backoff(1) == .seconds(20))
            #expect(ranges.all == [-1...1])
        }
    }

    @Test func aNegativeDelayFromACustomBodyIsReportedAndClamped() {
        let backoff = OperationBackoffFunction(description: "broken") { _ in .seconds(-4) }
        withKnownIssue {
            #expect(backoff(1) == .zero)
        } matching: { issue in
            issue.description.contains("broken")
        }
    }

    @Test func validInputReportsNoIssue() {
        // Outside withKnownIssue, a reported issue would fail this test.
        let backoff = OperationBackoffFunction.exponential(.zero, multiplier: 0, maximum: .zero)
            .jittered(by: 0)
        #expect(backoff(3) == .zero)
        #expect(OperationBackoffFunction.linear(.zero)(5) == .zero)
        #expect(OperationBackoffFunction.constant(.zero).jittered(by: 1)(1) == .zero)
    }
}

/// Collects the ranges a jitter function asks its random source for.
private final class RangeRecorder: Sendable {
    private let ranges = Lock<[ClosedRange<Double>]>([])

    func record(_ range: ClosedRange<Double>) {
        ranges.withLock { $0.append(range) }
    }

    var all: [ClosedRange<Double>] {
        ranges.withLock { $0 }
    }
}
