import IssueReporting

/// Decides how long to wait before each retry of a failed operation.
///
/// Call the function with the retry's index: `1` is the delay before the first retry, `2` before
/// the second, and so on. An index below `1` gives `.zero`.
///
/// ```swift
/// let backoff = OperationBackoffFunction.exponential(.seconds(1), maximum: .seconds(30))
///   .jittered()
/// let delay = backoff(3)  // somewhere from 0 to 4 seconds
/// ```
///
/// Every delay is at least `.zero` and at most one billion seconds (about 31 years), so adding it
/// to a clock's instant can't overflow. A negative delay from a custom body is reported as an
/// issue and treated as `.zero`.
public struct OperationBackoffFunction: Sendable, CustomStringConvertible {
    /// A short text naming the function and its parameters, such as `constant(1.0 seconds)`.
    public var description: String

    private let body: @Sendable (_ retryIndex: Int) -> Duration

    /// Creates a backoff function from a closure that maps a retry's index to its delay.
    ///
    /// - Parameters:
    ///   - description: A short text naming the function, shown by ``description``.
    ///   - body: The delay before retry number `retryIndex`; called only with an index of `1`
    ///     or more.
    public init(
        description: String,
        _ body: @escaping @Sendable (_ retryIndex: Int) -> Duration
    ) {
        self.description = description
        self.body = body
    }

    /// The delay before retry number `retryIndex`, where `1` is the first retry.
    ///
    /// Returns `.zero` for an index below `1`.
    public func callAsFunction(_ retryIndex: Int) -> Duration {
        guard retryIndex >= 1 else { return .zero }
        let delay = body(retryIndex)
        if delay < .zero {
            reportIssue(
                "OperationBackoffFunction \(description) returned the negative delay \(delay) "
                    + "for retry \(retryIndex); using .zero."
            )
            return .zero
        }
        return min(delay, BackoffMath.ceiling)
    }

    /// Retries at once, every time.
    public static var noBackoff: Self {
        Self(description: "noBackoff") { _ in .zero }
    }

    /// Waits the same `delay` before every retry.
    ///
    /// A negative `delay` is reported as an issue and treated as `.zero`.
    public static func constant(_ delay: Duration) -> Self {
        let delay = BackoffMath.nonNegative(delay, name: "constant delay")
        return Self(description: "constant(\(delay))") { _ in delay }
    }

    /// Waits `step` before the first retry, twice `step` before the second, and so on, never more
    /// than `maximum`.
    ///
    /// A negative `step` or `maximum` is reported as an issue and treated as `.zero`.
    public static func linear(_ step: Duration, maximum: Duration? = nil) -> Self {
        let step = BackoffMath.nonNegative(step, name: "linear step")
        let maximum = maximum.map { BackoffMath.nonNegative($0, name: "linear maximum") }
        return Self(description: "linear(\(step)\(BackoffMath.describe(maximum)))") { retryIndex in
            let delay = BackoffMath.multiply(step, by: retryIndex)
            return maximum.map { min(delay, $0) } ?? delay
        }
    }

    /// Waits `base` before the first retry, and `multiplier` times longer before each retry after
    /// it, never more than `maximum`.
    ///
    /// The delay before retry `n` is `base * pow(multiplier, n - 1)`. Past the largest delay a
    /// backoff function gives, it stays there rather than overflowing. A negative `base` or
    /// `maximum` is reported as an issue and treated as `.zero`; a negative or NaN `multiplier` is
    /// reported and treated as `1`, so every retry waits `base`.
    public static func exponential(
        _ base: Duration,
        multiplier: Double = 2,
        maximum: Duration? = nil
    ) -> Self {
        let base = BackoffMath.nonNegative(base, name: "exponential base")
        let maximum = maximum.map { BackoffMath.nonNegative($0, name: "exponential maximum") }
        var multiplier = multiplier
        if multiplier.isNaN || multiplier < 0 {
            reportIssue(
                "OperationBackoffFunction.exponential: the multiplier \(multiplier) is negative "
                    + "or NaN; using 1."
            )
            multiplier = 1
        }
        let description =
            "exponential(\(base), multiplier: \(multiplier)\(BackoffMath.describe(maximum)))"
        return Self(description: description) { [multiplier] retryIndex in
            let factor = BackoffMath.power(multiplier, retryIndex - 1)
            let delay = BackoffMath.multiply(base, by: factor)
            return maximum.map { min(delay, $0) } ?? delay
        }
    }

    /// Waits `base` before the first and second retries, then the sum of the two waits before
    /// each next one (1, 1, 2, 3, 5, 8, ... times `base`), never more than `maximum`.
    ///
    /// Past the largest delay a backoff function gives, it stays there rather than overflowing. A
    /// negative `base` or `maximum` is reported as an issue and treated as `.zero`.
    ///
    /// ```swift
    /// let backoff = OperationBackoffFunction.fibonacci(.seconds(1))
    /// backoff(5)  // 5 seconds
    /// ```
    public static func fibonacci(_ base: Duration, maximum: Duration? = nil) -> Self {
        let base = BackoffMath.nonNegative(base, name: "fibonacci base")
        let maximum = maximum.map { BackoffMath.nonNegative($0, name: "fibonacci maximum") }
        return Self(description: "fibonacci(\(base)\(BackoffMath.describe(maximum)))") { retryIndex in
            let delay = BackoffMath.multiply(base, by: BackoffMath.fibonacci(retryIndex))
            return maximum.map { min(delay, $0) } ?? delay
        }
    }

    /// Replaces each delay by a random one from zero up to it ("full jitter"), so that many
    /// clients failing together spread their retries over the whole wait.
    ///
    /// Each delay becomes `delay * r`, where `r` comes from `random` called with `0...1`. A value
    /// from `random` outside that range is clamped into it, and NaN is treated as `1`.
    ///
    /// ```swift
    /// let backoff = OperationBackoffFunction.exponential(.seconds(1)).jittered()
    /// backoff(3)  // from 0 to 4 seconds
    /// ```
    ///
    /// - Parameter random: Picks a number in the range it's given; tests pass a fixed one.
    public func jittered(
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Self {
        let base = self
        return Self(description: "\(description).jittered()") { index in
            let delay = base(index)
            guard delay > .zero else { return delay }
            var factor = random(0...1)
            if factor.isNaN { factor = 1 }
            return BackoffMath.multiply(delay, by: Swift.min(Swift.max(factor, 0), 1))
        }
    }

    /// Spreads each delay randomly by up to `fraction` of it, in either direction ("proportional
    /// jitter"), keeping the delays close to the base function's. ``jittered(random:)`` spreads
    /// them further, from zero up to each delay.
    ///
    /// ```swift
    /// let backoff = OperationBackoffFunction.constant(.seconds(4)).jittered(by: 0.25)
    /// backoff(1)  // from 3 to 5 seconds
    /// ```
    ///
    /// Each delay becomes `delay * (1 + r)`, where `r` comes from `random` called with
    /// `-fraction...fraction`. A `fraction` outside `0...1` or NaN is reported as an issue and
    /// clamped into `0...1` (NaN becomes `0`, no jitter). A value from `random` outside the range
    /// is clamped into it, and NaN is treated as `0`. The result is never negative.
    ///
    /// - Parameters:
    ///   - fraction: How far, as a fraction of the delay, the delay may move either way.
    ///   - random: Picks a number in the range it's given; tests pass a fixed one.
    public func jittered(
        by fraction: Double,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Self {
        var fraction = fraction
        if fraction.isNaN || fraction < 0 || fraction > 1 {
            let clamped = fraction.isNaN ? 0 : Swift.min(Swift.max(fraction, 0), 1)
            reportIssue(
                "OperationBackoffFunction.jittered: the fraction \(fraction) is outside 0...1; "
                    + "using \(clamped)."
            )
            fraction = clamped
        }
        let base = self
        return Self(description: "\(description).jittered(by: \(fraction))") { [fraction] index in
            let delay = base(index)
            guard fraction > 0, delay > .zero else { return delay }
            var offset = random(-fraction...fraction)
            if offset.isNaN { offset = 0 }
            offset = Swift.min(Swift.max(offset, -fraction), fraction)
            return BackoffMath.multiply(delay, by: 1 + offset)
        }
    }
}

/// Saturating arithmetic on non-negative durations, for the backoff functions.
enum BackoffMath {
    /// The largest delay a backoff function gives: one billion seconds.
    static let ceiling = Duration.seconds(1_000_000_000)

    /// `duration` if it isn't negative; otherwise reports an issue and gives `.zero`.
    static func nonNegative(_ duration: Duration, name: String) -> Duration {
        guard duration < .zero else { return duration }
        reportIssue("OperationBackoffFunction: the \(name) \(duration) is negative; using .zero.")
        return .zero
    }

    static func describe(_ maximum: Duration?) -> String {
        maximum.map { ", maximum: \($0)" } ?? ""
    }

    /// `duration * factor`, capped at ``ceiling``, for a non-negative `duration` and `factor`.
    static func multiply(_ duration: Duration, by factor: Int) -> Duration {
        guard factor > 0 else { return .zero }
        let (product, overflow) = duration.attoseconds.multipliedReportingOverflow(
            by: Int128(factor)
        )
        guard !overflow else { return ceiling }
        return min(Duration(attoseconds: product), ceiling)
    }

    /// `duration * factor`, capped at ``ceiling``, for a non-negative `duration`. A negative or NaN
    /// `factor` gives `.zero`, an infinite one the ceiling.
    static func multiply(_ duration: Duration, by factor: Double) -> Duration {
        guard factor > 0, duration > .zero else { return .zero }
        // Whole factors multiply exactly, so `exponential(.seconds(1))` gives whole seconds.
        if factor < 0x1p62, factor == factor.rounded(.towardZero) {
            return multiply(duration, by: Int(factor))
        }
        let attoseconds = Double(duration.attoseconds) * factor
        guard attoseconds < Double(ceiling.attoseconds) else { return ceiling }
        return Duration(attoseconds: Int128(attoseconds))
    }

    /// The `index`th Fibonacci number (1, 1, 2, 3, 5, ... from index 1), saturating at `Int.max`;
    /// 0 for an index below 1.
    static func fibonacci(_ index: Int) -> Int {
        guard index >= 1 else { return 0 }
        var (previous, current) = (0, 1)
        for _ in 1..<index {
            let (next, overflow) = previous.addingReportingOverflow(current)
            if overflow { return Int.max }
            (previous, current) = (current, next)
        }
        return current
    }

    /// `pow(base, exponent)` for a non-negative `base` and `exponent`; may be infinite.
    static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var square = base
        var exponent = exponent
        // Squaring keeps it to about 64 steps; once the result is infinite or zero, it stays there.
        while exponent > 0 {
            if exponent & 1 == 1 { result *= square }
            exponent >>= 1
            if exponent > 0 { square *= square }
            if result.isInfinite || result == 0 { break }
        }
        return result
    }
}
